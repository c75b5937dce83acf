"""The GridBloc layer in the browser (docs/frontend.md, "GridBloc"): steps by
clicking tiles, walls by clicking edges (GB-3, GB-4), the region (GB-6), the
round change (GB-7), the board editor and its export, the setup phase
(GB-10), the wall keys and an agent blocker; against the real Python widget.

Run: ``npm run build && pytest tests/frontend``.
"""

from __future__ import annotations

import json
import re
import sys
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
from gridwidgets.agents import RandomAgent  # noqa: E402

# -- helpers ------------------------------------------------------------------------


def cell(page, name):
    return page.locator(f'[data-cell="{name}"]')


def wall(page, name):
    """A wall slot: the game's (an edge move, generic.ts) or the editor's."""
    return page.locator(f'[data-edge="{name}"], [data-wall="{name}"]')


def drawn(page, name):
    """The line drawn on an edge (a wall of the scene)."""
    return page.locator(f'.gw-scene-edge[data-line="{name}"]')


def originals(page):
    """The original walls drawn (the frame's colour, between two tiles of the board)."""
    return sorted(n for n in page.eval_on_selector_all(".gw-scene-edge.gw-pnone", "els => els.map(e => e.dataset.line)")
                  if "?" not in n)


def wait_version(page, version):
    page.wait_for_selector(f'.gw-root[data-version="{version}"]', state="attached", timeout=5_000)


def version(page):
    return int(page.locator(".gw-root").get_attribute("data-version"))


def slots(page):
    """The edges the page offers as wall slots now."""
    return sorted(page.eval_on_selector_all("[data-edge], [data-wall]",
                                            "els => els.map(e => e.dataset.edge || e.dataset.wall)"))


def has_class(name):
    return re.compile(rf"(^|\s){re.escape(name)}(\s|$)")


def role(page, name):
    return page.locator(f'[data-role="{name}"]')


def history(widget):
    return [str(m) for m in widget.game.history]


def open_gb(page, server, game=None, **kw):
    game = game if game is not None else gw.GridBloc()
    kw.setdefault("playing", False)
    widget = game.widget(**kw)
    fh.open_widget(page, server, widget)
    wait_version(page, game.version)
    return game, widget


@pytest.fixture
def gb(page, server):
    game, widget = open_gb(page, server)
    return page, game, widget


# -- the board ----------------------------------------------------------------------


def test_gb_board_draws_tiles_walls_start_and_runner(gb):
    page, g, w = gb
    assert page.locator(".gw-root").get_attribute("data-game") == "gridbloc"
    assert page.locator("[data-cell]").count() == 81
    # the start tile's star, the runner's pawn on it, the original walls, the border
    assert page.locator(".gw-pieces .gw-star").count() == 1
    assert page.locator(".gw-piece-token").count() == 1
    label = cell(page, "E5").get_attribute("aria-label")
    assert label.startswith("E5, start, runner (Player 2)"), label
    assert originals(page) == sorted(str(x) for x in g.original_walls)
    # the outer border is a wall (GB-2): an edge to off the board on every side
    assert page.locator('.gw-scene-edge[data-line*="?"]').count() == 4 * 9
    # a wall is said in the labels of the tiles beside it: E3|E4
    assert "wall below" in cell(page, "E3").get_attribute("aria-label")
    assert "wall above" in cell(page, "E4").get_attribute("aria-label")
    assert ", empty" in cell(page, "A1").get_attribute("aria-label")
    # the runner is to step: the steps are highlighted, no wall slot is offered
    legal = sorted(page.eval_on_selector_all(".gw-cell.is-legal", "els => els.map(e => e.dataset.cell)"))
    assert legal == sorted(w.state["legal"])
    assert slots(page) == []
    # the panel: round one, who runs and who blocks, the scores
    expect(role(page, "note")).to_contain_text("Round 1 of 2 (GB-7)")
    expect(role(page, "note")).to_contain_text("Player 2 runs, Player 1 blocks")
    expect(page.locator('.gw-prow[data-player="1"] [data-col="points"]')).to_have_text("0")
    expect(page.locator('.gw-prow[data-player="1"] [data-col="role"]')).to_have_text("runs")
    expect(page.locator('.gw-prow[data-player="1"]')).to_have_attribute("data-mark", "turn")


