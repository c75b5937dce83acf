"""The hints overlay in the browser (docs/frontend.md, "Hints"): the selector
sets the ``hints`` trait; ``hint_data`` is drawn as labels on cells and
GridBloc wall slots (``data-hint``), tinted by value, the best moves ringed,
only while its version is the state's; Block Four's moves are listed in the
side bar. With hand-made ``hint_data`` and with the real widget, whose worker
thread's result ``Bridge.push_hints()`` brings to the page.

Run: ``npm run build && pytest tests/frontend``.
"""

from __future__ import annotations

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

WAIT = 60
#: {KEY attribute: data-hint} of the elements matched
PAIRS = "els => Object.fromEntries(els.map(e => [e.getAttribute('KEY'), e.getAttribute('data-hint')]))"


# -- helpers ------------------------------------------------------------------------


def cell(page, name):
    return page.locator(f'[data-cell="{name}"]')


def hint(page, move):
    return page.locator(f'.gw-hint[data-move="{move}"]')


def role(page, name):
    return page.locator(f'[data-role="{name}"]')


def select(page):
    return page.locator('select[data-action="hints"]')


def wait_version(page, version):
    page.wait_for_selector(f'.gw-root[data-version="{version}"]', state="attached", timeout=5_000)


def drawn(page):
    """{move: label} of every hint drawn on the board."""
    return page.eval_on_selector_all(".gw-hint", PAIRS.replace("KEY", "data-move"))


def tagged_cells(page):
    """{cell: label} of the cells that carry data-hint."""
    return page.eval_on_selector_all("[data-cell][data-hint]", PAIRS.replace("KEY", "data-cell"))


def rgb(page, selector):
    """The computed fill of the first element matching ``selector``, as (r, g, b)."""
    fill = page.eval_on_selector(selector, "e => getComputedStyle(e).fill")
    nums = [float(x) for x in re.findall(r"[\d.]+", fill)[:3]]
    assert len(nums) == 3, fill
    return nums


def open_game(page, server, game, theme=None, **kw):
    kw.setdefault("playing", False)
    widget = game.widget(**kw)
    bridge = fh.open_widget(page, server, widget, theme=theme)
    wait_version(page, game.version)
    return widget, bridge


def hand_made(version, moves, kind="solve", status="done", message="hand-made"):
    return {"kind": kind, "version": version, "status": status, "message": message, "moves": moves}


def h(label, value, best=False, share=None):
    if share is None:
        share = 1.0 if best else 0.0
    return {"label": label, "value": value, "share": share, "best": best}


# -- hand-made hint_data ------------------------------------------------------------


def stub_gridlock(hint_data=None, hints="solve"):
    """A hand-made widget showing a 4x4 Gridlock's state: a click bumps the
    version (as a move would) and leaves ``hint_data`` as it was."""
    state = gw.Gridlock(4, 4).widget().state

    def on_intent(stub, content):
        if content.get("type") == "play":
            s = dict(stub.traits["state"])
            s["version"] += 1
            s["history"] = [*s["history"], content["move"]]
            stub.traits["state"] = s

    traits = {"hints": hints, "hint_budget": 1.0, "hint_data": hint_data or {}}
    return fh.StubWidget(state, on_intent, **traits)


