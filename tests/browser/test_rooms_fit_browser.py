"""The projector and the phone fit (issue 41): the projector's page at
1920x1080 with a running room, its results and a revealed bid poll shows
everything without scrolling, in text of at least 24 px; a student's page on
a 390x844 touch phone during a Block Four bid has controls of at least 44x44
CSS px, text of at least 14 px, and speaks of tapping. Screenshots go to
``shots/`` at the repository's root with GRIDWIDGETS_FIT_SHOTS=1."""

from __future__ import annotations

import os
import random

import lab_harness as harness
import pytest
from rooms_harness import RoomsServer, join
from test_rooms_browser import AXE, _axe, close_devices, teacher_page, wait_version  # noqa: F401

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not harness.chromium_available(), reason="needs Debian's chromium and Playwright"),
]

SHOTS = harness.REPO_ROOT / "shots"
#: a Block Four endgame (tests/test_rooms_activities.py): O to bid among ten, solved exactly on reveal
BID_ENDGAME = ("blockfour XXXXXXXX./XXOOOOOO./OOOOXX.../OOXXXOOOO/OOXXXXXOO/OXX..OXOO/X...OOOXX/XXXOOOOXX/"
               "OOOOOOXXX X=OTZ/IL O=ILOTZ/- turn=7 stall=2 bid")
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hana")

#: the visible texts of a page (own text of an element, or an SVG <text>) and their size as drawn on the
#: screen (an SVG text's font-size times the picture's scale), the smallest first
TEXT_SIZES = """(root) => {
  const out = [];
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    for (let e = el; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden' || cs.opacity === '0') return false;
      if (e.classList && (e.classList.contains('gw-sr-only'))) return false;
    }
    const cs = getComputedStyle(el);
    if (cs.clip === 'rect(0px, 0px, 0px, 0px)' || cs.clipPath === 'inset(50%)') return false;
    return true;
  };
  for (const el of (root || document.body).querySelectorAll('*')) {
    if (['SCRIPT', 'STYLE', 'TITLE', 'NOSCRIPT'].includes(el.tagName.toUpperCase())) continue;
    const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim();
    if (!own || !visible(el)) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement && el.ownerSVGElement) {
      const m = el.getScreenCTM();
      if (m) size *= Math.hypot(m.a, m.b);
    }
    const where = (el.closest('[class]') || el).className;
    out.push({size: Math.round(size * 10) / 10, text: own.slice(0, 40),
              where: String(where && where.baseVal !== undefined ? where.baseVal : where).slice(0, 60)});
  }
  return out.sort((a, b) => a.size - b.size);
}"""

#: every visible control a finger may press (buttons, links, inputs, the board's cells stay out: a cell is
#: the board's, sized by the board) and its box
CONTROL_BOXES = """() => {
  const out = [];
  const sel = 'button, a[href], input:not([type=hidden]), select, textarea, [role=button], .v-btn';
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if (r.width < 1 || r.height < 1 || cs.visibility === 'hidden' || el.closest('[hidden]')) continue;
    if (el.closest('.gw-sr-only')) continue;
    let box = r;
    const inputs = el.closest('.v-input');  // a Vuetify field: its whole field is the target
    if (inputs && el.tagName === 'INPUT') box = (inputs.querySelector('.v-input__slot') || inputs).getBoundingClientRect();
    out.push({w: Math.round(box.width), h: Math.round(box.height),
              what: (el.getAttribute('aria-label') || el.innerText || el.className || el.tagName).toString()
                    .trim().slice(0, 40)});
  }
  return out;
}"""


