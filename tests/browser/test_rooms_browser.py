"""The classroom across devices in a real browser: one rooms server
(``python -m gridwidgets classroom --rooms``), each student a Playwright
browser context of its own (a device), the teacher another."""

from __future__ import annotations

import io
import json
import re
import time
import zipfile

import lab_harness as harness
import pytest
from rooms_harness import RoomsServer, join

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not harness.chromium_available(), reason="needs Debian's chromium and Playwright"),
]

BOARD = '[data-game="{game}"]'


@pytest.fixture(autouse=True)
def close_devices(browser):
    """Close the browser contexts (devices) a test opened in the shared Chromium."""
    before = set(browser.browser.contexts)
    yield
    for ctx in browser.browser.contexts:
        if ctx not in before:
            ctx.close()


def wait_version(page, game: str, version: int, timeout: float = 15_000) -> None:
    page.wait_for_selector(f'[data-game="{game}"][data-version="{version}"]', state="attached", timeout=timeout)


def local_game(name: str, board: str):
    from gridwidgets.classroom import start_game

    return start_game(name, board)


def teacher_page(browser, server: RoomsServer):
    ctx = browser.browser.new_context(viewport={"width": 1280, "height": 720}, accept_downloads=True)
    ctx.set_default_timeout(30_000)
    page = ctx.new_page()
    page.goto(server.teacher_url)
    page.locator(".gw-room-panel").wait_for()
    return page


def download(page, label: str) -> bytes:
    """What the teacher's results button ``label`` (its text's start) downloads."""
    if not page.locator(".gw-results").count():
        page.locator(".gw-show-results").click()
    button = page.get_by_text(label)
    button.wait_for()
    with page.expect_download() as info:
        button.click()
    with open(info.value.path(), "rb") as file:
        return file.read()


def download_standings(page) -> list[str]:
    """The standings CSV from the teacher's results: its lines."""
    return download(page, "Download the standings").decode("utf-8").splitlines()


def pair_and_teacher(browser, server: RoomsServer):
    """Ann and Bob seated in the server's room (one game), and the teacher's page: ``(code, ann, bob, teacher)``."""
    (code,) = server.codes
    ann, bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob")
    return code, ann, bob, teacher_page(browser, server)


def download_games(page) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(download(page, "Download every game"))) as archive:
        return {name: archive.read(name).decode() for name in archive.namelist()}