def test_gb_step_by_click_then_wall_by_click(gb):
    page, _g, w = gb
    cell(page, "D4").click()
    wait_version(page, 1)
    assert history(w) == ["D4"]
    assert cell(page, "D4").get_attribute("aria-label").startswith("D4, runner")
    assert cell(page, "D4").get_attribute("aria-description") == "last move"
    # the blocker acts: every open interior edge is a slot, nothing else
    assert slots(page) == sorted(w.state["extra"]["open_edges"])
    assert "E1|E2" not in slots(page)  # an original wall
    assert page.locator(".gw-cell.is-legal").count() == 0
    expect(page.locator('.gw-prow[data-player="1"] [data-col="round-1"]')).to_have_text("1")
    # hovering a slot previews the wall: drawn solid
    wall(page, "C4|D4").hover()
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('[data-edge=\"C4|D4\"] .gw-edge-preview')).strokeDasharray === 'none'",
        timeout=5_000,
    )
    wall(page, "C4|D4").click()
    wait_version(page, 2)
    assert history(w) == ["D4", "C4|D4"]
    placed = drawn(page, "C4|D4")
    expect(placed).to_have_count(1)
    expect(placed).to_have_class(has_class("is-last"))
    expect(placed).to_have_class(has_class("gw-p0"))  # the blocker's colour
    assert "wall left" in cell(page, "D4").get_attribute("aria-label")
    # the runner is to step again: no slots
    assert slots(page) == []
    sent = page.evaluate("() => window.gw.log.filter(e => e.send).map(e => e.send)")
    assert sent[-1] == {"type": "play", "move": "C4|D4", "player": 0, "version": 1}


def test_gb_open_slots_show_without_hovering_and_a_wall_there_is_no_slot(gb):
    """On the blocker's turn every open slot is drawn (faint, dotted) before any
    hover; a wall already there (GB-2) is no slot, and Python refuses it by
    name, saying why; nothing changes."""
    page, _g, w = gb
    cell(page, "D4").click()
    wait_version(page, 1)
    page.mouse.move(0, 0)
    page.wait_for_function(
        "() => Number(getComputedStyle(document.querySelector('[data-edge=\"C4|D4\"] .gw-edge-preview')).strokeOpacity) > 0",
        timeout=5_000,
    )
    assert wall(page, "C4|D4").is_visible()
    expect(wall(page, "E1|E2")).to_have_count(0)
    page.evaluate("() => window.gw.model.send({type: 'play', move: 'E1|E2', version: 1, player: 0})")
    expect(page.locator('[data-role="message"]')).to_contain_text("already a wall")
    expect(page.locator('[data-role="message"]')).to_contain_text("GB-2")
    assert history(w) == ["D4"] and w.game.version == 1


def test_gb_step_through_a_wall_is_refused_naming_gb3(gb):
    page, _g, w = gb
    cell(page, "D4").click()
    wait_version(page, 1)
    wall(page, "D4|E4").click()
    wait_version(page, 2)
    cell(page, "E4").click()
    expect(role(page, "message")).to_contain_text("GB-3")
    expect(role(page, "message")).to_contain_text("wall")
    assert version(page) == 2
    assert history(w) == ["D4", "D4|E4"]
    assert cell(page, "D4").get_attribute("aria-label").startswith("D4, runner")


