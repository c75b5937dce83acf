"""The class list in a real browser (issue 42): the teacher loads a Canvas
export on the teacher's page, students pick their names on their own devices
(a laptop, a phone, by keyboard), the teacher's page shows who is seated and
who is not, no id is on any page, the standings' CSV carries the ids, and
axe-core finds no serious violation on the join form in either theme. With
``GRIDWIDGETS_UPDATE_SCREENSHOTS=1`` it writes the docs' screenshots
(docs/images/rooms/roster_*)."""

from __future__ import annotations

import os

import lab_harness as harness
import pytest
from rooms_harness import RoomsServer
from test_rooms_browser import AXE, SCREENSHOTS, _axe, download_standings, teacher_page

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not harness.chromium_available(), reason="needs Debian's chromium and Playwright"),
]

CANVAS = """Student,ID,SIS User ID,SIS Login ID,Section,Quiz 1 (8756)
    Points Possible,,,,,10.00
"Lee, Ann",1201,GT26-1001,alee.gt26,Game theory 101,8.00
"Ray, Bob",1202,GT26-1002,bray.gt26,Game theory 101,6.00
"Durand, Cyrille",1203,GT26-1003,cdurand.gt26,Game theory 101,
"Okafor, Ngozi",1204,GT26-1004,nokafor.gt26,Game theory 101,9.00
"Student, Test",1299,,,Game theory 101,
"""
IDS = ("GT26-1001", "GT26-1002", "GT26-1003", "GT26-1004", "alee.gt26", "bray.gt26", "cdurand.gt26")


@pytest.fixture(autouse=True)
def close_devices(browser):
    before = set(browser.browser.contexts)
    yield
    for ctx in browser.browser.contexts:
        if ctx not in before:
            ctx.close()


def device(browser, viewport=(1280, 720), touch=False):
    ctx = browser.browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, has_touch=touch,
                                      is_mobile=touch)
    ctx.set_default_timeout(30_000)
    return ctx.new_page()


def no_id_on(page, what: str) -> None:
    html = page.content()
    shown = [sid for sid in IDS if sid in html]
    assert not shown, f"{what} shows ids {shown}"