def test_two_students_on_two_devices_play_gridlock_to_the_end_and_see_every_move(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4") as server:
        (code,) = server.codes
        ann, bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob")
        assert "Player 1 (X)" in ann.locator(".gw-you-play").inner_text()
        assert "Bob" in ann.locator(".gw-you-play").inner_text()
        g = local_game("gridlock", "4x4")
        pages = [ann, bob]
        while not g.is_over:
            move = g.legal_moves()[0]
            mover, other = pages[g.current_player], pages[1 - g.current_player]
            mover.locator(f'[data-game="gridlock"] [data-cell="{move}"]').click()
            g.play(move)
            for page in (mover, other):  # both devices see it
                wait_version(page, "gridlock", g.version)
            mark = g.players[(len(g.history) - 1) % 2]
            label = other.locator(f'[data-game="gridlock"] [data-cell="{move}"]').get_attribute("aria-label")
            assert label.startswith(f"{move}, {mark}")  # the other device draws the mover's mark there
        for page in pages:
            status = page.locator('[data-game="gridlock"] [data-role="status"]').inner_text()
            assert status.strip() == g.status().strip()


def test_the_join_form_speaks_english_joins_on_enter_and_shows_focus(browser, tmp_path):
    # WCAG 3.1.1 (the page's language), 2.1.1 (Enter submits the form as in any
    # form), 2.4.7 (the Join button shows the keyboard's focus)
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4") as server:
        (code,) = server.codes
        ctx = browser.browser.new_context(viewport={"width": 390, "height": 844})
        ctx.set_default_timeout(30_000)
        page = ctx.new_page()
        page.goto(f"{server.base}/?room={code}")
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.locator(".gw-join-name input").fill("Nadia")
        page.wait_for_function("!document.querySelector('.gw-join').disabled")
        page.locator(".gw-join").focus()
        outline = page.evaluate("getComputedStyle(document.querySelector('.gw-join')).outlineStyle")
        assert outline == "solid", f"the focused Join button shows no outline: {outline}"
        page.locator(".gw-join-id input").fill("s-42")  # optional, for grades: only the teacher's CSV has it
        page.locator(".gw-join-id input").press("Enter")
        page.wait_for_function("location.search.includes('seat=')")
        assert "Nadia" in page.locator(".gw-seat-name").inner_text()
        assert "s-42" not in page.content()
        ctx.close()
        teacher = teacher_page(browser, server)
        assert any(line.startswith("1,Nadia,s-42,") for line in download_standings(teacher))


def test_a_move_out_of_turn_or_without_a_seat_token_cannot_be_made(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4") as server:
        (code,) = server.codes
        ann, bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob")
        wait_version(bob, "gridlock", 0)
        bob.locator('[data-game="gridlock"] [data-cell="B2"]').click()  # X (Ann) is to move
        bob.locator('[data-game="gridlock"] [data-role="message"]').filter(has_text="not played from this page").wait_for()
        assert ann.locator('[data-game="gridlock"]').get_attribute("data-version") == "0"
        # a device with the room code but no seat token: the join form, no board
        stranger = browser.browser.new_context().new_page()
        stranger.goto(f"{server.base}/?room={code}")
        stranger.locator(".gw-join-name").wait_for()
        assert stranger.locator("[data-game]").count() == 0
        # a made-up seat token: told so, no board
        stranger.goto(f"{server.base}/?room={code}&seat=not-a-seat-token")
        stranger.get_by_text("not known in that room").wait_for()
        assert stranger.locator("[data-game]").count() == 0
        # the teacher's page without the token
        stranger.goto(f"{server.base}/teacher?token=guess")
        stranger.locator(".gw-not-teacher").wait_for()
        assert stranger.locator(".gw-room-game").count() == 0


def test_bids_stay_secret_across_devices(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="blockfour") as server:
        (code,) = server.codes
        x = join(browser, server, code, "Xavier")
        frames: list[str] = []

        def listen(page):  # everything O's device receives
            page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(
                f if isinstance(f, str) else f.decode("utf-8", "replace"))))

        o = join(browser, server, code, "Olga", before=listen)
        wait_version(o, "blockfour", 0)
        wait_version(x, "blockfour", 0)
        before = len(frames)
        cards = x.locator('[data-game="blockfour"] button[data-card][data-player="0"]:not([disabled])')
        picked = sorted({cards.nth(i).get_attribute("data-card") for i in range(cards.count())})[:2]
        for card in picked:
            x.locator(f'[data-game="blockfour"] button[data-card="{card}"][data-player="0"]').click()
        x.locator('[data-game="blockfour"] .bf-lock').click()
        bid = "".join(picked)
        x.locator('[data-game="blockfour"] [data-role="message"]').filter(has_text=f"Your choice: {bid}").wait_for()
        o.locator('[data-game="blockfour"] [data-role="status"]').filter(has_text="has bid").wait_for()
        # what O's device got since X bid: the new state, with nothing of the bid in it
        states = [json.loads(f) for f in frames[before:] if '"state"' in f and "blockfour" in f]
        assert states, "O's page heard of X's bid"
        for message in states:
            state = message["content"]["data"]["state"]["state"]
            assert state["pending"] == [0]
            assert bid not in state["status"] and bid not in state["message"]
            assert all(bid not in json.dumps(v) for k, v in state["extra"].items() if k != "hands")
            assert bid not in json.dumps(state["history"]) + json.dumps(state["steps"])
        assert "Your choice" not in o.locator("body").inner_text()
        # once O's bid is in, both are revealed
        ocards = o.locator('[data-game="blockfour"] button[data-card][data-player="1"]:not([disabled])')
        for i in range(2):
            ocards.nth(0 if i == 0 else 1).click()
        o.locator('[data-game="blockfour"] .bf-lock').click()
        o.wait_for_function(f"document.body.innerText.includes('{bid[0]}') && "
                            "document.querySelector('[data-game=\"blockfour\"]').dataset.version !== '0'")
        step = o.locator('[data-game="blockfour"]').get_attribute("data-version")
        assert step is not None and int(step) >= 1


def test_a_placement_on_a_touch_screen_previews_first_and_only_the_placing_seat_has_its_controls(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="blockfour") as server:
        (code,) = server.codes
        pages = [join(browser, server, code, name, touch=True) for name in ("Xavier", "Olga")]
        for page in pages:
            wait_version(page, "blockfour", 0)
        bids: list[str] = []
        for p, page in enumerate(pages):  # both bid, no card in common: shapes to place (BF-6)
            if p == 1:  # O picks once X's bid is in (its page redraws then)
                page.locator('[data-game="blockfour"] [data-role="status"]').filter(has_text="has bid").wait_for()
            cards = page.locator(f'[data-game="blockfour"] button[data-card][data-player="{p}"]:not([disabled])')
            hand = sorted({cards.nth(i).get_attribute("data-card") for i in range(cards.count())} - set(bids))
            for card in hand[:2]:
                page.locator(f'[data-game="blockfour"] button[data-card="{card}"][data-player="{p}"]').click()
                bids.append(card)
            page.locator('[data-game="blockfour"] .bf-lock').click()
        for page in pages:
            page.locator('[data-game="blockfour"] [data-role="place"]').wait_for()
        rotate = '[data-game="blockfour"] [data-role="place"] [data-action="rotate"]'
        placing = [page for page in pages if page.locator(rotate).is_visible()]
        assert len(placing) == 1, "exactly the placing seat's page shows Rotate"
        waiting = pages[1 - pages.index(placing[0])]
        assert waiting.locator(rotate).is_hidden()
        waiting.locator('[data-game="blockfour"] [data-role="place"]').filter(has_text="wait for their move").wait_for()
        waiting.locator('[data-game="blockfour"] [data-role="status"]').filter(has_text="wait for").wait_for()
        page = placing[0]
        page.locator('[data-game="blockfour"] [data-role="status"]').filter(has_text="Your move.").wait_for()
        version = page.locator('[data-game="blockfour"]').get_attribute("data-version")
        cell = page.locator('[data-game="blockfour"] [data-cell="E5"]')
        cell.tap()  # the first tap shows the shape there, and plays nothing
        page.locator('[data-game="blockfour"] .bf-preview.is-legal').wait_for()
        assert page.locator('[data-game="blockfour"]').get_attribute("data-version") == version
        cell.tap()  # the second tap on it places the shape
        page.wait_for_function("(v) => document.querySelector('[data-game=\"blockfour\"]').dataset.version !== v",
                               arg=version)


