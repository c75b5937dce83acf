"""The class-wide activities across devices in a real browser (issue 28): a
class poll answered on three devices (two laptops and a phone) and revealed,
and an exercise set worked on two devices while the teacher's table follows.
One rooms server each; each student a Playwright browser context of its own."""

from __future__ import annotations

import csv
import io
import sqlite3

import lab_harness as harness
import pytest
from rooms_harness import RoomsServer, join
from test_rooms_browser import AXE, SCREENSHOTS, _axe, close_devices, download, teacher_page  # noqa: F401

import gridwidgets as gw

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not harness.chromium_available(), reason="needs Debian's chromium and Playwright"),
]

BOARD = '[data-game="gridlock"]'
#: the lesson's poll: X to move, where B2 loses and C3 wins (analysis.solve)
LESSON_POSITION = "gridlock 4x4 .X../...O/..../.... X"


def hint_of(page, cell: str, root: str = "") -> str | None:
    """The count (or mark) the heat map writes on ``cell`` of the board under ``root``, or None."""
    return page.locator(f'{root} {BOARD} [data-cell="{cell}"]').first.get_attribute("data-hint")


def wait_hint(page, cell: str, value: str, root: str = "", timeout: float = 20_000) -> None:
    page.wait_for_function(
        "([sel, v]) => { const el = document.querySelector(sel); return !!el && el.getAttribute('data-hint') === v; }",
        arg=[f'{root} {BOARD} [data-cell="{cell}"]'.strip(), value], timeout=timeout)


def test_a_poll_answered_on_three_devices_shows_as_a_heat_map_and_is_revealed(browser, tmp_path):
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock") as server:
        (code,) = server.codes
        ann, bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob")
        cy = join(browser, server, code, "Cy", touch=True, viewport=(390, 844))
        teacher = teacher_page(browser, server)
        teacher.locator(".gw-ask-class").click()
        teacher.locator(".gw-open-poll").click()
        teacher.locator(".gw-poll").wait_for()
        for page in (ann, bob, cy):
            page.locator(".gw-poll-title").wait_for()
            page.locator(f"{BOARD} .gw-cell.is-legal").first.wait_for()
        ann.locator(f'{BOARD} [data-cell="B2"]').click()
        bob.locator(f'{BOARD} [data-cell="B2"]').click()
        wait_hint(bob, "B2", "✓")
        bob.locator(f'{BOARD} [data-cell="C3"]').click()  # changed: the last answer counts
        cy.locator(f'{BOARD} [data-cell="C3"]').tap()
        wait_hint(cy, "C3", "✓")
        wait_hint(bob, "C3", "✓")
        assert hint_of(bob, "B2") is None  # Bob's board shows his own answer only
        assert hint_of(ann, "C3") is None and hint_of(ann, "B2") == "✓"  # and nothing of the others'
        teacher.wait_for_function("document.querySelector('.gw-poll-count')?.textContent.startsWith('3 of 3')")
        projector = teacher.context.new_page()
        projector.goto(server.base + "/projector")
        projector.locator(".gw-poll").wait_for()
        # open: neither screen shows a count per move nor a list, only "3 of 3 answered" (nobody copies the majority)
        for page in (teacher, projector):
            page.locator(".gw-poll-hidden").wait_for()
            assert page.locator(".gw-poll-count").inner_text().startswith("3 of 3")
            assert page.locator(".gw-poll-table").count() == 0
            assert hint_of(page, "C3", ".gw-poll") is None and hint_of(page, "B2", ".gw-poll") is None
        assert "Ann" not in projector.locator(".gw-poll").inner_text()  # the source's names: the teacher's page only
        teacher.locator(".gw-poll-live").click()  # the teacher's choice: the answers live, on both screens
        wait_hint(projector, "C3", "2", root=".gw-poll")
        wait_hint(teacher, "C3", "2", root=".gw-poll")
        assert hint_of(teacher, "B2", ".gw-poll") == "1"
        table = teacher.locator(".gw-poll-table").inner_text()
        assert "Ann" not in table and "Bob" not in table  # names hidden by default
        teacher.locator(".gw-poll-names").click()
        teacher.wait_for_function("document.querySelector('.gw-poll-table')?.textContent.includes('Ann')")
        assert projector.locator(".gw-reveal-poll").count() == 0 and "Ann" not in projector.locator(
            ".gw-poll-table").inner_text()
        teacher.locator(".gw-close-poll").click()
        ann.locator(".gw-poll-ask", has_text="closed").wait_for()
        ann.locator(f'{BOARD} [data-cell="D4"]').click(force=True)
        assert hint_of(ann, "D4") is None
        teacher.locator(".gw-close-poll[disabled]").wait_for()
        teacher.locator(".gw-reveal-poll").click()
        teacher.locator(".gw-poll-table caption", has_text="Solved exactly").wait_for(timeout=30_000)
        assert "Value" in teacher.locator(".gw-poll-table thead").inner_text()
        projector.locator(".gw-poll-table caption", has_text="Solved exactly").wait_for(timeout=30_000)
        teacher.locator(".gw-end-poll").click()
        for page in (ann, bob):
            page.locator(".gw-you-play").wait_for()  # back to their game
        cy.locator(".gw-waiting").wait_for()
    with sqlite3.connect(tmp_path / "class.sqlite") as db:
        answers = db.execute("SELECT move FROM poll_answers ORDER BY id").fetchall()
        (state,) = db.execute("SELECT state FROM polls").fetchone()
    assert [m for (m,) in answers] == ["B2", "B2", "C3", "C3"] and state == "ended"


