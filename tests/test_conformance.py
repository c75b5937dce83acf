"""The public conformance check (gridwidgets.testing.check_game) on every registered
game, on deliberately broken games (each must fail it), and the golden playthroughs.

Regenerate the golden files with ``make golden`` after a deliberate change of a
game's rules or displays, and read the diff before committing it.
"""

from __future__ import annotations

import pathlib
from typing import Any, ClassVar

import numpy as np
import pytest

import gridwidgets as gw
from gridwidgets.core import CellMove, Game, GameType, IllegalMoveError, parse_cell
from gridwidgets.core.gametype import Dynamics, Information, MoveKind
from gridwidgets.testing import GOLDEN_SEED, GameCheckError, check_game, playthrough

GOLDEN = pathlib.Path(__file__).parent / "golden"
NAMES = gw.registry.names()


# -- every registered game keeps the protocol --------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_every_registered_game_passes_check_game_on_small_boards(name):
    cls = gw.registry.get(name)
    report = check_game(cls, n_games=6, seed=1, **cls.small_options)
    assert report.games == 6 and report.moves > 0 and report.positions > 0 and report.illegal_refused > 0
    if cls.game_type.information is Information.IMPERFECT:
        assert report.twins > 0  # the hidden-information twins were compared


@pytest.mark.parametrize("name", NAMES)
def test_every_registered_game_passes_check_game_with_its_default_options(name):
    cls = gw.registry.get(name)
    report = check_game(cls, n_games=1, seed=2, deep_every=25)
    assert report.games == 1


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("gridbloc", {"size": 4, "setup": True}),
        ("gridbloc", {"size": 6, "holes": ["A1", "F6"], "walls": ["C3|C4"]}),
        ("gridmaster4", {"size": 6, "players": 1, "tiles": 36}),
        ("gridmaster4", {"size": 7, "players": 3, "deactivate": "all"}),
        ("gridlock", {"rows": 1, "cols": 7}),
        ("blockfour", {"x_table": ["I", "Z"]}),
    ],
)
def test_variants_pass_check_game(name, options):
    report = check_game(gw.registry.get(name), n_games=3, seed=3, max_moves=400, **options)
    assert report.games == 3


def test_gb10_setup_has_no_length_bound_and_the_check_stops_it():
    # GB-10: the setup phase may move the start as often as Player 1 likes
    assert gw.GridBloc(setup=True).game_info.max_game_length is None
    assert gw.GridBloc().game_info.max_game_length == 2 * (2 * 144 + 1)


# -- a small correct game, and broken variants of it ---------------------------------
class Line(Game):
    """A correct little game for the broken variants below: two players take
    turns placing a mark on an empty cell of a 1x5 strip; three in a row win,
    a full strip is a draw."""

    game_type = GameType(short_name="conformance_line", long_name="Line", move_kinds=(MoveKind.CELL,))
    players = ("X", "O")
    rows, cols = 1, 5

    def __init__(self) -> None:
        super().__init__()
        self._cells = [-1] * 5
        self._turn = 0

    def options(self) -> dict[str, Any]:
        return {}

    def parse_move(self, value: Any, player: int | None = None) -> CellMove:
        if isinstance(value, CellMove):
            value = value.cell
        return CellMove(parse_cell(value, 1, 5))

    def legal_moves(self, player: int | None = None) -> list[CellMove]:
        if self.current_player is None or player not in (None, self._turn):
            return []
        return [CellMove((0, c)) for c in range(5) if self._cells[c] < 0]

    def _check(self, move: CellMove) -> None:
        if self._cells[move.cell[1]] >= 0:
            raise IllegalMoveError(f"{move} is taken", rule="L-1", move=move)

    def _apply(self, move: CellMove) -> None:
        self._cells[move.cell[1]] = self._turn
        self._turn = 1 - self._turn

    def _snapshot(self) -> Any:
        return (self._cells[:], self._turn)

    def _restore(self, snapshot: Any) -> None:
        cells, self._turn = snapshot
        self._cells = cells[:]

    def _line(self) -> int:
        c = self._cells
        for i in range(3):
            if c[i] >= 0 and c[i] == c[i + 1] == c[i + 2]:
                return c[i]
        return -1

    @property
    def current_player(self) -> int | None:
        return None if self._line() >= 0 or min(self._cells) >= 0 else self._turn

    @property
    def winners(self) -> tuple[int, ...]:
        if self.current_player is not None:
            return ()
        w = self._line()
        return (w,) if w >= 0 else (0, 1)

    @property
    def scores(self) -> tuple[int, ...]:
        return (self._cells.count(0), self._cells.count(1))

    @property
    def board(self) -> np.ndarray:
        a = np.array([self._cells], dtype=np.int8)
        a.flags.writeable = False
        return a

    def max_game_length(self) -> int:
        return 5


def test_the_small_correct_game_passes():
    assert check_game(Line, n_games=20, seed=0).games == 20


class SharedSnapshot(Line):
    """Broken: the snapshot shares the list it copies, so undo does not restore."""

    def _snapshot(self) -> Any:
        return (self._cells, self._turn)

    def _restore(self, snapshot: Any) -> None:
        self._cells, self._turn = snapshot


class TakenIsLegal(Line):
    """Broken: legal_moves offers taken cells."""

    def legal_moves(self, player: int | None = None) -> list[CellMove]:
        if self.current_player is None or player not in (None, self._turn):
            return []
        return [CellMove((0, c)) for c in range(5)]


class NotZeroSum(Line):
    """Broken: declares zero-sum, but a draw pays both players."""

    def returns(self) -> tuple[float, ...]:
        r = super().returns()
        return (1.0, 1.0) if len(self.winners) == 2 else r