def test_on_a_phone_the_cards_and_lock_sit_above_the_board_and_beside_it_on_a_laptop(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="blockfour") as server:
        (code,) = server.codes
        phone = join(browser, server, code, "Xavier", viewport=(390, 844), touch=True)
        laptop = join(browser, server, code, "Olga")
        for page in (phone, laptop):
            wait_version(page, "blockfour", 0)
        box = '[data-game="blockfour"] '

        def top(page, selector):
            return page.locator(box + selector).first.bounding_box()["y"]

        phone.locator(box + ".bf-lock").wait_for()
        phone.wait_for_function("!!document.querySelector('.gw-root > .bf-own.bf-own-top')")
        assert top(phone, "button[data-card]") < top(phone, ".gw-board")  # the hand above the board
        assert top(phone, ".bf-lock") < top(phone, ".gw-board")
        phone.screenshot(path=str(tmp_path / "phone-bid.png"))
        assert laptop.locator(".gw-side .bf-own").count() == 1  # beside the board where it fits
        assert laptop.locator(".gw-root > .bf-own").count() == 0
        # the teacher's (and the projector's) cards of a 9x9 board are big enough to read from the back
        teacher = teacher_page(browser, server)
        card = teacher.locator(".gw-room-games.gw-big-boards .gw-room-game").first
        card.wait_for()
        assert card.bounding_box()["width"] >= 380


def test_a_swiss_tournament_of_two_rounds_on_four_devices_has_standings_after_each_round(browser, tmp_path):
    import time

    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4", pairing="swiss") as server:
        (code,) = server.codes
        pages = [join(browser, server, code, name) for name in ("Ann", "Bob", "Cy", "Dee")]
        teacher = teacher_page(browser, server)
        status = '[data-game="gridlock"] [data-role="status"]'
        for rnd in (1, 2):  # the first round the teacher starts is round 1 (nobody plays before it)
            teacher.get_by_role("button", name="Next round").click()
            for page in pages:
                page.locator(".gw-seat-name").filter(has_text=f"round {rnd}").wait_for()
                page.locator(status).wait_for()
            deadline = time.monotonic() + 120
            while True:  # each page plays a legal cell when its status says it is its move, to the ends
                texts = [page.locator(status).inner_text() for page in pages]
                if not any(t.startswith("Your move.") or "is to move" in t for t in texts):
                    break
                assert time.monotonic() < deadline, f"round {rnd} did not end: {texts}"
                for page, text in zip(pages, texts, strict=True):
                    if text.startswith("Your move."):
                        board = page.locator('[data-game="gridlock"]')
                        version = board.get_attribute("data-version")
                        board.locator("[data-cell].is-legal").first.click()
                        page.wait_for_function(
                            "(v) => document.querySelector('[data-game=\"gridlock\"]').dataset.version !== v",
                            arg=version)
            # the teacher's line counts the round's games over (the lesson plans' cue for Next round)
            teacher.locator(".gw-round-progress").filter(has_text=f"round {rnd} · 2 of 2 games over").wait_for()
        standings = download_standings(teacher)
        header = standings[0].split(",")
        assert header[:10] == ["rank", "name", "student id", "played", "won", "drawn", "lost", "points", "Buchholz",
                               "Sonneborn-Berger"]
        rows = [line.split(",") for line in standings[1:]]
        assert sorted(r[1] for r in rows) == ["Ann", "Bob", "Cy", "Dee"] and all(r[3] == "2" for r in rows)
        assert sum(float(r[7]) for r in rows) == 4.0  # two rounds of two games, a point each
        teacher.locator(".gw-results").filter(has_text="Cross table").wait_for()
        leaders = [r[1] for r in rows if r[0] == "1"]
        assert leaders and all(float(r[7]) == max(float(x[7]) for x in rows) for r in rows if r[1] in leaders)


