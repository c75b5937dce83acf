"""The public conformance check of the game protocol, and golden playthroughs.

:func:`check_game` plays seeded random games of a game class and checks
that it keeps the contract of :class:`~gridwidgets.core.Game`, as
OpenSpiel's ``random_sim_test`` does for its games (M. Lanctot et al.,
"OpenSpiel", 2019, arXiv:1908.09453, section 5.1): every legal move plays
and reads back from its notation; sampled illegal input is refused with the
state unchanged; undo, redo and ``goto`` round trips give back the exact
game; copies are independent; save files load back to an equal game; the
displays never raise; a position written as text (``position()``) reads back
(``from_position``) to the same state, legal moves, result and next step,
and text that is not a position is refused with a ``ValueError`` (a game
without a position notation is skipped); the metadata holds (players, maximum length, returns
summing as the utility type says); for imperfect information, twin games
that differ only in one hidden submission show identical public outputs;
and the widget refuses malformed messages. With ``fuzz=n`` it also tries
``n`` fuzzed save files, hand-built moves and page messages of each kind
(:mod:`gridwidgets.fuzzing`). Run it on a game of your own::

    from gridwidgets.testing import check_game
    check_game(MyGame, n_games=20, seed=0)

:func:`playthrough` writes one seeded game as text (states, legal moves and
the moves chosen), for golden files that tests diff
(``python -m gridwidgets.testing golden DIR`` rewrites them).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .core.errors import IllegalMoveError
from .core.game import Game
from .core.gametype import GameType, Information, Utility
from .fuzzing import state_fingerprint

__all__ = ["GOLDEN_SEED", "CheckReport", "GameCheckError", "check_game", "main", "playthrough"]

#: what is sent as "move" in refused widget messages and tried as illegal notation
_GARBAGE: tuple[Any, ...] = ("", " ", "?", "zz99", "A0", "1 0", "((", "|", ":", "-", "x" * 200, "9" * 30, "\x00",
                             "A1|Z26", "done done", "🙂")


#: the seed of the golden playthroughs (their options: each game's ``small_options``)
GOLDEN_SEED = 2024


class GameCheckError(AssertionError):
    """A game broke the protocol: the message says what, where and how to replay it."""


@dataclass
class CheckReport:
    """What :func:`check_game` checked.

    Attributes:
        game: the class's short name.
        options: the options the games were made with.
        games: random games played to the end (or to ``max_moves``).
        moves: moves (submissions) played in them.
        positions: positions checked in depth (copies, save files, illegal input).
        positions_read: positions written as text and read back (``position()``,
            ``from_position``); 0 for a game without a position notation.
        illegal_refused: illegal or unreadable inputs refused with the state unchanged.
        twins: pairs of twin games compared for hidden information.
        widget_messages: widget messages sent (valid and malformed).
        returns_seen: the distinct return vectors of finished games.
        fuzzed: fuzzed inputs tried (``check_game(..., fuzz=n)``: page messages,
            save files and hand-built moves, see :mod:`gridwidgets.fuzzing`).
    """

    game: str
    options: dict[str, Any]
    games: int = 0
    moves: int = 0
    positions: int = 0
    illegal_refused: int = 0
    twins: int = 0
    widget_messages: int = 0
    returns_seen: set[tuple[float, ...]] = field(default_factory=set)
    fuzzed: int = 0
    positions_read: int = 0

    def __str__(self) -> str:
        return (f"{self.game} {self.options}: {self.games} games, {self.moves} moves, {self.positions} positions "
                f"checked in depth, {self.illegal_refused} illegal inputs refused, {self.twins} twin pairs, "
                f"{self.widget_messages} widget messages, {self.fuzzed} fuzzed inputs, "
                f"{self.positions_read} positions read back from text; "
                f"returns seen: {sorted(self.returns_seen)}")


class _Fail:
    """Builds failure messages that say how to replay the game."""

    def __init__(self, cls: type[Game], options: dict[str, Any]) -> None:
        self.cls = cls
        self.options = options
        self.game: Game | None = None

    def __call__(self, what: str) -> GameCheckError:
        where = ""
        if self.game is not None:
            moves = [str(m) for m in self.game.history]
            where = f"\n  after the moves {moves[-12:]} ({len(moves)} in all)"
            if self.game.pending:
                where += f" with hidden submissions of players {list(self.game.pending)}"
        return GameCheckError(f"{self.cls.__name__}({self.options}): {what}{where}")


@contextmanager
def _unchanged(g: Game, fail: _Fail, what: str) -> Iterator[None]:
    before = state_fingerprint(g)
    yield
    if state_fingerprint(g) != before:
        raise fail(f"{what} changed the game")


def _refused(g: Game, fail: _Fail, what: str, action: Callable[[], Any]) -> None:
    with _unchanged(g, fail, what):
        try:
            action()
        except IllegalMoveError:
            return
        except Exception as exc:  # anything else is a bug of the game
            raise fail(f"{what} raised {type(exc).__name__}: {exc} (expected IllegalMoveError)") from exc
    raise fail(f"{what} was accepted")


def _movers(g: Game) -> list[int]:
    return list(g.players_to_move)


def _check_metadata(cls: type[Game], g: Game, fail: _Fail) -> None:
    gt = getattr(cls, "game_type", None)
    if not isinstance(gt, GameType):
        raise fail("game_type is not a GameType")
    if cls.game_id != gt.short_name:
        raise fail(f"game_id {cls.game_id!r} is not game_type.short_name {gt.short_name!r}")
    n = len(g.players)
    if not gt.min_players <= n <= gt.max_players:
        raise fail(f"{n} players, outside game_type's {gt.min_players}..{gt.max_players}")
    info = g.game_info
    if info.num_players != n:
        raise fail(f"game_info.num_players {info.num_players} != {n} players")
    if info.max_game_length is not None and info.max_game_length < 1:
        raise fail(f"max_game_length {info.max_game_length} is not positive")
    if not gt.move_kinds:
        raise fail("game_type.move_kinds is empty")
    if g.is_over:
        raise fail("a new game is already over")
    if type(g)(**g.options()) != g:
        raise fail("type(g)(**g.options()) is not a new game like g")
    json.dumps(g.options())


def _check_position(g: Game, fail: _Fail, rng: random.Random, report: CheckReport, deep: bool,
                    seen: set[str]) -> None:
    """Checks of one position: legal moves read back from notation; in depth, illegal input
    (garbage, other players' turns, and moves that were legal earlier but are not now),
    copies and save files. ``seen`` collects the notation of every legal move met."""
    fail.game = g
    if g.is_over:
        if g.legal_moves():
            raise fail("legal moves after the end")
        return
    movers = _movers(g)
    if not movers:
        raise fail("nobody is to move, but the game is not over")
    if g.current_player not in movers:
        raise fail(f"current_player {g.current_player} is not among the players to move {movers}")
    for p in movers:
        moves = g.legal_moves(p) if g.is_simultaneous_node() else g.legal_moves()
        if not moves:
            raise fail(f"player {p} is to move but has no legal move")
        if len({str(m) for m in moves}) != len(moves):
            raise fail("two legal moves share a notation")
        seen.update(str(m) for m in moves)
        for m in rng.sample(moves, min(len(moves), 6 if deep else 2)):
            try:
                back = g.parse_move(str(m), p)
            except IllegalMoveError as exc:
                raise fail(f"legal move {m!s} does not read back from its notation: {exc}") from exc
            if str(back) != str(m):
                raise fail(f"legal move {m!s} reads back as {back!s}")
            if not g.is_legal(m, p):
                raise fail(f"legal move {m!s} is not is_legal()")
    others = [p for p in range(len(g.players)) if p not in movers]
    for p in others:
        if g.legal_moves(p):
            raise fail(f"player {p} is not to move but legal_moves({p}) is not empty")
    if not deep:
        return
    report.positions += 1
    mover = g.current_player
    assert mover is not None
    # illegal input of every shape: unreadable text, other players' turns, garbage objects
    for junk in [*rng.sample(_GARBAGE, 5), None, 3.5, object(), ("a", "b"), (10 ** 9, 10 ** 9), [0]]:
        try:
            with _unchanged(g, fail, f"is_legal({junk!r:.30})"):
                legal = g.is_legal(junk)
        except GameCheckError:
            raise
        except Exception as exc:
            raise fail(f"is_legal({junk!r:.30}) raised {type(exc).__name__}: {exc}") from exc
        if legal:
            continue
        _refused(g, fail, f"play({junk!r:.30})", lambda j=junk: g.play(j))
        report.illegal_refused += 1
    # moves that were legal somewhere in this game but are not now: refused, nothing changed
    now = {str(m) for m in g.legal_moves(mover)}
    stale = sorted(seen - now)
    for text in rng.sample(stale, min(len(stale), 6)):
        with _unchanged(g, fail, f"is_legal({text!r})"):
            if g.is_legal(text, mover):
                continue
        _refused(g, fail, f"play({text!r}) (legal earlier, not now)", lambda t=text: g.play(t, mover))
        report.illegal_refused += 1
    for p in others[:2]:
        theirs = next(iter(g.legal_moves(mover)), None)
        if theirs is not None:
            _refused(g, fail, f"play(<{mover}'s move>, player={p}) out of turn", lambda m=theirs, q=p: g.play(m, q))
            report.illegal_refused += 1
    _refused(g, fail, "play(..., player=<not a player>)",
             lambda: g.play(g.legal_moves(mover)[0], len(g.players) + 3))
    report.illegal_refused += 1
    # copies are independent
    c = g.copy()
    if c != g or c.to_json() != g.to_json():
        raise fail("a copy is not equal to the game")
    with _unchanged(g, fail, "playing on a copy"):
        cm = c.legal_moves(c.current_player) if c.is_simultaneous_node() else c.legal_moves()
        c.play(rng.choice(cm), c.current_player)
        c.undo()
    # save files load back to an equal game (hidden submissions are not saved)
    if not g.pending:
        text = g.to_json()
        try:
            back = type(g).from_json(text)
        except ValueError as exc:
            raise fail(f"its own save file does not load: {exc}") from exc
        if back != g or back.to_json() != text:
            raise fail("its own save file loads as a different game")
    # text and pictures never raise
    for show in (lambda: str(g), lambda: g.to_svg(), lambda: g.status(), lambda: repr(g)):
        try:
            out = show()
        except Exception as exc:
            raise fail(f"a display raised {type(exc).__name__}: {exc}") from exc
        if not isinstance(out, str):
            raise fail("a display did not return text")


def _check_position_text(g: Game, fail: _Fail, rng: random.Random, report: CheckReport) -> None:
    """The position as text reads back to the same game state and future: the same
    text, players to move and their legal moves, result, and the same position after
    the same next step; it starts a history of its own (undo stops there) that save
    files keep. A game without a position notation (``NotImplementedError``) is skipped."""
    fail.game = g
    try:
        text = g.position()
    except NotImplementedError:
        return
    ref = g.copy()
    while ref.pending:  # a hidden submission is never in a position
        ref.undo()
    if ref.position() != text:
        raise fail("position() shows a hidden submission")
    try:
        back = type(g).from_position(text)
    except Exception as exc:
        raise fail(f"its own position does not read back: {type(exc).__name__}: {exc} ({text[:80]!r})") from exc
    if back.position() != text or back.history or back.step_count:
        raise fail(f"the position {text[:80]!r} reads back as {back.position()[:80]!r}, or with a history")
    for p in range(len(g.players)):
        if [str(m) for m in back.legal_moves(p)] != [str(m) for m in ref.legal_moves(p)]:
            raise fail(f"read back from its position, player {p}'s legal moves differ")
    if (back.players_to_move, back.is_over, back.winners, back.returns()) != (
            ref.players_to_move, ref.is_over, ref.winners, ref.returns()):
        raise fail("read back from its position, the players to move or the result differ")
    try:
        back.undo()
    except IndexError:
        pass
    else:
        raise fail("undo went back past the position a game started at")
    if back.start_position is not None:
        loaded = type(g).from_json(back.to_json())
        if loaded != back or loaded.start_position != back.start_position:
            raise fail("the save file of a game started at a position loads as a different game")
    if not ref.is_over:
        state = rng.getstate()
        _step(ref, rng)
        rng.setstate(state)
        _step(back, rng)
        if back.position() != ref.position():
            raise fail("read back from its position, the same step leads elsewhere")
    for junk in rng.sample(_GARBAGE, 3):
        try:
            type(g).from_position(f"{g.game_id} {junk}")
        except ValueError:
            continue
        except Exception as exc:
            raise fail(f"from_position({junk!r:.30}) raised {type(exc).__name__}, not ValueError") from exc
    report.positions_read += 1


def _step(g: Game, rng: random.Random) -> int:
    """One random step (every submission of a simultaneous node); returns the plays made."""
    if g.is_simultaneous_node():
        n = 0
        for p in list(g.players_to_move):
            g.play(rng.choice(g.legal_moves(p)), p)
            n += 1
        return n
    g.play(rng.choice(g.legal_moves()))
    return 1


def _check_history(g: Game, fail: _Fail, rng: random.Random) -> None:
    """Undo to the start and redo to the end give back the exact game; goto in any order."""
    fail.game = g
    end = g.to_json()
    n = g.step_count
    with g.batch():
        while True:
            try:
                g.undo()
            except IndexError:
                break
    if g.history or g.step_count:
        raise fail("undo to the start left moves in the history")
    if len(g.future_steps) != n:
        raise fail(f"{n} steps undone, {len(g.future_steps)} to redo")
    while True:
        try:
            g.redo()
        except IndexError:
            break
        except Exception as exc:
            raise fail(f"redo after undo to the start was refused: {type(exc).__name__}: {exc}") from exc
    if g.to_json() != end:
        raise fail("undo to the start then redo to the end did not restore the game")
    order = list(range(n + 1))
    rng.shuffle(order)
    seen: dict[int, str] = {}
    loads = 0
    for i in [*order[:40], n]:
        try:
            g.goto(i)
        except Exception as exc:
            raise fail(f"goto({i}) raised {type(exc).__name__}: {exc}") from exc
        if g.step_count != i:
            raise fail(f"goto({i}) left step_count {g.step_count}")
        played = json.loads(g.to_json())["history"]
        if i in seen and seen[i] != json.dumps(played):
            raise fail(f"goto({i}) gave two different positions")
        seen[i] = json.dumps(played)
        if g.future_steps and i < n and loads < 3:
            loads += 1
            back = type(g).from_json(g.to_json())
            if back != g:
                raise fail(f"the save file at goto({i}) (with moves to redo) loads as a different game")
    if g.to_json() != end:
        raise fail("goto back to the end did not restore the game")


def _check_end(g: Game, fail: _Fail, report: CheckReport) -> None:
    fail.game = g
    r = g.returns()
    if len(r) != len(g.players):
        raise fail(f"returns() has {len(r)} values for {len(g.players)} players")
    w = g.winners
    if not w or not set(w) <= set(range(len(g.players))):
        raise fail(f"winners {w} at the end")
    if g.winner is not None and w != (g.winner,):
        raise fail("winner disagrees with winners")
    info = g.game_info
    if any(not info.min_utility <= x <= info.max_utility for x in r):
        raise fail(f"returns {r} outside {info.min_utility}..{info.max_utility}")
    utility = g.game_type.utility
    if utility is Utility.ZERO_SUM and abs(sum(r)) > 1e-9:
        raise fail(f"returns {r} of a zero-sum game sum to {sum(r)}")
    if info.utility_sum is not None and abs(sum(r) - info.utility_sum) > 1e-9:
        raise fail(f"returns {r} do not sum to game_info.utility_sum {info.utility_sum}")
    report.returns_seen.add(tuple(r))
    bound = info.max_game_length
    if bound is not None and len(g.history) > bound:
        raise fail(f"{len(g.history)} moves, more than max_game_length {bound}")
    _refused(g, fail, "a move after the end", lambda: g.play(str(g.history[-1]) if g.history else "A1"))


def _public(g: Game) -> tuple[Any, ...]:
    """Everything anyone may see of a game (for the twin test)."""
    steps = [str(s) for s in g.steps]
    return (g.to_json(), str(g), g.to_svg(), g.status(), steps, tuple(g.pending), g.current_player,
            json.dumps(g.scene().to_dict(), sort_keys=True, default=str))


def _check_twins(g: Game, fail: _Fail, rng: random.Random, report: CheckReport, widget: bool) -> None:
    """At a simultaneous node of an imperfect-information game: two games that differ only in one
    hidden submission show the same public outputs, and the others' views are the same."""
    if not g.is_simultaneous_node() or g.pending:
        return
    movers = list(g.players_to_move)
    if len(movers) < 2:
        return
    p = movers[0]
    choices = g.legal_moves(p)
    if len(choices) < 2:
        return
    a, b = g.copy(), g.copy()
    ma, mb = rng.sample(choices, 2)
    a.play(ma, p)
    b.play(mb, p)
    fail.game = a
    if _public(a) != _public(b):
        raise fail(f"a hidden submission of player {p} shows in a public output ({ma!s} vs {mb!s})")
    for q in range(len(g.players)):
        if q == p:
            continue
        va, vb = a.view_for(q), b.view_for(q)
        if _public(va) != _public(vb) or [str(m) for m in va.legal_moves(q)] != [str(m) for m in vb.legal_moves(q)]:
            raise fail(f"player {q}'s view shows player {p}'s hidden submission")
    if widget:
        wa, wb = a.widget(), b.widget()
        try:
            if json.dumps(wa.state, sort_keys=True, default=str) != json.dumps(wb.state, sort_keys=True, default=str):
                raise fail(f"the widget's state shows player {p}'s hidden submission")
        finally:
            wa.close()
            wb.close()
    report.twins += 1


def _check_widget(g: Game, fail: _Fail, rng: random.Random, report: CheckReport) -> None:
    """Malformed widget messages are refused with the game untouched; a legal click plays."""
    fail.game = g
    w = g.widget()
    try:
        bad: list[Any] = [None, "play", [], {"type": 7}, {"type": "no-such-intent"}, {"type": "play"},
                          {"type": "play", "move": 12}, {"type": "play", "move": "x" * 10_000},
                          {"type": "play", "move": rng.choice(_GARBAGE)},
                          {"type": "play", "move": "A1", "version": -5},
                          {"type": "play", "move": "A1", "player": "zero"},
                          {"type": "play", "move": "A1", "player": 99},
                          {"type": "goto", "index": "two"}, {"type": "goto", "index": 10**9},
                          {"type": "goto", "index": -1}, {"type": "goto", "index": None}]
        for message in bad:
            with _unchanged(g, fail, f"the widget message {message!r:.60}"):
                try:
                    changed = w.handle_intent(message)
                except Exception as exc:
                    raise fail(f"the widget message {message!r:.60} raised {type(exc).__name__}: {exc}") from exc
            if changed:
                raise fail(f"the widget message {message!r:.60} was accepted")
            text = str(w.state.get("message", ""))
            if not text or len(text) > 500:
                raise fail(f"the widget message {message!r:.60} was refused with the status {text[:80]!r}")
            report.widget_messages += 1
        if not g.is_over:
            p = g.current_player
            moves = g.legal_moves(p) if g.is_simultaneous_node() else g.legal_moves()
            move = rng.choice(moves)
            before = g.version
            ok = w.handle_intent({"type": "play", "move": str(move), "version": g.version, "player": p})
            if not ok or g.version == before:
                raise fail(f"the widget refused the legal move {move!s}: {w.state.get('message')}")
            report.widget_messages += 1
            g.undo()
    finally:
        w.close()


def check_game(
    cls: type[Game],
    n_games: int = 10,
    seed: int = 0,
    *,
    max_moves: int | None = 2_000,
    deep_every: int = 7,
    widget: bool = True,
    fuzz: int = 0,
    **options: Any,
) -> CheckReport:
    """Check that a game class keeps the game protocol, on seeded random games.

    Args:
        cls: the game class (a :class:`~gridwidgets.core.Game` subclass).
        n_games: how many random games.
        seed: seeds the games and every sample: the same seed checks the same positions.
        max_moves: stop a game after this many moves (a game whose ``max_game_length``
            is ``None`` may never end by random play).
        deep_every: check every this-many-th position in depth (illegal input, copies,
            save files, displays); every position gets the light checks.
        widget: also check the widget's handling of messages (imports the widgets).
        fuzz: also try this many fuzzed inputs of each kind, save files, hand-built
            move objects and (with ``widget``) page messages, from the hypothesis
            strategies of :mod:`gridwidgets.fuzzing` (needs ``hypothesis``).
        **options: the game's constructor options.

    Returns:
        A :class:`CheckReport` of what was checked.

    Raises:
        GameCheckError: (an ``AssertionError``) on the first broken promise, saying
            what, after which moves, and with which options.
    """
    fail = _Fail(cls, options)
    report = CheckReport(cls.game_type.short_name if hasattr(cls, "game_type") else cls.__name__, dict(options))
    rng = random.Random(f"check_game|{seed}")
    probe = cls(**options)
    _check_metadata(cls, probe, fail)
    imperfect = cls.game_type.information is Information.IMPERFECT
    for k in range(n_games):
        g = cls.new_for_seed(options, rng.randrange(2**31))
        seen: set[str] = set()
        plays = 0
        positions = 0
        while not g.is_over and (max_moves is None or plays < max_moves):
            deep = positions % deep_every == k % deep_every
            _check_position(g, fail, rng, report, deep, seen)
            if imperfect and deep:
                _check_twins(g, fail, rng, report, widget)
            if deep:
                _check_position_text(g, fail, rng, report)
            if widget and deep and positions % (deep_every * 5) == 0:
                _check_widget(g, fail, rng, report)
            # a hidden submission, then undo: withdrawn, not kept for redo
            if g.is_simultaneous_node() and deep and len(g.players_to_move) > 1:
                fail.game = g
                p = g.current_player
                before = (g.to_json(), g.step_count)
                g.play(rng.choice(g.legal_moves(p)), p)
                if g.undo() is not None or (g.to_json(), g.step_count) != before or g.pending:
                    raise fail("undo did not withdraw a hidden submission cleanly")
            before = (str(g), g.current_player, [str(m) for m in g.legal_moves(g.current_player)])
            n = _step(g, rng)
            plays += n
            positions += 1
            fail.game = g
            if deep:
                after = g.to_json()
                try:
                    g.undo()
                    back = (str(g), g.current_player, [str(m) for m in g.legal_moves(g.current_player)])
                    g.redo()
                except Exception as exc:
                    raise fail(f"undo then redo of the last step raised {type(exc).__name__}: {exc}") from exc
                if back != before:
                    raise fail("undo did not give back the position before the last step")
                if g.to_json() != after:
                    raise fail("undo then redo did not give back the same game")
            bound = g.game_info.max_game_length
            if bound is not None and len(g.history) > bound:
                raise fail(f"{len(g.history)} moves, more than max_game_length {bound}")
        report.moves += plays
        if g.is_over:
            _check_end(g, fail, report)
        _check_history(g, fail, rng)
        if widget and k == 0:
            _check_widget(g, fail, rng, report)
        report.games += 1
    if fuzz:
        from .fuzzing import fuzz_files, fuzz_messages, fuzz_moves

        fail.game = None
        for run in (fuzz_files, fuzz_moves, *((fuzz_messages,) if widget else ())):
            found = run(cls, n=fuzz, seed=seed, **options)
            report.fuzzed += found.tried
            if not found.ok:
                raise fail(f"fuzzed input broke the protocol: {found}")
    return report


# ----------------------------------------------------------------------
# Golden playthroughs
# ----------------------------------------------------------------------
def playthrough(cls: type[Game], seed: int = 0, max_steps: int = 400, **options: Any) -> str:
    """One seeded random game as text: the options, then for each step the
    position (``str(game)``), the status, the legal moves of the players to
    move, and the move(s) chosen; then the result. Hidden submissions are
    written only once the joint action is revealed. Two runs with the same
    arguments give the same text: golden files diff it.

    Args:
        cls: the game class.
        seed: seeds the setup (if it is drawn by chance) and the moves.
        max_steps: stop after this many steps.
        **options: constructor options.
    """
    rng = random.Random(f"playthrough|{seed}")
    g = cls.new_for_seed(options, seed)
    out = [f"game: {cls.game_type.short_name}", f"options: {json.dumps(g.options(), sort_keys=True)}",
           f"seed: {seed}", f"type: {cls.game_type}", ""]
    steps = 0
    while not g.is_over and steps < max_steps:
        out.append(f"## step {steps + 1}")
        out.append(str(g))
        out.append(f"status: {g.status()}")
        if g.is_simultaneous_node():
            for p in g.players_to_move:
                moves = [str(m) for m in g.legal_moves(p)]
                out.append(f"legal for {g.players[p]} ({len(moves)}): {' '.join(moves)}")
        else:
            moves = [str(m) for m in g.legal_moves()]
            shown = " ".join(moves) if len(moves) <= 40 else " ".join(moves[:40]) + f" ... ({len(moves) - 40} more)"
            out.append(f"legal for {g.players[g.current_player]} ({len(moves)}): {shown}")  # type: ignore[index]
        _step(g, rng)
        out.append(f"played: {g.steps[-1]}")
        out.append("")
        steps += 1
    out.append("## end")
    out.append(str(g))
    out.append(f"status: {g.status()}")
    out.append(f"winners: {list(g.winners)}  returns: {list(g.returns())}  scores: {list(g.scores)}")
    out.append(f"history: {' '.join(str(m) for m in g.history)}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m gridwidgets.testing golden DIR [NAME ...]``: write the golden
    playthrough of every registered game (or the ones named) into ``DIR``;
    ``python -m gridwidgets.testing check NAME``: run :func:`check_game` on a registered game."""
    import argparse

    from .core import registry

    ap = argparse.ArgumentParser(prog="python -m gridwidgets.testing", description=main.__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    gold = sub.add_parser("golden", help="write the golden playthroughs")
    gold.add_argument("directory")
    gold.add_argument("names", nargs="*")
    chk = sub.add_parser("check", help="run check_game on a registered game")
    chk.add_argument("name")
    chk.add_argument("--games", type=int, default=10)
    args = ap.parse_args(argv)
    if args.command == "check":
        print(check_game(registry.get(args.name), n_games=args.games))
        return 0
    import pathlib

    directory = pathlib.Path(args.directory)
    directory.mkdir(parents=True, exist_ok=True)
    for name in args.names or registry.names():
        cls = registry.get(name)
        path = directory / f"{cls.game_type.short_name}.txt"
        path.write_text(playthrough(cls, seed=GOLDEN_SEED, **cls.small_options))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
