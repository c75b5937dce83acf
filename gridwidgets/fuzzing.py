"""Fuzzing and stress checks of any registered game: input from outside,
of any shape and size, never loses a game.

What comes from outside a game object is tried the way an attacker, a
careless user and a busy classroom would:

- :func:`fuzz_messages`: messages a browser page could send to the widget
  (any JSON, any size; forged players, versions, agent seats; trait updates,
  also of what only Python writes). Each is refused with the game unchanged
  and a short status, or applied completely.
- :func:`fuzz_files`: save files corrupted at the JSON and at the text level.
  Each is refused with ``ValueError`` or loads as a game that could have been
  played (it saves and reloads to an equal game).
- :func:`fuzz_positions`: position texts (``g.position()``) mutated: cut
  short, fields swapped, dropped or doubled, Unicode digits (superscripts,
  Arabic-Indic, fullwidth), numbers of 20,000 digits, 1 MB strings, and
  values that are not text. Each is refused with a one-line ``ValueError``
  naming the rule and quoting at most a few dozen characters, or reads as a
  game whose position reads back equal.
- :func:`fuzz_moves`: move objects built by hand (fields of any type and
  range, other games' moves, forged joint actions, objects whose ``repr``
  raises) given to ``play``, ``is_legal``, ``legal_moves`` and ``goto``. Each
  is refused with :class:`~gridwidgets.core.IllegalMoveError`, state
  unchanged, or is a legal move.
- :func:`stress_threads`: one game driven at once from code, two widget
  pages, an agent and the hint worker, while a reader checks every state it
  sees against the positions the game went through.

The generators are hypothesis strategies (:func:`message_strategy`,
:func:`save_file_strategy`, :func:`position_strategy`, :func:`move_strategy`), run by the ``fuzz_*``
functions with a fixed seed and counted into a :class:`FuzzReport`; the
project's tests run them for every registered game and
``benchmarks/hardening.py`` prints the figures. ``hypothesis`` is a
development dependency (``pip install "gridwidgets[dev]"``).
"""

from __future__ import annotations

import copy as _copy
import dataclasses
import functools
import json
import random
import re
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .core.errors import IllegalMoveError
from .core.game import Game
from .core.moves import Hidden, JointMove
from .core.notation import cell_name

__all__ = [
    "FuzzReport",
    "fuzz_files",
    "fuzz_messages",
    "fuzz_moves",
    "fuzz_positions",
    "message_strategy",
    "move_strategy",
    "position_strategy",
    "sample_positions",
    "save_file_strategy",
    "state_fingerprint",
    "state_update_strategy",
    "stress_threads",
]

#: the longest status text a refusal may show (it quotes at most a few dozen characters of input)
MAX_STATUS = 400
#: the most consecutive characters of an input a status may repeat
MAX_ECHO = 60
#: failures kept in a report (the counts go on)
_KEEP = 8


def state_fingerprint(g: Game) -> tuple[Any, ...]:
    """Everything a state change would touch: the save file, the position,
    hidden submissions (for checks that an action left a game unchanged)."""
    with g.lock:
        return (g.to_json(), g.current_player, g.version, tuple(g.pending),
                tuple(str(m) for m in g._pending.values()), g.step_count, len(g.future), str(g))