def test_a_reloaded_page_comes_back_to_its_seat_and_a_restarted_server_has_every_game(browser, tmp_path):
    server = RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4")
    server.start()
    try:
        (code,) = server.codes
        pages = [join(browser, server, code, name) for name in ("Ann", "Bob", "Cat", "Dan")]
        teacher = teacher_page(browser, server)
        teacher.locator(".gw-room-game").nth(1).wait_for()  # the teacher sees both games
        assert teacher.locator(".gw-room-game").count() == 2
        captions = teacher.locator(".gw-room-game").all_inner_texts()
        assert any("Ann vs Bob" in c for c in captions) and any("Cat vs Dan" in c for c in captions)
        g = local_game("gridlock", "4x4")
        for _ in range(3):  # three moves in the first game, one in the second
            move = g.legal_moves()[0]
            pages[g.current_player].locator(f'[data-game="gridlock"] [data-cell="{move}"]').click()
            g.play(move)
            wait_version(pages[0], "gridlock", g.version)
        pages[2].locator('[data-game="gridlock"] [data-cell="A1"]').click()
        wait_version(pages[3], "gridlock", 1)
        teacher.locator(".gw-room-game").first.filter(has_text="to move: Bob").wait_for()
        # a reload: the same seat, the same game
        url = pages[1].url
        pages[1].reload()
        wait_version(pages[1], "gridlock", 3)
        assert pages[1].url == url and "Bob" in pages[1].locator(".gw-seat-name").inner_text()
        saved = download_games(teacher)
        assert len(saved) == 3 and "games.json" in saved  # two save files, and the players' names
        standings = download_standings(teacher)
        assert standings[0].startswith("rank,name,student id,played,won,drawn,lost,points,Buchholz,Sonneborn-Berger,")
        assert len(standings) == 5 and all(line.startswith("1,") for line in standings[1:])  # nobody finished
        teacher.locator(".gw-charts-none").filter(has_text="once 3 games are finished").first.wait_for()
        for page in (pages[0], pages[1], teacher):
            page.evaluate("window.__beforeRestart = true")
        server.kill()  # by PID, SIGKILL: mid-class
        for page in (pages[0], pages[1]):  # the open pages say so while they wait ...
            page.locator(".gw-reconnect").filter(has_text="connection to the class was lost").wait_for(
                timeout=20_000)
        server.start(args=[a for a in server.args if a not in ("--game", "gridlock", "--board", "4x4")])
        assert server.codes == [code]  # the same room, no second one
        # every page open through the restart comes back by itself, with nobody pressing reload (a new page:
        # the server that drew the old one is gone); the teacher's too (its session is in the database)
        for page in (pages[0], pages[1], teacher):
            page.wait_for_function("!window.__beforeRestart && window.solara && window.solara.debug && "
                                   "window.solara.debug.connectionStatus === 'connected'", timeout=90_000)
        teacher.locator(".gw-room-panel").wait_for(timeout=60_000)
        assert download_games(teacher) == saved  # every game identical (to_json)
        assert download_standings(teacher) == standings  # the standings too
        for page in (pages[0], pages[1]):
            wait_version(page, "gridlock", 3, timeout=60_000)
            assert page.locator(".gw-reconnect").is_hidden()
        move = g.legal_moves()[0]
        pages[1].locator(f'[data-game="gridlock"] [data-cell="{move}"]').click()  # Bob plays on
        wait_version(pages[0], "gridlock", 4)  # Ann's page, open through the restart, sees it
        assert "Ann" in pages[0].locator(".gw-seat-name").inner_text()
    finally:
        server.stop()


def test_a_closed_page_gets_its_seat_back_from_the_rooms_address_and_another_device_with_the_seat_code(
        browser, tmp_path):
    shots = tmp_path / "shots"
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4") as server:
        code, ann, bob, teacher = pair_and_teacher(browser, server)
        ann.locator('[data-gw-seat-kept="yes"]').wait_for(state="attached")  # the device keeps the seat
        seat_code = ann.locator("b.gw-seat-code").inner_text()
        assert re.fullmatch(r"[A-HJKMNP-Z2-9]{3}-[A-HJKMNP-Z2-9]{3}", seat_code), seat_code
        ann.screenshot(path=str(shots / "seat.png"))
        ann.locator('[data-game="gridlock"] [data-cell="B2"]').click()
        wait_version(bob, "gridlock", 1)
        device = ann.context
        ann.close()  # the tab is closed
        again = device.new_page()
        again.goto(f"{server.base}/?room={code}")  # the room's address (the QR code's), no seat in it
        again.locator(".gw-seat-name").filter(has_text="Ann").wait_for()
        wait_version(again, "gridlock", 1)  # the same seat, the same game
        assert "seat=" not in again.url
        again.close()
        typed = device.new_page()  # the bare address, typed: the join form offers the seat in one tap
        typed.goto(server.base + "/")
        typed.locator(".gw-back-to-seat").filter(has_text=f"Ann in room {code}").click()
        wait_version(typed, "gridlock", 1)
        typed.close()
        by_name = device.new_page()  # or the code and her own name again, on this device: her seat, not a refusal
        by_name.goto(server.base + "/")
        by_name.locator(".gw-join-code input").fill(code)
        by_name.locator(".gw-join-name input").fill("ann")
        by_name.locator(".gw-join").click()
        by_name.locator(".gw-seat-name").filter(has_text="Ann").wait_for()
        wait_version(by_name, "gridlock", 1)
        # another device: her name is taken, and says how to get the seat back
        phone = browser.browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        phone.set_default_timeout(30_000)
        page = phone.new_page()
        page.goto(f"{server.base}/?room={code}")
        page.locator(".gw-join-name input").fill("ann")
        page.locator(".gw-join").click()
        page.locator(".gw-join-error").filter(has_text="That name is taken in this room").wait_for()
        assert "use your seat code" in page.locator(".gw-join-error").inner_text()
        page.screenshot(path=str(shots / "taken.png"))
        page.locator(".gw-have-code").click()
        assert page.locator(".gw-join-code input").input_value() == code
        page.locator(".gw-reclaim-code input").fill(seat_code.lower().replace("-", " "))
        page.screenshot(path=str(shots / "reclaim.png"))
        page.locator(".gw-reclaim").click()
        page.wait_for_function("location.search.includes('seat=')")
        page.locator(".gw-seat-name").filter(has_text="Ann").wait_for()
        wait_version(page, "gridlock", 1)
        bob.locator('[data-game="gridlock"] [data-cell="D4"]').click()
        wait_version(page, "gridlock", 2)
        page.locator('[data-game="gridlock"] [data-cell="A1"]').tap()  # she plays on from the phone
        wait_version(bob, "gridlock", 3)
        # the teacher reads the same code from the seat's row; the record is one
        teacher.locator(".gw-seats-toggle").click()
        row = teacher.locator(".gw-seat-row").filter(has_text="Ann")
        row.locator(".gw-show-seat-code").click()
        assert seat_code in row.locator(".gw-seat-code").inner_text()
        teacher.screenshot(path=str(shots / "teacher.png"), full_page=True)
        standings = download_standings(teacher)
        assert len(standings) == 3 and sum(",Ann," in line for line in standings) == 1
        assert teacher.locator(".gw-room-game").count() == 1