def test_hand_made_labels_tints_rings_and_version(page, server):
    stub = stub_gridlock(hints="")
    bridge = fh.open_widget(page, server, stub)
    wait_version(page, 0)
    # the selector is there and off; no overlay, no status
    expect(select(page)).to_have_value("")
    assert page.locator(".gw-hint").count() == 0
    expect(role(page, "hint-status")).to_be_hidden()

    moves = {
        "A1": h("win", 1.0, best=True),
        "B2": h("loss", -1.0),
        "C3": h("draw", 0.0),
        "D4": h("win", 1.0, best=True),
    }
    stub.traits["hints"] = "solve"
    stub.traits["hint_data"] = hand_made(0, moves)
    bridge.push()
    expect(select(page)).to_have_value("solve")
    assert drawn(page) == {m: v["label"] for m, v in moves.items()}
    assert tagged_cells(page) == {m: v["label"] for m, v in moves.items()}
    expect(hint(page, "A1")).to_have_attribute("data-hint", "win")
    expect(hint(page, "A1")).to_have_attribute("data-tone", "win")
    expect(hint(page, "B2")).to_have_attribute("data-tone", "loss")
    expect(hint(page, "C3")).to_have_attribute("data-tone", "draw")
    expect(hint(page, "A1").locator("text")).to_have_text("win")
    # the best moves are ringed, the others not
    assert page.locator(".gw-hint.is-best").count() == 2
    assert hint(page, "A1").locator(".gw-hint-ring").count() == 1
    assert hint(page, "B2").locator(".gw-hint-ring").count() == 0
    # tints: win green, loss red, draw grey
    r, g, b = rgb(page, '.gw-hint[data-move="A1"] .gw-hint-tint')
    assert g > r + 60 and g > b
    r, g, b = rgb(page, '.gw-hint[data-move="B2"] .gw-hint-tint')
    assert r > g + 80 and r > b + 80
    r, g, b = rgb(page, '.gw-hint[data-move="C3"] .gw-hint-tint')
    assert max(r, g, b) - min(r, g, b) < 30
    expect(role(page, "hint-status")).to_have_text("hand-made")
    expect(role(page, "hint-status")).to_have_attribute("data-status", "done")
    # the overlay never takes a click
    assert page.eval_on_selector(".gw-hints-g", "e => getComputedStyle(e).pointerEvents") == "none"
    assert page.eval_on_selector(".gw-hint-label", "e => getComputedStyle(e).pointerEvents") == "none"

    # a click on a hinted cell sends the move; with the new version the
    # overlay vanishes, though hint_data (of the old version) is unchanged
    cell(page, "A1").click()
    wait_version(page, 1)
    assert stub.intents[-1] == {"type": "play", "move": "A1", "version": 0, "player": 0}
    assert page.locator(".gw-hint").count() == 0
    assert tagged_cells(page) == {}
    expect(role(page, "hint-status")).to_have_text("thinking\u2026")
    expect(role(page, "hint-status")).to_have_attribute("data-status", "computing")
    # the selector sets the trait
    select(page).select_option("mcts")
    assert stub.traits["hints"] == "mcts"
    select(page).select_option("")
    assert stub.traits["hints"] == ""
    expect(role(page, "hint-status")).to_be_hidden()


def test_real_widget_click_clears_the_overlay(page, server):
    game = gw.Gridlock(4, 4)
    widget, bridge = open_game(page, server, game, hint_budget=0.3)
    widget.hints = "mcts"
    data = bridge.push_hints(WAIT)
    assert drawn(page) == {m: x["label"] for m, x in data["moves"].items()}
    v = game.version
    cell(page, "A1").click()
    wait_version(page, v + 1)
    # the page shows either nothing yet, or the new position's hints: never the old ones
    assert page.locator(".gw-hints").get_attribute("data-version") in (None, str(game.version))
    assert "A1" not in drawn(page)
    data = bridge.push_hints(WAIT)
    assert data["version"] == game.version
    assert drawn(page) == {m: x["label"] for m, x in data["moves"].items()}
    widget.close()


def test_hint_data_of_another_version_is_not_drawn(page, server):
    game = gw.Gridlock(4, 4)
    widget, bridge = open_game(page, server, game)
    widget.hints = "solve"
    widget.wait_hints(WAIT)
    widget.hint_data = hand_made(game.version + 1, {"A1": h("win", 1.0, best=True)})
    bridge.push()
    assert page.locator(".gw-hint").count() == 0
    expect(role(page, "hint-status")).to_have_text("thinking\u2026")
    # the same data for the version shown is drawn
    widget.hint_data = hand_made(game.version, {"A1": h("win", 1.0, best=True)})
    bridge.push()
    assert drawn(page) == {"A1": "win"}
    # a move played in code: gone at once, even before new hints arrive
    game.play("C3")
    widget.hints = ""  # (stop the real worker; the state push below is what matters)
    bridge.push()
    wait_version(page, game.version)
    assert page.locator(".gw-hint").count() == 0
    widget.close()