def test_gb_region_toggle_shades_the_region_and_counts(gb):
    page, g, w = gb
    assert role(page, "reachable").is_hidden()
    page.locator('[data-action="toggle-region"]').click()
    expect(page.locator('[data-action="toggle-region"]')).to_have_attribute("aria-pressed", "true")
    expect(role(page, "reachable")).to_have_text(f"{g.unscored_reachable()} unscored tiles reachable")
    assert w.show_region is True
    assert page.locator("[data-region]").count() == len(w.state["extra"]["region"]) == 81
    cell(page, "D4").click()
    wait_version(page, 1)
    expect(role(page, "reachable")).to_have_text(f"{g.unscored_reachable()} unscored tiles reachable")
    assert g.unscored_reachable() == 79
    # a code cell turns it off: the page follows
    w.show_region = False
    page.evaluate("u => window.gw.apply(u)", {"show_region": False})
    expect(role(page, "reachable")).to_be_hidden()
    assert page.locator("[data-region]").count() == 0


def test_gb_region_dims_what_the_runner_cannot_reach(page, server):
    # original walls close A1..B2 off the rest of a 4x4 board (GB-3's corner rule included)
    g = gw.GridBloc(size=4, start="A1", walls=["B1|C1", "B2|C2", "A2|A3", "B2|B3"])
    _game, w = open_gb(page, server, g, show_region=True)
    region = sorted(w.state["extra"]["region"])
    assert region == ["A1", "A2", "B1", "B2"]
    assert sorted(page.eval_on_selector_all("[data-region]", "els => els.map(e => e.dataset.region)")) == region
    assert page.locator(".gb-unreach").count() == 16 - 4
    expect(role(page, "reachable")).to_have_text("3 unscored tiles reachable")


def test_gb_round_change_is_announced(page, server):
    g = gw.GridBloc(size=3)
    while g.round == 1:
        move = g.legal_moves()[0]
        probe = g.copy()
        probe.play(move)
        if probe.round == 2:
            break
        g.play(move)
    last = str(move)
    _game, w = open_gb(page, server, g)
    assert "|" in last and slots(page)
    v = version(page)
    wall(page, last).click()
    wait_version(page, v + 1)
    assert g.round == 2
    expect(role(page, "banner")).to_be_visible()
    expect(role(page, "banner")).to_contain_text("Round 2: roles swapped, walls reset")
    expect(role(page, "note")).to_contain_text("Round 2 of 2 (GB-7)")
    expect(role(page, "note")).to_contain_text("Player 1 runs, Player 2 blocks")
    expect(role(page, "events")).to_contain_text("Round 1 over")
    # the walls are reset, no tile is scored, the runner is back on the start
    assert page.locator(".gw-scene-edge:not(.gw-pnone)").count() == 0
    assert page.locator(".gw-region-tint").count() == 0
    assert cell(page, "B2").get_attribute("aria-label").startswith("B2, start, runner (Player 1)")
    r1 = g.round_scores[0][1]
    expect(page.locator('.gw-prow[data-player="1"] [data-col="round-1"]')).to_have_text(str(r1))
    expect(page.locator('.gw-prow[data-player="1"] [data-col="points"]')).to_have_text(str(r1))
    # the next move clears the banner
    cell(page, w.state["legal"][0]).click()
    wait_version(page, v + 2)
    expect(role(page, "banner")).to_be_hidden()
    expect(role(page, "note")).to_contain_text("Round 2 of 2 (GB-7)")


def test_gb_game_over_names_the_winner(page, server):
    g = gw.GridBloc(size=3)
    while not g.is_over:
        g.play(g.legal_moves()[0])
    _game, _w = open_gb(page, server, g)
    expect(role(page, "note")).to_be_hidden()
    expect(role(page, "status")).to_contain_text("Game over")
    winners = list(g.winners)
    for p in (0, 1):
        row = page.locator(f'.gw-prow[data-player="{p}"]')
        expect(row.locator('[data-col="points"]')).to_have_text(str(g.scores[p]))
        if len(winners) == 1:
            assert ("is-winner" in row.get_attribute("class")) == (p in winners)
    assert slots(page) == []