class TooShort(Line):
    """Broken: claims games last at most 2 moves."""

    def max_game_length(self) -> int:
        return 2


class BadNotation(Line):
    """Broken: a move's notation does not read back as the same move."""

    def parse_move(self, value: Any, player: int | None = None) -> CellMove:
        m = super().parse_move(value, player)
        if isinstance(value, str):
            return CellMove((0, (m.cell[1] + 1) % 5))
        return m


class ChangesOnIllegal(Line):
    """Broken: an illegal move flips the turn before it is refused."""

    def _check(self, move: CellMove) -> None:
        if self._cells[move.cell[1]] >= 0:
            self._turn = 1 - self._turn
        super()._check(move)


class GarbageCrashes(Line):
    """Broken: unreadable input raises a TypeError instead of IllegalMoveError (C-5)."""

    def parse_move(self, value: Any, player: int | None = None) -> CellMove:
        if value is None:
            raise TypeError("no move")
        return super().parse_move(value, player)


class WrongPlayerCount(Line):
    """Broken: the metadata says three players, the game has two."""

    game_type = GameType(short_name="conformance_wrong", long_name="Wrong", min_players=3, max_players=3)


@pytest.mark.parametrize(
    ("broken", "complaint"),
    [
        (SharedSnapshot, "undo"),
        (TakenIsLegal, "legal move|accepted|is_legal"),
        (NotZeroSum, "zero-sum"),
        (TooShort, "max_game_length"),
        (BadNotation, "read.? back"),
        (ChangesOnIllegal, "changed the game"),
        (GarbageCrashes, "TypeError"),
        (WrongPlayerCount, "players"),
    ],
)
def test_a_broken_game_fails_check_game(broken, complaint):
    with pytest.raises(GameCheckError, match=complaint):
        check_game(broken, n_games=20, seed=0, widget=False)


class Guess(Game):
    """A correct little simultaneous game: both players secretly pick a cell of
    a 1x3 strip; different cells: each scores their cell's number; equal cells:
    nothing. Three rounds; the higher total wins."""

    game_type = GameType(short_name="conformance_guess", long_name="Guess", dynamics=Dynamics.SIMULTANEOUS,
                         information=Information.IMPERFECT, move_kinds=(MoveKind.CELL,))
    players = ("A", "B")
    rows, cols = 1, 3
    leak: ClassVar[bool] = False

    def __init__(self) -> None:
        super().__init__()
        self._round = 0
        self._score = [0, 0]

    def options(self) -> dict[str, Any]:
        return {}

    def parse_move(self, value: Any, player: int | None = None) -> CellMove:
        if isinstance(value, CellMove):
            value = value.cell
        return CellMove(parse_cell(value, 1, 3))

    def legal_moves(self, player: int | None = None) -> list[CellMove]:
        if player is None:
            player = self.current_player
        if player is None or player in self._pending:
            return []
        return [CellMove((0, c)) for c in range(3)]

    def _simultaneous(self) -> tuple[int, ...]:
        return (0, 1) if self._round < 3 else ()

    def _check(self, move: CellMove) -> None:
        return None

    def _apply(self, move: CellMove) -> None:  # pragma: no cover - every node is simultaneous
        raise AssertionError

    def _apply_joint(self, moves: tuple[Any, ...]) -> None:
        a, b = (m.cell[1] for m in moves)
        if a != b:
            self._score[0] += a + 1
            self._score[1] += b + 1
        self._round += 1

    def _snapshot(self) -> Any:
        return (self._round, self._score[:])

    def _restore(self, snapshot: Any) -> None:
        self._round, score = snapshot
        self._score = score[:]

    @property
    def current_player(self) -> int | None:
        return self._first_to_submit()

    @property
    def winners(self) -> tuple[int, ...]:
        if self._round < 3:
            return ()
        a, b = self._score
        return (0, 1) if a == b else ((0,) if a > b else (1,))

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._score)

    @property
    def board(self) -> np.ndarray:
        return np.full((1, 3), -1, dtype=np.int8)

    def max_game_length(self) -> int:
        return 6

    def status(self) -> str:
        text = super().status()
        if self.leak and self._pending:
            text += " " + ",".join(str(m) for m in self._pending.values())
        return text


class LeakyGuess(Guess):
    """Broken: the status line shows the hidden submissions."""

    leak = True


def test_the_small_simultaneous_game_passes_and_its_twins_are_compared():
    report = check_game(Guess, n_games=10, seed=0)
    assert report.twins > 0 and report.games == 10


def test_a_game_that_shows_a_hidden_submission_fails_check_game():
    with pytest.raises(GameCheckError, match="hidden submission"):
        check_game(LeakyGuess, n_games=10, seed=0)


# -- golden playthroughs -------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_golden_playthrough(name):
    cls = gw.registry.get(name)
    path = GOLDEN / f"{cls.game_type.short_name}.txt"
    assert path.exists(), f"no golden playthrough for {name}: run `make golden` and commit {path}"
    now = playthrough(cls, seed=GOLDEN_SEED, **cls.small_options)
    assert now == path.read_text(), (
        f"the playthrough of {name} differs from {path}: if the change is meant, run `make golden` and read the diff"
    )


def test_playthrough_is_deterministic_and_reveals_joint_actions_only():
    a = playthrough(gw.BlockFour, seed=5)
    assert a == playthrough(gw.BlockFour, seed=5)
    assert a != playthrough(gw.BlockFour, seed=6)
    # a bid is written once the joint action is revealed, as one step (BF-5)
    assert "played: " in a and " + " in a
