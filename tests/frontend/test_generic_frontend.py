"""The generic front end (js/src/generic.ts) on games that have no layer of their
own: the docs games (Dots and Boxes: edge moves and border edges; Claim:
simultaneous picks) and two games defined here (dominoes: moves of two cells;
take-away: choice moves). Clicks and keys in Chromium, the Python game checked."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
for p in (HERE, HERE.parent):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import frontend_harness as fh  # noqa: E402

pytestmark = pytest.mark.browser

if not fh.CHROMIUM.exists():
    pytest.skip(f"{fh.CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)
if not (fh.STATIC / "widget.js").is_file():
    pytest.skip("the front end is not built (npm run build)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

from docgames import load  # noqa: E402

from gridwidgets.core import Game, GameType, IllegalMoveError, InvalidMoveError, MoveKind, cell_name, parse_cell  # noqa: E402

GAMES = load()


def wait_version(page: Any, version: int) -> None:
    page.wait_for_selector(f'.gw-root[data-version="{version}"]', state="attached", timeout=5_000)


def open_game(page: Any, server: Any, game: Any, **options: Any) -> tuple[Any, Any]:
    widget = game.widget(**options)
    return widget, fh.open_widget(page, server, widget)


# -- games defined here -----------------------------------------------------------
class Domino:
    """A move of Dominoes: two orthogonally adjacent cells, written ``A1-B1``."""

    def __init__(self, a: tuple[int, int], b: tuple[int, int]) -> None:
        self.cells = tuple(sorted((a, b)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Domino) and other.cells == self.cells

    def __hash__(self) -> int:
        return hash(self.cells)

    def __str__(self) -> str:
        return "-".join(cell_name(c) for c in self.cells)


class Dominoes(Game):
    """Players take turns covering two adjacent empty cells of a 2x3 board; who cannot move loses."""

    game_type = GameType(short_name="test_dominoes", long_name="Dominoes", move_kinds=(MoveKind.CELLS,))
    players = ("A", "B")
    rows, cols = 2, 3

    def __init__(self) -> None:
        super().__init__()
        self._board = np.full((2, 3), -1, dtype=np.int8)
        self._turn = 0

    def options(self) -> dict[str, Any]:
        return {}

    def parse_move(self, value: Any, player: int | None = None) -> Domino:
        if isinstance(value, Domino):
            return value
        if not isinstance(value, str) or value.count("-") != 1:
            raise InvalidMoveError(f"cannot read {str(value)[:20]!r}: write two cells like 'A1-B1'", rule="DO-2",
                                   move=value)
        a, b = (parse_cell(x, 2, 3) for x in value.split("-"))
        return Domino(a, b)

    def legal_moves(self, player: int | None = None) -> list[Domino]:
        if self.current_player is None or player not in (None, self._turn):
            return []
        return self._moves()

    def _moves(self) -> list[Domino]:
        out = []
        for r in range(2):
            for c in range(3):
                for rr, cc in ((r, c + 1), (r + 1, c)):
                    if rr < 2 and cc < 3 and self._board[r, c] < 0 and self._board[rr, cc] < 0:
                        out.append(Domino((r, c), (rr, cc)))
        return out

    def _check(self, move: Domino) -> None:
        (r1, c1), (r2, c2) = move.cells
        if abs(r1 - r2) + abs(c1 - c2) != 1 or self._board[r1, c1] >= 0 or self._board[r2, c2] >= 0:
            raise IllegalMoveError(f"{move} is not two adjacent empty cells", rule="DO-1", move=move)

    def _apply(self, move: Domino) -> None:
        for cell in move.cells:
            self._board[cell] = self._turn
        self._turn = 1 - self._turn

    def _snapshot(self) -> Any:
        return (self._board.copy(), self._turn)

    def _restore(self, snapshot: Any) -> None:
        board, self._turn = snapshot
        self._board = board.copy()

    @property
    def current_player(self) -> int | None:
        return self._turn if self._moves() else None

    @property
    def winners(self) -> tuple[int, ...]:
        return () if self._moves() else (1 - self._turn,)

    @property
    def scores(self) -> tuple[int, ...]:
        return (int((self._board == 0).sum()), int((self._board == 1).sum()))

    @property
    def board(self) -> np.ndarray:
        return self._board.copy()


class Take:
    """A choice: take ``n`` counters."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Take) and other.n == self.n

    def __hash__(self) -> int:
        return self.n

    def __str__(self) -> str:
        return f"take {self.n}"


