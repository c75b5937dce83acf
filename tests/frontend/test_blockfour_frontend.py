"""The Block Four layer in the browser (docs/frontend.md, "Block Four"):
the fields, the cards, the secret bid (BF-5, BF-13), the reveal (BF-6), the
placement preview with rotate / mirror (BF-3, BF-7), and a game against an
agent; against the real Python widget, and against hand-made states
(frontend_harness.StubWidget) for the end of a game.

Run: ``npm run build && pytest tests/frontend``.
"""

from __future__ import annotations

import copy
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

SHAPE_ORDER = "ILOTZ"


# -- helpers ------------------------------------------------------------------------


def cell(page, name):
    return page.locator(f'[data-cell="{name}"]')


def card(page, shape, player):
    return page.locator(f'[data-card="{shape}"][data-player="{player}"]').first


def row(page, player):
    """A player's row of the players' table (drawn from the scene's panel)."""
    return page.locator(f'table.gw-players[data-role="players"] tr.gw-prow[data-player="{player}"]')


def col(page, player, name):
    return row(page, player).locator(f'td[data-col="{name}"]')


def hand_card(page, player):
    """The hand cards of ``player`` offered as buttons in the bid bar."""
    return page.locator(f'[data-role="bid"] button[data-card][data-player="{player}"][data-where="hand"]')


def wait_version(page, version):
    page.wait_for_selector(f'.gw-root[data-version="{version}"]', state="attached", timeout=5_000)


def version(page):
    return int(page.locator(".gw-root").get_attribute("data-version"))


def preview(page):
    return page.locator('[data-role="preview"]')


def has_class(name):
    return re.compile(rf"(^|\s){re.escape(name)}(\s|$)")


def sent(page, kind):
    """The intents of one type the page sent, in order."""
    return page.evaluate("k => window.gw.log.filter(e => e.send && e.send.type === k).map(e => e.send)", kind)


def wait_version_past(page, version):
    """Wait until the page shows a version after ``version`` (an agent may move on at once)."""
    page.wait_for_function(
        "v => Number(document.querySelector('.gw-root').getAttribute('data-version')) > v", arg=version, timeout=5_000
    )


def bid(page, player, cards):
    """Pick two cards of ``player`` and lock them in; wait for Python's answer."""
    v = version(page)
    for k in cards:
        card(page, k, player).click()
    expect(page.locator('[data-action="lock"]')).to_be_enabled()
    page.locator('[data-action="lock"]').click()
    wait_version_past(page, v)


def cells_of(move):
    return move.split(":", 1)[1].split(",")


def rc(name):
    return int(name[1:]) - 1, ord(name[0]) - 65


def orientation_of(move, orientations):
    """(mirrored, index) of the orientation a placement uses."""
    cells = [rc(c) for c in cells_of(move)]
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    norm = sorted((r - r0, c - c0) for r, c in cells)
    table = orientations[move[0]]
    for mirrored, key in ((False, "rot"), (True, "mir")):
        for k, o in enumerate(table[key]):
            if sorted(tuple(p) for p in o) == norm:
                return mirrored, k
    raise AssertionError(f"no orientation for {move}")


def place_via_ui(page, widget, move, *, keys=True):
    """Turn the preview to ``move``'s orientation (keys R / F, or the buttons),
    point at its first cell, check the preview names ``move``, click."""
    mirrored, k = orientation_of(move, widget.state["extra"]["orientations"])
    bar = page.locator('[data-role="place"]')
    if (bar.get_attribute("data-mirrored") == "true") != mirrored:
        if keys:
            page.locator(".gw-board").focus()
            page.keyboard.press("f")
        else:
            page.locator('[data-action="mirror"]').click()
    turns = (k - int(bar.get_attribute("data-turn"))) % 4
    for _ in range(turns):
        if keys:
            page.locator(".gw-board").focus()
            page.keyboard.press("r")
        else:
            page.locator('[data-action="rotate"]').click()
    expect(bar).to_have_attribute("data-turn", str(k))
    first = cells_of(move)[0]
    v = version(page)
    cell(page, first).hover()
    expect(preview(page)).to_have_attribute("data-move", move)
    expect(preview(page)).to_have_attribute("data-legal", "true")
    cell(page, first).click()
    wait_version(page, v + 1)


