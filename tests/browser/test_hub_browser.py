"""The rooms as a JupyterHub service, for real (issue 42): a real JupyterHub
(``jupyterhub`` from PyPI, ``configurable-http-proxy`` from npm) bound to
127.0.0.1 on free ports, with a shared-password authenticator, a teachers'
group, and the rooms as its managed service (``python -m gridwidgets
classroom --rooms --hub``); Chromium logged in as the teacher and three
students. The same hub has a second, *external* service (``url`` and
``api_token``, no ``command``): rooms the test starts itself, with exactly the
environment docs/jupyterhub.md#the-rooms-on-jupyterhub tells a teacher to set and
``--students-group students``, and stops and starts again by PID on the same
database (a restart mid-class); the managed one is killed by PID too, and the
hub starts it again. A hub admin outside the teachers' group and a
user outside the students' group log in too. One hub for the module (it
costs about half a minute to start and stop); every process the module starts
(the hub, its proxy, the managed service, the external one) is stopped by PID
at the end, pass or fail.
"""

from __future__ import annotations

import os
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import lab_harness as harness
import pytest
from lab_harness import REPO_ROOT, free_port, read_log
from playwright.sync_api import expect
from test_rooms_browser import AXE, _axe, local_game, wait_version

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not harness.chromium_available(), reason="needs Debian's chromium and Playwright"),
]

CHP = REPO_ROOT / "node_modules" / ".bin" / "configurable-http-proxy"
PASSWORD = "class-password-42"
TEACHER, STUDENTS = "teacher", ("amy", "ben", "cyd")
ADMIN, OUTSIDER = "dean", "eve"  # a hub admin in no group; a hub user outside the students' group
SERVICE = "rooms"
PREFIX = f"/services/{SERVICE}/"
EXT = "rooms-ext"  # the external service: started by the test, as a teacher would
EXT_PREFIX = f"/services/{EXT}/"
DOCS = REPO_ROOT / "docs" / "jupyterhub.md"
BOARD = '[data-game="gridlock"]'
SCREENSHOTS = REPO_ROOT / "docs" / "images"


def documented_environment() -> list[tuple[str, str]]:
    """The ``export NAME=value`` lines docs/jupyterhub.md gives for an external service, in order."""
    section = DOCS.read_text(encoding="utf-8").split("## An external service", 1)[1].split("\n## ", 1)[0]
    block = section.split("```bash", 1)[1].split("```", 1)[0]
    found = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words[:1] == ["export"]:
            name, _, value = words[1].partition("=")
            found.append((name, value))
    return found


