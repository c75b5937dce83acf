"""The built front end (gridwidgets/static/widget.js) against the real Python
widget, without Jupyter: a plain page, a fake anywidget model bridged to the
widget in-process (frontend_harness.py), Debian's Chromium via Playwright.

Run: ``npm run build && pytest tests/frontend``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import frontend_harness as fh  # noqa: E402  (tests/frontend/frontend_harness.py)

pytestmark = pytest.mark.browser

if not fh.CHROMIUM.exists():
    pytest.skip(f"{fh.CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)
if not (fh.STATIC / "widget.js").is_file() or not (fh.STATIC / "widget.css").is_file():
    pytest.skip("the front end is not built (npm run build)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

import gridwidgets as gw  # noqa: E402

# server, chromium, page: tests/frontend/conftest.py


@pytest.fixture
def board(page, server):
    """A fresh 4x4 Gridlock, its widget and the page showing it."""
    game = gw.Gridlock()
    widget = game.widget()
    bridge = fh.open_widget(page, server, widget)
    yield game, widget, bridge, page
    widget.close()


def cell(page, name):
    return page.locator(f'[data-cell="{name}"]')


def wait_version(page, version):
    page.wait_for_selector(f'.gw-root[data-version="{version}"]', state="attached", timeout=5_000)


def status(page):
    return page.locator('[data-role="status"]')


def message(page):
    return page.locator('[data-role="message"]')


# ---------------------------------------------------------------------------


def test_initial_render(board):
    game, _, _, page = board
    root = page.locator(".gw-root")
    expect(root).to_have_attribute("data-game", "gridlock")
    expect(root).to_have_attribute("data-version", str(game.version))
    assert page.locator("[data-cell]").count() == 16
    expect(cell(page, "A1")).to_have_attribute("aria-label", "A1, empty")
    expect(status(page)).to_have_text(game.status())
    assert page.locator(".gw-labels text").all_text_contents() == ["A", "B", "C", "D", "1", "2", "3", "4"]
    board_el = page.locator(".gw-board")
    expect(board_el).to_have_attribute("tabindex", "0")
    expect(board_el).to_have_attribute("data-lm-suppress-shortcuts", "true")
    for action in ("undo", "redo", "new", "toggle-forbidden"):
        assert page.locator(f'button[data-action="{action}"]').count() == 1
    expect(page.locator('input[type="range"][data-action="goto"]')).to_be_disabled()
    # fits a notebook column
    assert page.locator(".gw-svg").bounding_box()["width"] <= 480


def test_click_plays_the_move_in_python(board):
    game, _, bridge, page = board
    cell(page, "B2").click()
    wait_version(page, 1)
    assert [str(m) for m in game.history] == ["B2"]
    assert bridge.sent == [{"type": "play", "move": "B2", "version": 0, "player": 0}]
    expect(cell(page, "B2")).to_have_attribute("aria-label", "B2, X")
    expect(cell(page, "B2")).to_have_attribute("aria-description", "last move")
    expect(cell(page, "B2")).to_have_class("gw-cell is-last")
    expect(status(page)).to_have_text(game.status())
    assert page.locator(".gw-pieces path.gw-mark").count() == 1  # the X
    cell(page, "D4").click()
    wait_version(page, 2)
    assert [str(m) for m in game.history] == ["B2", "D4"]
    assert page.locator(".gw-pieces circle.gw-mark").count() == 1  # the O
    expect(page.locator('[data-action="goto"]')).to_have_value("2")
    expect(page.locator(".gw-pos")).to_have_text("move 2 of 2")


def test_forbidden_click_is_sent_and_refused_by_python(board):
    game, _, bridge, page = board
    cell(page, "B2").click()
    wait_version(page, 1)
    # shown by default: B3 is next to X, so O may not use it (GL-3)
    b3 = cell(page, "B3")
    expect(b3).to_have_attribute("aria-label", "B3, empty, forbidden (GL-3)")
    expect(b3.locator(".gw-forb")).to_be_visible()
    b3.click()
    expect(message(page)).to_contain_text("GL-3")
    expect(message(page)).to_have_class("gw-message is-error")
    assert bridge.sent[-1] == {"type": "play", "move": "B3", "version": 1, "player": 1}
    assert [str(m) for m in game.history] == ["B2"]
    expect(page.locator(".gw-root")).to_have_attribute("data-version", "1")
    expect(b3).to_have_attribute("aria-label", "B3, empty, forbidden (GL-3)")
    # the next legal move clears the message
    cell(page, "D4").click()
    wait_version(page, 2)
    expect(message(page)).to_have_text("")


def test_undo_redo_new_buttons(board):
    game, _, _, page = board
    undo = page.locator('button[data-action="undo"]')
    redo = page.locator('button[data-action="redo"]')
    expect(undo).to_be_disabled()
    expect(redo).to_be_disabled()
    for i, name in enumerate(["A1", "D4", "A3"], start=1):
        cell(page, name).click()
        wait_version(page, i)
    undo.click()
    wait_version(page, 4)
    assert [str(m) for m in game.history] == ["A1", "D4"]
    assert [str(m) for m in game.future] == ["A3"]
    expect(cell(page, "A3")).to_have_attribute("aria-label", "A3, empty")
    expect(page.locator(".gw-pos")).to_have_text("move 2 of 3")
    expect(page.locator(".gw-moves li.is-future")).to_have_text(["3. A3"])
    redo.click()
    wait_version(page, 5)
    assert [str(m) for m in game.history] == ["A1", "D4", "A3"]
    expect(cell(page, "A3")).to_have_attribute("aria-label", "A3, X")
    expect(redo).to_be_disabled()
    page.locator('button[data-action="new"]').click()
    wait_version(page, 6)
    assert game.history == [] and game.future == []
    assert page.locator(".gw-pieces .gw-mark").count() == 0
    expect(undo).to_be_disabled()


def test_history_scrubber(board):
    game, _, bridge, page = board
    for i, name in enumerate(["A1", "D4", "A3"], start=1):
        cell(page, name).click()
        wait_version(page, i)
    rng = page.locator('input[type="range"][data-action="goto"]')
    expect(rng).to_have_attribute("max", "3")
    rng.focus()
    page.keyboard.press("Home")
    expect(page.locator(".gw-pos")).to_have_text("move 0 of 3")
    wait_version(page, game.version)  # seeking steps the version once per move
    assert game.history == [] and len(game.future) == 3
    page.keyboard.press("ArrowRight")
    expect(page.locator(".gw-pos")).to_have_text("move 1 of 3")
    wait_version(page, game.version)
    assert [str(m) for m in game.history] == ["A1"]
    expect(rng).to_have_value("1")
    expect(cell(page, "A1")).to_have_attribute("aria-label", "A1, X")
    assert bridge.sent[-2:] == [{"type": "goto", "index": 0}, {"type": "goto", "index": 1}]
    # the move list seeks too
    page.locator('.gw-moves li[data-index="3"]').click()
    expect(page.locator(".gw-pos")).to_have_text("move 3 of 3")
    assert [str(m) for m in game.history] == ["A1", "D4", "A3"]


def test_keyboard_arrows_and_enter(board):
    game, _, _, page = board
    page.evaluate("() => { window.leaked = []; document.addEventListener('keydown', e => window.leaked.push(e.key)); }")
    board_el = page.locator(".gw-board")
    board_el.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    expect(page.locator(".gw-focus")).to_be_visible()
    expect(board_el).to_have_attribute("aria-activedescendant", cell(page, "B2").get_attribute("id"))
    page.keyboard.press("Enter")
    wait_version(page, 1)
    assert [str(m) for m in game.history] == ["B2"]
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press(" ")
    wait_version(page, 2)
    assert [str(m) for m in game.history] == ["B2", "D4"]
    page.keyboard.press("u")
    wait_version(page, 3)
    assert [str(m) for m in game.history] == ["B2"]
    page.keyboard.press("r")
    wait_version(page, 4)
    assert [str(m) for m in game.history] == ["B2", "D4"]
    # JupyterLab (command mode) never sees the keys the board handled
    assert page.evaluate("window.leaked") == []


def test_keys_on_the_board_never_reach_the_notebook_vs_code(board):
    """VS Code and JupyterLab bind keys on the page around the output (Delete
    or "dd" deletes the cell, arrows leave it, "a"/"b"/"x" add or cut cells):
    a key pressed on the board or on one of the widget's controls stops at the
    widget's root (stopPropagation); Shift+Enter (run the cell) and modified
    keys pass."""
    game, _, _, page = board
    page.evaluate("""() => {
        window.leaked = [];
        for (const target of [document, window, document.body]) {
            target.addEventListener('keydown', e => window.leaked.push(e.key + (e.shiftKey ? '+shift' : '')));
        }
    }""")
    page.locator(".gw-board").focus()
    for key in ("Delete", "Backspace", "ArrowUp", "ArrowLeft", "Escape", "d", "a", "b", "x", "m", "y", "PageDown"):
        page.keyboard.press(key)
    assert page.evaluate("window.leaked") == []
    # the same on a button of the widget (new game)
    page.locator('button[data-action="new"]').focus()
    for key in ("Delete", "ArrowDown", "d"):
        page.keyboard.press(key)
    assert page.evaluate("window.leaked") == []
    assert game.history == []  # none of them played or undid anything
    page.locator(".gw-board").focus()
    page.keyboard.press("Shift+Enter")
    page.keyboard.press("Control+s")
    leaked = page.evaluate("window.leaked")
    assert "Enter+shift" in leaked and "s" in leaked, leaked


def test_side_by_side_is_one_widget_with_a_live_board_per_game(page, server):
    """gw.side_by_side draws each game's own board in one anywidget (live in
    marimo, which draws no ipywidgets containers): clicks and toggles reach the
    right game, moves from code show on the right board."""
    first, second = gw.Gridlock(), gw.GridMaster4(size=10, players=2)
    boards = gw.side_by_side(first, second, titles=["Left", "Right <b>"])
    bridge = fh.open_widget(page, server, boards)
    roots = page.locator(".gw-boards-live .gw-root")
    expect(roots).to_have_count(2)
    expect(page.locator(".gw-boards-title")).to_have_text(["Left", "Right <b>"])
    page.locator('[data-game="gridlock"] [data-cell="B2"]').click()
    page.wait_for_selector('[data-game="gridlock"][data-version="1"]', state="attached", timeout=5_000)
    page.locator('[data-game="gridmaster4"] [data-cell="E5"]').click()
    page.wait_for_selector('[data-game="gridmaster4"][data-version="1"]', state="attached", timeout=5_000)
    assert [str(m) for m in first.history] == ["B2"] and [str(m) for m in second.history] == ["E5"]
    # the page's write after its own move reached that board only
    assert boards.boards[0].seen_version == 1 and boards.boards[1].seen_version == 1
    assert boards.seen_version == 2  # and the one widget's own trait, for marimo
    # a toggle of the Gridlock board sets that board's trait
    page.locator('[data-game="gridlock"] button[data-action="toggle-forbidden"]').click()
    deadline = time.monotonic() + 10
    while boards.boards[0].show_forbidden and time.monotonic() < deadline:
        page.wait_for_timeout(20)  # the page's save reaches Python through the bridge
    assert boards.boards[0].show_forbidden is False and boards.boards[1].show_forbidden is True
    # a move from code shows on its board
    first.play("D4")
    bridge.push()
    page.wait_for_selector('[data-game="gridlock"][data-version="2"]', state="attached", timeout=5_000)
    assert "O" in (page.locator('[data-game="gridlock"] [data-cell="D4"]').get_attribute("aria-label") or "")
    boards.close()


def test_toggle_forbidden(board):
    _, widget, _, page = board
    cell(page, "B2").click()
    wait_version(page, 1)
    toggle = page.locator('button[data-action="toggle-forbidden"]')
    b3 = cell(page, "B3")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(b3.locator(".gw-forb")).to_be_visible()
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(b3.locator(".gw-forb")).to_be_hidden()
    expect(b3).to_have_attribute("aria-label", "B3, empty")
    page.wait_for_function("window.gw.log.some(e => e.save && e.save.show_forbidden === false)")
    deadline = time.monotonic() + 10
    while widget.show_forbidden and time.monotonic() < deadline:
        page.wait_for_timeout(20)  # the page's save reaches Python through the bridge
    assert widget.show_forbidden is False, "the page's toggle did not reach Python within 10 s"
    # and from Python
    widget.show_forbidden = True
    page.evaluate("() => 0")  # let the bridge settle
    board[2].push()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(b3.locator(".gw-forb")).to_be_visible()


def test_moves_played_in_python_show(board):
    game, _, bridge, page = board
    game.play("C3")
    bridge.push()
    wait_version(page, 1)
    expect(cell(page, "C3")).to_have_attribute("aria-label", "C3, X")
    game.undo()
    bridge.push()
    wait_version(page, 2)
    expect(cell(page, "C3")).to_have_attribute("aria-label", "C3, empty")


def test_game_over_status(board):
    game, _, _, page = board
    # play to the end with legal moves chosen in Python, clicking each in the page
    while not game.is_over:
        move = str(game.legal_moves()[0])
        v = game.version
        cell(page, move).click()
        wait_version(page, v + 1)
    expect(page.locator(".gw-root")).to_have_class("gw-root gw-over")
    expect(status(page)).to_have_text(game.status())
    expect(status(page)).to_have_class("gw-status is-over")
    assert page.locator(".gw-cell.is-legal").count() == 0
    # a click after the end is still sent; Python answers
    v = game.version
    labels = page.eval_on_selector_all("[data-cell]", "els => els.map(e => e.getAttribute('aria-label'))")
    empty = next(label.split(",")[0] for label in labels if ", empty" in label)
    cell(page, empty).click()
    expect(message(page)).not_to_have_text("")
    assert game.version == v


def test_big_board_updates_in_place(page, server):
    game = gw.Gridlock(rows=20, cols=20)
    widget = game.widget()
    bridge = fh.open_widget(page, server, widget)
    assert page.locator("[data-cell]").count() == 400
    assert page.locator(".gw-svg").bounding_box()["width"] <= 480
    page.evaluate("() => { window.firstCell = document.querySelector('[data-cell=\"A1\"]'); }")
    game.play("T20")
    # time the in-page update alone
    changed = bridge._diff()
    ms = page.evaluate(
        "u => { const t = performance.now(); window.gw.apply(u); return performance.now() - t; }", changed
    )
    wait_version(page, 1)
    expect(cell(page, "T20")).to_have_attribute("aria-label", "T20, X")
    assert page.evaluate("() => window.firstCell === document.querySelector('[data-cell=\"A1\"]')")
    assert ms < 50, f"updating a 20x20 board took {ms:.1f} ms"
    widget.close()


def test_labels_toggle_from_python(board):
    _, widget, bridge, page = board
    assert page.locator(".gw-labels text").count() == 8
    widget.show_labels = False
    bridge.push()
    expect(page.locator(".gw-labels")).to_have_count(0)
    assert page.locator("[data-cell]").count() == 16
    widget.show_labels = True
    bridge.push()
    expect(page.locator(".gw-labels text")).to_have_count(8)


def test_two_views_of_one_widget(board):
    game, _, _, page = board
    page.evaluate("window.gw.renderAnother()")
    second = page.locator("#app2")
    expect(second.locator("[data-cell]")).to_have_count(16)
    ids = page.eval_on_selector_all("[id]", "els => els.map(e => e.id)")
    assert len(ids) == len(set(ids)), "ids must be unique across views"
    second.locator('[data-cell="C2"]').click()
    expect(page.locator('#app [data-cell="C2"]')).to_have_attribute("aria-label", "C2, X")
    expect(second.locator('[data-cell="C2"]')).to_have_attribute("aria-label", "C2, X")
    assert [str(m) for m in game.history] == ["C2"]


def test_cleanup_removes_listeners(board):
    _, _, _, page = board
    assert page.evaluate("window.gw.handlerCount()") > 0
    page.evaluate("window.gw.cleanup()")
    assert page.evaluate("window.gw.handlerCount()") == 0
    assert page.locator(".gw-root").count() == 0


def test_the_other_seats_move_is_announced_not_the_own(page, server):
    # WCAG 4.1.3: the status line says whose turn it is; a live region says what
    # the agent (or an opponent elsewhere) played, so a screen reader hears the reply
    game = gw.Gridlock()
    widget = game.widget(agents={1: gw.agents.RandomAgent(seed=3)}, playing=True, delay=0)
    fh.open_widget(page, server, widget)
    announce = page.locator('[data-role="announce"]')
    expect(announce).to_have_attribute("aria-live", "polite")
    cell(page, "B2").click()
    wait_version(page, 2)  # X's move, then the agent's
    reply = str(game.history[1])
    expect(announce).to_have_text(f"O played {reply}.")
    assert "B2" not in announce.inner_text(), "the page's own move is not announced"
    widget.close()


def test_legal_move_dots_reach_3_to_1_against_their_cell(page, server):
    # WCAG 1.4.11: the dot's ring (the text colour) against the tinted legal cell
    game = gw.Gridlock()
    game.play("B2")
    widget = game.widget(show_legal=True)
    fh.open_widget(page, server, widget)
    wait_version(page, 1)
    # a legal cell of this board, drawn with the legal marks on
    legal = page.locator('.gw-root[data-version="1"] .gw-show-legal .gw-cell.is-legal').first
    expect(legal.locator(".gw-dot")).to_be_visible()
    ring = legal.locator(".gw-dot").evaluate("e => getComputedStyle(e).stroke")
    bg = legal.locator(".gw-bg").evaluate("e => getComputedStyle(e).fill")
    # (the cell's fill may be mid-transition, computed as oklab(): the measure reads any form)
    assert page.evaluate(fh.CONTRAST, ["rgba(0, 0, 0, 0.87)", "oklab(0.938 0.018 0.022)"]) > 10
    ratio = page.evaluate(fh.CONTRAST, [ring, bg])
    assert ratio >= 3, f"the legal-move dot's ring is {ratio:.2f}:1 against its cell ({ring} on {bg})"
    widget.close()


@pytest.mark.parametrize("game", ["gridmaster4", "blockfour", "gridlock"])
def test_board_labels_stay_12_px_on_a_phone(page, server, game):
    # WCAG 1.4.4: on a 360 px wide phone the board shrinks; its row and column
    # labels grow in the SVG's units so that they are 12 CSS px at least
    page.set_viewport_size({"width": 360, "height": 740})
    g = gw.make(game, **{"gridmaster4": {"size": 20}, "gridlock": {"rows": 8, "cols": 8}}.get(game, {}))
    widget = g.widget()
    fh.open_widget(page, server, widget)
    page.wait_for_selector(".gw-labels text", state="attached")
    sizes = page.evaluate("""() => {
        const svg = document.querySelector('.gw-svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return [scale, ...[...document.querySelectorAll('.gw-labels text')]
                          .map(t => parseFloat(t.getAttribute('font-size')) * scale)];
    }""")
    scale, smallest = sizes[0], min(sizes[1:])
    assert scale < 1, f"the board was not shrunk by the phone ({scale:.2f})"
    assert smallest >= 11.95, f"a board label is {smallest:.1f} px on a 360 px phone (scale {scale:.2f})"
    widget.close()