@pytest.fixture
def bf(page, server):
    """A Block Four (seed 3: X holds I, O, T, with L, Z on the table) and its page."""
    game = gw.BlockFour(seed=3)
    widget = game.widget(playing=False)
    bridge = fh.open_widget(page, server, widget)
    yield game, widget, bridge, page
    widget.close()


def to_placement(page):
    """X bids IT, O bids LZ: no match, four placements, X places I first."""
    bid(page, 0, "IT")
    bid(page, 1, "LZ")


# -- the board and the panel ----------------------------------------------------------------


def test_bf_board_has_nine_fields_and_the_panel(bf):
    _game, widget, _, page = bf
    root = page.locator(".gw-root")
    expect(root).to_have_attribute("data-game", "blockfour")
    assert page.locator(".gw-board [data-cell]").count() == 81
    expect(page.locator(".gw-board")).to_have_attribute("aria-label", re.compile("Block Four board"))
    # nine fields, numbered 1..9, each outlined as a 3x3 block (the thicker borders between them)
    fields = page.locator('[data-role="scene"] g.gw-field')
    expect(fields).to_have_count(9)
    assert [fields.nth(k).get_attribute("data-region") for k in range(9)] == [f"field {k}" for k in range(1, 10)]
    expect(fields.locator(".gw-region-label")).to_have_text([f"field {k}" for k in range(1, 10)])
    outlines = fields.locator("rect.gw-region-outline")
    expect(outlines).to_have_count(9)
    a1 = page.locator('[data-cell="A1"]').bounding_box()
    for k in range(9):
        box = outlines.nth(k).bounding_box()  # the outline's stroke included
        assert abs(box["width"] - 3 * a1["width"]) < 4 and abs(box["height"] - 3 * a1["height"]) < 4, box
        br, bc = divmod(k, 3)
        corner = page.locator(f'[data-cell="{"ADG"[bc]}{br * 3 + 1}"]').bounding_box()
        assert abs(box["x"] - corner["x"]) < 4 and abs(box["y"] - corner["y"]) < 4, (k, box, corner)
    # no field is controlled yet: no tint
    expect(page.locator('[data-role="scene"] rect.gw-region-tint')).to_have_count(0)
    # the players: X holds I, O, T (L, Z on the table, BF-4), O holds all five
    expect(page.locator("table.gw-players tr.gw-prow")).to_have_count(2)
    expect(page.locator("tr.gw-prow .gw-pname")).to_have_text(["Player 1 (X)", "Player 2 (O)"])
    expect(col(page, 0, "hand")).to_have_text("I O T")
    expect(col(page, 0, "table")).to_have_text("L Z")
    expect(col(page, 1, "hand")).to_have_text("I L O T Z")
    expect(col(page, 1, "table")).to_have_text("none")
    expect(row(page, 0)).to_have_class(has_class("is-current"))
    expect(row(page, 0)).to_have_attribute("data-mark", "turn")
    # both are still to bid, at the same time (BF-5): nobody bids "next" (X bids first at this screen, BF-13)
    expect(row(page, 1)).to_have_attribute("data-mark", "turn")
    expect(col(page, 0, "status")).to_have_text("to bid")
    expect(col(page, 1, "status")).to_have_text("to bid")
    # the bidder's hand as cards to pick, in card order, each with its number and shape
    hand0 = hand_card(page, 0)
    expect(hand0).to_have_count(3)
    assert [hand0.nth(k).get_attribute("data-card") for k in range(3)] == ["I", "O", "T"]
    expect(card(page, "T", 0)).to_have_attribute("aria-label", "4 T card")
    expect(card(page, "T", 0).locator(".bf-num")).to_have_text("4")
    assert card(page, "T", 0).locator(".bf-shape rect").count() == 4
    # the table's cards are not to pick: no card for L (X's table) anywhere in the page
    expect(page.locator('[data-card="L"][data-player="0"]')).to_have_count(0)
    # only the bidding player's hand is offered; Lock waits for two cards
    expect(card(page, "I", 0)).to_be_enabled()
    expect(page.locator('[data-card][data-player="1"]')).to_have_count(0)
    expect(page.locator('[data-action="lock"]')).to_be_disabled()
    expect(col(page, 0, "fields")).to_have_text("0")
    expect(col(page, 0, "spaces")).to_have_text("0")
    expect(page.locator('[data-role="place"]')).to_be_hidden()
    expect(page.locator('[data-role="reveal"]')).to_be_hidden()
    assert widget.state["extra"]["phase"] == "bid"