class Hub:
    """A JupyterHub in a temporary folder, with the rooms as its managed service
    and a second rooms service, external, that :meth:`start_external` starts."""

    def __init__(self, root: Path, theme: str = "light") -> None:
        self.root = root
        self.port, self.api_port, self.hub_port, self.service_port, self.ext_port = (free_port() for _ in range(5))
        self.service_token, self.ext_token = secrets.token_hex(32), secrets.token_hex(32)
        self.log_path = root / "hub.log"
        self.db = root / "class.sqlite"
        self.ext_db, self.ext_log = root / "external.sqlite", root / "external.log"
        self.theme = theme
        self.proc: subprocess.Popen | None = None
        self.ext: subprocess.Popen | None = None

    def external_environment(self) -> dict[str, str]:
        """The docs' variables for an external service, their values made this hub's and this service's
        (the docs' example token, ports, public address and service name replaced)."""
        subs = [("a-long-random-secret", self.ext_token), ("http://127.0.0.1:8081", f"http://127.0.0.1:{self.hub_port}"),
                ("http://127.0.0.1:10101", f"http://127.0.0.1:{self.ext_port}"),
                ("https://hub.example.edu", self.base), ("/services/rooms/", EXT_PREFIX),
                ("service-rooms", f"service-{EXT}")]
        env = {}
        for name, value in documented_environment():
            for old, new in subs:
                value = value.replace(old, new)
            env[name] = EXT if name == "JUPYTERHUB_SERVICE_NAME" else value
        return env

    def start_external(self, timeout: float = 60.0) -> None:
        """Start the external rooms (``--students-group students``) as the docs say, with the machine's
        environment less any ``JUPYTERHUB_*`` plus the docs' variables; wait until it answers."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTERHUB_")}
        env.update(self.external_environment(), PYTHONPATH=str(REPO_ROOT), PYTHONUNBUFFERED="1")
        log = open(self.ext_log, "a")
        self.ext = subprocess.Popen([sys.executable, "-m", "gridwidgets", "classroom", "--rooms", "--hub",
                                     "--db", str(self.ext_db), "--game", "gridlock", "--board", "4x4",
                                     "--students-group", "students"],
                                    cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                    env=env)
        log.close()
        deadline = time.monotonic() + timeout
        opener = urllib.request.build_opener(_NoRedirect)
        while time.monotonic() < deadline:
            if self.ext.poll() is not None:
                raise RuntimeError(f"the external rooms ended ({self.ext.returncode}):\n{read_log(self.ext_log)}")
            try:  # it answers (a redirect to the hub's login)
                with opener.open(f"http://127.0.0.1:{self.ext_port}{EXT_PREFIX}", timeout=5):
                    pass
            except urllib.error.HTTPError as exc:
                if exc.code == 302:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise TimeoutError(f"the external rooms did not answer:\n{read_log(self.ext_log)}")

    def kill_external(self) -> None:
        """Stop the external rooms by PID (SIGKILL: a crash mid-class) and wait for it."""
        if self.ext is not None and self.ext.poll() is None:
            os.kill(self.ext.pid, signal.SIGKILL)
        if self.ext is not None:
            self.ext.wait(timeout=15)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.hub_port}/hub/api"

    def config(self) -> str:
        service = {
            "name": SERVICE, "url": f"http://127.0.0.1:{self.service_port}", "api_token": self.service_token,
            "oauth_no_confirm": True, "cwd": str(REPO_ROOT),
            "command": [sys.executable, "-m", "gridwidgets", "classroom", "--rooms", "--hub", "--db", str(self.db),
                        "--game", "gridlock", "--board", "4x4", "--theme", self.theme],
            "environment": {"PYTHONPATH": str(REPO_ROOT), "PYTHONUNBUFFERED": "1"},
        }
        external = {"name": EXT, "url": f"http://127.0.0.1:{self.ext_port}", "api_token": self.ext_token,
                    "oauth_no_confirm": True}
        return textwrap.dedent(f"""
            c = get_config()  # noqa
            c.JupyterHub.ip = "127.0.0.1"
            c.JupyterHub.port = {self.port}
            c.JupyterHub.public_url = {self.base!r}  # the service is told it: the address students open
            c.JupyterHub.hub_ip = "127.0.0.1"
            c.JupyterHub.hub_port = {self.hub_port}
            c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{self.api_port}"
            c.ConfigurableHTTPProxy.command = [{str(CHP)!r}]
            c.ConfigurableHTTPProxy.pid_file = {str(self.root / "proxy.pid")!r}
            c.JupyterHub.pid_file = {str(self.root / "hub.pid")!r}
            c.JupyterHub.db_url = "sqlite:///{self.root / 'jupyterhub.sqlite'}"
            c.JupyterHub.cookie_secret_file = {str(self.root / "cookie_secret")!r}
            c.JupyterHub.authenticator_class = "dummy"
            c.DummyAuthenticator.password = {PASSWORD!r}
            c.Authenticator.allowed_users = {set((TEACHER, *STUDENTS, ADMIN, OUTSIDER))!r}
            c.Authenticator.admin_users = {{{ADMIN!r}}}
            c.JupyterHub.spawner_class = "simple"
            c.JupyterHub.default_url = "/hub/home"  # no notebook server is started for a login (none is needed)
            c.JupyterHub.load_groups = {{"teachers": {{"users": [{TEACHER!r}]}},
                                        "students": {{"users": {list(STUDENTS)!r}}}}}
            c.JupyterHub.load_roles = [
                {{"name": "user", "scopes": ["self", "access:services!service={SERVICE}",
                                            "access:services!service={EXT}"]}},
                {{"name": "rooms-service", "services": [{SERVICE!r}, {EXT!r}],
                  "scopes": ["list:users", "read:users:name", "read:groups", "read:users:groups"]}},
            ]
            c.JupyterHub.services = [{service!r}, {external!r}]
        """)

    def start(self, timeout: float = 90.0) -> Hub:
        """Start the external rooms (first: the hub waits for its services), then the hub."""
        self.start_external()
        (self.root / "jupyterhub_config.py").write_text(self.config())
        log = open(self.log_path, "a")
        self.proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", "jupyterhub_config.py"],
                                     cwd=self.root, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                     env=dict(os.environ, PYTHONPATH=str(REPO_ROOT)))
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            up = False
            if self.proc.poll() is not None:
                raise RuntimeError(f"the hub ended ({self.proc.returncode}):\n{read_log(self.log_path)}")
            try:  # the service answers through the proxy (a redirect to the hub's login: it is up)
                with urllib.request.urlopen(self.base + "/hub/api/", timeout=5) as r:
                    up = r.status == 200
                opener = urllib.request.build_opener(_NoRedirect)
                with opener.open(self.base + PREFIX, timeout=5) as r:
                    pass
            except urllib.error.HTTPError as exc:
                if up and exc.code == 302 and "oauth2/authorize" in exc.headers.get("location", ""):
                    return self
            except OSError:
                pass
            time.sleep(0.3)
        raise TimeoutError(f"the hub or its service did not answer:\n{read_log(self.log_path)}")

    def pids(self) -> list[int]:
        """The hub's PID and those of every process it started (the proxy, the service), read now."""
        import psutil

        if self.proc is None:
            return []
        try:
            children = [p.pid for p in psutil.Process(self.proc.pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            children = []
        pids = [self.proc.pid, *children]
        proxy = self.root / "proxy.pid"
        if proxy.exists() and proxy.read_text().strip().isdigit():
            pids.append(int(proxy.read_text().strip()))
        return pids

    def stop(self) -> None:
        """Stop the external rooms, then the hub (SIGTERM: it stops its service and proxy), then anything
        left of them, by PID."""
        import psutil

        if self.ext is not None and self.ext.poll() is None:
            self.ext.terminate()
            try:
                self.ext.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill_external()
        pids = self.pids()
        procs = []
        for pid in pids:
            try:
                procs.append(psutil.Process(pid))
            except psutil.NoSuchProcess:
                pass
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
        _, alive = psutil.wait_procs(procs, timeout=15)
        for p in alive:
            try:
                p.kill()
            except psutil.NoSuchProcess:
                pass
        psutil.wait_procs(alive, timeout=10)
        if self.proc is not None:
            self.proc.wait(timeout=10)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.fixture(scope="module")
def hub():
    if not CHP.exists():
        pytest.skip("needs configurable-http-proxy from npm (npm ci)")
    pytest.importorskip("jupyterhub")
    root = Path(tempfile.mkdtemp(prefix="gw-hub-"))
    h = Hub(root)
    started = time.monotonic()
    try:
        h.start()
        print(f"\nthe hub and its rooms service answered in {time.monotonic() - started:.1f} s")
        yield h
    finally:
        h.stop()
        for log in (h.log_path, h.ext_log):
            text = read_log(log)
            if "Traceback" in text:
                print(text[-6000:])
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def devices(shared_browser):
    """Every browser context the module opens, closed at its end; each records the addresses it visited."""
    opened = []

    def new(viewport=(1280, 720), **kw):
        ctx = shared_browser.browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, **kw)
        ctx.set_default_timeout(30_000)
        ctx.visited = []
        page = ctx.new_page()
        page.on("request", lambda r: ctx.visited.append(r.url))
        page.on("framenavigated", lambda f: ctx.visited.append(f.url))
        opened.append(ctx)
        return page

    yield new, opened
    for ctx in opened:
        ctx.close()


def play_first_moves(pages, g, n: int) -> None:
    """Play ``n`` moves of ``g`` (the local copy of the pages' game), each its first legal
    move clicked on the page of the player to move, and wait until every page shows it."""
    for _ in range(n):
        move = g.legal_moves()[0]
        pages[g.current_player].locator(f'{BOARD} [data-cell="{move}"]').click()
        g.play(move)
        for page in pages:
            wait_version(page, "gridlock", g.version)


def login(page, hub: Hub, user: str, path: str = PREFIX) -> None:
    """Open ``path`` (the service's) as a new browser: the hub's login form, then back to ``path``."""
    page.goto(hub.base + path)
    page.wait_for_url("**/hub/login**")
    page.locator("#username_input").fill(user)
    page.locator("#password_input").fill(PASSWORD)
    page.locator("#login_submit").click()
    page.wait_for_url(f"**{path}*")


@pytest.fixture(scope="module")
def classroom(hub, devices):
    """The teacher on the teacher's page and the three students seated: ``{name: page}``."""
    new, _ = devices
    teacher = new(accept_downloads=True)
    teacher.goto(hub.base + "/hub/login")
    teacher.locator("#username_input").fill(TEACHER)
    teacher.locator("#password_input").fill(PASSWORD)
    teacher.locator("#login_submit").click()
    teacher.wait_for_url("**/hub/**")
    teacher.goto(hub.base + PREFIX + "teacher")
    teacher.wait_for_url(f"**{PREFIX}teacher")
    teacher.locator(".gw-room-panel").wait_for()
    pages = {TEACHER: teacher}
    for name in STUDENTS:
        page = new()
        login(page, hub, name)
        page.locator(".gw-seat-name").wait_for()
        pages[name] = page
    return pages


def test_students_are_seated_as_their_hub_user_with_nothing_typed(hub, classroom):
    for name in STUDENTS:
        page = classroom[name]
        assert page.locator(".gw-seat-name").inner_text().startswith(name)
        assert page.locator(".gw-join-name").count() == 0  # no name asked
        assert page.locator(".gw-hub-user").inner_text() == name
        assert "seat=" not in page.url
    teacher = classroom[TEACHER]
    for name in STUDENTS:
        teacher.locator(".gw-room-panel").filter(has_text=name).wait_for()
    panel = teacher.locator(".gw-room-panel").first.inner_text()
    assert "log in to the hub" in panel and "and type" not in panel, panel  # no code to type under a hub


def test_the_class_list_is_the_hubs_students_and_the_teacher_sees_who_came(hub, classroom):
    """The service reads the hub's users as its class list (less the teachers' group):
    the teacher's page says how many are seated, by name, never with an id."""
    from gridwidgets.rooms.hub import hub_roster

    everyone = hub_roster(api_url=hub.api, token=hub.service_token)
    students = [n for n, _ in everyone if n != TEACHER]
    teacher = classroom[TEACHER]
    count = teacher.locator(".gw-roster-count")
    expect(count).to_contain_text("the hub's users", timeout=30_000)
    expect(count).to_contain_text(f"{len(students)} students", timeout=30_000)
    expect(count).to_contain_text(f"{len(STUDENTS)} seated", timeout=30_000)
    teacher.locator(".gw-roster-toggle").click()
    seated = teacher.locator(".gw-roster-seated")
    for name in STUDENTS:
        expect(seated).to_contain_text(name)
    teacher.locator(".gw-roster-toggle").click()


def test_two_students_play_a_game_through_the_hub(hub, classroom):
    amy, ben = classroom["amy"], classroom["ben"]
    for page in (amy, ben):
        wait_version(page, "gridlock", 0)
    g = local_game("gridlock", "4x4")
    play_first_moves([amy, ben], g, 4)
    label = ben.locator(f'{BOARD} [data-cell="{g.history[0]}"]').get_attribute("aria-label")
    assert label.startswith(f"{g.history[0]}, X")


def test_a_poll_opened_by_the_teacher_is_answered_by_the_students(hub, classroom):
    teacher = classroom[TEACHER]
    teacher.locator(".gw-ask-class").click()
    teacher.locator(".gw-open-poll").click()
    teacher.locator(".gw-poll").wait_for()
    for name in STUDENTS:
        page = classroom[name]
        page.locator(".gw-poll-title").wait_for()
        page.locator(f"{BOARD} .gw-cell.is-legal").first.click()
    teacher.wait_for_function("document.querySelector('.gw-poll-count')?.textContent.startsWith('3 of 3')")
    teacher.locator(".gw-close-poll").click()
    teacher.locator(".gw-end-poll").click()
    for name in ("amy", "ben"):
        classroom[name].locator(".gw-you-play").wait_for()


def test_the_same_hub_user_from_a_second_browser_finds_the_same_seat_and_game(hub, classroom, devices):
    new, _ = devices
    amy = classroom["amy"]
    before = amy.locator(".gw-seat-name").inner_text()
    version = amy.locator(BOARD).get_attribute("data-version")
    other = new(viewport=(390, 844), has_touch=True, is_mobile=True)  # her phone: a new login
    login(other, hub, "amy")
    other.locator(".gw-seat-name").wait_for()
    assert other.locator(".gw-seat-name").inner_text() == before
    wait_version(other, "gridlock", int(version))
    assert other.locator(".gw-you-play").inner_text() == amy.locator(".gw-you-play").inner_text()


def test_the_teachers_projector_opens_under_the_services_prefix(hub, classroom):
    teacher = classroom[TEACHER]
    assert teacher.locator(".gw-students-address").inner_text().endswith(hub.base + PREFIX)
    with teacher.context.expect_page() as opened:
        teacher.locator(".gw-projector-link").click()
    projector = opened.value
    projector.locator(".gw-big-code").wait_for()
    assert projector.url == hub.base + PREFIX + "projector"
    projector.locator(".gw-joined").filter(has_text="3 joined").wait_for()
    projector.close()


def test_a_student_opening_the_teachers_pages_is_refused(hub, classroom):
    cyd = classroom["cyd"]
    page = cyd.context.new_page()
    for path in ("teacher", "projector"):
        response = page.goto(hub.base + PREFIX + path)
        assert response.status == 403
        assert "teacher" in page.locator(".gw-refused").inner_text()
        assert page.locator("button, .v-btn").count() == 0
    page.close()


def test_the_hub_roster_lists_the_hubs_users_and_a_groups_members(hub):
    from gridwidgets.rooms.hub import hub_roster

    everyone = hub_roster(api_url=hub.api, token=hub.service_token)
    assert everyone == [(n, n) for n in sorted((TEACHER, *STUDENTS, ADMIN, OUTSIDER))]
    assert hub_roster("teachers", api_url=hub.api, token=hub.service_token) == [(TEACHER, TEACHER)]
    with pytest.raises(LookupError):
        hub_roster("no-such-group", api_url=hub.api, token=hub.service_token)
    with pytest.raises(PermissionError):
        hub_roster(api_url=hub.api, token="not-a-token" * 4)


@pytest.mark.skipif(not AXE.exists(), reason="needs axe-core from npm (npm ci)")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_hub_pages_pass_axe_and_give_the_docs_screenshots(hub, classroom, theme):
    update = os.environ.get("GRIDWIDGETS_UPDATE_SCREENSHOTS") == "1"
    for who, page, ready in (("student", classroom["ben"], ".gw-seat-name"),
                             ("teacher", classroom[TEACHER], ".gw-room-panel")):
        page.emulate_media(color_scheme=theme)
        # Solara's own switch: the theme a browser keeps (the server's --theme is the default)
        page.evaluate("(v) => localStorage.setItem(':solara:theme.variant', JSON.stringify(v))", theme)
        page.reload()
        page.locator(ready).wait_for()
        page.wait_for_function(f"!!document.querySelector('.v-application.theme--{theme}')")
        page.wait_for_load_state("networkidle")
        _axe(page, f"hub {who}, {theme}")
        if update:
            page.screenshot(path=str(SCREENSHOTS / f"hub-{who}-{theme}.png"), full_page=who == "teacher")
    refused = classroom["cyd"].context.new_page()
    refused.emulate_media(color_scheme=theme)
    refused.goto(hub.base + PREFIX + "teacher")
    refused.add_script_tag(path=str(AXE))
    bad = refused.evaluate("async () => (await axe.run(document.body)).violations"
                           ".filter(v => ['serious', 'critical'].includes(v.impact)).map(v => v.id)")
    assert not bad, f"the refusal page, {theme}: {bad}"
    refused.close()


def test_no_address_visited_held_a_token(hub, classroom, devices):
    _, opened = devices
    seen = [url for ctx in opened for url in ctx.visited]
    assert len(seen) > 20
    leaks = [u for u in seen if any(k in u.lower() for k in ("token=", "seat=", "access_token", hub.service_token))]
    assert not leaks, leaks[:5]


def test_with_two_rooms_open_a_student_picks_one_and_keeps_her_seat_in_the_first(hub, classroom, devices):
    new, _ = devices
    teacher = classroom[TEACHER]
    teacher.locator(".gw-open-toggle").click()
    teacher.locator(".gw-open").click()
    teacher.locator(".gw-room-tabs").wait_for()
    codes = [b.inner_text().strip() for b in teacher.locator(".gw-room-tabs .v-btn").all()]
    assert len(codes) == 2
    amy = new()  # a seat already: her room, with no picking
    login(amy, hub, "amy")
    amy.locator(".gw-seat-name").wait_for()
    assert amy.locator(".gw-seat-name").inner_text().startswith("amy")
    first = amy.locator(".gw-room-code").inner_text()
    second = next(c for c in codes if c != first)
    amy.goto(hub.base + PREFIX + f"?room={second}")  # the second room's address (its QR code): a seat there too
    amy.locator(".gw-seat-name").wait_for()
    assert amy.locator(".gw-room-code").inner_text() == second
    amy.goto(hub.base + PREFIX)  # seated in two rooms: she picks
    amy.locator(".gw-pick-room").first.wait_for()
    assert sorted(b.inner_text().upper() for b in amy.locator(".gw-pick-room").all()) == sorted(
        f"ROOM {c} (YOUR SEAT)" for c in codes)
    amy.locator(".gw-pick-room", has_text=first).click()
    amy.locator(".gw-seat-name").wait_for()
    assert amy.locator(".gw-room-code").inner_text() == first
    assert "seat=" not in amy.url
    # the address stays the service's (a reload, or the page's check after a restart, asks the rooms, not the hub)
    assert urlsplit(amy.url).path.rstrip("/") == PREFIX.rstrip("/") and f"room={first}" in amy.url
    amy.reload()
    amy.locator(".gw-seat-name").wait_for()
    assert amy.locator(".gw-room-code").inner_text() == first


# -- the external service (started by the test as the docs say), a hub admin, the students' group, a restart --
def test_the_docs_name_every_variable_an_external_service_needs(hub):
    from gridwidgets.rooms.hub import REQUIRED_ENV

    names = [n for n, _ in documented_environment()]
    assert set(REQUIRED_ENV) <= set(names) and len(names) == len(set(names))
    env = hub.external_environment()
    assert env["JUPYTERHUB_SERVICE_PREFIX"] == EXT_PREFIX and env["JUPYTERHUB_CLIENT_ID"] == f"service-{EXT}"


def test_a_student_logs_in_through_the_external_service_and_is_seated(hub, devices):
    new, _ = devices
    amy = new()  # a new browser: the hub's login form, then the external rooms
    login(amy, hub, "amy", EXT_PREFIX)
    amy.locator(".gw-seat-name").wait_for()
    assert amy.locator(".gw-seat-name").inner_text().startswith("amy")
    assert amy.locator(".gw-hub-user").inner_text() == "amy"
    assert amy.url.startswith(hub.base + EXT_PREFIX) and "seat=" not in amy.url


def test_a_hub_user_outside_the_students_group_is_refused_a_seat_with_a_page_saying_why(hub, devices):
    new, _ = devices
    eve = new()
    eve.goto(hub.base + EXT_PREFIX)
    eve.wait_for_url("**/hub/login**")
    eve.locator("#username_input").fill(OUTSIDER)
    eve.locator("#password_input").fill(PASSWORD)
    eve.locator("#login_submit").click()
    eve.locator(".gw-refused").wait_for()
    text = eve.locator(".gw-refused").inner_text()
    assert OUTSIDER in text and "'students'" in text and "ask your teacher" in text
    assert eve.locator("h1").inner_text() == "Not for this class"
    assert eve.locator(".gw-seat-name, button, .v-btn").count() == 0
    assert eve.locator(".gw-refused a").get_attribute("href") == "/hub/logout"  # to log in as someone else


def test_a_hub_admin_outside_the_teachers_group_gets_the_teachers_page(hub, devices):
    new, _ = devices
    dean = new()
    dean.goto(hub.base + "/hub/login")
    dean.locator("#username_input").fill(ADMIN)
    dean.locator("#password_input").fill(PASSWORD)
    dean.locator("#login_submit").click()
    dean.wait_for_url("**/hub/**")
    for prefix in (PREFIX, EXT_PREFIX):  # the external one has a students' group: a teacher passes it
        response = dean.goto(hub.base + prefix + "teacher")
        dean.wait_for_url(f"**{prefix}teacher")
        dean.locator(".gw-room-panel").wait_for()
        assert dean.locator(".gw-refused").count() == 0
    assert response.status == 200


def test_the_external_service_restarted_on_its_database_gives_an_open_page_its_seat_and_game(hub, classroom):
    # amy (seated by the test above) and ben, each in a new tab of a browser logged in to the hub: no typing
    pages = []
    for name in ("amy", "ben"):
        page = classroom[name].context.new_page()
        page.goto(hub.base + EXT_PREFIX)
        page.locator(".gw-seat-name").wait_for()
        pages.append(page)
    g = local_game("gridlock", "4x4")
    play_first_moves(pages, g, 3)
    seats = [page.locator(".gw-seat-name").inner_text() for page in pages]
    for page in pages:
        page.evaluate("window.__beforeRestart = true")
    started = time.monotonic()
    hub.kill_external()  # by PID, mid-class
    for page in pages:
        page.locator(".gw-reconnect").filter(has_text="connection to the class was lost").wait_for(timeout=20_000)
    hub.start_external()  # the same command, the same database
    # each open page comes back by itself: its watcher's check goes through the hub's OAuth again (the
    # service's sessions were in the old process's memory), then the page reloads with its new session
    for page in pages:
        page.wait_for_function("!window.__beforeRestart && window.solara && window.solara.debug && "
                               "window.solara.debug.connectionStatus === 'connected'", timeout=60_000)
        wait_version(page, "gridlock", g.version, timeout=30_000)
    print(f"\nthe external rooms killed, restarted and both pages back in {time.monotonic() - started:.1f} s")
    assert [page.locator(".gw-seat-name").inner_text() for page in pages] == seats
    assert all(page.url.startswith(hub.base + EXT_PREFIX) for page in pages)
    play_first_moves(pages, g, 1)  # the game goes on
    for page in pages:
        page.close()


def test_the_managed_service_killed_is_started_again_by_the_hub_and_every_open_page_comes_back(
        hub, classroom, devices):
    import psutil

    _, opened = devices
    # every page still open on the managed service: the teacher's, the students' (one on a room picked from
    # the list, whose address Solara's router would have taken out of the service)
    pages = [p for ctx in opened for p in ctx.pages
             if urlsplit(p.url).path.startswith(PREFIX) or urlsplit(p.url).path == PREFIX.rstrip("/")]
    students = [p for p in pages if p.locator(".gw-seat-name").count()]
    assert len(students) >= 4 and classroom[TEACHER] in pages
    version = f"document.querySelector('{BOARD}')?.dataset.version ?? null"  # None: no game yet
    before = {id(p): (p.locator(".gw-seat-name").inner_text(), p.locator(".gw-room-code").inner_text(),
                      p.evaluate(version)) for p in students}
    (service,) = [p for p in psutil.Process(hub.proc.pid).children(recursive=True)
                  if str(hub.db) in p.cmdline()]
    for page in pages:
        page.evaluate("window.__beforeRestart = true")
    started = time.monotonic()
    os.kill(service.pid, signal.SIGKILL)  # the hub reaps it at its next look (every 30 s) and starts it again
    students[0].locator(".gw-reconnect").filter(has_text="connection to the class was lost").wait_for(
        timeout=20_000)
    for page in pages:
        page.wait_for_function("!window.__beforeRestart && window.solara && window.solara.debug && "
                               "window.solara.debug.connectionStatus === 'connected'", timeout=90_000)
    print(f"\nthe managed rooms killed, started again by the hub and {len(pages)} pages back in "
          f"{time.monotonic() - started:.1f} s")
    for page in students:
        seat, code, played = before[id(page)]
        page.locator(".gw-seat-name").wait_for()
        if played is not None:
            wait_version(page, "gridlock", int(played), timeout=30_000)
        assert (page.locator(".gw-seat-name").inner_text(), page.locator(".gw-room-code").inner_text()) == (
            seat, code)
    classroom[TEACHER].locator(".gw-room-panel").wait_for()