def _shoot(page, name: str) -> None:
    if os.environ.get("GRIDWIDGETS_FIT_SHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))


def _prepare_class(db) -> str:
    """A Block Four room of eight students (four games: three finished, one under way) and a revealed poll on
    a bid endgame, written before the server starts; returns the room's code."""
    from gridwidgets.rooms import Rooms, Store
    from gridwidgets.rooms.polls import analyse

    rooms = Rooms(Store(db))
    room = rooms.create("blockfour", teacher_token=rooms.teacher_token)
    seats = [room.join(name) for name in NAMES]
    rng = random.Random(7)
    for k, rg in enumerate(room.games[:3]):
        g = rg.game
        while not g.is_over:
            p = g.players_to_move[0]
            room.play(rg.players[p], rng.choice(g.legal_moves(p)))
        assert k < 3
    last = room.games[3]
    room.play(last.players[0], last.game.legal_moves(0)[0])  # X has bid in the game under way
    t = rooms.teacher_token
    poll = room.open_poll(t, BID_ENDGAME, player=1)
    for seat, bid in zip(seats, ["LO", "LO", "IL", "LT", "OT", "LO", "IZ"], strict=False):
        room.answer_poll(seat.token, bid)
    # the reveal's analysis, here rather than on the reveal's thread (and with time to spare on a busy machine)
    poll._analysis = analyse(poll.game, 1, equilibrium_budget=120)
    assert poll._analysis["kind"] == "equilibrium", poll._analysis["message"]
    room.store.set_poll(poll.id, "revealed", poll._analysis)
    rooms.store.close()
    return room.code


@pytest.mark.skipif(not AXE.exists(), reason="needs axe-core from npm (npm ci)")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_projector_shows_the_games_the_results_and_the_bid_poll_without_scrolling_in_big_text(
        browser, tmp_path, theme):
    db = tmp_path / "class.sqlite"
    code = _prepare_class(db)
    server = RoomsServer(db)
    server.args += ["--theme", theme]
    with server:
        teacher = teacher_page(browser, server)  # the teacher's session cookie opens the projector
        projector = teacher.context.new_page()
        projector.set_viewport_size({"width": 1920, "height": 1080})
        projector.goto(server.base + "/projector")
        projector.locator(".gw-big-code").filter(has_text=code).wait_for()
        projector.locator(".gw-poll-table caption").filter(has_text="equilibrium").wait_for()
        projector.locator(".gw-show-results").click()
        projector.locator(".gw-proj-standings").filter(has_text="Seat 1").wait_for()  # anonymous by default
        projector.wait_for_load_state("networkidle")
        assert projector.locator(".gw-room-game").count() == 4
        # the poll's table whole: every row of the class's answers and the equilibrium's bids, none cut
        table = projector.locator(".gw-poll-table table")
        assert table.locator("tbody tr").count() >= 5
        _shoot(projector, f"projector_1920x1080_{theme}")
        sizes = projector.evaluate("""() => ({scroll: document.documentElement.scrollHeight,
            inner: innerHeight, width: document.documentElement.scrollWidth, innerW: innerWidth})""")
        assert sizes["scroll"] <= sizes["inner"], f"the projector scrolls: {sizes}"
        assert sizes["width"] <= sizes["innerW"], f"the projector scrolls sideways: {sizes}"
        # nothing the projector shows is cut off at the screen's edge
        cut = projector.evaluate("""() => [...document.querySelectorAll('.gw-projector .gw-room-game, '
            + '.gw-projector .gw-poll-table tr, .gw-projector .gw-poll [data-game], .gw-projector-results tr')]
            .map(e => e.getBoundingClientRect()).filter(r => r.width && (r.bottom > innerHeight + 0.5
            || r.right > innerWidth + 0.5)).length""")
        assert cut == 0, f"{cut} parts of the projector's page lie beyond the screen"
        # a chart (an image: its text is 18 pt at its own size) is never shown smaller than its size
        shrunk = projector.evaluate("""() => [...document.querySelectorAll('.gw-projector-results img')]
            .filter(i => i.getBoundingClientRect().width < i.naturalWidth - 1).length""")
        assert shrunk == 0, "a chart on the projector is shown smaller than its size"
        texts = projector.evaluate(TEXT_SIZES)
        # the marks drawn in the games' small boards are pieces of a picture scaled with its board, not text
        small = [t for t in texts if t["size"] < 24 and not t["where"].startswith("gw-static")]
        assert not small, f"{len(small)} texts under 24 px on the projector, e.g. {small[:8]}"
        _axe(projector, f"projector 1920x1080, {theme}")


@pytest.mark.skipif(not AXE.exists(), reason="needs axe-core from npm (npm ci)")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_phone_during_a_bid_has_big_controls_and_text_and_speaks_of_tapping(browser, tmp_path, theme):
    server = RoomsServer(tmp_path / "class.sqlite", game="blockfour")
    server.args += ["--theme", theme]
    with server:
        (code,) = server.codes
        ctx = browser.browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        ctx.set_default_timeout(30_000)
        phones = []
        for name in ("Xavier", "Olga"):
            page = ctx.new_page() if not phones else browser.browser.new_context(
                viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
            page.goto(f"{server.base}/?room={code}")
            page.locator(".gw-join-name input").fill(name)
            page.locator(".gw-join").tap()
            page.wait_for_function("location.search.includes('seat=')")
            phones.append(page)
        _x, o = phones
        for page in phones:
            wait_version(page, "blockfour", 0, timeout=30_000)
        box = '[data-game="blockfour"] '
        for page in phones:  # each phone: both bid at the same time (no "X to bid two cards" on O's page)
            page.locator(box + '[data-role="status"]').filter(has_text="bid at the same time").wait_for()
            assert "Player 1 (X) to bid" not in page.locator(box + '[data-role="status"]').inner_text()
            assert "next" not in page.locator(box + ".gw-players").inner_text()
        o.locator(box + "button[data-card][data-player='1']").first.tap()  # one card picked: the bid bar says so
        _shoot(o, f"phone_bid_390x844_{theme}")
        if theme == "dark":
            o.wait_for_function("!!document.querySelector('.v-application.theme--dark')")
        o.wait_for_load_state("networkidle")
        controls = o.evaluate(CONTROL_BOXES)
        assert len(controls) >= 5, controls
        tiny = [c for c in controls if c["w"] < 44 or c["h"] < 44]
        assert not tiny, f"controls under 44x44 CSS px on the phone: {tiny}"
        texts = o.evaluate(TEXT_SIZES)
        small = [t for t in texts if t["size"] < 14 and "gw-board" not in t["where"]]
        assert not small, f"{len(small)} texts under 14 px on the phone, e.g. {small[:8]}"
        words = o.locator("body").inner_text().lower()
        assert "click" not in words, "the phone's page speaks of clicking"
        _axe(o, f"phone during a bid, {theme}")


def test_the_teacher_asks_about_a_game_named_by_its_round_and_players_and_projects_its_replay(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4") as server:
        (code,) = server.codes
        ann, _bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob")
        wait_version(ann, "gridlock", 0)
        ann.locator('[data-game="gridlock"] [data-cell="B2"]').click()
        teacher = teacher_page(browser, server)
        # Ask the class...: the game menu names the game by its round and players, not a bare number
        teacher.locator(".gw-ask-class").click()
        teacher.locator(".gw-ask-game").click()
        teacher.get_by_role("option", name="Round 1: Ann vs Bob").wait_for()
        teacher.keyboard.press("Escape")
        teacher.locator(".gw-ask").get_by_role("button", name="Cancel").click()
        # Replay opens right under its game's card, and goes to the projector
        projector = teacher.context.new_page()
        projector.set_viewport_size({"width": 1920, "height": 1080})
        projector.goto(server.base + "/projector")
        projector.locator(".gw-room-game").first.wait_for()
        card = teacher.locator(".gw-room-game").filter(has_text="Ann vs Bob")
        card.get_by_role("button", name="Replay").click()
        replay = teacher.locator(".gw-room-games > .gw-replay")
        replay.wait_for()
        assert "Round 1: Ann vs Bob" in replay.inner_text()
        top = card.bounding_box()
        box = replay.bounding_box()
        assert 0 <= box["y"] - (top["y"] + top["height"]) < 40, "the replay opens right under its game's card"
        replay.locator(".gw-project-replay").click()
        projector.locator(".gw-proj-replay").filter(has_text="Seat 1 vs Seat 2").wait_for(timeout=15_000)
        projector.locator('.gw-proj-replay [data-game="gridlock"]').wait_for()
        assert projector.evaluate("document.documentElement.scrollHeight <= innerHeight")
        _shoot(projector, "projector_replay_1920x1080")
        replay.locator(".gw-project-replay").filter(has_text="Take it off").click()
        projector.locator(".gw-proj-replay").wait_for(state="detached", timeout=15_000)