def test_bf_picking_cards_is_page_state_and_lock_sends_the_bid(bf):
    _game, widget, _, page = bf
    card(page, "T", 0).click()
    expect(card(page, "T", 0)).to_have_attribute("aria-pressed", "true")
    expect(page.locator('[data-action="lock"]')).to_be_disabled()
    card(page, "I", 0).click()
    card(page, "O", 0).click()  # a third card replaces the first picked
    expect(card(page, "T", 0)).to_have_attribute("aria-pressed", "false")
    expect(card(page, "I", 0)).to_have_attribute("aria-pressed", "true")
    expect(card(page, "O", 0)).to_have_attribute("aria-pressed", "true")
    card(page, "O", 0).click()  # toggles off
    expect(card(page, "O", 0)).to_have_attribute("aria-pressed", "false")
    card(page, "T", 0).click()
    # O's cards cannot be picked while X bids: none of them is offered
    expect(page.locator('[data-card][data-player="1"]')).to_have_count(0)
    expect(hand_card(page, 0)).to_have_count(3)
    # nothing of the picking reached Python
    assert page.evaluate("window.gw.log.length") == 0
    assert widget.state["version"] == 0
    lock = page.locator('[data-action="lock"]')
    expect(lock).to_be_enabled()
    lock.click()
    wait_version(page, 1)
    assert sent(page, "play") == [{"type": "play", "move": "IT", "player": 0, "version": 0}]
    assert widget.game.pending_bids == (True, False)


def test_bf_a_locked_bid_leaves_the_page(bf):
    _game, widget, _, page = bf
    bid(page, 0, "TI")  # picked in any order, sent as IT (BF-12)
    assert sent(page, "play")[0]["move"] == "IT"
    # X's bid is nowhere: no picked card, no "IT" in the page's text or markup
    assert page.locator(".bf-card.is-picked").count() == 0
    assert page.locator('.bf-card[aria-pressed="true"]').count() == 0
    assert page.locator('button[data-card][data-player="0"]').count() == 0
    text = page.evaluate("document.querySelector('.gw-root').textContent")
    assert not re.search(r"\bIT\b", text), text
    markup = page.evaluate("document.querySelector('.gw-root').outerHTML")
    assert '"IT"' not in markup and ">IT<" not in markup
    # "X has bid", and O is to bid with its own hand
    expect(col(page, 0, "status")).to_have_text("X has bid")
    expect(col(page, 1, "status")).to_have_text("to bid")
    expect(row(page, 1)).to_have_class(has_class("is-current"))
    expect(row(page, 0)).not_to_have_class(has_class("is-current"))
    # X's hand is still public (BF-10): the panel shows it, but not what X bid from it
    expect(col(page, 0, "hand")).to_have_text("I O T")
    expect(hand_card(page, 1)).to_have_count(5)
    expect(card(page, "L", 1)).to_be_enabled()
    expect(page.locator('[data-action="lock"]')).to_be_disabled()
    assert widget.state["current_player"] == 1