def test_an_exercise_set_worked_on_two_devices_fills_the_teachers_table(browser, tmp_path):
    exercises = gw.exercises.generate("gridlock", kind="win-in", depth=1, n=2, seed=1)
    first = exercises[0]
    wrong = next(str(m) for m in first.start().legal_moves() if str(m) not in first.answers)
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock") as server:
        (code,) = server.codes
        ann = join(browser, server, code, "Ann")
        bob = join(browser, server, code, "Bob", viewport=(390, 844))
        teacher = teacher_page(browser, server)
        teacher.locator(".gw-show-exercises").click()
        teacher.locator(".gw-ex-file textarea").fill(exercises.to_json())
        teacher.locator(".gw-ex-give").click()
        for page in (ann, bob):
            page.locator(".gw-ex-title", has_text="Exercise 1 of 2").wait_for()
            page.locator(f"{BOARD} .gw-cell.is-legal").first.wait_for()
        ann.locator(f'{BOARD} [data-cell="{first.answers[0]}"]').click()
        bob.locator(f'{BOARD} [data-cell="{wrong}"]').click()
        ann.locator(".gw-message", has_text="Solved").wait_for()
        table = teacher.locator(".gw-ex-table")
        teacher.wait_for_function(
            "() => { const rows = [...document.querySelectorAll('.gw-ex-table tbody tr')].map(r => r.innerText);"
            " return rows.some(r => r.startsWith('Ann') && r.includes('✓'))"
            " && rows.some(r => r.startsWith('Bob') && r.includes('✗')); }", timeout=20_000)
        assert table.locator("thead th").nth(1).inner_text().startswith("1:")  # the hardest (Bob's wrong) first
        teacher.locator(".gw-ex-wrong", has_text="1").first.click()
        wait_hint(teacher, wrong, "1", root=".gw-exercises")
        lines = list(csv.reader(io.StringIO(download(teacher, "Download every answer").decode())))
        assert sorted((r[2], r[6], r[8]) for r in lines[1:]) == sorted([("Ann", first.answers[0], "1"),
                                                                       ("Bob", wrong, "0")])
        ann.locator(".gw-ex-next").click()
        ann.locator(".gw-ex-title", has_text="Exercise 2 of 2").wait_for()
        teacher.locator(".gw-ex-end").click()
        ann.locator(".gw-you-play").wait_for()  # back to their game