class TakeAway(Game):
    """Five counters; players take one or two in turn; who takes the last wins."""

    game_type = GameType(short_name="test_takeaway", long_name="Take-away", move_kinds=(MoveKind.CHOICE,))
    players = ("A", "B")
    rows, cols = 1, 5

    def __init__(self) -> None:
        super().__init__()
        self._left = 5
        self._turn = 0

    def options(self) -> dict[str, Any]:
        return {}

    def parse_move(self, value: Any, player: int | None = None) -> Take:
        if isinstance(value, Take):
            return value
        if isinstance(value, str) and value.strip() in ("take 1", "take 2"):
            return Take(int(value.strip()[-1]))
        raise InvalidMoveError("write 'take 1' or 'take 2'", rule="TA-1", move=value)

    def legal_moves(self, player: int | None = None) -> list[Take]:
        if self.current_player is None or player not in (None, self._turn):
            return []
        return [Take(n) for n in (1, 2) if n <= self._left]

    def _check(self, move: Take) -> None:
        if move.n > self._left:
            raise IllegalMoveError("not that many left", rule="TA-1", move=move)

    def _apply(self, move: Take) -> None:
        self._left -= move.n
        self._turn = 1 - self._turn

    def _snapshot(self) -> Any:
        return (self._left, self._turn)

    def _restore(self, snapshot: Any) -> None:
        self._left, self._turn = snapshot

    @property
    def current_player(self) -> int | None:
        return self._turn if self._left else None

    @property
    def winners(self) -> tuple[int, ...]:
        return () if self._left else (1 - self._turn,)

    @property
    def scores(self) -> tuple[int, ...]:
        return (0, 0)

    @property
    def board(self) -> np.ndarray:
        return np.array([[0 if c < self._left else -1 for c in range(5)]], dtype=np.int8)

    def cell_text(self, cell: tuple[int, int]) -> str:
        return "o" if cell[1] < self._left else ""


# -- edges: Dots and Boxes ------------------------------------------------------------
def test_edge_moves_are_slots_on_every_legal_line_border_lines_too(page, server):
    game = GAMES["DotsAndBoxes"]()
    widget, _ = open_game(page, server, game)
    slots = page.locator("[data-edge]")
    expect(slots).to_have_count(len(game.legal_moves()))
    assert page.locator('.gw-root[data-layer="generic"]').count() == 1
    for line in ["A1N", "A1W", "A2N"]:  # the north and west border lines, an inner line (A1S is A2N)
        page.locator(f'[data-edge="{line}"]').click()
        wait_version(page, game.version)
    assert [str(m) for m in game.history] == ["A1N", "A1W", "A2N"]
    expect(slots).to_have_count(len(game.legal_moves()))
    expect(page.locator(".gw-scene-edge")).to_have_count(3)
    # Blue closes A1 with the keyboard (Tab reaches the slot, Enter draws) and draws again (DB-2)
    page.locator('[data-edge="B1W"]').focus()
    page.keyboard.press("Enter")
    wait_version(page, game.version)
    assert game.scores == (0, 1) and game.current_player == 1
    expect(page.locator(".gw-region-tint")).to_have_count(1)
    expect(page.locator(".gw-scene-edge.is-last")).to_have_count(1)
    widget.close()