def test_bf_reveal_shows_bids_matches_and_order(bf):
    _game, _widget, _, page = bf
    to_placement(page)
    reveal = page.locator('[data-role="reveal"]')
    expect(reveal).to_be_visible()
    expect(reveal.locator('.bf-bidline[data-player="0"]')).to_have_attribute("data-bid", "IT")
    expect(reveal.locator('.bf-bidline[data-player="1"]')).to_have_attribute("data-bid", "LZ")
    expect(reveal.locator('[data-role="matches"]')).to_have_text("no match: four placements")
    order = reveal.locator('[data-role="order"] li')
    expect(order).to_have_count(4)
    assert [order.nth(k).get_attribute("data-shape") for k in range(4)] == ["I", "L", "T", "Z"]
    assert [order.nth(k).get_attribute("data-status") for k in range(4)] == ["now", "next", "next", "next"]
    expect(order.nth(0)).to_contain_text("placing now")
    # the placement bar for X's I
    bar = page.locator('[data-role="place"]')
    expect(bar).to_be_visible()
    expect(bar).to_contain_text("X places I")
    expect(page.locator('[data-role="bid"]')).to_be_hidden()
    # the played cards are on the tables now (BF-10)
    expect(col(page, 0, "table")).to_have_text("I L T Z")
    expect(col(page, 0, "hand")).to_have_text("O")
    expect(col(page, 1, "table")).to_have_text("L Z")
    expect(col(page, 1, "hand")).to_have_text("I O T")


def test_bf_one_match_and_two_matches_texts(page, server):
    game = gw.BlockFour(seed=3)
    widget = game.widget(playing=False)
    fh.open_widget(page, server, widget)
    bid(page, 0, "IT")
    bid(page, 1, "IT")  # two matches: nothing is placed, the next turn starts
    reveal = page.locator('[data-role="reveal"]')
    expect(reveal.locator('[data-role="matches"]')).to_have_text("two matches: nothing placed")
    expect(reveal).to_contain_text("Last turn's bids")
    expect(page.locator('[data-role="bid"]')).to_be_visible()
    e = widget.state["extra"]
    assert e["phase"] == "bid" and e["turn"] == 2
    hand_x = e["hands"][0]
    hand_o = e["hands"][1]
    shared = next(k for k in hand_x if k in hand_o)
    other_x = next(k for k in hand_x if k != shared)
    other_o = next(k for k in hand_o if k not in (shared, other_x))
    bid(page, 0, shared + other_x)
    bid(page, 1, shared + other_o)
    expect(reveal.locator('[data-role="matches"]')).to_have_text("one match: two copies each")
    assert page.locator('[data-role="order"] li').count() == len(widget.state["extra"]["revealed"]["order"])
    widget.close()


# -- the placement ----------------------------------------------------------------------------


def test_bf_preview_follows_the_pointer_and_click_places(bf):
    game, _widget, _, page = bf
    to_placement(page)
    v = version(page)
    cell(page, "C3").hover()
    expect(preview(page)).to_have_attribute("data-move", "I:C3,D3,E3,F3")
    expect(preview(page)).to_have_attribute("data-legal", "true")
    expect(preview(page)).to_have_class(has_class("is-legal"))
    assert preview(page).locator("[data-preview]").count() == 4
    expect(page.locator('[data-role="preview-note"]')).to_contain_text("legal, click to place")
    # near the right edge the shape stays on the board and still covers the pointed cell
    cell(page, "I5").hover()
    expect(preview(page)).to_have_attribute("data-move", "I:F5,G5,H5,I5")
    cell(page, "C3").click()
    wait_version(page, v + 1)
    assert sent(page, "play")[-1] == {"type": "play", "move": "I:C3,D3,E3,F3", "player": 0, "version": v}
    for name in ("C3", "D3", "E3", "F3"):
        expect(cell(page, name)).to_have_attribute("aria-label", f"{name}, X")
        expect(cell(page, name)).to_have_class(has_class("is-last"))
    expect(col(page, 0, "spaces")).to_have_text("4")
    expect(col(page, 1, "spaces")).to_have_text("0")
    # field 1 (A1..C3) holds one X and no O: told by its cells, and not controlled (no tint)
    field1 = [f"{c}{r}" for r in (1, 2, 3) for c in "ABC"]
    labels = [cell(page, name).get_attribute("aria-label") for name in field1]
    assert sum(lab.endswith(", X") for lab in labels) == 1 and sum(", O" in lab for lab in labels) == 0, labels
    expect(page.locator('[data-role="scene"] rect.gw-region-tint')).to_have_count(0)
    order = page.locator('[data-role="order"] li')
    assert [order.nth(k).get_attribute("data-status") for k in range(2)] == ["done", "now"]
    expect(page.locator('[data-role="place"]')).to_contain_text("O places L")
    assert str(game.history[-1]) == "I:C3,D3,E3,F3"
    # the placed tetromino stays visible as a shape: its outline in X's colour (BF-3)
    outline = page.locator('[data-role="scene-over"] path.gw-region-group[data-region="I of X"]')
    expect(outline).to_have_count(1)
    expect(outline).to_have_class(has_class("gw-p0"))
    assert outline.get_attribute("d").count("M") == 10  # a 1x4 bar: 4 tops, 4 bottoms, 2 ends