def test_status_line_computing_and_error(page, server):
    game = gw.Gridlock(4, 4)
    widget, bridge = open_game(page, server, game)
    widget.hints = "mcts"
    widget.wait_hints(WAIT)
    widget.hint_data = hand_made(game.version, {}, kind="mcts", status="computing", message="")
    bridge.push()
    expect(role(page, "hint-status")).to_have_text("thinking\u2026")
    widget.hint_data = hand_made(game.version, {}, kind="mcts", status="error", message="too big to solve")
    bridge.push()
    expect(role(page, "hint-status")).to_have_text("too big to solve")
    expect(role(page, "hint-status")).to_have_attribute("data-status", "error")
    assert page.locator(".gw-hint").count() == 0
    widget.close()


def test_small_cells_gridmaster4_hand_made(page, server):
    game = gw.GridMaster4()
    widget, bridge = open_game(page, server, game)
    widget.hints = "mcts"
    widget.wait_hints(WAIT)
    legal = [str(m) for m in game.legal_moves()]
    assert len(legal) == 400
    moves = {m: h("0%", 0.0, share=0.0) for m in legal}
    moves["K10"] = h("42%", 0.6, best=True, share=0.42)
    moves["A1"] = h("30%", -0.5, share=0.30)
    moves["T20"] = h("28%", 0.0, share=0.28)
    widget.hint_data = hand_made(game.version, moves, kind="mcts")
    bridge.push()
    assert page.locator(".gw-hint").count() == 400
    assert len(tagged_cells(page)) == 400
    expect(hint(page, "K10")).to_have_attribute("data-hint", "42%")
    expect(hint(page, "K10")).to_have_attribute("data-tone", "win")
    expect(hint(page, "A1")).to_have_attribute("data-tone", "loss")
    expect(hint(page, "T20")).to_have_attribute("data-tone", "draw")
    # the leading moves are written out and fit their cell; the rest get a dot
    for m in ("K10", "A1", "T20"):
        expect(hint(page, m).locator("text")).to_have_text(moves[m]["label"])
        text_box = hint(page, m).locator("text").bounding_box()
        cell_box = cell(page, m).bounding_box()
        assert text_box["width"] <= cell_box["width"] and text_box["height"] <= cell_box["height"]
    assert hint(page, "B2").locator("text").count() == 0
    assert hint(page, "B2").locator(".gw-hint-dot").count() == 1
    # the Solve option is not offered for a four-player game
    assert select(page).locator('option[value="solve"]').is_disabled()
    # a click on a hinted cell still plays (the overlay takes no click)
    v = game.version
    cell(page, "K10").click()
    wait_version(page, v + 1)
    assert [str(m) for m in game.history] == ["K10"]
    assert page.locator(".gw-hint").count() == 0
    widget.close()


# -- the real widget ----------------------------------------------------------------


def test_selector_sets_hints_and_real_solve_is_drawn(page, server):
    game = gw.Gridlock(3, 3)
    widget, bridge = open_game(page, server, game, hint_budget=30)
    assert not select(page).locator('option[value="solve"]').is_disabled()
    select(page).select_option("solve")
    page.wait_for_function("() => ['computing', 'done'].includes(window.gw.model.get('hint_data')?.status)")
    assert widget.hints == "solve"
    data = bridge.push_hints(WAIT)
    assert data["status"] == "done"
    expect(role(page, "hint-status")).to_have_text(data["message"])
    want = {m: v["label"] for m, v in data["moves"].items()}
    assert set(want) == {str(m) for m in game.legal_moves()}
    assert drawn(page) == want
    assert tagged_cells(page) == want
    best = {m for m, v in data["moves"].items() if v["best"]}
    assert {m for m in want if "is-best" in hint(page, m).get_attribute("class").split()} == best

    # play a move by clicking: the overlay is gone at once, then the new one comes
    v = game.version
    cell(page, "B2").click()
    wait_version(page, v + 1)
    # the old labels are gone (a tiny board's new solve may already be in)
    assert "B2" not in drawn(page)
    assert set(drawn(page)) <= {str(m) for m in game.legal_moves()}
    assert page.locator(".gw-hints").get_attribute("data-version") in (None, str(game.version))
    data = bridge.push_hints(WAIT)
    assert data["version"] == game.version and data["status"] == "done"
    assert drawn(page) == {m: x["label"] for m, x in data["moves"].items()}
    expect(page.locator(".gw-hints")).to_have_attribute("data-version", str(game.version))

    # MCTS through the selector: shares as labels
    select(page).select_option("mcts")
    assert widget.hints == "mcts"
    widget.hint_budget = 0.2
    data = bridge.push_hints(WAIT)
    assert data["kind"] == "mcts"
    labels = drawn(page)
    assert labels == {m: x["label"] for m, x in data["moves"].items()}
    assert all(lbl.endswith("%") for lbl in labels.values())

    # off: the overlay and the status go
    select(page).select_option("")
    assert widget.hints == ""
    expect(page.locator(".gw-hint")).to_have_count(0)
    expect(role(page, "hint-status")).to_be_hidden()
    widget.close()