@dataclass
class FuzzReport:
    """What a fuzz or stress run tried and what came of it.

    Attributes:
        game: the game's short name.
        target: ``"messages"``, ``"files"``, ``"moves"`` or ``"threads"``.
        tried: inputs tried (operations, for threads).
        accepted: inputs applied (files loaded).
        refused: inputs refused the promised way.
        escaped: inputs that raised another exception than the promised one.
        internal: widget messages answered with an "Internal error" status.
        changed: refusals after which the game was not the same.
        lost: accepted inputs after which the game no longer saves and reloads
            to an equal game, or that played an agent's seat, or a legal-looking
            move that was not legal; for threads, the states seen that match no
            position the game went through, and a final game that does not replay.
        slowest_ms: the slowest refusal, milliseconds.
        slowest_input: that input, shortened.
        extra: figures particular to the target (``hint_threads``: the most hint
            workers of one widget alive at once).
        failures: the first few failures, each with the input shortened.
    """

    game: str
    target: str
    tried: int = 0
    accepted: int = 0
    refused: int = 0
    escaped: int = 0
    internal: int = 0
    changed: int = 0
    lost: int = 0
    slowest_ms: float = 0.0
    slowest_input: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing escaped, nothing broke and nothing was lost."""
        return not (self.escaped or self.internal or self.changed or self.lost)

    def fail(self, kind: str, what: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.failures) < _KEEP:
            self.failures.append(f"{kind}: {what}")

    def timed(self, ms: float, given: Any) -> None:
        """Count a refusal that took ``ms`` milliseconds."""
        if ms > self.slowest_ms:
            self.slowest_ms = ms
            self.slowest_input = short_repr(given)

    def row(self) -> dict[str, Any]:
        """The counts as a flat dict (a table row)."""
        out = {k: getattr(self, k) for k in ("game", "target", "tried", "accepted", "refused", "escaped",
                                              "internal", "changed", "lost")}
        out["slowest_ms"] = round(self.slowest_ms, 1)
        out.update(self.extra)
        return out

    def __str__(self) -> str:
        head = ", ".join(f"{k} {v}" for k, v in self.row().items() if k not in ("game", "target"))
        tail = "".join(f"\n  {f}" for f in self.failures)
        return f"{self.game} {self.target}: {head}{tail}"


def strategies() -> Any:
    """The hypothesis strategies module (imported when first needed: hypothesis is a dev dependency)."""
    try:
        from hypothesis import strategies
    except ImportError as exc:  # pragma: no cover - hypothesis is a dev dependency
        raise ImportError('gridwidgets.fuzzing needs hypothesis: pip install "gridwidgets[dev]"') from exc
    return strategies


def short_repr(value: Any) -> str:
    from .core.errors import shorten

    return shorten(value, 60)


# ----------------------------------------------------------------------
# Positions
# ----------------------------------------------------------------------
def _random_step(g: Game, rng: random.Random) -> None:
    """One random move, or one submission at a simultaneous node."""
    if g.is_simultaneous_node():
        p = rng.choice([q for q in g.players_to_move if q not in g.pending])
        g.play(rng.choice(g.legal_moves(p)), p)
    else:
        g.play(rng.choice(g.legal_moves()))


def sample_positions(cls: type[Game], n: int = 8, seed: int = 0, **options: Any) -> list[Game]:
    """``n`` varied positions of seeded random games: the start, the middle,
    the end, after undo (with moves to redo) and, in a game with simultaneous
    moves, with a hidden submission in."""
    rng = random.Random(f"positions|{seed}")
    out = []
    for k in range(n):
        g = cls.new_for_seed(options, rng.randrange(2**31))
        depth = (0, 1, 3, 10_000, 6, 15, 2, 40)[k % 8]
        for _ in range(depth):
            if g.is_over:
                break
            _random_step(g, rng)
        for _ in range(rng.choice((0, 0, 1, 3))):
            if g.steps or g.pending:
                g.undo()
        out.append(g)
    return out


def _reloads(g: Game) -> str | None:
    """Why ``g`` does not save and reload to an equal game (``None``: it does)."""
    try:
        text = g.to_json()
        back = type(g).from_json(text)
        again = Game.from_json(text)
    except Exception as exc:
        return f"its save does not load: {type(exc).__name__}: {short_repr(str(exc))}"
    if back != g or again != g or back.to_json() != text:
        return "its save loads as a different game"
    return None


# ----------------------------------------------------------------------
# Strategies
# ----------------------------------------------------------------------
ODD_CHARS = (" ", "1", "9", "a", "A", "|", ",", "(", "-", "+", "\x00", "é", "🙂", "\\", '"', "[")


@functools.cache
def long_text() -> Any:
    st = strategies()
    return st.builds(lambda ch, n: ch * n, st.sampled_from(ODD_CHARS), st.sampled_from((61, 1_000, 20_000, 1_000_000)))


def deep_value(depth: int, kind: str) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value] if kind == "list" else {"a": value}
    return value


@functools.cache
def json_values() -> Any:
    st = strategies()
    leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12))
    return st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                        max_leaves=12)


@functools.cache
def weird_values() -> Any:
    """Values of any type and size that are rarely what was meant."""
    st = strategies()
    return st.one_of(
        st.none(), st.booleans(), st.integers(-3, 40), st.integers(), st.integers(min_value=2**63),
        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=16), long_text(),
        st.lists(st.integers(-2, 30), max_size=4), st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
        st.builds(deep_value, st.integers(2, 3_000), st.sampled_from(("list", "dict"))), json_values(),
    )


def mutated_text(texts: list[str]) -> Any:
    """Notation near the given texts: a character inserted, dropped, replaced or
    doubled, the case changed, spaces added, two texts run together."""
    st = strategies()

    @st.composite
    def mutate(draw: Any) -> str:
        text = draw(st.sampled_from(texts))
        op = draw(st.sampled_from(("insert", "drop", "replace", "case", "spaces", "join", "repeat")))
        i = draw(st.integers(0, len(text)))
        ch = draw(st.sampled_from(ODD_CHARS + tuple("0BZz5|:;?")))
        if op == "insert":
            return text[:i] + ch + text[i:]
        if op == "drop":
            return text[:i] + text[i + 1:]
        if op == "replace":
            return text[:i] + ch + text[i + 1:]
        if op == "case":
            return text.swapcase()
        if op == "spaces":
            return " " * draw(st.integers(1, 40)) + text + " " * draw(st.integers(0, 3))
        if op == "join":
            return text + draw(st.sampled_from(("", " ", "|", "+", " + "))) + draw(st.sampled_from(texts))
        return text * draw(st.integers(2, 2_000))

    return mutate()


def notations_of(g: Game) -> list[str]:
    """Notation to start from: every legal move of everyone to act, played
    and undone moves, and the board's corner cells."""
    texts = {str(m) for p in range(len(g.players)) for m in g.legal_moves(p)}
    texts |= {str(m) for m in g.history[-6:]} | {str(m) for m in g.future[-3:]}
    texts |= {cell_name((0, 0)), cell_name((g.rows - 1, g.cols - 1)), cell_name((g.rows, g.cols)),
              f"{cell_name((0, 0))}|{cell_name((0, 1))}", "done", "start " + cell_name((0, 0))}
    return sorted(t for t in texts if t and t != "?")


