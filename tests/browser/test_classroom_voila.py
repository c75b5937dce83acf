"""The classroom app as a class sees it: ``python -m gridwidgets classroom``
(Voila) in Debian's Chromium, with no code on the page, a game picked from the
menu, clicks on the board and agents answering (docs/classroom.md).

One Voila for the module; every test opens its own page, so its own kernel
and its own ``Classroom()``. Every wait is on a condition in the page.
"""

from __future__ import annotations

import re

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
pytest.importorskip("voila", reason="voila is not installed (pip install 'gridwidgets[classroom]')")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

from voila_harness import ClassroomPage, VoilaClassroom

pytestmark = pytest.mark.browser

#: what would show if a code cell's source reached the page
CODE = (".jp-CodeCell .jp-InputArea, .jp-InputPrompt, .jp-CodeMirrorEditor, .cm-editor, .CodeMirror, "
        ".jp-Cell-inputWrapper .highlight")


@pytest.fixture(scope="module")
def voila():
    server = VoilaClassroom()
    server.start()
    yield server
    server.stop()
    # Voila shut its kernels down itself on SIGTERM: nothing was left to end by PID
    assert server.leftovers == [], (server.leftovers, server.final_log)


@pytest.fixture
def classroom(voila, browser, request, tmp_path):
    """A fresh classroom page (its own kernel), drawn."""
    page = ClassroomPage.open(browser, voila)
    yield page
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    if failed:
        try:
            page.page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
            (tmp_path / "console.txt").write_text("\n".join(page.page.console_messages))
            (tmp_path / "voila.log").write_text(voila.log())
            print(f"failure screenshot, console and Voila log in {tmp_path}")
        except Exception:
            pass
    page.close()


def content(label: str) -> str:
    """``"B2, X"`` -> ``"X"``; ``"C2, empty, forbidden (GL-3)"`` -> ``"empty"``."""
    parts = [p.strip() for p in label.split(",")]
    return parts[1] if len(parts) > 1 else ""


def free_cell(page: ClassroomPage) -> str:
    """An empty Gridlock cell the mover may use (not marked forbidden, GL-3)."""
    for name, label in page.cells().items():
        if content(label) == "empty" and "forbidden" not in label:
            return name
    raise AssertionError(f"no free cell: {page.cells()}")


def test_no_code_on_the_page_and_gridlock_person_against_an_agent(classroom):
    page = classroom
    # the page shows the title and the app, never the code that builds it
    assert page.page.locator(CODE).count() == 0
    text = page.page.evaluate("() => document.body.innerText")
    assert "Grid games" in text
    for code in ("import", "Classroom(", "gridwidgets"):
        assert code not in text, code
    assert page.game() == "gridlock"
    assert page.seat_names() == ["X", "O"]
    assert page.version() == 0

    # a person plays X by a click
    page.board().locator('[data-cell="B2"]').click()
    page.wait_version(1)
    assert content(page.cell("B2")) == "X"

    # O's seat goes to an agent: the same game goes on, and the agent answers by itself
    page.pick_seat(1, "MCTS, quick (0.5 s a move)")
    page.wait_status("O: MCTS, quick")
    page.wait_version(2)
    marks = [content(label) for label in page.cells().values()]
    assert marks.count("X") == 1 and marks.count("O") == 1, marks
    assert content(page.cell("B2")) == "X"

    # X again, then the agent again
    page.board().locator(f'[data-cell="{free_cell(page)}"]').click()
    page.wait_version(4)
    marks = [content(label) for label in page.cells().values()]
    assert marks.count("X") == 2 and marks.count("O") == 2, marks

    # New game: an empty board, the seats kept
    page.new_game()
    page.wait_board("gridlock", 0)
    assert all(content(label) == "empty" for label in page.cells().values())
    assert "O: MCTS, quick" in page.status()


def test_gridbloc_picked_from_the_menu_agent_runner_person_blocker(classroom):
    page = classroom
    page.pick_game("GridBloc")
    page.wait_board("gridbloc", 0)
    page.wait_for("() => document.querySelectorAll('.gw-classroom [data-game=\"gridbloc\"] [data-cell]').length === 81")
    assert page.seat_names() == ["Player 1", "Player 2"]
    page.wait_status("GB-7")
    assert "GridBloc" in page.status()

    # Player 2 runs first (GB-7): given to an agent, it steps by itself
    page.pick_seat(1, "Greedy")
    page.wait_status("Player 2: Greedy")
    page.wait_version(1)
    runner = [n for n, label in page.cells().items() if content(label).startswith("runner")]
    assert len(runner) == 1 and runner[0] != "E5", page.cells()

    # the person blocks: a click on an open edge builds a wall, and the runner answers
    slot = page.board().locator("[data-edge]").first
    wall = slot.get_attribute("data-edge")
    slot.click()
    page.wait_version(2, at_least=True)
    assert page.board().locator(f'.gw-scene-edge.gw-p0[data-line="{wall}"]').count() == 1
    page.wait_version(3, at_least=True)