# -- the editor ---------------------------------------------------------------------


def test_gb_editor_walls_start_holes_and_export(gb):
    page, g, w = gb
    assert role(page, "editor").is_hidden()
    page.locator('[data-action="toggle-edit"]').click()
    expect(role(page, "editor")).to_be_visible()
    assert w.editing is True
    expect(page.locator('[data-action="tool-wall"]')).to_have_attribute("aria-pressed", "true")
    # every interior edge is a slot, the original walls included (to remove them)
    assert len(slots(page)) == 2 * 9 * 8
    assert "E1|E2" in slots(page)

    v = version(page)
    wall(page, "A1|B1").click()
    wait_version(page, v + 1)
    assert "A1|B1" in json.loads(w.board_json)["walls"]
    assert "A1|B1" in originals(page)
    wall(page, "E1|E2").click()
    wait_version(page, v + 2)
    assert "E1|E2" not in json.loads(w.board_json)["walls"]
    assert "E1|E2" not in originals(page)
    assert page.evaluate("() => window.gw.log.filter(e => e.send).map(e => e.send)")[-1] == {
        "type": "edit", "action": "wall", "target": "E1|E2",
    }

    # the start tool moves the star
    page.locator('[data-action="tool-start"]').click()
    expect(page.locator('[data-action="tool-start"]')).to_have_attribute("aria-pressed", "true")
    assert slots(page) == []
    cell(page, "B2").click()
    wait_version(page, v + 3)
    assert json.loads(w.board_json)["start"] == "B2"
    assert cell(page, "B2").get_attribute("aria-label").startswith("B2, start")

    # the hole tool masks a tile out, and brings it back
    page.locator('[data-action="tool-hole"]').click()
    cell(page, "A9").click()
    wait_version(page, v + 4)
    assert json.loads(w.board_json)["holes"] == ["A9"]
    assert cell(page, "A9").get_attribute("aria-label") == "A9, hole"
    assert "gb-hole" in cell(page, "A9").get_attribute("class")
    cell(page, "I9").click()
    wait_version(page, v + 5)
    cell(page, "I9").click()
    wait_version(page, v + 6)
    assert json.loads(w.board_json)["holes"] == ["A9"]

    # the export shows Python's board_json; it loads as a board
    page.locator('[data-action="export"]').click()
    text = role(page, "board-json")
    expect(text).to_be_visible()
    assert text.input_value() == w.board_json
    assert text.get_attribute("readonly") is not None
    selected = page.evaluate(
        "() => { const t = document.querySelector('[data-role=\"board-json\"]');"
        " return t.value.slice(t.selectionStart, t.selectionEnd); }"
    )
    assert selected == w.board_json  # select-all on focus
    board = gw.GridBloc(board=text.input_value())
    assert board.board_preset() == json.loads(w.board_json)

    # leaving the editor: the game is a new one on the designed board
    page.locator('[data-action="toggle-edit"]').click()
    expect(role(page, "editor")).to_be_hidden()
    assert w.editing is False
    assert cell(page, "B2").get_attribute("aria-label").startswith("B2, start, runner")
    assert g.history == [] and str(g.start) != ""


def test_gb_editor_refusal_is_shown(gb):
    page, _g, w = gb
    page.locator('[data-action="toggle-edit"]').click()
    page.locator('[data-action="tool-hole"]').click()
    v = version(page)
    cell(page, "E5").click()  # the start tile cannot be a hole
    expect(role(page, "message")).to_contain_text("Refused")
    assert version(page) == v
    assert json.loads(w.board_json)["holes"] == []


# -- the setup (GB-10) --------------------------------------------------------------


