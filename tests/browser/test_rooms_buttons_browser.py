"""The teacher's buttons in a real browser (issue 41): each shows at once that
it was pressed, Pause is a state (two quick clicks leave the room paused), a
removal asks first and can be undone, and a change reaches the projector by a
push from the room (the pages' only timer, the check whether a page is gone,
is made an hour long here)."""

from __future__ import annotations

import lab_harness as harness
import pytest
from rooms_harness import RoomsServer, join

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not harness.chromium_available(), reason="needs Debian's chromium and Playwright"),
]

#: records, in the page, when a button first carries the pressed state (class and aria-busy)
WATCH_PRESSED = """() => {
  window.__gwPressed = [];
  new MutationObserver((records) => {
    for (const r of records) {
      const t = r.target;
      if (t.classList && t.classList.contains("gw-pressed") && t.getAttribute("aria-busy") === "true")
        window.__gwPressed.push(t.className);
    }
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["class", "aria-busy"] });
}"""


@pytest.fixture(autouse=True)
def close_devices(browser):
    """Close the browser contexts (devices) a test opened in the shared Chromium."""
    before = set(browser.browser.contexts)
    yield
    for ctx in browser.browser.contexts:
        if ctx not in before:
            ctx.close()


@pytest.fixture
def server(tmp_path, monkeypatch):
    """A rooms server whose pages look for a change only when the room pushes one
    (they check whether they are gone once an hour)."""
    monkeypatch.setenv("GRIDWIDGETS_PAGE_STOP_CHECK", "3600")
    with RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4") as running:
        yield running


def teacher_and_projector(browser, server: RoomsServer):
    ctx = browser.browser.new_context(viewport={"width": 1280, "height": 720})
    ctx.set_default_timeout(30_000)
    teacher = ctx.new_page()
    teacher.goto(server.teacher_url)
    teacher.locator(".gw-room-panel").wait_for()
    projector = ctx.new_page()  # the same browser: the teacher's session
    projector.goto(server.base + "/projector")
    projector.locator(".gw-big-code").wait_for()
    return teacher, projector


def test_pause_clicked_twice_quickly_stays_paused_shows_pressed_and_reaches_every_page(browser, server):
    (code,) = server.codes
    ann, _bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob")
    teacher, projector = teacher_and_projector(browser, server)
    teacher.evaluate(WATCH_PRESSED)
    teacher.locator(".gw-pause").dblclick()  # two clicks before the page could redraw
    teacher.wait_for_function("window.__gwPressed.some((c) => c.includes('gw-pause'))")
    # pushed to every page: the teacher's, the projector's (no timer of its own within the hour), Ann's
    teacher.locator(".gw-room-panel .gw-paused").wait_for()
    projector.locator(".gw-paused").wait_for()
    ann.locator(".gw-paused").wait_for()
    # a later action, taken after both clicks (one page's messages are handled in order), shows it
    teacher.locator(".gw-room-panel .gw-show-results").click()
    teacher.locator(".gw-results").wait_for()
    assert teacher.locator(".gw-pause").is_disabled() and teacher.locator(".gw-resume").is_enabled()
    assert projector.locator(".gw-paused").count() == 1 and ann.locator(".gw-paused").count() == 1
    # the pressed mark goes once the answer is in
    teacher.locator(".gw-pressed").first.wait_for(state="detached")
    teacher.locator(".gw-resume").click()
    projector.locator(".gw-paused").wait_for(state="detached")
    ann.locator(".gw-paused").wait_for(state="detached")
    # Next round clicked twice before the page redrew: one round more, not two
    teacher.locator(".gw-next-round").dblclick()
    teacher.locator(".gw-round-progress").filter(has_text="round 2").wait_for()
    ann.locator(".gw-seat-name").filter(has_text="round 2").wait_for()
    teacher.locator(".gw-room-panel .gw-show-results").click()  # after both clicks
    teacher.locator(".gw-results").wait_for(state="detached")
    assert "round 2 " in teacher.locator(".gw-round-progress").inner_text() + " "


def test_removing_a_student_asks_first_and_undo_gives_the_seat_back(browser, server):
    (code,) = server.codes
    ann, _bob = join(browser, server, code, "Ann"), join(browser, server, code, "Bob")
    teacher, projector = teacher_and_projector(browser, server)
    teacher.locator(".gw-seats-toggle").click()
    row = teacher.locator(".gw-seat-row").filter(has_text="Ann")
    row.locator(".gw-remove").click()
    confirm = row.locator(".gw-confirm-remove")
    confirm.filter(has_text="Remove Ann? Their game goes to the agent.").wait_for()
    confirm.locator(".gw-remove-cancel").click()
    confirm.wait_for(state="detached")
    assert ann.locator(".gw-removed").count() == 0  # Cancel removed nobody
    row.locator(".gw-remove").click()
    row.locator(".gw-remove-confirm").click()
    ann.locator(".gw-removed").wait_for()
    teacher.locator(".gw-room-game").filter(has_text="Ann (agent)").wait_for()
    projector.locator(".gw-room-game").filter(has_text="Seat 1 (agent)").wait_for()  # no names on the projector
    undo = teacher.locator(".gw-removed-undo")
    undo.filter(has_text="Ann removed").wait_for()
    undo.locator(".gw-undo-remove").click()
    ann.locator(".gw-removed").wait_for(state="detached")
    ann.locator(".gw-you-play").wait_for()  # her seat and her game are hers again
    projector.locator(".gw-room-game").filter(has_text="Seat 1 (agent)").wait_for(state="detached")
    undo.wait_for(state="detached")
    teacher.locator(".gw-seat-row").filter(has_text="Ann").wait_for()
