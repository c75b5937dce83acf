"""Exercises with feedback, made from exact search: "win in 3", "the only move
that does not lose", and kinds a game offers of its own.

A teacher makes a set::

    ex = gw.exercises.generate("<game>", kind="win-in", depth=2, n=12, seed=0, rows=5, cols=5)
    ex.save("week3.json")              # share the file; ExerciseSet.load reads it back
    ex.widget()                        # students answer on the board

Every exercise knows every right answer exactly. The generic kinds are
for two-player, sequential, zero-sum games that :func:`~gridwidgets.analysis.solve`
solves (their ``game_type`` says so):

- ``"win-in"``: the player to move wins, at best within ``depth`` of their
  own moves and not sooner, and some move does not win; the answers are
  **every** winning move, which
  are exactly :func:`~gridwidgets.analysis.solve`'s winning moves (a
  position is kept only when each winning move also wins within
  ``depth``).
- ``"only-move"``: exactly one legal move does not lose (``solve``); the
  answer is that move.

A game adds kinds of its own through its ``exercise_kinds`` hook (a
``{kind: "module:function"}`` class attribute; each game's rules page says
what its kinds mean), for instance a single-player puzzle's "reach a goal
from here".

An :class:`ExerciseWidget` (a game widget in exercise mode) takes the
student's clicks through the same ``play()`` as any board. A right answer
says so and the opponent answers (the best defence), and the exercise goes
on to the end of the line; a wrong answer is taken back after the board has
shown its refutation move by move (the opponent's winning reply, the best
defence, ...). Every answer is recorded in the widget (``results``), with
its time, for the teacher.

Sources: the win-in search is depth-limited negamax (Knuth & Moore 1975,
"An Analysis of Alpha-Beta Pruning", *Artificial Intelligence* 6(4)),
counting only the solver's own moves, as chess problems count "mate in n".
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .core import registry
from .core.errors import shorten
from .core.game import Game

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["AnswersReport", "Exercise", "ExerciseSet", "ExerciseWidget", "Judge", "generate", "grade_answers",
           "judge_answers", "kinds"]

#: the save file's format name and version
FORMAT = "gridwidgets-exercises"
VERSION = 1
#: the most exercises one file or one call holds (bounded work and files)
MAX_EXERCISES = 1000
#: the largest save file read, in characters
MAX_FILE = 5_000_000
#: the deepest ``depth`` the generic kinds search (own moves)
MAX_DEPTH = 6
#: positions a kind may examine per exercise asked before giving up
TRIES_PER_EXERCISE = 400
#: the solver's node budget per examined position
SOLVE_NODES = 200_000
#: the budget of one decision of the other side (a reply, a refutation move, a defence): positions and seconds
DECISION_NODES = 40_000
DECISION_SECONDS = 0.6
#: the controls an exercise board hides by default (``ExerciseWidget(hidden_controls=...)`` adds to them)
EXERCISE_HIDDEN = ("undo", "redo", "goto", "toggle-edit", "export", "hints", "agents")
#: the kinds every solvable game offers
GENERIC_KINDS = ("win-in", "only-move")
#: an answers file's format name and version (``ExerciseWidget(answers=...)``, :func:`judge_answers`)
ANSWERS_FORMAT = "gridwidgets-answers"
ANSWERS_VERSION = 1
#: the largest answers file read, in bytes; its most lines; its longest line, in characters
MAX_ANSWERS_FILE = 5_000_000
MAX_ANSWER_LINES = 20_000
MAX_ANSWER_LINE = 20_000
#: the most moves one recorded line holds
MAX_LINE_MOVES = 1_000
#: the seconds :func:`judge_answers` spends re-judging at most (then it stops, saying so): under
#: nbgrader's 30 s a cell (``Execute.timeout``), so a graded cell ends with its points
JUDGE_SECONDS = 20.0


# ----------------------------------------------------------------------
# Exercises and sets
# ----------------------------------------------------------------------
@dataclass(frozen=True)
class Exercise:
    """One exercise: a position, who solves it, and every right first move.

    Attributes:
        game: the game's registry name.
        position: the position as a save file of the game (``Game.to_json``,
            parsed): options and the moves from the start.
        kind: ``"win-in"``, ``"only-move"`` or a kind of the game's own.
        player: the solver's player id (the player to move).
        answers: notation of every right first move, in ``legal_moves()`` order.
        depth: the solver's own moves the goal takes at best (``win-in``;
            a game's kinds say what theirs means; ``1`` for ``only-move``).
        prompt: the task, for people.
        goal: a number a game's own kind needs (a target), else ``None``.
    """

    game: str
    position: dict[str, Any]
    kind: str
    player: int
    answers: tuple[str, ...]
    depth: int
    prompt: str
    goal: int | None = None

    def start(self) -> Game:
        """A new game object at the exercise's position (the save file replayed
        through the rules, :meth:`Game.from_json`)."""
        cls = registry.get(self.game)
        return cls.from_json(self.position)

    @classmethod
    def from_position(cls, position: str | Game, depth: int = 1) -> Exercise:
        """The "win in ``depth``" exercise (:func:`generate`'s ``win-in``) of a
        position a teacher chose: its text (``Game.position()``, the game found
        by its id) or a game; the exercise starts there (its save file keeps
        the start position).

        Raises:
            ValueError: for text that is not a position, a game the solver
                cannot solve, or a position that is no clean win in ``depth``
                moves for the player to move (saying why).
        """
        g = Game.from_position(position) if isinstance(position, str) else position.copy()
        why = _solvable(type(g), g)
        if why:
            raise ValueError(f"no exercise for this game: {why}")
        if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= 100:
            raise ValueError(f"depth must be an int from 1 to 100, got {shorten(depth)}")
        found = _win_in_at(g, depth, g.game_id)
        if not isinstance(found, Exercise):
            raise ValueError(f"no win-in-{depth} exercise here: {found}")
        return found

    def judge(self) -> Judge:
        """What decides the answers after the first one and plays the other side."""
        return _judge_for(self)

    def to_dict(self) -> dict[str, Any]:
        """The exercise as plain JSON data (what :meth:`ExerciseSet.save` writes)."""
        return {"game": self.game, "position": self.position, "kind": self.kind, "player": self.player,
                "answers": list(self.answers), "depth": self.depth, "prompt": self.prompt, "goal": self.goal}

    @classmethod
    def from_dict(cls, data: Any, *, name: str = "exercise") -> Exercise:
        """An exercise from :meth:`to_dict`'s data, every part checked: the game
        is registered, the position replays through the rules, the player is
        to move and every answer is one of their legal moves.

        Args:
            data: the exercise's dict.
            name: how the messages name it (``"exercise 3"`` for the third
                of a file).

        Raises:
            ValueError: saying what is wrong, each message starting with
                ``name`` (``"exercise 3: its answer 'A9' is not a legal
                move of its position"``).
        """
        if not isinstance(data, dict):
            raise ValueError(f"{name} must be an object, not {type(data).__name__}")
        need = {"game": str, "position": dict, "kind": str, "player": int, "answers": list, "depth": int,
                "prompt": str}
        for key, typ in need.items():
            value = data.get(key)
            if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
                article = "an" if typ.__name__[0] in "aeiou" else "a"
                raise ValueError(f"{name}: field {key!r} must be {article} {typ.__name__}, got {shorten(value)}")
        goal = data.get("goal")
        if goal is not None and (not isinstance(goal, int) or isinstance(goal, bool)):
            raise ValueError(f"{name}: field 'goal' must be an int or null, got {shorten(goal)}")
        if data["game"] not in registry.games():
            raise ValueError(f"{name} is for an unknown game {shorten(data['game'])}")
        if not 1 <= data["depth"] <= 100 or len(data["prompt"]) > 500 or len(data["kind"]) > 40:
            raise ValueError(f"{name}: its depth, prompt or kind is out of bounds")
        if not data["answers"] or len(data["answers"]) > 1000 or not all(isinstance(a, str) for a in data["answers"]):
            raise ValueError(f"{name}: its answers must be a non-empty list of moves in notation")
        ex = cls(data["game"], data["position"], data["kind"], data["player"], tuple(data["answers"]),
                 data["depth"], data["prompt"], goal)
        try:
            g = ex.start()
        except ValueError as exc:
            raise ValueError(f"{name}: its position: {shorten(str(exc), 120)}") from None
        if g.is_over or g.current_player != ex.player:
            raise ValueError(f"{name}: its player {ex.player} is not to move in its position")
        legal = {str(m) for m in g.legal_moves()}
        wrong = [a for a in ex.answers if a not in legal]
        if wrong:
            raise ValueError(f"{name}: its answer {shorten(wrong[0])} is not a legal move of its position")
        return ex


@dataclass
class ExerciseSet(Sequence[Exercise]):
    """A list of exercises of one game, saved and shared as one JSON file.

    Attributes:
        exercises: the exercises, in order.
        title: a caption.
    """

    exercises: list[Exercise]
    title: str = ""

    def __len__(self) -> int:
        return len(self.exercises)

    def __getitem__(self, index: Any) -> Any:
        return self.exercises[index]

    def __iter__(self) -> Iterator[Exercise]:
        return iter(self.exercises)

    def __repr__(self) -> str:
        kinds = sorted({e.kind for e in self.exercises})
        return f"ExerciseSet({self.title[:80]!r}: {len(self)} exercises, {', '.join(kinds) or 'none'})"

    @property
    def fingerprint(self) -> str:
        """A hash of the exercises (game, position, kind, player, depth and goal
        of each, in order; not the title nor the prompts): an answers file names
        the set it answers by it (64 hex digits, SHA-256)."""
        data = [[e.game, e.position, e.kind, e.player, e.depth, e.goal] for e in self.exercises]
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(text.encode()).hexdigest()

    def to_json(self) -> str:
        """The set as a versioned JSON text."""
        return json.dumps({"format": FORMAT, "version": VERSION, "title": self.title,
                           "exercises": [e.to_dict() for e in self.exercises]}, indent=1)

    def save(self, path: str | Path) -> Path:
        """Write the set to ``path`` (JSON); :meth:`load` reads it back equal."""
        p = Path(path)
        p.write_text(self.to_json(), encoding="utf-8")
        return p

    @classmethod
    def from_json(cls, text: str | bytes) -> ExerciseSet:
        """A set from :meth:`to_json`'s text, every exercise checked
        (:meth:`Exercise.from_dict`); never a half-loaded set.

        Raises:
            ValueError: saying what is wrong (the file's size, JSON, format,
                version, or the first bad exercise and why).
        """
        if isinstance(text, bytes):
            text = text.decode("utf-8", errors="replace")
        if not isinstance(text, str):
            raise ValueError(f"an exercise file is text, not {type(text).__name__}")
        if len(text) > MAX_FILE:
            raise ValueError(f"an exercise file is at most {MAX_FILE:,} characters, this one {len(text):,}")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"not an exercise file: {shorten(str(exc), 60)}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not an exercise file (no \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise ValueError(f"exercise file version {shorten(data.get('version'))} is not {VERSION}")
        items = data.get("exercises")
        title = data.get("title", "")
        if not isinstance(items, list) or not isinstance(title, str) or len(title) > 500:
            raise ValueError("an exercise file needs a list of exercises and a text title")
        if len(items) > MAX_EXERCISES:
            raise ValueError(f"an exercise file holds at most {MAX_EXERCISES} exercises, this one {len(items)}")
        out = []
        for i, item in enumerate(items):
            out.append(Exercise.from_dict(item, name=f"exercise {i + 1}"))
        games = {e.game for e in out}
        if len(games) > 1:
            raise ValueError("an exercise set holds exercises of one game")
        return cls(out, title)

    @classmethod
    def load(cls, path: str | Path) -> ExerciseSet:
        """Read a set saved by :meth:`save` (see :meth:`from_json` for the checks).

        Raises:
            ValueError: for a bad file.
        """
        p = Path(path)
        if p.stat().st_size > MAX_FILE * 4:
            raise ValueError(f"{str(p)[:60]!r} is too large for an exercise file")
        return cls.from_json(p.read_bytes())

    def widget(self, index: int = 0, **options: Any) -> ExerciseWidget:
        """The board in exercise mode, at exercise ``index`` (see :class:`ExerciseWidget`)."""
        return ExerciseWidget(self, index=index, **options)

    def panel(self, index: int = 0, **options: Any) -> Any:
        """The board in exercise mode with *Previous* / *Next* buttons and the
        count of exercises solved at the first try (an ``ipywidgets.VBox``;
        its ``board`` attribute is the :class:`ExerciseWidget`)."""
        import ipywidgets

        board = self.widget(index, **options)
        prev = ipywidgets.Button(description="Previous", icon="arrow-left", tooltip="the previous exercise")
        nxt = ipywidgets.Button(description="Next", icon="arrow-right", tooltip="the next exercise")
        label = ipywidgets.HTML()

        def update(*_: Any) -> None:
            label.value = (f"Exercise {board.index + 1} of {len(self)} &middot; "
                           f"solved at the first try: {len(board.solved)}")
            prev.disabled = board.index == 0
            nxt.disabled = board.index + 1 >= len(self)

        prev.on_click(lambda _b: (board.previous(), update()))
        nxt.on_click(lambda _b: (board.next(), update()))
        board.observe(update, names="state")
        update()
        box = _panel_class()([board, ipywidgets.HBox([prev, nxt, label])])
        box.board = board
        return box

    def _repr_html_(self) -> str:
        import html

        rows = "".join(
            f"<tr><td>{i + 1}</td><td>{html.escape(e.prompt)}</td><td>{len(e.answers)}</td></tr>"
            for i, e in enumerate(self.exercises[:50]))
        more = f"<p>... and {len(self) - 50} more</p>" if len(self) > 50 else ""
        return (f"<p><b>{html.escape(self.title or 'Exercises')}</b>: {len(self)}</p>"
                f"<table><tr><th>#</th><th>task</th><th>right answers</th></tr>{rows}</table>{more}")


# ----------------------------------------------------------------------
# Searches (generic: play/undo over the Game protocol)
# ----------------------------------------------------------------------
def _solvable(cls: type[Game], game: Game) -> str:
    """Why the generic kinds cannot be made for ``game``, or ``""``: the
    solver's own conditions (:func:`~gridwidgets.analysis.solve`)."""
    from .core.gametype import why_unsolvable

    return why_unsolvable(game)


class _Search:
    """Depth-limited "does ``me`` win within ``d`` own moves" over play/undo,
    with a table keyed by ``(position_key, d)``, a node budget and an optional
    deadline (``time.monotonic()`` seconds); past either it raises ``_TooBig``."""

    def __init__(self, game: Game, me: int, max_nodes: int = 2_000_000, deadline: float | None = None) -> None:
        self.g = game
        self.me = me
        self.table: dict[Any, bool] = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        self.deadline = deadline

    def won(self) -> bool:
        r = self.g.returns()
        return r[self.me] > max(r[q] for q in range(len(r)) if q != self.me)

    def wins_within(self, d: int) -> bool:
        """True if the player ``me`` forces a win here within ``d`` of their own
        moves: the game is won once ``me`` has made at most ``d`` more moves,
        whatever the others play (their replies after ``me``'s last move
        included: a win the opponent's forced reply completes takes no more
        own moves)."""
        g = self.g
        if g.is_over:
            return self.won()
        mine = g.current_player == self.me
        if d <= 0 and mine:
            return False
        key = (g.position_key(), d)
        hit = self.table.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes > self.max_nodes or (
                self.deadline is not None and not self.nodes & 255 and time.monotonic() > self.deadline):
            raise _TooBig
        out = not mine
        for m in g.search_moves():
            g.play(m)
            try:
                v = self.wins_within(d - 1 if mine else d)
            finally:
                g.undo()
            if mine and v:
                out = True
                break
            if not mine and not v:
                out = False
                break
        self.table[key] = out
        return out

    def distance(self, limit: int) -> int | None:
        """The fewest own moves ``me`` needs to force a win here (at most ``limit``), or ``None``."""
        for d in range(1, limit + 1):
            if self.wins_within(d):
                return d
        return None

    def moves_within(self, d: int) -> list[str]:
        """The mover's moves after which they still win within ``d - 1`` more own moves."""
        g = self.g
        out = []
        for m in g.legal_moves():
            g.play(m)
            try:
                if self.wins_within(d - 1):
                    out.append(str(m))
            finally:
                g.undo()
        return out


class _TooBig(Exception):
    pass


def _solve(game: Game, time_limit: float = 20.0) -> Any:
    from .analysis.solve import SolveBudgetExceeded, solve

    try:
        return solve(game, max_nodes=SOLVE_NODES, time_limit=time_limit, progress=False)
    except SolveBudgetExceeded:
        return None


def _positions(cls: type[Game], options: dict[str, Any], rng: random.Random, back: range) -> Iterator[Game]:
    """Positions a few moves before the end of random games (``back``: how many
    moves before the end, increasing), latest first: each random game is
    played once, then taken back move by move."""
    while True:
        g = cls(**options)
        length = 0
        while not g.is_over:
            g.play(rng.choice(g.legal_moves()))
            length += 1
        undone = 0
        for k in back:
            if k > length:
                break
            while undone < k:
                g.undo()
                undone += 1
            yield g.copy()


def position_data(g: Game) -> dict[str, Any]:
    data = json.loads(g.to_json(indent=None))
    data.pop("future", None)
    return data


def _win_in(cls: type[Game], options: dict[str, Any], depth: int, n: int, rng: random.Random,
            progress: Callable[[], None]) -> list[Exercise]:
    out: list[Exercise] = []
    seen: set[Any] = set()
    tries = 0
    name = cls.game_type.short_name
    for g in _positions(cls, options, rng, range(2 * depth - 1, 2 * depth + 6)):
        if len(out) >= n or tries >= TRIES_PER_EXERCISE * n:
            break
        tries += 1
        if g.current_player is None or g.position_key() in seen:
            continue
        found = _win_in_at(g, depth, name)
        if isinstance(found, Exercise):
            seen.add(g.position_key())
            out.append(found)
            progress()
    return out


def _win_in_at(g: Game, depth: int, name: str) -> Exercise | str:
    """The "win in ``depth``" exercise of the position ``g``, or why it is none."""
    me = g.current_player
    if me is None:
        return "the game is over"
    search = _Search(g.copy(), me)
    try:
        if search.distance(depth) != depth:
            return f"the player to move does not win in exactly {depth} move{'s' * (depth > 1)}"
        within = search.moves_within(depth)
    except _TooBig:
        return "the search is too big"
    sol = _solve(g)
    if sol is None or sol.value != 1 or sol.player != me:
        return "the solver finds no win for the player to move"
    winning = [m for m, v in sol.move_values.items() if v == 1]
    if set(winning) != set(within):
        return "a winning move takes longer: not a clean win in that many moves"
    if len(within) == len(g.legal_moves()):
        return "every move wins: nothing to find"
    who = g.players[me]
    moves = f"{depth} move{'s' if depth > 1 else ''}"
    return Exercise(name, position_data(g), "win-in", me, tuple(within), depth,
                    f"{who} to move wins in {moves}. Find a winning move.")


def _only_move(cls: type[Game], options: dict[str, Any], depth: int, n: int, rng: random.Random,
               progress: Callable[[], None]) -> list[Exercise]:
    out: list[Exercise] = []
    seen: set[Any] = set()
    tries = 0
    name = cls.game_type.short_name
    for g in _positions(cls, options, rng, range(2, 2 * depth + 8)):
        if len(out) >= n or tries >= TRIES_PER_EXERCISE * n:
            break
        tries += 1
        me = g.current_player
        if me is None or g.position_key() in seen or len(g.legal_moves()) < 3:
            continue
        sol = _solve(g)
        if sol is None or sol.player != me or sol.value < 0:
            continue
        saving = [m for m, v in sol.move_values.items() if v >= 0]
        if len(saving) != 1 or len(sol.move_values) != len(g.legal_moves()):
            continue
        seen.add(g.position_key())
        out.append(Exercise(name, position_data(g), "only-move", me, tuple(saving), 1,
                            f"{g.players[me]} to move: only one move does not lose. Find it."))
        progress()
    return out


_GENERIC: dict[str, Callable[..., list[Exercise]]] = {"win-in": _win_in, "only-move": _only_move}


def kinds(game: str | type[Game], **options: Any) -> list[str]:
    """The exercise kinds :func:`generate` makes for a game with these options:
    the generic ones when :func:`~gridwidgets.analysis.solve` applies (two
    players, sequential, perfect information, zero-sum), then the game's own
    (its ``exercise_kinds`` hook).

    Raises:
        ValueError: for an unknown game or bad options.
    """
    cls = registry.get(game) if isinstance(game, str) else game
    probe = cls(**options)
    own = [k for k in getattr(cls, "exercise_kinds", {}) if _own_kind(cls, k).applies(probe)]
    return ([*GENERIC_KINDS] if not _solvable(cls, probe) else []) + own


def _own_kind(cls: type[Game], kind: str) -> Any:
    target = getattr(cls, "exercise_kinds", {}).get(kind)
    if target is None:
        return None
    if isinstance(target, str):
        import importlib

        mod, _, attr = target.partition(":")
        target = getattr(importlib.import_module(mod), attr)
    return target


def generate(
    game: str | type[Game],
    *,
    kind: str = "win-in",
    depth: int = 2,
    n: int = 12,
    seed: int | None = 0,
    title: str = "",
    progress: bool = False,
    **options: Any,
) -> ExerciseSet:
    """Make ``n`` exercises of ``kind`` from random positions of a game.

    Args:
        game: a registry name (or a game class).
        kind: ``"win-in"``, ``"only-move"`` or a kind of the game's own
            (:func:`kinds` lists those a game offers).
        depth: for ``"win-in"``: the solver wins within this many of their own
            moves and not sooner (1 to ``MAX_DEPTH``); for ``"only-move"``:
            how far from the end the positions are drawn; a game's kind says
            what it means there.
        n: how many exercises (1 to ``MAX_EXERCISES``).
        seed: the random positions' seed (the same seed, the same set).
        title: the set's caption (default: says what it is).
        progress: show a tqdm bar.
        **options: the game's options (``rows=5, cols=5``).

    Returns:
        An :class:`ExerciseSet`, possibly with fewer than ``n`` exercises
        when the positions searched (``TRIES_PER_EXERCISE`` per exercise)
        gave no more distinct ones.

    Raises:
        ValueError: an unknown game or kind, bad options, ``depth`` or ``n``,
            or a kind the game does not offer (saying why).
    """
    cls = registry.get(game) if isinstance(game, str) else game
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_EXERCISES:
        raise ValueError(f"n must be an int from 1 to {MAX_EXERCISES}, got {shorten(n)}")
    if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be an int from 1 to {MAX_DEPTH}, got {shorten(depth)}")
    probe = cls(**options)
    long_name = cls.game_type.long_name
    rng = random.Random(seed)
    from tqdm.auto import tqdm

    bar = tqdm(total=n, desc=f"{kind} exercises", disable=not progress)
    try:
        if kind in _GENERIC:
            why = _solvable(cls, probe)
            if why:
                raise ValueError(f"{long_name} {why}: the kind {kind!r} needs a two-player zero-sum game "
                                 f"the solver can solve; it offers {kinds(cls, **options) or 'none'}")
            made = _GENERIC[kind](cls, probe.options(), depth, n, rng, lambda: bar.update(1))
        else:
            own = _own_kind(cls, kind) if isinstance(kind, str) else None
            if own is None or not own.applies(probe):
                raise ValueError(f"{long_name} offers the exercise kinds {kinds(cls, **options)}, "
                                 f"not {shorten(kind)}")
            made = own.generate(cls, probe.options(), depth, n, rng, lambda: bar.update(1))
    finally:
        bar.close()
    return ExerciseSet(made, title or f"{long_name}: {kind} exercises (depth {depth}, seed {seed})")


# ----------------------------------------------------------------------
# Judges: the answers after the first, the other side's replies, refutations
# ----------------------------------------------------------------------
class Judge:
    """Decides a student's moves as an exercise goes on, and plays the other
    side. The generic judge serves ``win-in`` and ``only-move``; a game's
    own kind brings its own (the same methods).
    """

    def __init__(self, exercise: Exercise) -> None:
        self.exercise = exercise
        self.me = exercise.player

    def right_moves(self, game: Game, own_moves_made: int) -> list[str]:
        """The right moves for the solver in ``game`` after ``own_moves_made``
        of their moves (0: the exercise's first, whose answers are stored)."""
        if own_moves_made == 0:
            return list(self.exercise.answers)
        left = self.exercise.depth - own_moves_made
        if self.exercise.kind != "win-in" or left < 1:
            return []
        return _Search(game.copy(), self.me).moves_within(left)

    def finished(self, game: Game, own_moves_made: int) -> bool:
        """True when the solver's part is done after a right move: the game won
        (``win-in``), or the one move found (``only-move``; the other side
        still answers, to show the line)."""
        return game.is_over or self.exercise.kind != "win-in" or own_moves_made >= self.exercise.depth

    def reply(self, game: Game) -> Any:
        """The other side's move: the longest defence (a win if it has one), as
        far as a search within ``DECISION_NODES`` and ``DECISION_SECONDS`` sees."""
        return _best_defence(game, self.me)

    def punish(self, game: Game) -> Any:
        """After a wrong answer, the other side's move that wins (the refutation)."""
        q = game.current_player
        assert q is not None
        sol = _solve(game, time_limit=DECISION_SECONDS / 2)  # half the budget; the quickest win the other half
        if sol is not None and sol.player == q:
            best = [m for m, v in sol.move_values.items() if v == sol.value]
            if best:
                return game.parse_move(_quickest(game, q, best, DECISION_SECONDS / 2))
        return _best_defence(game, self.me)

    def refutation_length(self, game: Game) -> int | None:
        """How many moves of the refutation to show after a wrong answer in
        ``game`` (``None``: to the end of the game)."""
        return None

    def defend(self, game: Game) -> Any:
        """The solver's move in a lost line: the longest resistance, as far as a
        search within ``DECISION_NODES`` and ``DECISION_SECONDS`` sees."""
        return _best_defence(game, 1 - self.me if len(game.players) == 2 else self.me)

    def could_reply(self, game: Game, move: str) -> bool:
        """True if the other side could have answered with ``move`` (notation)
        in ``game`` (what :func:`judge_answers` checks in a recorded line): it
        is legal and puts off the solver's win as long as :meth:`reply`'s
        choice does (ties allowed), as far as the same search sees."""
        moves = game.legal_moves()
        names = [str(m) for m in moves]
        if move not in names:
            return False
        scores = [10_000 if d is None else d for d in _win_distances(game, self.me, moves)]
        return scores[names.index(move)] == max(scores)


def _win_distances(game: Game, p: int, moves: Sequence[Any], seconds: float = DECISION_SECONDS) -> list[int | None]:
    """For each move, the fewest own moves ``p`` then needs to force a win (up
    to ``MAX_DEPTH``), or ``None`` (no forced win found within the budget).

    One search for all the moves, deepening together (every move's wins in 1,
    then in 2, ...) with one table, within ``DECISION_NODES`` positions and
    ``seconds`` (``DECISION_SECONDS``): a move still open when the budget
    runs out is ``None``, so the other side moves within a second, at the
    price of sometimes not the longest defence."""
    g = game.copy()
    search = _Search(g, p, max_nodes=DECISION_NODES, deadline=time.monotonic() + seconds)
    out: list[int | None] = [None] * len(moves)
    try:
        for d in range(1, MAX_DEPTH + 1):
            for i, m in enumerate(moves):
                if out[i] is None:
                    g.play(m)
                    try:
                        if search.wins_within(d):
                            out[i] = d
                    finally:
                        g.undo()
    except _TooBig:
        pass
    return out


def _quickest(game: Game, p: int, moves: list[str], seconds: float = DECISION_SECONDS) -> str:
    """Of winning moves, one that wins soonest as far as ``seconds`` of search sees (ties: the first)."""
    found = [(d, i) for i, d in enumerate(_win_distances(game, p, moves, seconds)) if d is not None]
    return moves[min(found)[1]] if found else moves[0]


def _best_defence(game: Game, attacker: int) -> Any:
    """The defender's move that puts off ``attacker``'s win longest (a move
    after which the attacker no longer wins, as far as the search sees, is
    best of all; ties: the first)."""
    moves = game.legal_moves()
    scores = [10_000 if d is None else d for d in _win_distances(game, attacker, moves)]
    return moves[scores.index(max(scores))]


def _judge_for(exercise: Exercise) -> Judge:
    if exercise.kind in _GENERIC:
        return Judge(exercise)
    cls = registry.get(exercise.game)
    own = _own_kind(cls, exercise.kind)
    if own is None:
        raise ValueError(f"the game offers no exercise kind {shorten(exercise.kind)}")
    return own.judge(exercise)


# ----------------------------------------------------------------------
# The widget
# ----------------------------------------------------------------------
class _Side:
    """An agent seat of the exercise widget: plays what the judge says."""

    def __init__(self, pick: Callable[[Game], Any], name: str) -> None:
        self.pick = pick
        self.name = name

    def choose(self, game: Game) -> Any:
        return self.pick(game)


@dataclass
class _Attempt:
    exercise: int
    #: the game's history length at the exercise's start (the line recorded starts there)
    start_len: int = 0
    #: the attempt's number in the answers file, given at its first answer
    number: int | None = None
    started: float = field(default_factory=time.monotonic)
    own_moves: int = 0
    wrong: bool = False
    #: the history's length just after the wrong answer, and the refutation's length to show
    wrong_at: int = 0
    show: int | None = None


def _exercise_widget_base() -> type:
    from .widgets.base import GameWidget

    return GameWidget


class ExerciseWidget(_exercise_widget_base()):  # type: ignore[misc]
    """A game's board in exercise mode (``ExerciseSet.widget()``).

    The student plays the exercise's player from the page (or with
    :meth:`answer`, the same message); every other seat is played by the
    exercise: after a right answer the best defence, after a wrong one the
    refutation, move by move (``delay`` ms apart, as agents play), then the
    wrong move is taken back after the line has been shown
    (:meth:`retry`, or the board's *New game* button, starts the exercise
    again). ``state["message"]`` says what happened.

    Args:
        exercises: an :class:`ExerciseSet` (or one :class:`Exercise`).
        index: the exercise shown first.
        on_answer: called with each answer's record (a dict as in
            :attr:`results`): the classroom's rooms record answers this way.
        answers: a file (``"week3.answers.jsonl"``, beside the notebook)
            every answer is appended to as it is given (one JSON line,
            flushed and synced to disk), for :func:`grade_answers` to grade
            under nbgrader. Making the widget writes nothing: the file's
            first line is written with the first answer (``docs/jupyterhub.md``
            describes the lines). A file of another set raises ``ValueError``
            here, nothing written.
        shown_controls: controls hidden by default that this board shows
            (e.g. ``["hints"]`` to let a student ask for hints).
        **options: the board's options (``delay``, ``fit``, ...);
            ``hidden_controls`` adds to ``EXERCISE_HIDDEN``, the controls
            an exercise hides by default (those that would give the answer
            away or leave the exercise's line: undo, redo, the history, the
            editor, export, the hints menu and the agents box).

    Attributes:
        results: one dict per answer: ``exercise`` (index), ``move``,
            ``right`` (bool), ``step`` (the solver's move number in the line,
            1 = the exercise's answer), ``seconds`` since the exercise was
            shown, ``solved`` (this right answer finished the line).
    """

    def __init__(self, exercises: ExerciseSet | Exercise, index: int = 0,
                 on_answer: Callable[[dict[str, Any]], None] | None = None,
                 shown_controls: Sequence[str] = (), *, answers: str | os.PathLike[str] | None = None,
                 **options: Any) -> None:
        if isinstance(exercises, Exercise):
            exercises = ExerciseSet([exercises])
        if not isinstance(exercises, ExerciseSet) or not len(exercises):
            raise TypeError("ExerciseWidget takes an ExerciseSet with at least one exercise")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(exercises):
            raise ValueError(f"exercise index must be 0..{len(exercises) - 1}, got {shorten(index)}")
        self._answers = None if answers is None else _AnswersFile.open(answers, exercises)
        self._set = exercises
        self._index = index
        self._on_answer = on_answer
        self.results: list[dict[str, Any]] = []
        self._lock_ex = threading.RLock()
        ex = exercises[index]
        self._judge = ex.judge()
        game = ex.start()
        options.setdefault("delay", 700)
        extra = options.pop("hidden_controls", None) or ()
        if isinstance(extra, str) or isinstance(shown_controls, str):
            raise TypeError("hidden_controls and shown_controls are lists of control names, e.g. ['hints']")
        options["hidden_controls"] = [c for c in dict.fromkeys([*EXERCISE_HIDDEN, *extra]) if c not in shown_controls]
        others = {p: _Side(self._judge.reply, "the exercise") for p in range(len(game.players)) if p != ex.player}
        super().__init__(game, agents=others, seats=(ex.player,), **options)
        self._attempt = _Attempt(index, len(game.history))
        self._feedback = (ex.prompt, "info")
        self._message = self._feedback
        self._sync()

    @property
    def answers_path(self) -> Path | None:
        """The answers file (an absolute path), or ``None``."""
        return None if self._answers is None else self._answers.path

    # -- what the teacher reads ------------------------------------------
    def to_svg(self) -> str:
        """The board under the exercise's prompt, as one static SVG (shown
        where no kernel runs the live view: the docs site, HTML exports)."""
        from .core.draw import gallery

        return gallery([self.game.to_svg()], [f"Exercise {self.index + 1} of {len(self.exercises)}: "
                                              f"{self.exercise.prompt}"[:200]], width=700).svg

    @property
    def exercise(self) -> Exercise:
        """The exercise shown."""
        return self._set[self._index]

    @property
    def index(self) -> int:
        """The index of the exercise shown."""
        return self._index

    @property
    def exercises(self) -> ExerciseSet:
        """The set."""
        return self._set

    def results_table(self) -> pd.DataFrame:
        """:attr:`results` as a ``pandas.DataFrame`` (one row per answer)."""
        import pandas as pd

        return pd.DataFrame(self.results, columns=["exercise", "move", "right", "step", "seconds", "solved"])

    @property
    def solved(self) -> list[int]:
        """The exercises solved at the first try, by index: their first attempt
        went to the end of the line with every answer right (a win-in-2 whose
        first move is right and second wrong is not one)."""
        first: dict[int, bool | None] = {}  # None: the first attempt is under way
        for r in self.results:
            i = r["exercise"]
            if first.get(i, None) is not None:
                continue  # the first attempt is decided
            if i in first and r["step"] == 1:
                first[i] = False  # started again before the end of the line
            elif not r["right"]:
                first[i] = False
            else:
                first[i] = True if r["solved"] else None
        return sorted(i for i, ok in first.items() if ok)

    # -- moving through the set --------------------------------------------
    def show(self, index: int) -> None:
        """Show exercise ``index`` from its start.

        Raises:
            ValueError: an index outside the set.
        """
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self._set):
            raise ValueError(f"exercise index must be 0..{len(self._set) - 1}, got {shorten(index)}")
        with self._lock_ex:
            self._index = index
            ex = self._set[index]
            self._judge = ex.judge()
            self._agents = {p: _Side(self._judge.reply, "the exercise")
                            for p in range(len(self._game.players)) if p != ex.player}
            self._people = (ex.player,)
            start = ex.start()
            self._attempt = _Attempt(index, len(start.history))
            self._feedback = (ex.prompt, "info")
            self._game.replace_with(start)
            self.playing = True

    def next(self) -> bool:
        """The next exercise; False at the last one."""
        if self._index + 1 >= len(self._set):
            self._say("That was the last exercise.", "info")
            return False
        self.show(self._index + 1)
        return True

    def previous(self) -> bool:
        """The previous exercise; False at the first one."""
        if self._index == 0:
            return False
        self.show(self._index - 1)
        return True

    def retry(self) -> None:
        """The exercise shown, from its start again."""
        self.show(self._index)

    def answer(self, move: str) -> bool:
        """Answer with ``move`` (notation), as a click on the board does: the same
        message. Returns True if the move was played (right or wrong)."""
        return self.handle_intent({"type": "play", "move": move, "version": self._game.version})

    # -- the page's messages ------------------------------------------------
    #: intents an exercise refuses: its line is played by the exercise
    refused_intents = frozenset({"undo", "redo", "goto", "edit"})

    def handle_intent(self, content: Any) -> bool:
        """As :meth:`GameWidget.handle_intent`, but *New game* starts the
        exercise again, and undo, redo, goto and edit are refused (the
        exercise plays its own line)."""
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "new":
            self.retry()
            return True
        if kind in self.refused_intents:
            self._say("In an exercise, press New game to start it again.", "info")
            return False
        return super().handle_intent(content)

    def _on_game_change(self, game: Game) -> None:
        attempt = getattr(self, "_attempt", None)
        if attempt is not None and attempt.wrong and attempt.show is not None and self._agents:
            if len(game.history) - attempt.wrong_at >= attempt.show:
                self._agents = {}  # the refutation has been shown: it stops here
        if attempt is not None and attempt.wrong and game.is_over and self._feedback[1] == "error":
            ends = "a draw" if game.winner is None else f"{game.players[game.winner]} wins"
            last = self.results[-1]["move"] if self.results else "that move"
            self._feedback = (f"Not {last}: the refutation ends, {ends}. Press New game to try again.", "error")
        super()._on_game_change(game)
        if not self._message[0] and self._feedback[0]:
            self._message = self._feedback
            self._sync()

    def _play(self, content: dict[str, Any]) -> bool:
        g = self._game
        with self._lock_ex:
            attempt = self._attempt
            before = g.copy()
            mover = g.current_player
            if mover != self.exercise.player or attempt.wrong or g.is_over:
                return super()._play(content)  # refused there, with its message
            right = self._judge.right_moves(before, attempt.own_moves)
            played = super()._play(content)
            if not played:
                return False
            move = str(g.history[-1])
            attempt.own_moves += 1
            ok = move in right
            done = ok and self._judge.finished(g, attempt.own_moves)
            record = {"exercise": self._index, "move": move, "right": ok, "step": attempt.own_moves,
                      "seconds": round(time.monotonic() - attempt.started, 3), "solved": done}
            self.results.append(record)
            if self._answers is not None:
                if attempt.number is None:
                    attempt.number = self._answers.new_attempt(self._index)
                line = [str(m) for m in g.history[attempt.start_len:]]
                try:
                    self._answers.append(self._index, attempt.number, attempt.own_moves, line, move, ok, done)
                except OSError as exc:
                    saved = f" Not saved to {self._answers.path.name}: {shorten(str(exc), 80)}"
                else:
                    saved = ""
            else:
                saved = ""
            if self._on_answer is not None:
                try:
                    self._on_answer(dict(record))
                except Exception:  # a recorder never breaks the exercise
                    pass
            if ok:
                if done:
                    self._feedback = (f"Right: {move}. Solved! Press New game to try it again, "
                                      f"or go on to the next exercise.", "info")
                    self._people = ()  # the other side may still answer, to end the line
                else:
                    self._feedback = (f"Right: {move}. The other side answers; find the next move.", "info")
            else:
                attempt.wrong = True
                attempt.wrong_at = len(g.history)
                attempt.show = self._judge.refutation_length(g)
                self._feedback = (f"Not {move}: watch the refutation, move by move. "
                                  f"Then press New game to try again.", "error")
                me = self.exercise.player
                self._agents = {p: _Side(self._judge.punish, "the refutation")
                                for p in range(len(g.players)) if p != me}
                if len(g.players) == 1 or not self._agents:
                    self._agents = {me: _Side(self._judge.defend, "the refutation")}
                else:
                    self._agents[me] = _Side(self._judge.defend, "the best defence")
                self._people = ()
            if saved:
                self._feedback = (self._feedback[0] + saved, "error")
            self._message = self._feedback
            self.playing = True
            self._sync()
            return True


@lru_cache(maxsize=1)
def _panel_class() -> type:
    """The panel :meth:`ExerciseSet.panel` returns: an ``ipywidgets.VBox`` whose
    static picture is its board's (ipywidgets is imported only when asked for)."""
    import ipywidgets

    class ExercisePanel(ipywidgets.VBox):  # type: ignore[misc]
        """An exercise board with Previous / Next; its picture is the board's under the prompt."""

        board: ExerciseWidget

        def to_svg(self) -> str:
            """The current exercise's board under its prompt (:meth:`ExerciseWidget.to_svg`)."""
            return self.board.to_svg()

        def __repr__(self) -> str:
            return f"ExercisePanel({self.board!r})"

        def _repr_mimebundle_(self, **kwargs: Any) -> Any:
            from .core.draw import with_picture

            return with_picture(super()._repr_mimebundle_(**kwargs), self.to_svg(), repr(self))

    return ExercisePanel


# ----------------------------------------------------------------------
# Answers files: recorded on the board, graded by gridwidgets (nbgrader)
# ----------------------------------------------------------------------
class _AnswersFile:
    """The file :class:`ExerciseWidget` boards append their answers to (JSON lines).

    One object per file and process (:meth:`open`), so boards of one kernel
    on one file share its lock and its attempt numbers. Opening reads the
    file if it exists (its header must name this set; the attempts already
    recorded are counted, so new ones follow them) and writes nothing;
    :meth:`append` writes one line per answer, the header first when the
    file is new or empty, each flushed and synced to disk.
    """

    _open: ClassVar[dict[Path, _AnswersFile]] = {}
    _open_lock = threading.Lock()

    def __init__(self, path: Path, fingerprint: str, count: int) -> None:
        self.path = path
        self.fingerprint = fingerprint
        self.count = count
        self.attempts: dict[int, int] = {}
        self.lock = threading.Lock()

    @classmethod
    def open(cls, path: str | os.PathLike[str], exercises: ExerciseSet) -> _AnswersFile:
        """The file's object for ``exercises``.

        Raises:
            TypeError: ``path`` is no file name.
            ValueError: the file is of another set, or no answers file, or
                another board of this process records another set in it.
        """
        if not isinstance(path, (str, os.PathLike)) or not str(path):
            raise TypeError(f"answers is a file name, e.g. 'week3.answers.jsonl', not {shorten(path)}")
        p = Path(path).expanduser().absolute()
        fingerprint = exercises.fingerprint
        records: list[dict[str, Any]] = []
        if p.exists():
            found, problem = _read_answers(p, fingerprint)
            if problem is not None and found is None and not problem.startswith("no answers"):
                raise ValueError(f"{problem} Use another file name, or move that file away.")
            records = found or []
        with cls._open_lock:
            out = cls._open.get(p)
            if out is not None and out.fingerprint != fingerprint:
                raise ValueError(f"another board records the answers of another exercise set in {p.name!r}: "
                                 f"use another file name")
            if out is None:
                out = cls._open[p] = cls(p, fingerprint, len(exercises))
        with out.lock:
            for r in records:
                out.attempts[r["exercise"]] = max(out.attempts.get(r["exercise"], 0), r["attempt"])
        return out

    def new_attempt(self, exercise: int) -> int:
        """The number of a new attempt at ``exercise`` (1, 2, ... over every session)."""
        with self.lock:
            self.attempts[exercise] = self.attempts.get(exercise, 0) + 1
            return self.attempts[exercise]

    def append(self, exercise: int, attempt: int, step: int, line: list[str], move: str, right: bool,
               solved: bool) -> None:
        """Append one answer (and the header first, if the file is new or empty).

        Raises:
            OSError: the file cannot be written.
        """
        record = {"exercise": exercise, "attempt": attempt, "step": step, "line": line, "move": move,
                  "time": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds"),
                  "right": right, "solved": solved}
        text = json.dumps(record, separators=(",", ":")) + "\n"
        with self.lock:
            with open(self.path, "a", encoding="utf-8") as f:
                if f.tell() == 0:
                    header = {"format": ANSWERS_FORMAT, "version": ANSWERS_VERSION, "set": self.fingerprint,
                              "exercises": self.count}
                    text = json.dumps(header, separators=(",", ":")) + "\n" + text
                elif not _ends_with_newline(self.path):
                    # a line cut short (a crash while writing): ended, and marked as cut for the reader
                    text = "\n" + json.dumps(_CUT, separators=(",", ":")) + "\n" + text
                f.write(text)
                f.flush()
                os.fsync(f.fileno())


#: the line written after a line cut short by a crash: the reader leaves both out
_CUT = {"cut": "the line above was cut short while written, and is left out"}


def _ends_with_newline(path: Path) -> bool:
    with open(path, "rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def _read_answers(path: str | os.PathLike[str], fingerprint: str) -> tuple[list[dict[str, Any]] | None, str | None]:
    """The answer records of an answers file, checked in shape, and what is
    wrong with the file (``None``: nothing). Records are ``None`` when the file
    cannot be used at all. A last line cut short (no newline at its end, not
    JSON) is left out: a write cut by a crash; any other bad line damages the file."""
    p = Path(path)
    name = p.name[:80]
    try:
        with open(p, "rb") as f:
            raw = f.read(MAX_ANSWERS_FILE + 1)
    except FileNotFoundError:
        return None, (f"no answers file {name!r}: no answer was recorded "
                      f"(given on the board and submitted with the notebook).")
    except OSError as exc:
        return None, f"the answers file {name!r} cannot be read: {shorten(str(exc), 80)}"
    if len(raw) > MAX_ANSWERS_FILE:
        return None, f"the answers file {name!r} is too large (over {MAX_ANSWERS_FILE:,} bytes)."
    if not raw.strip():
        return None, f"no answers in {name!r}: the file is empty."
    lines = raw.split(b"\n")
    cut = lines[-1] != b""  # the last line has no newline
    if not cut:
        lines.pop()
    if len(lines) > MAX_ANSWER_LINES + 1:
        return None, f"the answers file {name!r} has too many lines (over {MAX_ANSWER_LINES:,})."
    out: list[dict[str, Any]] = []
    cut_note = json.dumps(_CUT, separators=(",", ":")).encode()
    for i, line in enumerate(lines):
        last = i == len(lines) - 1
        if i > 0 and (line == cut_note or (i + 1 < len(lines) and lines[i + 1] == cut_note)):
            continue  # a line cut short by a crash, and the note that says so
        if len(line) > MAX_ANSWER_LINE:
            if last and cut and i > 0:
                break
            return None, f"the answers file {name!r} is damaged: line {i + 1} is too long."
        try:
            data = json.loads(line.decode("utf-8"))
        except (ValueError, RecursionError):
            if last and cut and i > 0:
                break  # a write cut short
            return None, f"the answers file {name!r} is damaged: line {i + 1} is not JSON."
        if i == 0:
            if not isinstance(data, dict) or data.get("format") != ANSWERS_FORMAT:
                return None, f"{name!r} is not an answers file (its first line is no \"{ANSWERS_FORMAT}\" header)."
            if data.get("version") != ANSWERS_VERSION:
                return None, f"the answers file {name!r} has version {shorten(data.get('version'))}, " \
                             f"not {ANSWERS_VERSION}."
            if data.get("set") != fingerprint:
                return None, f"the answers file {name!r} answers another exercise set (not this notebook's)."
            continue
        why = _record_problem(data)
        if why:
            return None, f"the answers file {name!r} is damaged: line {i + 1} {why}."
        out.append(data)
    return out, None


def _record_problem(data: Any) -> str:
    """Why ``data`` is no answer record, or ``""``."""
    if not isinstance(data, dict):
        return "is not an object"
    for key in ("exercise", "attempt", "step"):
        v = data.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 10**9:
            return f"has no valid {key!r}"
    line = data.get("line")
    if not isinstance(line, list) or not line or len(line) > MAX_LINE_MOVES:
        return "has no valid 'line' of moves"
    if not all(isinstance(m, str) and 0 < len(m) <= 40 for m in line):
        return "has a move that is not notation"
    return ""


@dataclass(frozen=True)
class AnswersReport:
    """What an answers file earns, re-judged (:func:`judge_answers`).

    Attributes:
        exercises: how many exercises the set has.
        solved: the indices of the exercises some attempt solved (sorted).
        first_try: the indices of those the first attempt solved (sorted).
        attempts: per exercise, the attempts recorded (0: unanswered).
        problem: why the file gives nothing (missing, damaged, too large,
            of another set), or why judging stopped early; ``None`` when
            all is well.
    """

    exercises: int
    solved: tuple[int, ...]
    first_try: tuple[int, ...]
    attempts: tuple[int, ...] = ()
    problem: str | None = None

    def table(self) -> str:
        """One line per exercise, numbered from 1 as the board numbers them:
        attempts, solved, solved at the first try (plain text, what
        :func:`grade_answers` prints under its points line)."""
        rows = [f"{'exercise':>8}  {'attempts':>8}  {'solved':<6}  first try"]
        for i in range(self.exercises):
            tries = self.attempts[i] if i < len(self.attempts) else 0
            rows.append(f"{i + 1:>8}  {tries:>8}  {'yes' if i in self.solved else 'no':<6}  "
                        f"{'yes' if i in self.first_try else 'no'}")
        return "\n".join(rows)

    def __str__(self) -> str:
        """What a student reads: how many solved, the problem if any, then :meth:`table`."""
        head = (f"{len(self.solved)} of {self.exercises} exercises solved, {len(self.first_try)} at the first try "
                "(judged again, as the grader judges them).")
        return "\n".join([head, *([self.problem] if self.problem else []), self.table()])

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython shows :meth:`__str__` (a notebook's last line ``judge_answers(...)``)."""
        p.text(str(self))


def _judge_line(exercise: Exercise, judge: Judge, line: list[str]) -> bool:
    """True if ``line`` (moves from the exercise's start) solves it: every move
    of the solver right when it was played (``judge.right_moves``), every other
    move legal and one the judge could have played (``judge.could_reply``),
    the line ending with the solver's move that finishes the exercise
    (``judge.finished``). A loop over the moves, no recursion."""
    g = exercise.start()
    own = 0
    mine = False
    for move in line:
        if g.is_over:
            return False
        mine = g.current_player == exercise.player
        if mine:
            if move not in judge.right_moves(g, own):
                return False
            own += 1
        elif not judge.could_reply(g, move):
            return False
        g.play(g.parse_move(move))
    return mine and bool(judge.finished(g, own))


def judge_answers(path: str | os.PathLike[str], exercises: ExerciseSet | Sequence[Exercise]) -> AnswersReport:
    """Re-judge an answers file (written by ``ExerciseWidget(answers=path)``)
    against ``exercises``, the set of the notebook (never taken from the file).

    Every recorded line is replayed from its exercise's start through the
    rules with the exercise's :class:`Judge`: a solver's move counts only if
    the judge says it was right there, every other move must be legal and one
    the judge could have played, and the solver's last move must finish the
    exercise. The file's ``right`` and ``solved`` flags are never read. An
    exercise is *solved* when some attempt's longest line does this (and the
    attempt's other lines lead up to it); *at the first try* when its first
    recorded attempt does.

    Bounded work: the file is read up to ``MAX_ANSWERS_FILE`` bytes,
    ``MAX_ANSWER_LINES`` lines of ``MAX_ANSWER_LINE`` characters, and judged
    for ``JUDGE_SECONDS`` at most (every exercise's first attempt, then every
    second one, ...); an exercise stops being judged once solved.

    Returns:
        An :class:`AnswersReport`; a missing, damaged, too large file or one
        of another set gives nothing solved and says why in ``problem``.
        It raises nothing for any content of the file.

    Raises:
        TypeError: ``exercises`` is not a set of exercises.
    """
    if isinstance(exercises, Exercise):
        exercises = ExerciseSet([exercises])
    if not isinstance(exercises, ExerciseSet):
        if not isinstance(exercises, Sequence) or not all(isinstance(e, Exercise) for e in exercises):
            raise TypeError("judge_answers takes the notebook's ExerciseSet")
        exercises = ExerciseSet(list(exercises))
    n = len(exercises)
    records, problem = _read_answers(path, exercises.fingerprint)
    if records is None:
        return AnswersReport(n, (), (), (0,) * n, problem)
    # per exercise, per attempt: its lines, in file order
    attempts: dict[int, dict[int, list[list[str]]]] = {}
    for r in records:
        if r["exercise"] < n:
            attempts.setdefault(r["exercise"], {}).setdefault(r["attempt"], []).append(r["line"])
    solved: set[int] = set()
    first: set[int] = set()
    deadline = time.monotonic() + JUDGE_SECONDS
    stopped = None
    order = {i: sorted(attempts.get(i, {})) for i in range(n)}
    judges: dict[int, Judge] = {}
    # the first attempts of every exercise, then the second ones, ...: a time limit cuts the later tries
    for k in range(max((len(v) for v in order.values()), default=0)):
        for i in range(n):
            if i in solved or k >= len(order[i]) or stopped:
                continue
            if time.monotonic() > deadline:
                stopped = (f"judging stopped after {JUDGE_SECONDS:.0f} s (too many attempts): "
                           f"the attempts after the first {k} of each exercise were not judged.")
                break
            lines = attempts[i][order[i][k]]
            longest = max(lines, key=len)
            if any(line != longest[:len(line)] for line in lines):
                continue  # not one attempt's line: earns nothing
            try:
                judge = judges.get(i) or judges.setdefault(i, exercises[i].judge())
                ok = _judge_line(exercises[i], judge, longest)
            except Exception:  # a rule's error on a forged move earns nothing, never stops grading
                ok = False
            if ok:
                solved.add(i)
                if k == 0:
                    first.add(i)
    counts = tuple(len(attempts.get(i, {})) for i in range(n))
    return AnswersReport(n, tuple(sorted(solved)), tuple(sorted(first)), counts, stopped)


def grade_answers(path: str | os.PathLike[str], exercises: ExerciseSet | Sequence[Exercise], points: float, *,
                  first_try: bool = False) -> float:
    """The points an answers file earns, for an nbgrader test cell: prints a
    short table (one row per exercise, on stdout) and returns the points.

    Each exercise is worth ``points / len(exercises)``; it earns them when
    solved (:func:`judge_answers`), or, with ``first_try=True``, only when
    solved at the first try. Make the call the cell's last line, so its value
    is the cell's result: nbgrader's autograder reads a test cell's single
    numeric result as its partial credit (``nbgrader.utils.determine_grade``:
    from 0 to the cell's points), while any output on stderr or error would
    give the cell 0.

    Returns:
        The points, a plain float from 0.0 to ``points``. A missing or damaged
        file prints why and gives 0.0; nothing in the file makes it raise.

    Raises:
        ValueError: ``points`` is not a positive number (the teacher's cell).
    """
    if isinstance(points, bool) or not isinstance(points, (int, float)) or not 0 < points < 1e9:
        raise ValueError(f"points must be a positive number, got {shorten(points)}")
    try:
        report = judge_answers(path, exercises)
    except TypeError:
        raise
    except Exception as exc:  # never stops grading
        print(f"Board exercises: 0 of {points:g} points: the answers could not be judged ({shorten(str(exc), 100)}).")
        return 0.0
    n = report.exercises
    counted = report.first_try if first_try else report.solved
    earned = round(min(float(points), points * len(counted) / n), 4) if n else 0.0
    rule = "solved at the first try" if first_try else "solved"
    print(f"Board exercises: {len(report.solved)} of {n} solved, {len(report.first_try)} at the first try "
          f"-> {earned:g} of {points:g} points (each exercise {rule}: {points / max(n, 1):.4g}).")
    if report.problem:
        print(report.problem)
    print(report.table())
    return float(earned)