def test_gb_setup_walls_start_then_done(page, server):
    g, w = open_gb(page, server, gw.GridBloc(preset="blank", setup=True))
    expect(role(page, "note")).to_contain_text("Setup (GB-10)")
    assert len(slots(page)) == 2 * 9 * 8
    wall(page, "C4|D4").click()
    wait_version(page, 1)
    assert history(w) == ["C4|D4"]
    assert "C4|D4" in originals(page)
    assert "C4|D4" not in slots(page)
    cell(page, "F6").click()
    wait_version(page, 2)
    assert history(w) == ["C4|D4", "start F6"]
    assert cell(page, "F6").get_attribute("aria-label").startswith("F6, start")
    page.locator('[data-choice="done"]').click()
    wait_version(page, 3)
    assert history(w) == ["C4|D4", "start F6", "done"]
    assert g.phase == "play"
    expect(role(page, "banner")).to_contain_text("Round one begins")
    expect(role(page, "note")).to_contain_text("Round 1 of 2 (GB-7)")
    assert slots(page) == []
    legal = sorted(page.eval_on_selector_all(".gw-cell.is-legal", "els => els.map(e => e.dataset.cell)"))
    assert legal == sorted(w.state["legal"]) and "E5" in legal


# -- keys and agents ----------------------------------------------------------------


def test_gb_wall_keys(gb):
    page, _g, w = gb
    cell(page, "D4").click()  # the focus ring follows the click
    wait_version(page, 1)
    board = page.locator(".gw-board")
    board.focus()
    board.press("w")
    expect(role(page, "keys-hint")).to_be_visible()
    assert page.locator(".gb-slot.is-near").count() == 4
    board.press("ArrowRight")
    wait_version(page, 2)
    assert history(w) == ["D4", "D4|E4"]
    expect(role(page, "keys-hint")).to_be_hidden()
    # the runner steps by keys (arrows, Enter), then Shift+arrow places a wall
    board.press("ArrowUp")
    board.press("Enter")
    wait_version(page, 3)
    assert history(w)[-1] == "D3"
    board.press("Shift+ArrowUp")
    wait_version(page, 4)
    assert history(w)[-1] == "D2|D3"
    # W, then Escape: nothing is sent
    board.press("w")
    board.press("Escape")
    expect(role(page, "keys-hint")).to_be_hidden()
    assert version(page) == 4


def test_gb_agent_blocker_with_step(page, server):
    _g, w = open_gb(page, server, agents={0: RandomAgent(seed=1)})
    expect(page.locator('.gw-prow[data-player="0"] [data-role="agent"]')).to_be_visible()
    cell(page, "D4").click()
    wait_version(page, 1)
    # the agent is to place a wall: the page offers no slot, Step is enabled
    assert slots(page) == []
    expect(role(page, "agent-to-move")).to_be_visible()
    step = page.locator('[data-action="step"]')
    expect(step).to_be_enabled()
    step.click()
    wait_version(page, 2)
    moves = history(w)
    assert len(moves) == 2 and "|" in moves[1]
    expect(drawn(page, moves[1])).to_have_class(has_class("gw-p0"))
    expect(step).to_be_disabled()
    assert page.locator(".gw-cell.is-legal").count() == len(w.state["legal"]) > 0


def test_gb_wall_slots_are_targets_of_24_px_while_a_wall_is_to_be_placed(gb):
    # WCAG 2.5.8: on the blocker's turn (the tiles are no target then) every open
    # slot's hit area is at least 24 CSS px across, and a click at a point near
    # the edge but well inside a tile places that wall
    page, _g, w = gb
    cell(page, "D4").click()
    wait_version(page, 1)
    smallest = page.evaluate("""() => Math.min(...[...document.querySelectorAll('[data-edge]')]
        .map(g => { const r = g.getBoundingClientRect(); return Math.min(r.width, r.height); }))""")
    assert smallest >= 24, f"a wall slot is {smallest:.1f} px across"
    box = cell(page, "C4").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.8, box["y"] + box["height"] / 2)  # inside C4, near C4|D4
    wait_version(page, 2)
    assert history(w) == ["D4", "C4|D4"]