def test_the_history_slider_moves_by_steps_and_sends_goto(page, server):
    game = GAMES["DotsAndBoxes"]()
    for line in ["A1N", "A1W", "A1S", "A1E"]:
        game.play(line)
    widget, bridge = open_game(page, server, game)
    rng = page.locator('input[type="range"][data-action="goto"]')
    expect(rng).to_have_attribute("max", "4")
    rng.fill("1")
    wait_version(page, game.version)
    assert game.step_count == 1 and bridge.sent[-1] == {"type": "goto", "index": 1}
    expect(page.locator(".gw-moves li.is-future")).to_have_count(3)
    widget.close()


# -- simultaneous picks: Claim ----------------------------------------------------------
def test_simultaneous_picks_are_hidden_until_both_are_in(page, server):
    game = GAMES["Claim"]()
    widget, bridge = open_game(page, server, game)
    page.locator('[data-cell="B1"]').click()  # A picks B1 (the page plays for current_player)
    wait_version(page, game.version)
    assert game.pending == (0,) and game.history == []
    # nothing the page was sent names the pick: the state is the same as for another pick
    other = GAMES["Claim"]()
    other.play("C2", player=0)
    assert bridge.shown["state"]["steps"] == [] and widget.game_state()["legal"] == other.widget().game_state()["legal"]
    expect(page.locator('[data-role="status"]')).to_contain_text("Player 1 (A) has chosen")
    page.locator('[data-cell="C1"]').click()  # B picks C1: revealed, one step
    wait_version(page, game.version)
    assert [str(s) for s in game.steps] == ["B1 + C1"] and game.scores == (2, 3)
    expect(page.locator(".gw-moves li").nth(1)).to_have_text("1. B1 + C1")
    widget.close()


# -- several cells: Dominoes -------------------------------------------------------------
def test_a_multi_cell_move_is_picked_cell_by_cell(page, server):
    game = Dominoes()
    widget, _ = open_game(page, server, game)
    page.locator('[data-cell="A1"]').click()
    expect(page.locator('[data-picked="A1"]')).to_have_count(1)
    expect(page.locator(".gw-candidate")).to_have_count(2)  # B1 and A2 still make a domino with A1
    assert game.version == 0
    page.keyboard.press("Escape")  # clears the pick
    expect(page.locator("[data-picked]")).to_have_count(0)
    page.locator('[data-cell="A1"]').click()
    page.locator('[data-cell="B1"]').click()
    wait_version(page, 1)
    assert [str(m) for m in game.history] == ["A1-B1"]
    # keys: arrows and Enter pick too
    page.locator('[data-cell="C1"]').click()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    wait_version(page, 2)
    assert [str(m) for m in game.history] == ["A1-B1", "C1-C2"]
    widget.close()


# -- choices: Take-away ---------------------------------------------------------------------
def test_choice_moves_are_buttons(page, server):
    game = TakeAway()
    widget, _ = open_game(page, server, game)
    buttons = page.locator("[data-choice]")
    expect(buttons).to_have_count(2)
    page.locator('[data-choice="take 2"]').click()
    wait_version(page, 1)
    page.locator('[data-choice="take 2"]').click()
    wait_version(page, 2)
    page.locator('[data-choice="take 1"]').click()
    wait_version(page, 3)
    assert game.is_over and game.winner == 0
    expect(buttons).to_have_count(0)
    widget.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_of_a_generic_board(page, server, theme, tmp_path):
    game = GAMES["DotsAndBoxes"](rows=3, cols=3)
    for line in ["A1N", "A1W", "A1S", "A1E", "B2N", "C3E"]:
        game.play(line)
    widget = game.widget()
    fh.open_widget(page, server, widget, theme=theme)
    page.set_viewport_size({"width": 1280, "height": 720})
    out = Path(__file__).resolve().parents[2] / ".screenshots"
    out.mkdir(exist_ok=True)
    path = out / f"generic-dotsandboxes-{theme}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 5_000
    widget.close()