def test_bf_an_illegal_placement_is_refused_with_the_rule(bf):
    game, widget, _, page = bf
    to_placement(page)
    place_via_ui(page, widget, "I:C3,D3,E3,F3")
    v = version(page)
    # O's L over X's marks: the preview says so, the click still asks Python
    cell(page, "D3").hover()
    expect(preview(page)).to_have_attribute("data-legal", "false")
    expect(preview(page)).to_have_class(has_class("is-illegal"))
    expect(page.locator('[data-role="preview-note"]')).to_contain_text("not legal here")
    move = preview(page).get_attribute("data-move")
    cell(page, "D3").click()
    msg = page.locator('[data-role="message"]')
    expect(msg).to_contain_text("BF-")
    expect(msg).to_have_class(has_class("is-error"))
    assert version(page) == v
    assert sent(page, "play")[-1]["move"] == move
    assert len(game.history) == 3


def test_bf_rotate_and_mirror_keys_and_buttons(bf):
    _game, widget, _, page = bf
    to_placement(page)
    place_via_ui(page, widget, "I:C3,D3,E3,F3")
    # O places L; its orientations come from Python (BF-3)
    board = page.locator(".gw-board")
    page.evaluate("window.keysSeen = []; document.addEventListener('keydown', e => window.keysSeen.push(e.key))")
    cell(page, "B6").hover()
    first = preview(page).get_attribute("data-move")
    bar = page.locator('[data-role="place"]')
    expect(bar).to_have_attribute("data-turn", "0")
    board.focus()
    page.keyboard.press("r")
    expect(bar).to_have_attribute("data-turn", "1")
    second = preview(page).get_attribute("data-move")
    assert second != first
    orients = widget.state["extra"]["orientations"]
    assert orientation_of(first, orients) == (False, 0)
    assert orientation_of(second, orients) == (False, 1)
    assert "B6" in cells_of(second)
    page.keyboard.press("f")
    expect(bar).to_have_attribute("data-mirrored", "true")
    expect(page.locator('[data-action="mirror"]')).to_have_attribute("aria-pressed", "true")
    mirrored = preview(page).get_attribute("data-move")
    assert orientation_of(mirrored, orients) == (True, 1)
    assert "B6" in cells_of(mirrored)
    # the buttons do the same
    page.locator('[data-action="rotate"]').click()
    expect(bar).to_have_attribute("data-turn", "2")
    page.locator('[data-action="mirror"]').click()
    expect(bar).to_have_attribute("data-mirrored", "false")
    # R and F never reached the notebook (JupyterLab's command mode) and R is no redo here
    assert page.evaluate("window.keysSeen") == []
    assert sent(page, "redo") == []
    expect(board).to_have_attribute("data-lm-suppress-shortcuts", "true")


