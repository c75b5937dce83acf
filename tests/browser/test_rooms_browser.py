"""The classroom across devices in a real browser: one rooms server
(``python -m gridwidgets classroom --rooms``), each student a Playwright
browser context of its own (a device), the teacher another."""

from __future__ import annotations

import io
import json
import re
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


def wait_version(page, game: str, version: int) -> None:
    page.wait_for_selector(f'[data-game="{game}"][data-version="{version}"]', state="attached", timeout=15_000)


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


def download_games(page) -> dict[str, str]:
    if not page.locator(".gw-results").count():
        page.locator(".gw-show-results").click()
    button = page.get_by_text("Download every game")
    button.wait_for()
    with page.expect_download() as info:
        button.click()
    with zipfile.ZipFile(io.BytesIO(open(info.value.path(), "rb").read())) as archive:
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
        assert len(saved) == 2
        server.kill()  # by PID, SIGKILL: mid-class
        server.start(args=[a for a in server.args if a not in ("--game", "gridlock", "--board", "4x4")])
        assert server.codes == [code]
        teacher.goto(server.teacher_url)
        teacher.locator(".gw-room-panel").wait_for()
        assert download_games(teacher) == saved  # every game identical (to_json)
        pages[1].reload()
        wait_version(pages[1], "gridlock", 3)
        move = g.legal_moves()[0]
        pages[1].locator(f'[data-game="gridlock"] [data-cell="{move}"]').click()  # Bob plays on
        pages[0].reload()  # Ann's page, open through the restart, reloads: her seat, the move in
        wait_version(pages[0], "gridlock", 4)
        assert "Ann" in pages[0].locator(".gw-seat-name").inner_text()
    finally:
        server.stop()


def test_the_teacher_pauses_the_room_and_a_students_click_waits(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4") as server:
        (code,) = server.codes
        ann, _bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob")
        teacher = teacher_page(browser, server)
        teacher.locator(".gw-pause").click()
        ann.locator(".gw-paused").wait_for()
        wait_version(ann, "gridlock", 0)
        ann.locator('[data-game="gridlock"] [data-cell="B2"]').click()
        ann.locator('[data-game="gridlock"] [data-role="message"]').filter(has_text="paused").wait_for()
        # the teacher's page redraws on its next look at the room (every 0.5 s)
        teacher.locator(".gw-pause").filter(has_text=re.compile("Resume", re.I)).wait_for(timeout=10_000)
        teacher.locator(".gw-pause").click()
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