def test_python_side_change_shows_in_the_selector_and_errors(page, server):
    game = gw.GridMaster4(size=6)
    widget, bridge = open_game(page, server, game, hint_budget=0.1)
    assert select(page).locator('option[value="solve"]').is_disabled()
    widget.hints = "solve"  # from code: the game does not offer it (four players): refused in Python
    bridge.push()
    expect(select(page)).to_have_value("")
    expect(role(page, "message")).to_contain_text("offers the hints 'mcts'")
    assert widget.hints == "" and page.locator(".gw-hint").count() == 0
    # a bad value from the page is refused by Python and the selector resets
    page.evaluate("() => { window.gw.model.set('hints', 'magic'); window.gw.model.save_changes(); }")
    expect(select(page)).to_have_value("")
    expect(role(page, "message")).to_contain_text("Refused")
    assert widget.hints == ""
    widget.close()


def test_blockfour_list_best_first(page, server):
    game = gw.BlockFour(seed=1)
    widget, bridge = open_game(page, server, game, hint_budget=0.3)
    assert select(page).locator('option[value="solve"]').is_disabled()
    select(page).select_option("mcts")
    data = bridge.push_hints(WAIT)
    assert data["status"] == "done"
    items = role(page, "hints").locator("li")
    n = min(8, len(data["moves"]))
    expect(items).to_have_count(n)
    assert page.locator(".gw-hint").count() == 0  # bids are not cells
    shown = items.evaluate_all("els => els.map(e => [e.getAttribute('data-move'), e.getAttribute('data-hint')])")
    for move, label in shown:
        assert data["moves"][move]["label"] == label
    shares = [data["moves"][m]["share"] for m, _ in shown]
    assert data["moves"][shown[0][0]]["best"]
    assert shares[1:] == sorted(shares[1:], reverse=True)
    expect(items.first.locator(".gw-hint-tag")).to_have_text(shown[0][1])

    # a placement phase: long move names, hover previews the cells
    while widget.state["extra"]["phase"] == "bid":
        game.play(game.legal_moves()[0])
    data = bridge.push_hints(WAIT)
    wait_version(page, game.version)
    assert data["version"] == game.version
    expect(items).to_have_count(min(8, len(data["moves"])))
    first = items.first.get_attribute("data-move")
    assert ":" in first
    items.first.hover()
    cells = sorted(re.findall(r"[A-I][1-9]", first.split(":", 1)[1]))
    got = sorted(
        page.eval_on_selector_all(
            ".gw-hint-preview [data-preview-cell]", "els => els.map(e => e.getAttribute('data-preview-cell'))"
        )
    )
    assert got == cells
    page.mouse.move(5, 5)
    expect(page.locator(".gw-hint-preview")).to_have_count(0)
    if len(data["moves"]) > 8:
        expect(page.locator(".gw-hint-more")).to_contain_text(f"{len(data['moves']) - 8} more")
    # a move: the list goes at once
    v = game.version
    game.play(game.legal_moves()[0])
    bridge.push()
    wait_version(page, v + 1)
    expect(items).to_have_count(0)
    widget.close()