def test_bf_enter_places_the_preview_at_the_focus_ring(bf):
    game, _widget, _, page = bf
    to_placement(page)
    board = page.locator(".gw-board")
    page.mouse.move(0, 0)
    board.focus()
    # move the focus ring to A1 with the keys, the preview follows it
    for _ in range(10):
        page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")  # A2
    expect(board).to_have_attribute("aria-activedescendant", re.compile(r"-c9$"))
    expect(preview(page)).to_have_attribute("data-move", "I:A2,B2,C2,D2")
    v = version(page)
    page.keyboard.press("Enter")
    wait_version(page, v + 1)
    assert str(game.history[-1]) == "I:A2,B2,C2,D2"
    expect(cell(page, "A2")).to_have_attribute("aria-label", "A2, X")


def test_bf_gap_fill_is_shown(page, server):
    """A placement that leaves a gap (BF-8): the gap cells are highlighted and announced."""
    game = gw.BlockFour(x_table=("L", "Z"))
    widget = game.widget(playing=False)
    fh.open_widget(page, server, widget)
    bid(page, 0, "IT")
    bid(page, 1, "LZ")
    # X's I on B1..E1, then O's L on A2..A4, B4 leaves A1 alone: a gap of one, filled for X
    place_via_ui(page, widget, "I:B1,C1,D1,E1")
    place_via_ui(page, widget, "L:A2,A3,A4,B4")
    e = widget.state["extra"]
    assert e["gaps"] == ["A1"], e
    gap = page.locator('[data-role="scene-over"] rect.gw-region-ring')
    expect(gap).to_have_count(1)
    expect(gap).to_have_attribute("data-changed", "A1")
    # filled for X (BF-8): the cell is X's, and named a gap fill
    expect(cell(page, "A1")).to_have_attribute("aria-label", "A1, X, gap fill (BF-8)")
    expect(col(page, 0, "spaces")).to_have_text(str(e["spaces"][0]))
    expect(page.locator('[data-role="events"]')).to_contain_text("gap fill")
    widget.close()


def test_bf_skipped_placement_is_shown(page, server):
    """A skip (BF-7) in a hand-made state: struck out in the order, announced."""
    game = gw.BlockFour(seed=3)
    game.play("IT", player=0)
    game.play("LZ", player=1)
    state = copy.deepcopy(game.widget().state)
    e = state["extra"]
    e["revealed"]["order"][0]["status"] = "skipped"
    e["revealed"]["order"][1]["status"] = "now"
    e["to_place"] = {"player": 1, "shape": "L"}
    e["skipped"] = ["I:-"]
    e["events"] = ["X's I fits nowhere: skipped (BF-7)"]
    state.update(current_player=1, status="Turn 1: O to place L.")
    fh.open_widget(page, server, fh.StubWidget(state))
    item = page.locator('[data-role="order"] li').first
    expect(item).to_have_attribute("data-status", "skipped")
    expect(item).to_contain_text("skipped (BF-7)")
    expect(page.locator('[data-role="events"]')).to_contain_text("fits nowhere")
    expect(page.locator('[data-role="place"]')).to_contain_text("O places L")


# -- agents --------------------------------------------------------------------------------