def test_the_teacher_pauses_the_room_and_a_students_click_waits(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4") as server:
        _code, ann, _bob, teacher = pair_and_teacher(browser, server)
        teacher.locator(".gw-pause").click()
        ann.locator(".gw-paused").wait_for()
        wait_version(ann, "gridlock", 0)
        ann.locator('[data-game="gridlock"] [data-cell="B2"]').click()
        ann.locator('[data-game="gridlock"] [data-role="message"]').filter(has_text="paused").wait_for()
        # the teacher's page redraws at the room's push: Resume is the button that acts now
        teacher.locator(".gw-resume:not([disabled])").click()
        ann.locator(".gw-paused").wait_for(state="detached")
        ann.locator('[data-game="gridlock"] [data-cell="B2"]').click()
        wait_version(ann, "gridlock", 1)


def test_the_dark_theme_reaches_the_students_board(browser, tmp_path):
    server = RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4", pairing="agent")
    server.args += ["--theme", "dark"]
    with server:
        page = join(browser, server, server.codes[0], "Ann")  # against the agent: a board at once
        page.locator("[data-game]").first.wait_for()
        page.wait_for_function("!!document.querySelector('.v-application.theme--dark') && "
                               "!!document.querySelector('.gw-dark')")


# -- no page can slow another ------------------------------------------------------------------------
def _prepare_agent_room(db) -> None:
    """A room where each student plays the agent, written before the server starts (the server opens its own room
    beside it)."""
    from gridwidgets.rooms import Rooms, Store

    rooms = Rooms(Store(db))
    rooms.create("gridlock", "4x4", pairing="agent", teacher_token=rooms.teacher_token)
    rooms.store.close()


def _version(page) -> int:
    return int(page.locator("[data-game]").first.get_attribute("data-version"))


def _timed(page, version: int, what: str, timeout_ms: int = 5_000) -> float:
    """Wait (bounded) until ``page`` draws position ``version``; return the seconds it took."""
    t0 = time.monotonic()
    try:
        wait_version(page, "gridlock", version, timeout=timeout_ms)
    except Exception as exc:
        raise AssertionError(f"{what}: not drawn within {timeout_ms / 1000:.0f} s while a page is stalled") from exc
    return time.monotonic() - t0


def test_a_stalled_page_after_a_flood_slows_nobody_and_shows_the_game_when_it_wakes(browser, tmp_path):
    """Issue 25, item 1: a student's page floods the server with 2,000 widget updates,
    then its browser is stopped (SIGSTOP, by PID: a laptop lid closed). The
    opponent still sees every move, an agent in another room still answers, the
    teacher's Undo, Pause and hand-over still work; resumed, the stalled page
    shows the game as it stands."""
    from rooms_harness import StoppableChromium

    db = tmp_path / "class.sqlite"
    _prepare_agent_room(db)
    with RoomsServer(db, game="gridlock", board="4x4") as server, \
            StoppableChromium(browser._pw) as laptop:
        agent_code, code = server.codes
        ann = join(browser, server, code, "Ann")  # X
        sam_page = laptop.new_page()  # O, on the laptop that will be stopped
        sam_page.goto(server.base + "/")
        sam_page.locator(".gw-join-code input").fill(code)
        sam_page.locator(".gw-join-name input").fill("Sam")
        sam_page.locator(".gw-join").click()
        cid = join(browser, server, agent_code, "Cid")  # alone against the agent, in the other room
        teacher = teacher_page(browser, server)
        for page in (ann, sam_page, cid):
            wait_version(page, "gridlock", 0, timeout=30_000)
        sam_page.evaluate("""() => { const b = document.querySelector('[data-game] [data-action="toggle-legal"]');
                                     for (let i = 0; i < 2000; i++) b.click(); }""")
        laptop.stop()
        times = {}
        try:
            # the opponent's own moves, drawn on her page
            ann.locator('[data-game="gridlock"] [data-cell="B2"]').click()
            times["Ann's move on Ann's page"] = _timed(ann, 1, "Ann's move")
            # the agent in the other room answers
            cid.locator('[data-game="gridlock"] [data-cell="A1"]').click()
            times["the agent's answer in another room"] = _timed(cid, 2, "the agent's answer", 15_000)
            # the teacher's Undo of the stalled game, on Ann's page
            card = teacher.locator(".gw-room-game").filter(has_text="Sam")
            card.get_by_role("button", name="Undo").click()
            times["the teacher's undo on Ann's page"] = _timed(ann, 2, "the teacher's undo")
            # the teacher hands Sam's seat to the agent: the game goes on for Ann
            ann.locator('[data-game="gridlock"] [data-cell="C3"]').click()
            _timed(ann, 3, "Ann's second move")
            card.get_by_role("button", name="Agent plays Sam").click()
            times["the agent's move for Sam on Ann's page"] = _timed(ann, 4, "the agent playing Sam's seat", 15_000)
            # the teacher's Pause reaches Ann, and her click is refused
            teacher.locator(".gw-room-panel .gw-pause").click()
            ann.locator(".gw-paused").wait_for(timeout=5_000)
            teacher.locator(".gw-resume:not([disabled])").click()
            ann.locator(".gw-paused").wait_for(state="detached", timeout=5_000)
        finally:
            laptop.resume()
        print("while a page was stalled: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in times.items()))
        # the stalled page, resumed, shows the game as it stands
        wait_version(sam_page, "gridlock", _version(ann), timeout=60_000)
        sam_page.locator(".gw-handed").wait_for(timeout=30_000)
        assert "agent plays your seat" in sam_page.locator(".gw-handed").inner_text()


# -- the teacher's power is not in an address -------------------------------------------------------
def test_the_teacher_token_leaves_the_address_and_the_projector_view_has_no_controls(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4") as server:
        code, ann, _bob, teacher = pair_and_teacher(browser, server)
        assert teacher.url.endswith("/teacher") and "token" not in teacher.url
        (cookie,) = [c for c in teacher.context.cookies() if c["name"] == "gw_teacher"]
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert "gw_teacher" not in teacher.evaluate("document.cookie")
        assert server.teacher_url.split("token=")[1] not in teacher.content()
        # the projector view, opened from the teacher's page: the address, a QR code, the code, who joined, no control
        with teacher.context.expect_page() as opened:
            teacher.locator(".gw-projector-link").click()
        projector = opened.value
        projector.locator(".gw-big-code").filter(has_text=code).wait_for()
        assert projector.url.endswith("/projector")
        assert projector.locator(".gw-qr svg").count() == 1
        assert server.base in projector.locator(".gw-address").inner_text()
        projector.locator(".gw-joined").filter(has_text="Ann").filter(has_text="Bob").wait_for()
        projector.locator(".gw-room-game").first.wait_for()
        labels = [b.strip().lower() for b in projector.locator("button").all_inner_texts()]
        assert labels == ["show results"], labels  # nothing that changes the class
        ann.locator('[data-game="gridlock"] [data-cell="B2"]').click()
        # live; the projector names seats, not students (Names on the projector is off by default)
        projector.locator(".gw-room-game").filter(has_text="to move: Seat 2").wait_for(timeout=10_000)
        assert "Seat 1 vs Seat 2" in projector.locator(".gw-room-game").first.inner_text()
        # another device without the cookie: neither page
        stranger = browser.browser.new_context().new_page()
        for path in ("/teacher", "/projector", "/teacher?token=%C3%A9", "/teacher?token=" + "A" * 5000):
            stranger.goto(server.base + path)
            stranger.locator(".gw-not-teacher").wait_for()
            text = stranger.locator("body").inner_text()
            assert "Traceback" not in text and ".py" not in text
            assert stranger.locator(".gw-room-game").count() == 0 and "token" not in stranger.url.split("?")[0]


def test_no_student_id_on_any_page_and_the_projector_ranks_seats_until_the_teacher_shows_names(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4") as server:
        (code,) = server.codes
        ids = {"Ann": "s1001", "Bob": "s2002"}

        pages = {}
        for name, sid in ids.items():
            ctx = browser.browser.new_context(viewport={"width": 1280, "height": 720})
            page = ctx.new_page()
            page.goto(server.base + "/")
            page.locator(".gw-join-code input").fill(code)
            page.locator(".gw-join-name input").fill(name)
            page.locator(".gw-join-id input").fill(sid)
            page.locator(".gw-join").click()
            page.locator(".gw-seat-name").wait_for()
            pages[name] = page
        assert "seat 1" in pages["Ann"].locator(".gw-seat-name").inner_text()  # how the projector names Ann
        teacher = teacher_page(browser, server)
        teacher.locator(".gw-show-results").click()
        teacher.locator(".gw-results").filter(has_text="Standings").wait_for()
        projector = teacher.context.new_page()
        projector.goto(server.base + "/projector")
        projector.locator(".gw-show-results").click()
        projector.locator(".gw-projector").filter(has_text="Seat 2").locator("table").first.wait_for()
        for page in (teacher, projector, *pages.values()):
            text = page.locator("body").inner_text()
            assert not [sid for sid in ids.values() if sid in text], page.url
        standings = projector.locator("table").first.inner_text()
        assert "Seat 1" in standings and "Ann" not in standings and "Bob" not in standings
        assert "Ann" in teacher.locator(".gw-results table").first.inner_text()  # the teacher's page: names
        teacher.locator(".gw-projector-names label").click()  # Names on the projector: on
        projector.locator("table").first.filter(has_text="Ann").wait_for(timeout=10_000)
        projector.locator(".gw-room-game").first.filter(has_text="Ann").wait_for(timeout=10_000)
        assert "Seat 1" not in projector.locator(".gw-room-game").first.inner_text()
        # the teacher's file holds the ids
        assert "s1001" in "\n".join(download_standings(teacher))
        # and the class's gradebook, one row per student, keyed by the id (issue 42)
        book = download(teacher, "Download the gradebook").decode("utf-8").splitlines()
        assert book[0].startswith("student,keyed by,name,rooms,games played (count)")
        assert sorted(line.split(",")[:3] for line in book[1:]) == [["s1001", "id", "Ann"], ["s2002", "id", "Bob"]]


def test_the_teacher_renames_removes_and_hands_a_seat_to_the_agent_from_the_page(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4") as server:
        _code, ann, bob, teacher = pair_and_teacher(browser, server)
        teacher.get_by_text("Students: rename or remove").click()
        row = teacher.locator(".gw-seat-row").filter(has_text="Bob")
        row.get_by_role("button", name="Rename").click()
        row = teacher.locator(".gw-seat-row").filter(has=teacher.get_by_role("button", name="Save"))
        row.locator("input").fill("Robert")
        row.get_by_role("button", name="Save").click()
        ann.locator(".gw-you-play").filter(has_text="Robert").wait_for(timeout=10_000)
        bob.locator(".gw-seat-name").filter(has_text="Robert").wait_for(timeout=10_000)
        # Ann's laptop dies mid-game: the agent takes her seat, the game goes on
        card = teacher.locator(".gw-room-game").first
        card.get_by_role("button", name="Agent plays Ann").click()
        ann.locator(".gw-handed").wait_for(timeout=10_000)
        wait_version(bob, "gridlock", 1, timeout=15_000)  # the agent played X
        ann.locator('[data-game="gridlock"] [data-cell="D4"]').click()
        ann.locator('[data-game="gridlock"] [data-role="message"]').filter(has_text="agent plays this seat").wait_for()
        teacher.locator(".gw-room-game").first.get_by_role("button", name="Ann plays again").click()
        ann.locator(".gw-handed").wait_for(state="detached", timeout=10_000)
        # Robert leaves: removed (once the teacher confirms), his game goes on with the agent
        teacher.locator(".gw-seat-row").filter(has_text="Robert").get_by_role("button", name="Remove").click()
        teacher.locator(".gw-seat-row").filter(has_text="Robert").locator(".gw-remove-confirm").click()
        bob.get_by_text("took this seat out of the room").first.wait_for(timeout=10_000)
        assert bob.locator("[data-game]").count() == 0
        teacher.locator(".gw-room-game").first.filter(has_text="Robert (agent)").wait_for(timeout=10_000)


def test_end_class_closes_the_rooms_offers_the_downloads_and_retires_the_token(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4") as server:
        code, ann, _bob, teacher = pair_and_teacher(browser, server)
        teacher.locator(".gw-end-class").click()
        teacher.locator(".gw-end-class-confirm").click()
        teacher.locator(".gw-class-ended").wait_for(timeout=10_000)
        with teacher.expect_download() as info:
            teacher.get_by_text("Download every game").click()
        with zipfile.ZipFile(io.BytesIO(open(info.value.path(), "rb").read())) as archive:
            assert "games.json" in archive.namelist()
        with teacher.expect_download() as info:  # the gradebook too: its last chance on this page
            teacher.get_by_text("Download the gradebook").click()
        rows = open(info.value.path(), encoding="utf-8").read().splitlines()[1:]
        assert sorted(r.split(",")[0] for r in rows) == ["Ann", "Bob"]  # no ids given: keyed by name
        ann.locator(".gw-closed").wait_for(timeout=10_000)
        ann.locator('[data-game="gridlock"] [data-cell="B2"]').click()
        ann.locator('[data-game="gridlock"] [data-role="message"]').filter(has_text="class has ended").wait_for()
        other = browser.browser.new_context().new_page()
        other.goto(server.teacher_url)  # the old token opens nothing any more
        other.locator(".gw-not-teacher").filter(has_text="ended").wait_for()
        joiner = browser.browser.new_context().new_page()
        joiner.goto(f"{server.base}/?room={code}")
        joiner.locator(".gw-join-name input").fill("Cat")
        joiner.locator(".gw-join").click()
        joiner.locator(".gw-join-error").filter(has_text="closed").wait_for()
    # the same command again: told the class ended, nothing served, the file kept
    again = RoomsServer(tmp_path / "class.sqlite")
    with pytest.raises(RuntimeError, match="ended"):
        again.start(timeout=60)


def test_on_a_students_page_only_that_seats_cards_can_be_picked(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="blockfour") as server:
        (code,) = server.codes
        x, o = join(browser, server, code, "Xavier"), join(browser, server, code, "Olga")
        for page in (x, o):
            wait_version(page, "blockfour", 0, timeout=30_000)
        # O's page offers none of X's cards to pick (each bids from their own hand, BF-5)
        assert o.locator('[data-game="blockfour"] button[data-card][data-player="0"]').count() == 0
        o_cards = o.locator('[data-game="blockfour"] button[data-card][data-player="1"]:not([disabled])')
        assert o_cards.count() > 0  # O bids without waiting for X (a simultaneous choice)
        o_cards.nth(0).click()
        o_cards.nth(1).click()
        o.locator('[data-game="blockfour"] .bf-lock').click()
        o.locator('[data-game="blockfour"] [data-role="message"]').filter(has_text="Your choice").wait_for()
        x.locator('[data-game="blockfour"] [data-role="status"]').filter(has_text="has bid").wait_for()


# -- pages are let go ----------------------------------------------------------------------------------
def _resources(server: RoomsServer) -> dict:
    import urllib.request

    with urllib.request.urlopen(server.base + "/resourcez", timeout=10) as r:
        return json.loads(r.read())


def test_pages_closed_without_unload_are_let_go_within_a_minute(browser, tmp_path):
    """Each load of a student's page makes a kernel, a board and a thread on the
    server; pages closed without their unload event (a laptop that sleeps, a
    killed browser) are let go within a minute: no page kept, and the server's
    threads (the operating system's count) back to where they were."""
    import psutil

    from gridwidgets.rooms import Rooms, Store

    db = tmp_path / "class.sqlite"
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock", "4x4", pairing="agent", teacher_token=rooms.teacher_token)
    seat = room.join("Ann")
    rooms.store.close()
    with RoomsServer(db) as server:
        url = f"{server.base}/?room={room.code}&seat={seat.token}"
        process = psutil.Process(server.proc.pid)

        def loads(n: int) -> None:
            for _ in range(n):
                ctx = browser.browser.new_context(viewport={"width": 1280, "height": 720})
                page = ctx.new_page()
                page.goto(url)
                wait_version(page, "gridlock", 0, timeout=30_000)
                page.close()  # no beforeunload: the server is not told
                ctx.close()
            assert _resources(server)["kernels"]["total"] > 0

        def let_go() -> int:
            deadline = time.monotonic() + 90
            while _resources(server)["kernels"]["total"] and time.monotonic() < deadline:
                time.sleep(1)
            assert _resources(server)["kernels"]["total"] == 0, "pages kept after 90 s"
            return process.num_threads()

        loads(10)
        first = let_go()
        loads(10)
        second = let_go()
        assert second <= first + 2, f"threads grew from {first} to {second}"


# -- what the pages look like, and axe-core on them ----------------------------------------------------------
AXE = harness.REPO_ROOT / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = harness.REPO_ROOT / "docs" / "images" / "rooms"


def _axe(page, what: str) -> None:
    """axe-core on the page's own content: no serious or critical violation, and the
    contrast rule really looked at the page (not a clipped, empty scan)."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const r = await axe.run(document.querySelector('#app') || document.body,
                                {resultTypes: ['violations', 'passes']});
        const contrast = r.passes.concat(r.violations).filter(x => x.id === 'color-contrast')
                                 .reduce((n, x) => n + x.nodes.length, 0);
        return {contrast, bad: r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
                .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' '
                     + n.html.slice(0, 80) + ' ' + ((n.any[0] || {}).message || '')).join('; ')}`)};
    }""")
    assert not found["bad"], f"{what}: " + "\n".join(found["bad"])
    viewport = page.evaluate("document.querySelector('meta[name=viewport]').content")
    assert "user-scalable=no" not in viewport and "maximum-scale=1" not in viewport, f"{what}: no zoom: {viewport}"
    assert found["contrast"] >= 5, f"{what}: the contrast rule looked at {found['contrast']} nodes only"


@pytest.mark.skipif(not AXE.exists(), reason="needs axe-core from npm (npm ci)")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_rooms_pages_pass_axe_in_both_themes_on_a_projector_and_a_phone(browser, tmp_path, theme):
    import os

    update = os.environ.get("GRIDWIDGETS_UPDATE_SCREENSHOTS") == "1"
    server = RoomsServer(tmp_path / "class.sqlite", game="blockfour")
    server.args += ["--theme", theme]
    with server:
        (code,) = server.codes
        x = join(browser, server, code, "Xavier")
        ctx = browser.browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        ctx.set_default_timeout(30_000)
        phone = ctx.new_page()
        phone.goto(f"{server.base}/?room={code}")
        phone.locator(".gw-join-name input").fill("Olga")
        phone.locator(".gw-join").tap()
        phone.wait_for_function("location.search.includes('seat=')")
        for page in (x, phone):
            wait_version(page, "blockfour", 0, timeout=30_000)
        cards = x.locator('[data-game="blockfour"] button[data-card][data-player="0"]:not([disabled])')
        cards.nth(0).click()
        cards.nth(1).click()
        x.locator('[data-game="blockfour"] .bf-lock').click()
        x.locator('[data-game="blockfour"] [data-role="message"]').filter(has_text="Your choice").wait_for()
        teacher = teacher_page(browser, server)
        with teacher.context.expect_page() as opened:
            teacher.locator(".gw-projector-link").click()
        projector = opened.value
        projector.set_viewport_size({"width": 1280, "height": 720})
        projector.locator(".gw-big-code").wait_for()
        projector.locator(".gw-joined").filter(has_text="Olga").wait_for()
        if theme == "dark":
            for page in (x, phone, teacher, projector):
                page.wait_for_function("!!document.querySelector('.v-application.theme--dark')")
        for page, what in ((x, "student"), (phone, "phone"), (teacher, "teacher"), (projector, "projector")):
            page.wait_for_load_state("networkidle")
            _axe(page, f"{what}, {theme}")
            if update:
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"{what}_{theme}.png"), full_page=what == "teacher")