def message_strategy(game: Game) -> Any:
    """Hypothesis strategy of messages a page could send to ``game``'s widget:
    the intents of ``docs/frontend.md`` with fields right, near and wrong
    (legal notation, notation one character off, forged players and versions,
    values of any type and size), and any JSON at all."""
    st = strategies()
    texts = notations_of(game)
    total = game.step_count + len(game.future_steps)
    moves = st.one_of(st.sampled_from(texts), mutated_text(texts), st.text(max_size=10), weird_values())
    fields: dict[str, Any] = {
        "move": moves,
        "version": st.one_of(st.sampled_from((game.version, game.version - 1, game.version + 1, 0)), weird_values()),
        "player": st.one_of(st.sampled_from(range(len(game.players))), st.sampled_from((-1, len(game.players))),
                            weird_values()),
        "index": st.one_of(st.integers(-2, total + 2), weird_values()),
        "action": st.one_of(st.sampled_from(type(game).edit_actions or ("wall",)), st.text(max_size=8), weird_values()),
        "target": moves,
    }
    kinds = ("play", "play", "play", "undo", "redo", "new", "goto", "agent-step", "edit")

    plausible = {
        "play": {"move": st.sampled_from(texts), "version": st.just(game.version),
                 "player": st.one_of(st.none(), st.sampled_from(range(len(game.players))))},
        "goto": {"index": st.integers(0, total)},
        "agent-step": {"version": st.just(game.version)},
        "edit": {"action": fields["action"], "target": st.sampled_from(texts)},
    }

    @st.composite
    def message(draw: Any) -> Any:
        shape = draw(st.integers(0, 15))
        if shape == 0:
            return draw(json_values())
        if shape == 1:
            return draw(weird_values())
        if shape < 8:  # what a page of this position would send, right or nearly
            kind = draw(st.sampled_from(kinds))
            out = {"type": kind}
            for key, values in plausible.get(kind, {}).items():
                value = draw(values)
                if value is not None:
                    out[key] = value
            return out
        kind = draw(st.one_of(st.sampled_from(kinds), st.text(max_size=8))) if shape > 2 else draw(weird_values())
        out: dict[Any, Any] = {"type": kind}
        for key, values in fields.items():
            if draw(st.booleans()):
                out[key] = draw(values)
        if draw(st.integers(0, 7)) == 0:
            out[draw(st.text(max_size=8))] = draw(weird_values())
        return out

    return message()


def state_update_strategy(game: Game) -> Any:
    """Hypothesis strategy of trait updates a page could send to ``game``'s
    widget (what ``model.set`` and ``save_changes`` send): the widget's synced
    traits, including those only Python writes, and unknown names, with values
    right and wrong."""
    st = strategies()
    from .widgets import widget_class

    names = sorted(widget_class(type(game)).class_trait_names(sync=True))
    values = st.one_of(st.booleans(), st.integers(-10, 3_000), st.sampled_from(("", "mcts", "solve", "x")),
                       st.floats(allow_nan=False, allow_infinity=False), weird_values())
    return st.dictionaries(st.one_of(st.sampled_from(names), st.text(max_size=8)), values, max_size=3)


def save_file_strategy(game: Game) -> Any:
    """Hypothesis strategy of save files corrupted from ``game``'s own: a JSON
    value replaced, a key dropped or added, moves dropped, doubled, swapped
    or changed, another game's id, options of any type and size, and at the
    text level cut short, bytes flipped or inserted, not UTF-8, nested deep.
    Gives ``str`` or ``bytes`` (or the ``dict``, which ``from_json`` also takes,
    when a value is nested too deep to write as JSON)."""
    st = strategies()
    base = game.to_dict()
    text = json.dumps(base)
    from .core.registry import games as registered

    ids = sorted(c.game_id for c in registered().values())
    texts = notations_of(game)

    @st.composite
    def corrupt(draw: Any) -> str | bytes:
        data = json.loads(text)
        op = draw(st.integers(0, 13))
        if op == 0:  # a value anywhere replaced
            path = draw(st.sampled_from(json_paths(data)))
            set_at_path(data, path, draw(weird_values()))
        elif op == 1:  # a key dropped or added
            key = draw(st.sampled_from(sorted(data)))
            if draw(st.booleans()):
                del data[key]
            else:
                data[draw(st.text(max_size=8))] = draw(weird_values())
        elif op in (2, 3):  # the moves changed
            key = draw(st.sampled_from(("history", "future")))
            moves = data[key]
            how = draw(st.sampled_from(("drop", "double", "swap", "change", "add", "clear", "many")))
            i = draw(st.integers(0, max(0, len(moves) - 1)))
            if how == "drop" and moves:
                del moves[i]
            elif how == "double" and moves:
                moves.insert(i, moves[i])
            elif how == "swap" and len(moves) > 1:
                j = draw(st.integers(0, len(moves) - 1))
                moves[i], moves[j] = moves[j], moves[i]
            elif how == "change" and moves:
                moves[i] = draw(st.one_of(st.sampled_from(texts), mutated_text(texts), weird_values()))
            elif how == "add":
                moves.insert(i, draw(st.one_of(st.sampled_from(texts), mutated_text(texts))))
            elif how == "clear":
                moves.clear()
            elif how == "many":
                moves.extend(draw(st.sampled_from(texts)) for _ in range(draw(st.sampled_from((500, 50_000)))))
        elif op == 4:  # another game, or the history put in the future
            if draw(st.booleans()):
                data["game"] = draw(st.sampled_from(ids))
            else:
                data["future"], data["history"] = data["history"], data["future"]
        elif op == 5:  # options of any type and size
            options = data.get("options", {})
            if isinstance(options, dict) and options and draw(st.booleans()):
                key = draw(st.sampled_from(sorted(options)))
                options[key] = draw(st.one_of(st.integers(-2, 40), st.sampled_from((10**6, 10**12, 2**64))))
            else:
                data["options"] = draw(weird_values())
        elif op == 6:  # the board rows
            rows = data.get("board")
            if isinstance(rows, list) and rows:
                i = draw(st.integers(0, len(rows) - 1))
                rows[i] = draw(mutated_text([str(rows[i])]))
        try:
            out = json.dumps(data, allow_nan=True)
        except RecursionError:  # a value nested too deep for JSON: given as a dict, as from_json takes
            return data
        if op == 7:  # cut short
            return out[: draw(st.integers(0, len(out)))]
        if op == 8:  # a character inserted or replaced
            i = draw(st.integers(0, len(out)))
            ch = draw(st.sampled_from((*ODD_CHARS, "{", "}", "]", ":", "\ufeff")))
            return out[:i] + ch + out[i + draw(st.integers(0, 1)):]
        if op == 9:  # bytes: not UTF-8, or a byte flipped
            raw = bytearray(out.encode())
            i = draw(st.integers(0, len(raw) - 1))
            raw[i] = draw(st.integers(0, 255))
            return bytes(raw)
        if op == 10:  # nested deep, or a huge value
            depth = draw(st.sampled_from((65, 1_200, 100_000)))
            return "[" * depth + "]" * depth if draw(st.booleans()) else '{"a":' * depth + "1" + "}" * depth
        if op == 11:  # padded, or not an object at all
            return draw(st.sampled_from(("", " ", "null", "[]", '"x"', "1e999", "NaN", out + "x", " " * 50_000 + out)))
        return out

    return corrupt()