def test_bf_person_against_random_agent_with_step(page, server):
    game = gw.BlockFour(seed=3)
    widget = game.widget(agents={1: gw.agents.RandomAgent(seed=1)}, playing=False)
    fh.open_widget(page, server, widget)
    expect(page.locator('[data-role="agents"]')).to_be_visible()
    expect(col(page, 1, "player").locator('[data-role="agent"]')).to_contain_text("RandomAgent")
    expect(col(page, 0, "player").locator('[data-role="agent"]')).to_have_count(0)
    step = page.locator('[data-action="step"]')
    expect(step).to_be_disabled()
    for turn in range(3):
        if game.is_over:
            break
        # X bids two cards from its hand; the agent is to bid then
        hand = widget.state["extra"]["hands"][0]
        bid(page, 0, hand[:2])
        assert widget.state["current_player"] == 1 and widget.state["agent_to_move"]
        expect(page.locator('[data-role="agent-to-move"]')).to_be_visible()
        expect(page.locator('button[data-card][data-player="1"]')).to_have_count(0)
        v = version(page)
        step.click()
        wait_version(page, v + 1)
        assert sent(page, "agent-step")[-1] == {"type": "agent-step", "version": v}
        expect(page.locator('[data-role="reveal"] [data-role="matches"]')).to_be_visible()
        # play the turn out: X places through the page, the agent by Step
        while widget.state["extra"]["phase"] == "place" and not game.is_over:
            s = widget.state
            if s["agent_to_move"]:
                v = version(page)
                expect(step).to_be_enabled()
                step.click()
                wait_version(page, v + 1)
            else:
                place_via_ui(page, widget, s["legal"][len(s["legal"]) // 2], keys=turn % 2 == 0)
    assert len(game.history) >= 6


def test_bf_agent_bids_by_itself_while_playing(page, server):
    game = gw.BlockFour(seed=3)
    widget = game.widget(agents={1: gw.agents.RandomAgent(seed=2)}, playing=True, delay=0)
    fh.open_widget(page, server, widget)
    bid(page, 0, "IO")
    # the page sends agent-step for O's bid; the reveal follows
    expect(page.locator('[data-role="reveal"]')).to_be_visible(timeout=5_000)
    assert sent(page, "agent-step")
    assert widget.state["extra"]["revealed"]["bids"][0] == "IO"


# -- the end ----------------------------------------------------------------------------------


def finished_game(seed=4):
    import random

    game = gw.BlockFour(seed=seed)
    rnd = random.Random(seed)
    while not game.is_over:
        game.play(rnd.choice(game.legal_moves()))
    return game


def test_bf_winner_is_highlighted(page, server):
    game = finished_game()
    widget = game.widget(playing=False)
    fh.open_widget(page, server, widget)
    (w,) = game.winners
    expect(page.locator('[data-role="status"]')).to_have_class(has_class("is-over"))
    expect(page.locator('[data-role="status"]')).to_contain_text(widget.state["status"])
    expect(row(page, w)).to_have_class(has_class("is-winner"))
    expect(row(page, w)).to_have_attribute("data-mark", "winner")
    expect(col(page, w, "status")).to_have_text("winner")
    expect(row(page, 1 - w)).not_to_have_class(has_class("is-winner"))
    expect(col(page, 1 - w, "status")).to_have_text("")
    for p in (0, 1):
        expect(col(page, p, "fields")).to_have_text(str(widget.state["extra"]["fields_controlled"][p]))
    # controlled fields are tinted in their controller's colour, cell by cell
    tints = page.evaluate(
        """() => [...document.querySelectorAll('[data-role="scene"] g.gw-field')].map(g => {
            const o = g.querySelector('rect.gw-region-outline').getBBox();
            return [...document.querySelectorAll('[data-role="scene"] rect.gw-region-tint')].filter(t => {
                const b = t.getBBox(), x = b.x + b.width / 2, y = b.y + b.height / 2;
                return x > o.x && x < o.x + o.width && y > o.y && y < o.y + o.height;
            }).map(t => [...t.classList].filter(c => /^gw-p\\d+$/.test(c)).join(" "));
        })"""
    )
    expected = [[f"gw-p{f['controller']}"] * 9 if f["controller"] >= 0 else [] for f in widget.state["extra"]["fields"]]
    assert tints == expected
    assert any(expected)  # the game ended with fields held
    expect(page.locator('[data-role="bid"]')).to_be_hidden()
    expect(page.locator('[data-role="place"]')).to_be_hidden()
    assert page.locator("button.bf-card:enabled").count() == 0
    widget.close()


#: a random game (finished_game) that ends in a draw: 4 fields each (BF-11)
DRAW_SEED = 357


def test_bf_draw_is_shown_as_such(page, server):
    game = finished_game(DRAW_SEED)
    assert game.is_over and sorted(game.winners) == [0, 1], game.status()
    state = copy.deepcopy(game.widget().state)
    fh.open_widget(page, server, fh.StubWidget(state))
    expect(page.locator("tr.gw-prow")).to_have_count(2)
    for p in (0, 1):
        expect(col(page, p, "status")).to_have_text("draw")
    expect(page.locator('[data-role="status"]')).to_have_class(has_class("is-over"))
    expect(page.locator('[data-role="status"]')).to_contain_text("draw", ignore_case=True)
    # a draw is no win: neither row is marked (or named) a winner
    for p in (0, 1):
        expect(row(page, p)).not_to_have_class(has_class("is-winner"))
        expect(row(page, p)).not_to_have_attribute("data-mark", "winner")
    assert page.locator("tr.gw-prow.is-winner").count() == 0


def test_bf_hand_made_state_without_orientations_still_draws(page, server):
    """A partial state (no orientations, no revealed): nothing throws, the
    scene it holds draws (the marks, the players' cards in the panel) and the
    preview falls back on the default shapes."""
    from gridwidgets.core.scene import Panel, PanelRow, Piece, Region, Scene

    n = 81
    cells = [""] * n
    owners = [-1] * n
    cells[0], owners[0] = "X", 0  # A1
    scene = Scene(
        rows=9,
        cols=9,
        title="Block Four: X to place T.",
        colours=("blue", "red"),
        pieces=[Piece((0, 0), "mark", 0, "X")],
        regions=[
            Region(tuple((br * 3 + i, bc * 3 + j) for i in range(3) for j in range(3)), -1, "outline", f"field {k + 1}")
            for k, (br, bc) in enumerate(divmod(f, 3) for f in range(9))
        ],
        panel=Panel(
            ("Player", "Fields", "Spaces", "Hand", "Table", "Status"),
            (
                PanelRow(0, ("Player 1 (X)", "0", "1", "I", "T", "places T"), "turn"),
                PanelRow(1, ("Player 2 (O)", "0", "0", "L O", "none", "waiting")),
            ),
        ),
    ).to_dict()
    state = {
        "game": "blockfour",
        "version": 3,
        "rows": 9,
        "cols": 9,
        "players": ["X", "O"],
        "current_player": 0,
        "scene": scene,
        "cells": cells,
        "owners": owners,
        "legal": ["T:B2,C2,D2,C3"],
        "forbidden": [],
        "forbidden_rule": "",
        "last_move": None,
        "history": [],
        "future": [],
        "is_over": False,
        "winners": [],
        "status": "X to place T.",
        "message": "",
        "message_kind": "",
        "seats": ["", ""],
        "agent_to_move": False,
        "extra": {
            "phase": "place",
            "turn": 1,
            "to_place": {"player": 0, "shape": "T"},
            "hands": [["I"], ["L", "O"]],
            "tables": [["T"], []],
        },
    }
    fh.open_widget(page, server, fh.StubWidget(state))
    expect(page.locator('[data-role="scene"] g.gw-field')).to_have_count(9)
    expect(cell(page, "A1")).to_have_attribute("aria-label", "A1, X")
    expect(page.locator(".gw-pieces .gw-mark")).to_have_count(1)
    expect(col(page, 0, "table")).to_have_text("T")
    expect(col(page, 0, "hand")).to_have_text("I")
    expect(col(page, 1, "hand")).to_have_text("L O")
    expect(row(page, 0)).to_have_class(has_class("is-current"))
    expect(page.locator('[data-role="place"]')).to_contain_text("X places T")
    cell(page, "B2").hover()
    expect(preview(page)).to_have_attribute("data-move", "T:B2,C2,D2,C3")
    expect(preview(page)).to_have_attribute("data-legal", "true")


def test_bf_after_lock_bid_the_keyboard_focus_is_on_the_board_not_lost(bf):
    # WCAG 2.4.3: Lock is disabled once the bid is sent; the focus goes to the board
    _game, _widget, _, page = bf
    card(page, "T", 0).click()
    card(page, "I", 0).click()
    lock = page.locator('[data-action="lock"]')
    lock.focus()
    page.keyboard.press("Enter")
    wait_version(page, 1)
    focused = page.evaluate("document.activeElement && document.activeElement.className")
    assert "gw-board" in focused.split(), f"the focus fell to {focused!r}"