@pytest.mark.skipif(not AXE.exists(), reason="needs axe-core from npm (npm ci)")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_lesson_pages_pass_axe_in_both_themes(browser, tmp_path, theme):
    """A poll revealed and an exercise set under way: the students' pages (a
    laptop and a phone), the teacher's and the projector's pass axe-core in
    both themes. With GRIDWIDGETS_UPDATE_SCREENSHOTS=1 it writes the docs'
    screenshots (docs/images/rooms/lesson_*, 1280x720 and 390x844)."""
    import os

    update = os.environ.get("GRIDWIDGETS_UPDATE_SCREENSHOTS") == "1"
    exercises = gw.exercises.generate("gridlock", kind="win-in", depth=2, n=4, seed=2)
    server = RoomsServer(tmp_path / "class.sqlite", game="gridlock")
    server.args += ["--theme", theme]
    with server:
        (code,) = server.codes
        students = [join(browser, server, code, name) for name in ("Ann", "Bob", "Cy", "Dee")]
        phone = join(browser, server, code, "Eve", touch=True, viewport=(390, 844))
        teacher = teacher_page(browser, server)
        teacher.locator(".gw-ask-class").click()
        teacher.locator(".gw-ask-source").click()
        teacher.get_by_text("A save file or a position").click()
        teacher.locator(".gw-ask-file textarea").fill(LESSON_POSITION)  # B2 loses, C3 wins
        teacher.locator(".gw-open-poll").click()
        for page in [*students, phone]:
            page.locator(".gw-poll-ask").wait_for()
            page.locator(f"{BOARD} .gw-cell.is-legal").first.wait_for()
        for page, cell in zip([*students, phone], ["B2", "B2", "C3", "B2", "A1"], strict=True):
            page.locator(f'{BOARD} [data-cell="{cell}"]').click()
            wait_hint(page, cell, "✓")
        teacher.wait_for_function("document.querySelector('.gw-poll-count')?.textContent.startsWith('5 of 5')")
        with teacher.context.expect_page() as opened:
            teacher.locator(".gw-projector-link").click()
        projector = opened.value
        projector.set_viewport_size({"width": 1280, "height": 720})
        teacher.locator(".gw-reveal-poll").click()
        for page in (teacher, projector):
            page.locator(".gw-poll-table caption", has_text="Solved exactly").wait_for(timeout=30_000)
        wait_hint(teacher, "B2", "3", root=".gw-poll")
        tones = {cell: teacher.locator(f'.gw-poll {BOARD} .gw-hint[data-move="{cell}"]').get_attribute("data-tone")
                 for cell in ("B2", "C3")}
        assert tones == {"B2": "loss", "C3": "win"}  # the class's favourite loses; the solver's colours say so
        if theme == "dark":
            for page in (students[0], phone, teacher, projector):
                page.wait_for_function("!!document.querySelector('.v-application.theme--dark')")
        shots = {"poll_teacher": (teacher, ".gw-poll"), "poll_projector": (projector, ".gw-poll"),
                 "poll_student": (students[0], ".gw-poll-title"), "poll_phone": (phone, ".gw-poll-title")}
        for what, (page, anchor) in shots.items():
            page.wait_for_load_state("networkidle")
            _axe(page, f"{what}, {theme}")
            if update:
                page.locator(anchor).first.scroll_into_view_if_needed()
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(SCREENSHOTS / f"lesson_{what}_{theme}.png"))
        teacher.locator(".gw-end-poll").click()
        teacher.locator(".gw-show-exercises").click()
        teacher.locator(".gw-ex-file textarea").fill(exercises.to_json())
        teacher.locator(".gw-ex-give").click()
        first = exercises[0]
        for i, page in enumerate(students):
            page.locator(".gw-ex-title").wait_for()
            page.locator(f"{BOARD} .gw-cell.is-legal").first.wait_for()
            right = first.answers[0]
            cell = right if i % 2 == 0 else next(str(m) for m in first.start().legal_moves()
                                                 if str(m) not in first.answers)
            page.locator(f'{BOARD} [data-cell="{cell}"]').click()
        teacher.wait_for_function("[...document.querySelectorAll('.gw-ex-table tbody tr')]"
                                  ".filter(r => /[✓✗…]/.test(r.innerText)).length >= 4", timeout=20_000)
        teacher.locator(".gw-ex-wrong").first.click()
        teacher.locator(".gw-ex-heat-note").wait_for()
        for what, (page, anchor) in {"exercises_teacher": (teacher, ".gw-exercises"),
                                     "exercises_student": (students[1], ".gw-ex-title")}.items():
            page.wait_for_load_state("networkidle")
            _axe(page, f"{what}, {theme}")
            if update:
                page.locator(anchor).first.scroll_into_view_if_needed()
                page.screenshot(path=str(SCREENSHOTS / f"lesson_{what}_{theme}.png"))