@pytest.mark.skipif(not AXE.exists(), reason="needs axe-core from npm (npm ci)")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_teacher_loads_a_class_list_and_students_pick_their_names(browser, tmp_path, theme):
    update = os.environ.get("GRIDWIDGETS_UPDATE_SCREENSHOTS") == "1"
    shots = SCREENSHOTS if update else tmp_path
    server = RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4")
    server.args += ["--theme", theme]
    with server:
        (code,) = server.codes
        teacher = teacher_page(browser, server)
        teacher.locator(".gw-roster-count").filter(has_text="No class list").wait_for()
        teacher.locator(".gw-roster-toggle").click()
        teacher.locator(".gw-roster-file textarea").fill("name,id\nAnn,s1\nBob,s1\n")
        teacher.locator(".gw-roster-load").click()
        teacher.locator(".gw-roster-error").filter(has_text="rows 2 and 3 of the class list have the same id").wait_for()
        teacher.locator(".gw-roster-file textarea").fill(CANVAS)
        # the page's answer to the first click is drawn (a second click on a button still pressed is a double click)
        teacher.wait_for_function("!document.querySelector('.gw-roster-load.gw-pressed')")
        teacher.locator(".gw-roster-load").click()
        teacher.locator(".gw-roster-said").filter(
            has_text="4 students from a Canvas gradebook export; ids from SIS User ID").wait_for()
        teacher.locator(".gw-roster-count").filter(has_text="0 seated in room").wait_for()

        # a laptop: the names, no name or id field; picked by keyboard
        ann = device(browser)
        ann.goto(f"{server.base}/?room={code}")
        ann.locator(".gw-roster-name").first.wait_for()
        names = [n.strip() for n in ann.locator(".gw-roster-name").all_inner_texts()]
        assert names == ["Ann Lee", "Bob Ray", "Cyrille Durand", "Ngozi Okafor"]  # no Test Student
        assert ann.locator(".gw-join-name").count() == 0 and ann.locator(".gw-join-id").count() == 0
        assert ann.locator(".gw-join").is_disabled()
        no_id_on(ann, "the join form")
        if theme == "dark":
            ann.wait_for_function("!!document.querySelector('.v-application.theme--dark')")
        ann.wait_for_load_state("networkidle")
        _axe(ann, f"join form with a class list, {theme}")
        ann.screenshot(path=str(shots / f"roster_join_{theme}.png"))
        button = ann.locator(".gw-roster-name").filter(has_text="Ann Lee")
        button.focus()
        ann.keyboard.press("Enter")
        ann.locator('.gw-roster-name[aria-pressed="true"]').filter(has_text="Ann Lee").wait_for()
        ann.locator(".gw-join").click()
        ann.wait_for_function("location.search.includes('seat=')")
        ann.locator(".gw-seat-name").filter(has_text="Ann Lee").wait_for()
        no_id_on(ann, "Ann's seat")

        # a phone: Ann is seated, so not listed; Bob taps his name
        phone = device(browser, (390, 844), touch=True)
        phone.goto(f"{server.base}/?room={code}")
        phone.locator(".gw-roster-name").first.wait_for()
        names = [n.strip() for n in phone.locator(".gw-roster-name").all_inner_texts()]
        assert names == ["Bob Ray", "Cyrille Durand", "Ngozi Okafor"]
        if theme == "dark":
            phone.wait_for_function("!!document.querySelector('.v-application.theme--dark')")
        phone.wait_for_load_state("networkidle")
        _axe(phone, f"phone join form with a class list, {theme}")
        phone.screenshot(path=str(shots / f"roster_join_phone_{theme}.png"))
        phone.locator(".gw-roster-name").filter(has_text="Bob Ray").tap()
        phone.locator(".gw-join").tap()
        phone.locator(".gw-seat-name").filter(has_text="Bob Ray").wait_for()

        # the teacher's page: who is seated, who is not, by name only
        teacher.locator(".gw-roster-count").filter(has_text="2 seated in room").wait_for()
        teacher.locator(".gw-roster-seated").filter(has_text="Bob Ray").wait_for()
        assert "Ann Lee" in teacher.locator(".gw-roster-seated").inner_text()
        waiting = teacher.locator(".gw-roster-waiting").inner_text()
        assert "Cyrille Durand" in waiting and "Ngozi Okafor" in waiting and "Ann Lee" not in waiting
        no_id_on(teacher, "the teacher's page")
        teacher.wait_for_load_state("networkidle")
        _axe(teacher, f"teacher's page with a class list, {theme}")
        teacher.locator(".gw-roster").scroll_into_view_if_needed()
        teacher.screenshot(path=str(shots / f"roster_teacher_{theme}.png"))
        # names not on the list: refused unless the teacher allows them (then typed, with no id field)
        guest = device(browser)
        guest.goto(f"{server.base}/?room={code}")
        guest.locator(".gw-roster-name").first.wait_for()
        assert guest.locator(".gw-not-listed").count() == 0
        teacher.locator(".gw-roster-typed label").click()
        teacher.locator(".gw-roster-typed label").filter(has_text="name: on").wait_for()  # the server's answer
        guest.reload()
        guest.locator(".gw-not-listed").click()
        guest.locator(".gw-join-name input").fill("Visiting Vera")
        assert guest.locator(".gw-join-id").count() == 0
        guest.locator(".gw-join").click()
        guest.locator(".gw-seat-name").filter(has_text="Visiting Vera").wait_for()
        standings = download_standings(teacher)
        assert sum(",Visiting Vera,," in line for line in standings) == 1
        assert sum(",Ann Lee,GT26-1001," in line for line in standings) == 1
        assert sum(",Bob Ray,GT26-1002," in line for line in standings) == 1


def test_a_long_class_list_from_the_command_line_has_a_find_field(browser, tmp_path):
    roster = tmp_path / "class.csv"
    names = [f"Student {chr(65 + k)}{chr(97 + k)}" for k in range(15)] + ["Zoë Müller"]
    roster.write_text("name;id\n" + "".join(f"{n};GT26-2{k:03d}\n" for k, n in enumerate(names)), encoding="utf-8")
    server = RoomsServer(tmp_path / "class.sqlite", game="gridlock", board="4x4")
    server.args += ["--roster", str(roster)]
    with server:
        assert "16 students from a list of names and ids; ids from id" in server.log()
        (code,) = server.codes
        page = device(browser, (390, 844), touch=True)
        page.goto(f"{server.base}/?room={code}")
        page.locator(".gw-roster-name").first.wait_for()
        assert page.locator(".gw-roster-name").count() == 16
        page.locator(".gw-roster-find input").fill("zoë")
        page.wait_for_function("document.querySelectorAll('.gw-roster-name').length === 1")
        page.locator(".gw-roster-name").filter(has_text="Zoë Müller").tap()
        page.locator(".gw-join").tap()
        page.locator(".gw-seat-name").filter(has_text="Zoë Müller").wait_for()
        no_id_on(page, "Zoë's seat")
        assert "GT26-2015" not in page.content()