def json_paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += json_paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data[:20]):
            out += json_paths(v, (*prefix, i))
    return out


def set_at_path(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


class _Broken:
    """A move-like object whose every display and comparison raises."""

    cell = (0, 0)

    def __repr__(self) -> str:
        raise RuntimeError("repr of a broken object")

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("== of a broken object")

    def __hash__(self) -> int:
        raise RuntimeError("hash of a broken object")


def _forge(move: Any, name: str, value: Any) -> Any:
    """``move`` with one field set to ``value``: through its constructor when it
    takes it, else set directly on a copy (as code that bypasses checks would)."""
    try:
        return dataclasses.replace(move, **{name: value})
    except Exception:
        forged = _copy.copy(move)
        object.__setattr__(forged, name, value)
        return forged


def _field_values(value: Any) -> Any:
    st = strategies()
    ints = st.one_of(st.integers(-3, 40), st.sampled_from((10**6, -(2**63), 2**64)))
    odd = st.one_of(st.booleans(), st.floats(allow_nan=True), st.text(max_size=4),
                    st.builds(np.int64, st.integers(-3, 30)), st.none())
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return st.one_of(ints, odd)
    if isinstance(value, tuple):
        item = st.one_of(ints, odd, st.tuples(ints, ints))
        return st.one_of(st.lists(item, max_size=5).map(tuple), st.lists(item, max_size=3), odd,
                         st.builds(lambda v: tuple(reversed(v)), st.just(value)))
    return weird_values()


def move_strategy(game: Game, others: list[Any] | None = None) -> Any:
    """Hypothesis strategy of move objects for ``game``: its legal moves, the
    same with one field of any type and range (set through the constructor or
    forged on a copy), moves of other games and boards (``others``), forged
    joint actions and hidden placeholders, notation, and objects whose
    display raises."""
    st = strategies()
    own = [m for p in range(len(game.players)) for m in game.legal_moves(p)] + list(game.history[-4:])
    pool = own + list(others or [])
    forgeable = [m for m in pool if dataclasses.is_dataclass(m)]

    @st.composite
    def forged(draw: Any) -> Any:
        move = draw(st.sampled_from(forgeable))
        f = draw(st.sampled_from(dataclasses.fields(move)))
        return _forge(move, f.name, draw(_field_values(getattr(move, f.name))))

    @st.composite
    def joint(draw: Any) -> Any:
        players = tuple(draw(st.lists(st.integers(-1, len(game.players)), max_size=3)))
        return JointMove(players, tuple(draw(st.sampled_from(pool)) for _ in players))

    choices = [st.sampled_from(pool), weird_values(), mutated_text(notations_of(game)), joint(),
               st.builds(Hidden, st.integers(-1, 3)), st.builds(_Broken),
               st.tuples(st.integers(-2, 30), st.integers(-2, 30))]
    if forgeable:
        choices += [forged(), forged()]
    return st.one_of(*choices)


# ----------------------------------------------------------------------
# Running a strategy
# ----------------------------------------------------------------------
def run_examples(strategy: Any, body: Callable[[Any], None], n: int, seed: int) -> None:
    """Run ``body`` on ``n`` examples of ``strategy`` (hypothesis, seeded, no database)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fix_seed

    @fix_seed(seed)
    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(strategy)
    def run(example: Any) -> None:
        body(example)

    run()


def _pick(positions: list[Any], make: Callable[[Any], Any]) -> Any:
    """``(i, example)`` pairs: an example of ``make(positions[i])`` for a position ``i``."""
    st = strategies()
    return st.one_of(*(st.tuples(st.just(i), make(p)) for i, p in enumerate(positions)))


def fuzz_messages(cls: type[Game], n: int = 1_000, seed: int = 0, **options: Any) -> FuzzReport:
    """Send ``n`` fuzzed page messages to widgets of ``cls`` in varied positions,
    some seats played by agents, some pages playing one seat only (see
    :func:`message_strategy`).

    Every message must be refused with the game unchanged and a status of at
    most :data:`MAX_STATUS` characters repeating at most :data:`MAX_ECHO`
    characters of the input, or applied completely (the game then saves and
    reloads to an equal game, and no seat but the page's own was played).

    Returns:
        A :class:`FuzzReport` (``target="messages"``).
    """
    from .agents import RandomAgent

    report = FuzzReport(cls.game_type.short_name, "messages")
    rng = random.Random(f"messages|{seed}")
    games = sample_positions(cls, 8, seed, **options)
    setups = []
    for k, g in enumerate(games):
        # every other position has agents: on the player to act's seat, and on others by chance
        seats = sorted({g.current_player if g.current_player is not None else 0}
                       | {p for p in range(len(g.players)) if rng.random() < 0.4}) if k % 2 else []
        if len(seats) == len(g.players) and len(seats) > 1:
            seats.remove(rng.choice(seats))  # one seat is a person's (a page plays for people)
        # and a page of one person among several (a class on several devices)
        people = [rng.randrange(len(g.players))] if k % 4 == 2 and len(g.players) > 1 else None
        w = g.widget(agents={p: RandomAgent(seed=p) for p in seats}, seats=people)
        setups.append((g, g.copy(), w, set(seats)))

    def body(example: tuple[int, Any]) -> None:
        i, (message, update) = example
        g, pristine, w, seats = setups[i]
        if update is not None:
            _try_update(report, g, w, update)
        report.tried += 1
        before = state_fingerprint(g)
        movers = set(g.players_to_move) - set(g.pending)
        pending = set(g.pending)
        steps = g.step_count
        t0 = time.perf_counter()
        try:
            accepted = w.handle_intent(message)
        except Exception as exc:
            report.fail("escaped", f"{short_repr(message)} raised {type(exc).__name__}: {short_repr(str(exc))}")
            g.replace_with(pristine)
            return
        ms = (time.perf_counter() - t0) * 1000
        status = str(w.state.get("message", ""))
        if "Internal error" in status:
            report.fail("internal", f"{short_repr(message)}: {status[:120]}")
        if not accepted:
            report.refused += 1
            report.timed(ms, message)
            if state_fingerprint(g) != before:
                report.fail("changed", f"{short_repr(message)} was refused ({status[:80]}) but changed the game")
            kind = message.get("type") if isinstance(message, dict) else None
            if (not status and kind != "agent-step") or len(status) > MAX_STATUS or _echoes(message, status):
                report.fail("lost", f"{short_repr(message)} was refused with the status {status[:80]!r}… "
                                    f"({len(status)} characters)")
            return
        report.accepted += 1
        if isinstance(message, dict) and message.get("type") == "play":
            if g.step_count > steps:
                played = {q for q in movers if q not in pending}
            else:
                played = set(g.pending) - pending
            if played & seats:
                report.fail("lost", f"{short_repr(message)} played the agent seat(s) {sorted(played & seats)}")
            elif played - set(w.seats):
                report.fail("lost", f"{short_repr(message)} played the seat(s) {sorted(played - set(w.seats))} "
                                    "of another page")
        why = _reloads(g)
        if why:
            report.fail("lost", f"after {short_repr(message)}, {why}")
        if w.state.get("version") != g.version:
            report.fail("lost", f"after {short_repr(message)}, the widget's state is not the game's")
        g.replace_with(pristine)

    st = strategies()

    def make(g: Game) -> Any:
        return st.tuples(message_strategy(g), st.one_of(st.none(), st.none(), st.none(), state_update_strategy(g)))

    try:
        run_examples(_pick(games, make), body, n, seed)
    finally:
        for _g, _p, w, _s in setups:
            w.close()
    return report


def _try_update(report: FuzzReport, g: Game, w: Any, update: Any) -> None:
    """A trait update from the page: never raises, never changes the game, and the
    traits only Python writes stay Python's."""
    report.tried += 1
    before = state_fingerprint(g)
    owned = [k for k in w.keys if k not in w.page_settable and k not in ("state", "hint_data")]
    kept = {k: getattr(w, k) for k in owned}
    try:
        w.set_state(update)
    except Exception as exc:
        report.fail("escaped", f"the update {short_repr(update)} raised {type(exc).__name__}: {short_repr(str(exc))}")
        return
    if state_fingerprint(g) != before:
        report.fail("changed", f"the update {short_repr(update)} changed the game")
    elif any(getattr(w, k) != kept[k] for k in owned):
        report.fail("lost", f"the update {short_repr(update)} set a trait the page may not set")
    elif not isinstance(w.state, dict) or w.state.get("version") != g.version or not isinstance(w.hint_data, dict):
        report.fail("lost", f"the update {short_repr(update)} replaced what Python shows")
    elif isinstance(update, dict) and all(isinstance(k, str) and k in w.keys and k in w.page_settable
                                          for k in update):
        report.accepted += 1  # (a value may still have been refused: the old one stays)
    else:
        report.refused += 1


def _echoes(message: Any, status: str) -> bool:
    """True if ``status`` repeats more than :data:`MAX_ECHO` characters of a string in ``message``."""
    values = message.values() if isinstance(message, dict) else [message]
    for v in values:
        if isinstance(v, str) and len(v) > MAX_ECHO and v[: MAX_ECHO + 1] in status:
            return True
    return False


def fuzz_files(cls: type[Game], n: int = 1_000, seed: int = 0, **options: Any) -> FuzzReport:
    """Load ``n`` corrupted save files (see :func:`save_file_strategy`) with
    ``cls.from_json`` and ``Game.from_json``.

    Each must raise ``ValueError`` (its time is measured: ``slowest_ms``) or
    load as a game that saves and reloads to an equal game; the saves of the
    sampled positions themselves must load back equal.

    Returns:
        A :class:`FuzzReport` (``target="files"``).
    """
    report = FuzzReport(cls.game_type.short_name, "files")
    games = sample_positions(cls, 8, seed, **options)
    for g in games:
        why = _reloads(g)
        report.tried += 1
        if why:
            report.fail("lost", f"the save of a position after {short_repr([str(s) for s in g.steps][-6:])}: {why}")
        else:
            report.accepted += 1

    def body(example: tuple[int, Any]) -> None:
        _i, text = example
        for loader in (cls.from_json, Game.from_json):
            report.tried += 1
            t0 = time.perf_counter()
            try:
                loaded = loader(text)
            except ValueError:
                report.refused += 1
                report.timed((time.perf_counter() - t0) * 1000, text)
                continue
            except Exception as exc:
                report.fail("escaped", f"{short_repr(text)} raised {type(exc).__name__}: {short_repr(str(exc))}")
                continue
            report.accepted += 1
            why = _reloads(loaded)
            if why:
                report.fail("lost", f"{short_repr(text)} loaded, but {why}")

    run_examples(_pick(games, save_file_strategy), body, n, seed)
    return report


#: digits that are not ASCII: superscripts, Arabic-Indic, fullwidth, Devanagari
#: (``str.isdigit`` says yes to all, ``int`` reads all but the superscripts)
UNICODE_DIGITS = ("⁰¹²³⁴⁵⁶⁷⁸⁹", "٠١٢٣٤٥٦٧٨٩", "０１２３４５６７８９", "०१२३४५६७८९")
#: a rule id as the rules name them (a game's letters, a dash, a number: ``C-2``)
_RULE_ID = re.compile(r"\b[A-Z]{1,2}-[0-9]{1,2}\b")


def position_strategy(game: Game) -> Any:
    """Hypothesis strategy of position texts near ``game.position()``: cut
    short, fields (space-separated) swapped, dropped, doubled or replaced,
    one digit or every digit of a field written in Unicode digits
    (:data:`UNICODE_DIGITS`), a number of 4,301 to 20,000 digits, the game
    id dropped or another game's, whitespace changed, characters mutated, 1 MB
    strings, and values that are not text (``None``, ints, floats, bytes,
    lists)."""
    st = strategies()
    text = game.position()
    from .core.registry import games as registered

    ids = sorted(c.game_id for c in registered().values())

    @st.composite
    def mutate(draw: Any) -> Any:
        head, _, rest = text.partition(" ")
        fields = rest.split(" ")
        op = draw(st.integers(0, 13))
        if op == 0:  # cut short
            return text[: draw(st.integers(0, len(text) - 1))]
        if op == 1:  # two fields swapped
            i, j = draw(st.integers(0, len(fields) - 1)), draw(st.integers(0, len(fields) - 1))
            fields[i], fields[j] = fields[j], fields[i]
        elif op == 2:  # a field dropped or doubled
            i = draw(st.integers(0, len(fields) - 1))
            if draw(st.booleans()):
                del fields[i]
            else:
                fields.insert(i, fields[i])
        elif op == 3:  # a field replaced
            i = draw(st.integers(0, len(fields) - 1))
            fields[i] = draw(st.one_of(st.sampled_from(fields), st.text(max_size=8), long_text(),
                                       st.integers(-3, 10**6).map(str)))
        elif op in (4, 5):  # Unicode digits: one digit, or every digit of the text
            digits = draw(st.sampled_from(UNICODE_DIGITS))
            spots = [k for k, ch in enumerate(text) if "0" <= ch <= "9"]
            if not spots:
                return text + " " + digits[draw(st.integers(0, 9))]
            if op == 4:
                k = draw(st.sampled_from(spots))
                return text[:k] + digits[int(text[k])] + text[k + 1:]
            return "".join(digits[int(ch)] if "0" <= ch <= "9" else ch for ch in text)
        elif op == 6:  # a huge number in place of a digit (or of a field)
            size = draw(st.sampled_from((4_301, 19_000, 20_000)))
            big = draw(st.sampled_from("19")) * size
            spots = [k for k, ch in enumerate(text) if "0" <= ch <= "9"]
            if spots and draw(st.booleans()):
                k = draw(st.sampled_from(spots))
                return text[:k] + big + text[k + 1:]
            fields[draw(st.integers(0, len(fields) - 1))] = big
        elif op == 7:  # the game id dropped, or another game's
            return draw(st.sampled_from((rest, *(f"{other} {rest}" for other in ids))))
        elif op == 8:  # whitespace: tabs, newlines, runs of spaces
            sep = draw(st.sampled_from(("\t", "\n", "  ", " \r\n ", "\u00a0", "\u3000")))
            return head + sep + sep.join(fields)
        elif op == 9:  # characters mutated
            return draw(mutated_text([text]))
        elif op == 10:  # 1 MB strings
            return draw(st.sampled_from((text + " " + "9" * 1_000_000, text * (1_000_000 // len(text) + 1),
                                         "x" * 1_000_000, head + " " + "1" * 1_000_000)))
        elif op == 11:  # not text at all
            return draw(st.one_of(st.sampled_from((None, text.encode(), bytearray(text.encode()), 0, 4, -1, 1.5,
                                                   float("nan"), [text], (text,), {"position": text})), weird_values()))
        elif op == 12:  # a field's number changed to any number
            spots = [i for i, f in enumerate(fields) if any("0" <= ch <= "9" for ch in f)]
            if spots:
                i = draw(st.sampled_from(spots))
                fields[i] = re.sub("[0-9]+", str(draw(st.integers(-2, 10**12))), fields[i], count=1)
        else:  # the position itself
            return text
        return head + " " + " ".join(fields)

    return mutate()


def _refusal_problem(text: Any, message: str) -> str | None:
    """Why a position refusal's message breaks the promise (``None``: it keeps
    it): one line, at most :data:`MAX_STATUS` characters, a rule id, at most
    :data:`MAX_ECHO` consecutive characters of the input."""
    if "\n" in message or "\r" in message:
        return "is not one line"
    if len(message) > MAX_STATUS // 2 + 100:
        return f"has {len(message)} characters"
    if not _RULE_ID.search(message):
        return "names no rule"
    if isinstance(text, str) and len(text) > MAX_ECHO:
        for k in range(len(message) - MAX_ECHO):
            if message[k:k + MAX_ECHO + 1] in text:
                return f"repeats {MAX_ECHO + 1}+ characters of the input"
    return None


def fuzz_positions(cls: type[Game], n: int = 1_000, seed: int = 0, **options: Any) -> FuzzReport:
    """Read ``n`` mutated position texts (see :func:`position_strategy`) of
    varied positions with ``cls.from_position`` and ``Game.from_position``.

    Each must raise ``ValueError`` whose message is one line of at most 300
    characters, names a rule id (``C-2``, or a game's own) and repeats at most
    :data:`MAX_ECHO` consecutive characters of the input (the time of each
    refusal is measured: ``slowest_ms``), or give a game whose position reads
    back to an equal game; the positions themselves must read back equal.

    Returns:
        A :class:`FuzzReport` (``target="positions"``).
    """
    report = FuzzReport(cls.game_type.short_name, "positions")
    games = sample_positions(cls, 8, seed, **options)

    def check(loader: Callable[[Any], Game], text: Any) -> None:
        report.tried += 1
        t0 = time.perf_counter()
        try:
            loaded = loader(text)
        except ValueError as exc:
            report.refused += 1
            report.timed((time.perf_counter() - t0) * 1000, text)
            why = _refusal_problem(text, str(exc))
            if why:
                report.fail("lost", f"{short_repr(text)} was refused with a message that {why}: {short_repr(str(exc))}")
            return
        except Exception as exc:
            report.fail("escaped", f"{short_repr(text)} raised {type(exc).__name__}: "
                                   f"{short_repr(str(exc))}{where_raised(exc)}")
            return
        report.accepted += 1
        try:
            again = type(loaded).from_position(loaded.position())
        except Exception as exc:
            report.fail("lost", f"{short_repr(text)} read, but its position does not: {type(exc).__name__}: "
                                f"{short_repr(str(exc))}")
            return
        if again.position() != loaded.position() or again != loaded:
            report.fail("lost", f"{short_repr(text)} read, but its position reads back as another game")

    for g in games:
        accepted = report.accepted
        check(cls.from_position, g.position())
        if report.accepted == accepted:
            report.fail("lost", f"the position {short_repr(g.position())} of a game played does not read")

    def body(example: tuple[int, Any]) -> None:
        _i, text = example
        for loader in (cls.from_position, Game.from_position):
            check(loader, text)

    run_examples(_pick(games, position_strategy), body, n, seed)
    return report


def fuzz_moves(cls: type[Game], n: int = 1_000, seed: int = 0, **options: Any) -> FuzzReport:
    """Give ``n`` hand-built move objects (see :func:`move_strategy`) to
    ``play`` (with a player id right, wrong or absent), ``is_legal``,
    ``legal_moves`` and ``goto`` in varied positions.

    ``play`` must raise :class:`~gridwidgets.core.IllegalMoveError` with the
    game unchanged, or play a move that was legal (then the game saves and
    reloads to an equal game); ``is_legal`` must answer a bool.

    Returns:
        A :class:`FuzzReport` (``target="moves"``).
    """
    from .core.registry import games as registered

    report = FuzzReport(cls.game_type.short_name, "moves")
    games = sample_positions(cls, 8, seed, **options)
    others: list[Any] = []
    for other in registered().values():
        for pos in sample_positions(other, 3, seed + 1):
            others += [m for p in range(len(pos.players)) for m in pos.legal_moves(p)][:6] + pos.history[-3:]
    st = strategies()
    players = st.one_of(st.none(), st.integers(-1, 4), weird_values())

    def body(example: tuple[int, Any]) -> None:
        i, (move, player, index) = example
        g = games[i].copy()
        report.tried += 1
        before = state_fingerprint(g)
        try:
            legal = g.is_legal(move, player)
            if not isinstance(legal, bool):
                report.fail("escaped", f"is_legal({short_repr(move)}) gave {type(legal).__name__}, not a bool")
            moves = g.legal_moves(player)
            if not isinstance(moves, list):
                report.fail("escaped", f"legal_moves({short_repr(player)}) gave {type(moves).__name__}, not a list")
        except IllegalMoveError:
            pass
        except Exception as exc:
            report.fail("escaped", f"is_legal/legal_moves({short_repr(move)}, {short_repr(player)}) raised "
                                   f"{type(exc).__name__}: {short_repr(str(exc))}")
        options_before = {str(m) for q in range(len(g.players)) for m in g.legal_moves(q)}
        t0 = time.perf_counter()
        try:
            played = g.play(move, player)
        except IllegalMoveError:
            report.refused += 1
            report.timed((time.perf_counter() - t0) * 1000, move)
            if state_fingerprint(g) != before:
                report.fail("changed",
                            f"play({short_repr(move)}, {short_repr(player)}) was refused but changed the game")
        except Exception as exc:
            report.fail("escaped", f"play({short_repr(move)}, {short_repr(player)}) raised {type(exc).__name__}: "
                                   f"{short_repr(str(exc))}{where_raised(exc)}")
            return
        else:
            report.accepted += 1
            try:
                name = str(played)
            except Exception as exc:
                report.fail("lost", f"play({short_repr(move)}) returned a move that cannot show itself: {exc!r}")
                return
            if name not in options_before:
                report.fail("lost", f"play({short_repr(move)}) played {name!r}, not a legal move")
            why = _reloads(g)
            if why:
                report.fail("lost", f"after play({short_repr(move)}), {why}")
        g2 = games[i].copy()
        try:
            g2.goto(index)
        except IndexError:
            pass
        except Exception as exc:
            report.fail("escaped", f"goto({short_repr(index)}) raised {type(exc).__name__}: {short_repr(str(exc))}")

    def make(g: Game) -> Any:
        return st.tuples(move_strategy(g, others), players, st.one_of(st.integers(-2, 60), weird_values()))

    run_examples(_pick(games, make), body, n, seed)
    return report


def where_raised(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    return f" at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}" if frames else ""


# ----------------------------------------------------------------------
# Threads
# ----------------------------------------------------------------------
_ALLOWED = (IllegalMoveError, IndexError)


def stress_threads(cls: type[Game], seconds: float = 2.0, seed: int = 0, hint_budget: float = 0.05,
                   **options: Any) -> FuzzReport:
    """Drive one game for ``seconds`` from five threads at once: code (moves,
    undo, redo, goto, reset), two widget pages sending what they show (one of
    them with an agent on the last seat), the agent stepping, and a reader
    (widget states, the displays, the save file); the hint worker runs on
    every change (``"mcts"``, ``hint_budget`` s).

    An observer records every position the game reaches (under its lock);
    each widget state the reader sees must be one of them, and each finished
    hint overlay must name only legal moves of its position. At the end the
    game must save and reload to an equal game.

    Returns:
        A :class:`FuzzReport` (``target="threads"``): ``tried`` operations,
        ``escaped`` exceptions other than a refused move, ``lost``
        inconsistencies; ``extra["hint_threads"]`` the most hint workers of
        one widget alive at once.
    """
    from .agents import RandomAgent

    report = FuzzReport(cls.game_type.short_name, "threads")
    g = cls.new_for_seed(options, seed)
    seen: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}  # version -> (cells, legal moves)
    seen_lock = threading.Lock()

    def record(game: Game) -> None:
        cells = tuple(game.cell_text((r, c)) for r in range(game.rows) for c in range(game.cols))
        entry = (cells, tuple(str(m) for m in game.legal_moves()))
        with seen_lock:
            seen[game.version] = entry

    record(g)
    g.observe(record)
    agent_seat = len(g.players) - 1
    w1 = g.widget(agents={agent_seat: RandomAgent(seed=seed)}, hint_budget=hint_budget)
    w2 = g.widget()
    w1.hints = "mcts"
    worker_name = f"gridwidgets-hints-{id(w1):x}"  # the hint worker of w1 (the widget keeps one at most)
    deadline = time.monotonic() + seconds
    lock = threading.Lock()
    counts = {"ops": 0, "hint_threads": 0, "states": 0, "hints": 0}

    def guard(name: str, action: Callable[[random.Random], None], rng: random.Random) -> None:
        while time.monotonic() < deadline:
            try:
                action(rng)
            except _ALLOWED:
                pass
            except Exception as exc:
                with lock:
                    report.fail("escaped", f"{name}: {type(exc).__name__}: {short_repr(str(exc))}{where_raised(exc)}")
            with lock:
                counts["ops"] += 1

    def code(rng: random.Random) -> None:
        r = rng.random()
        if r < 0.5:
            with g.lock:
                if g.is_over:
                    g.reset()
                else:
                    _random_step(g, rng)
        elif r < 0.6:
            moves = g.legal_moves()  # may be stale by the time it is played: refused, never half done
            if moves:
                g.play(rng.choice(moves))
        elif r < 0.75:
            g.undo()
        elif r < 0.85:
            g.redo()
        else:
            g.goto(rng.randrange(g.step_count + len(g.future_steps) + 1))

    def page(w: Any) -> Callable[[random.Random], None]:
        def send(rng: random.Random) -> None:
            s = w.state
            r = rng.random()
            if r < 0.7 and s.get("legal"):
                w.handle_intent({"type": "play", "move": rng.choice(s["legal"]), "version": s["version"],
                                 "player": s["current_player"]})
            elif r < 0.8:
                w.handle_intent({"type": "undo"})
            elif r < 0.9:
                w.handle_intent({"type": "goto", "index": rng.randrange(s["step"] + len(s["future_steps"]) + 1)})
            else:
                w.handle_intent({"type": "redo"})
        return send

    def agent(rng: random.Random) -> None:
        if rng.random() < 0.5:
            w1.handle_intent({"type": "agent-step", "version": w1.state["version"]})
        else:
            try:
                w1.step()
            except ValueError:
                pass  # a person is to move now
        time.sleep(0.001)

    def reader(rng: random.Random) -> None:
        if rng.random() < 0.1:  # the displays read one position too
            str(g), repr(g), g.to_svg(), g.to_json()
        alive = sum(t.name == worker_name and t.is_alive() for t in threading.enumerate())
        s = w2.game_state() if rng.random() < 0.5 else dict(w1.state)
        hd = dict(w1.hint_data)
        with seen_lock:
            known = seen.get(s["version"])
            hint_pos = seen.get(hd.get("version", -1))
        with lock:
            counts["hint_threads"] = max(counts["hint_threads"], alive)
            counts["states"] += 1
        if known is not None and (tuple(s["cells"]) != known[0] or tuple(s["legal"]) != known[1]):
            with lock:
                report.fail("lost", f"a widget state of version {s['version']} shows a position the game "
                                    "never had")
        if hd.get("status") == "done" and hint_pos is not None:
            wrong = set(hd.get("moves", {})) - set(hint_pos[1])
            with lock:
                counts["hints"] += 1
            if wrong:
                with lock:
                    report.fail("lost", f"a hint overlay names moves that are not legal: {sorted(wrong)[:3]}")

    workers = [("code", code), ("page 1", page(w1)), ("page 2", page(w2)), ("agent", agent), ("reader", reader)]
    threads = [threading.Thread(target=guard, args=(name, action, random.Random(f"{seed}|{name}")),
                                name=f"stress-{name}") for name, action in workers]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        w1.wait_hints(5)
    finally:
        w1.close()
        w2.close()
    report.tried = counts["ops"]
    report.accepted = counts["states"]
    report.extra = {"hint_threads": counts["hint_threads"], "hints_checked": counts["hints"],
                    "positions": len(seen)}
    why = _reloads(g)
    if why:
        report.fail("lost", f"after the stress, {why}")
    return report