def test_gridbloc_steps_and_wall_slots(page, server):
    game = gw.GridBloc(size=3)
    widget, bridge = open_game(page, server, game, hint_budget=30)
    assert not select(page).locator('option[value="solve"]').is_disabled()
    select(page).select_option("solve")
    data = bridge.push_hints(WAIT)
    assert data["status"] == "done"
    # the runner's steps: on the tiles
    assert tagged_cells(page) == {m: x["label"] for m, x in data["moves"].items()}
    # step by clicking a hinted tile: the blocker's walls get hints on their slots
    step = sorted(data["moves"])[0]
    v = game.version
    cell(page, step).click()
    wait_version(page, v + 1)
    assert page.locator(".gw-hint").count() == 0
    data = bridge.push_hints(WAIT)
    assert data["version"] == game.version and data["status"] == "done"
    want = {m: x["label"] for m, x in data["moves"].items()}
    assert all("|" in m for m in want)
    assert drawn(page) == want
    assert page.locator(".gw-hint-edge").count() == len(want)
    slots = page.eval_on_selector_all("[data-edge][data-hint]", PAIRS.replace("KEY", "data-edge"))
    assert slots == want
    # a pill sits on its edge: between the two tiles
    edge = sorted(want)[0]
    a, b = edge.split("|")
    box = hint(page, edge).bounding_box()
    ba, bb = cell(page, a).bounding_box(), cell(page, b).bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    mid = (
        (ba["x"] + ba["width"] / 2 + bb["x"] + bb["width"] / 2) / 2,
        (ba["y"] + ba["height"] / 2 + bb["y"] + bb["height"] / 2) / 2,
    )
    assert abs(cx - mid[0]) < 2 and abs(cy - mid[1]) < 2
    # clicking the slot under the pill places the wall (the pill takes no click)
    v = game.version
    page.locator(f'[data-edge="{edge}"]').click(force=True)
    wait_version(page, v + 1)
    assert str(game.history[-1]) == edge
    assert page.locator(".gw-hint").count() == 0
    expect(page.locator("[data-edge][data-hint]")).to_have_count(0)
    widget.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_dark_and_light_tints_differ_and_read(page, server, theme):
    game = gw.Gridlock(4, 4)
    widget, bridge = open_game(page, server, game, theme=theme)
    widget.hints = "solve"
    widget.wait_hints(WAIT)
    widget.hint_data = hand_made(game.version, {"A1": h("win", 1.0, best=True), "B2": h("loss", -1.0)})
    bridge.push()
    r, g, b = rgb(page, '.gw-hint[data-move="A1"] .gw-hint-label')
    light_text = (r + g + b) / 3 > 128
    assert light_text == (theme == "dark")
    widget.close()


def test_a_game_of_ones_own_with_edges_gets_hints_on_its_edges(page, server):
    # issue 27: hints find a move's place from its target, never its notation:
    # the Dots and Boxes of docs/adding-a-game.md (edges named like "B2N") gets
    # its hints on the edges, and a border edge too
    sys.path.insert(0, str(HERE.parent))
    from docgames import load

    game = load()["DotsAndBoxes"](rows=2, cols=2)
    widget, bridge = open_game(page, server, game)
    kind = widget.state["contract"]["hint_kinds"][0]
    widget.hints = kind
    widget.wait_hints(WAIT)
    inner, border = [t for t in widget.state["targets"] if t["kind"] == "edge"][:2]
    widget.hint_data = hand_made(game.version, {inner["move"]: h("win", 1.0, best=True),
                                                border["move"]: h("loss", -1.0)}, kind=kind)
    bridge.push()
    assert drawn(page) == {inner["move"]: "win", border["move"]: "loss"}
    assert page.locator(".gw-hint-edge").count() == 2  # drawn on the lines, not listed
    expect(page.locator(f'[data-edge="{inner["move"]}"]')).to_have_attribute("data-hint", "win")
    widget.close()