def test_block_four_two_people_keep_the_bid_secret(classroom):
    page = classroom
    # picked with the keyboard alone: Tab to the game menu, then type its first letter
    page.page.locator("body").click(position={"x": 1, "y": 1})
    for _ in range(10):
        page.page.keyboard.press("Tab")
        if page.page.evaluate("() => !!document.activeElement.closest('.gw-classroom-game')"):
            break
    else:
        raise AssertionError("Tab never reached the game menu")
    page.page.keyboard.press("b")
    page.wait_board("blockfour", 0)
    page.wait_status("looks away")
    root = page.board()

    def hand(p: int) -> list[str]:
        # the players' table shows every hand (public, BF-10)
        return root.locator(f'.gw-prow[data-player="{p}"] [data-col="hand"]').inner_text().split()

    x_hand = hand(0)
    assert len(x_hand) == 3, x_hand
    for card in x_hand[:2]:
        root.locator(f'[data-card="{card}"][data-player="0"][data-where="hand"]').click()
    page.wait_for("(sel) => { const b = document.querySelector(sel + ' [data-action=\"lock\"]');"
                  " return !!b && !b.disabled; }", page.BOARD)
    root.locator('[data-action="lock"]').click()
    page.wait_version(1)
    # O's turn to bid at the same screen: X's hand shows as before, nothing tells which two were bid
    assert hand(0) == x_hand
    assert "O to bid" in root.locator('[data-role="bid"]').inner_text()
    x_status = root.locator('.gw-prow[data-player="0"] [data-col="status"]').inner_text()
    assert re.search(r"has bid", x_status), x_status
    assert root.locator('[data-role="reveal"]').is_hidden()
    picked = page.page.evaluate("(sel) => Array.from(document.querySelector(sel).querySelectorAll("
                                "'.bf-pick [data-card]'), e => e.dataset.card)", page.BOARD)
    assert picked == [], picked


def test_dark_theme_page_and_board_follow_it(browser):
    """``--theme dark``: JupyterLab's dark theme on the page, and the board's
    colours follow it (docs/classroom.md)."""
    with VoilaClassroom(extra_args=["--theme", "dark"]) as server:
        page = ClassroomPage.open(browser, server)
        try:
            page.wait_board("gridlock")
            theme = page.page.evaluate(
                "() => [document.body.dataset.jpThemeLight, getComputedStyle(document.querySelector('.gw-root')).color]"
            )
            assert theme[0] == "false", theme
            # light text on the dark page (the widget reads JupyterLab's variables)
            r, g, b = (int(x) for x in theme[1][theme[1].index("(") + 1:].split(",")[:3])
            assert min(r, g, b) > 180, theme
        finally:
            page.close()


def test_classroom_fits_a_1280x720_projector_with_one_new_game_and_a_big_screen(voila, browser):
    """At 1280x720 the whole 20x20 GridMaster4 board and the 9x9 Block Four
    board show without scrolling; the board's own New game, editor and export
    are hidden (the page has one New game); Big screen makes the board larger."""
    context = browser.browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.goto(voila.url, wait_until="domcontentloaded")
        cp = ClassroomPage(page)
        cp.wait_board()
        for label, game in (("GridMaster4", "gridmaster4"), ("Block Four", "blockfour"), ("GridBloc", "gridbloc")):
            cp.pick_game(label)
            cp.wait_board(game)
            board = page.locator(f'.gw-classroom [data-game="{game}"] .gw-svg')
            page.wait_for_function(
                "(sel) => { const b = document.querySelector(sel).getBoundingClientRect();"
                " return b.bottom <= innerHeight && b.height > 300; }",
                arg=f'.gw-classroom [data-game="{game}"] .gw-svg', timeout=10_000,
            )
            box = board.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= 720, (game, box)
            assert page.evaluate("() => scrollY") == 0
            root = page.locator(f'.gw-classroom [data-game="{game}"]')
            for action in ("new", "toggle-edit", "export"):
                assert root.locator(f'[data-action="{action}"]:visible').count() == 0, (game, action)
        assert page.locator(".gw-classroom button:visible", has_text="New game").count() == 1
        # Big screen: the board grows (it fills the width the window allows)
        before = page.locator('.gw-classroom [data-game="gridbloc"] .gw-svg').bounding_box()["width"]
        page.locator(".gw-classroom-big button, button.gw-classroom-big").first.click()
        page.wait_for_function(
            "(w) => document.querySelector('.gw-classroom [data-game=\"gridbloc\"] .gw-svg')"
            ".getBoundingClientRect().width > w + 20", arg=before, timeout=10_000,
        )
    finally:
        context.close()
