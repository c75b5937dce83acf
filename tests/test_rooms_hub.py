"""The rooms behind a JupyterHub's login, without a hub: the settings from a
service's environment, the OAuth steps of :class:`RoomsApp` against a fake
``HubOAuth`` (cookies, state, refusals, the websocket's user), a hub user's
seat, and the command line. The real hub is in tests/browser/test_hub_browser.py."""

from __future__ import annotations

import asyncio
import secrets
import subprocess
import sys
import threading
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlsplit

import pytest

from gridwidgets.rooms import Rooms, Store
from gridwidgets.rooms.hub import HUB_SESSION_COOKIE, REQUIRED_ENV, HubLogin, HubSettings, need_jupyterhub

PREFIX = "/services/rooms/"
ENV = {"JUPYTERHUB_API_TOKEN": "t" * 32, "JUPYTERHUB_API_URL": "http://127.0.0.1:8081/hub/api",
       "JUPYTERHUB_SERVICE_PREFIX": PREFIX, "JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:10101",
       "JUPYTERHUB_CLIENT_ID": "service-rooms", "JUPYTERHUB_OAUTH_CALLBACK_URL": PREFIX + "oauth_callback"}
ACCESS = "access:services!service=rooms"


class FakeHubOAuth:
    """What :class:`HubLogin` uses of ``jupyterhub.services.auth.HubOAuth``, with the hub's answers made up."""

    login_url = "/hub/api/oauth2/authorize?client_id=service-rooms&response_type=code"
    state_cookie_name = "service-rooms-oauth-state"
    def __init__(self) -> None:
        self.access_scopes = {ACCESS}
        self.states: dict[str, dict] = {}
        self.codes: dict[str, dict] = {}  # code -> the user model the hub would give
        self.tokens: dict[str, dict] = {}

    def generate_pkce_code_challenge(self):
        return "the-verifier", "the-challenge", "S256"

    def generate_state(self, next_url=None, **extra):
        state = secrets.token_urlsafe(16)
        self.states[state] = {"next_url": next_url, **extra}
        return state

    def get_next_url(self, state):
        return self.states.get(state, {}).get("next_url")

    def get_code_verifier(self, state):
        return self.states.get(state, {}).get("code_verifier")

    def clear_oauth_state(self, state):
        self.states.pop(state, None)

    def token_for_code(self, code, *, code_verifier=None):
        if code not in self.codes or code_verifier != "the-verifier":
            raise RuntimeError("HTTP 400: invalid_grant")
        token = "hubtoken-" + secrets.token_hex(8)
        self.tokens[token] = self.codes.pop(code)
        return token

    def user_for_token(self, token, use_cache=True):
        return self.tokens.get(token)

    def check_scopes(self, required, model):
        return set(required) & set(model["scopes"])

    def hub_login(self, name, groups=(), admin=False, scopes=(ACCESS,)) -> str:
        """The code the hub would send back for a login of ``name``."""
        code = secrets.token_urlsafe(8)
        self.codes[code] = {"kind": "user", "name": name, "admin": admin, "groups": list(groups),
                            "scopes": list(scopes)}
        return code


def in_a_thread(coro) -> None:
    """``asyncio.run(coro)`` in a thread of its own (a sync Playwright of the same run keeps a loop in this one)."""
    errors = []

    def go():
        try:
            asyncio.run(coro)
        except BaseException as exc:
            errors.append(exc)

    t = threading.Thread(target=go)
    t.start()
    t.join(30)
    if errors:
        raise errors[0]


def run(app, path, *, kind="http", method="GET", query="", cookies=None):
    """One request to the ASGI ``app``: ``(status, headers {name: [values]}, body)``
    (a websocket: ``("close", ..)`` or ``("open", ..)``)."""
    headers = [(b"host", b"127.0.0.1:8000")]
    if cookies:
        headers.append((b"cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()).encode()))
    scope = {"type": kind, "path": path, "query_string": query.encode(), "headers": headers, "method": method,
             "client": ("127.0.0.1", 5555), "root_path": ""}
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    in_a_thread(app(scope, receive, send))
    if kind == "websocket":
        return ("close" if sent and sent[0]["type"] == "websocket.close" else "open"), {}, b""
    start = next(m for m in sent if m["type"] == "http.response.start")
    got: dict[str, list[str]] = {}
    for k, v in start.get("headers", []):
        got.setdefault(k.decode().lower(), []).append(v.decode("latin-1"))
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], got, body


class Inner:
    """Solara's place: notes the scopes it is given, answers 200."""

    def __init__(self) -> None:
        self.scopes: list[dict] = []

    async def __call__(self, scope, receive, send):
        self.scopes.append(scope)
        if scope["type"] == "websocket":
            await send({"type": "websocket.accept"})
            return
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"page"})


@pytest.fixture
def served(tmp_path):
    from gridwidgets.rooms.server import RoomsApp

    rooms = Rooms(Store(tmp_path / "class.sqlite"))
    rooms.create("gridlock")
    auth = FakeHubOAuth()
    login = HubLogin(HubSettings.from_env(ENV, students_group=None), auth)
    inner = Inner()
    yield RoomsApp(inner, rooms, login), auth, inner, rooms, login
    rooms.store.close()


def log_in(app, auth, name, path=PREFIX, **model):
    """A browser's whole login: the page, the hub, the callback; returns the session cookie's value."""
    status, headers, _ = run(app, path)
    assert status == 302
    location = headers["location"][0]
    state = parse_qs(urlsplit(location).query)["state"][0]
    jar = SimpleCookie(headers["set-cookie"][0])
    ((cookie_name, morsel),) = jar.items()
    code = auth.hub_login(name, **model)
    status, headers, _ = run(app, PREFIX + "oauth_callback", query=f"code={code}&state={state}",
                             cookies={cookie_name: morsel.value})
    assert status == 302, headers
    assert headers["location"] == [path]
    cookies = {k: m for c in headers["set-cookie"] for k, m in SimpleCookie(c).items()}
    return cookies[HUB_SESSION_COOKIE]


def test_settings_come_from_the_services_environment_and_name_what_is_missing():
    s = HubSettings.from_env(ENV, teacher_group="staff")
    assert (s.prefix, s.root, s.host, s.port, s.teacher_group) == (PREFIX, "/services/rooms", "127.0.0.1", 10101,
                                                                   "staff")
    assert s.public_url == PREFIX
    assert HubSettings.from_env({**ENV, "JUPYTERHUB_PUBLIC_URL": "https://hub.example/services/rooms/"}).public_url \
        == "https://hub.example/services/rooms/"
    env = dict(ENV)
    del env["JUPYTERHUB_CLIENT_ID"], env["JUPYTERHUB_API_TOKEN"]
    with pytest.raises(ValueError, match="JUPYTERHUB_API_TOKEN, JUPYTERHUB_CLIENT_ID"):
        HubSettings.from_env(env)
    assert len(REQUIRED_ENV) == 6


def test_without_jupyterhub_the_message_says_which_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "jupyterhub", None)
    monkeypatch.setitem(sys.modules, "jupyterhub.services", None)
    with pytest.raises(ImportError, match=r"pip install 'gridwidgets\[hub\]'"):
        need_jupyterhub()


def test_import_gridwidgets_never_imports_jupyterhub():
    code = ("import sys, gridwidgets, gridwidgets.rooms.hub, gridwidgets.rooms.server, gridwidgets.cli; "
            "print('jupyterhub' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_a_page_without_a_session_goes_to_the_hubs_login_with_a_state_cookie(served):
    app, auth, inner, _, login = served
    status, headers, _ = run(app, PREFIX + "teacher", query="x=1")
    assert status == 302 and not inner.scopes
    location = headers["location"][0]
    query = parse_qs(urlsplit(location).query)
    assert location.startswith("/hub/api/oauth2/authorize?") and query["code_challenge_method"] == ["S256"]
    state = query["state"][0]
    assert auth.get_next_url(state) == PREFIX + "teacher?x=1"
    cookie = headers["set-cookie"][0]
    assert cookie.startswith(f"{login.state_cookie(state)}={state};")
    assert login.state_cookie(state).startswith("service-rooms-oauth-state-")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and f"Path={PREFIX}" in cookie
    assert run(app, PREFIX + "seat", method="POST")[0] == 403  # not a page: refused, not redirected


def test_the_callback_checks_the_state_and_keeps_the_token_on_the_server(served):
    app, auth, inner, _, login = served
    status, headers, _ = run(app, PREFIX)
    state = parse_qs(urlsplit(headers["location"][0]).query)["state"][0]
    code = auth.hub_login("amy")
    # no state cookie (another browser's link), or another state: refused
    assert run(app, PREFIX + "oauth_callback", query=f"code={code}&state={state}")[0] == 403
    other = auth.generate_state(next_url=PREFIX)
    assert run(app, PREFIX + "oauth_callback", query=f"code={code}&state={state}",
               cookies={login.state_cookie(other): other})[0] == 403
    sid = log_in(app, auth, "amy")
    assert sid["httponly"] and sid["samesite"] == "Lax" and sid["path"] == PREFIX and not sid["secure"]
    assert not any(t in sid.value for t in auth.tokens)  # the browser holds an id, never the hub's token
    assert login.user(sid.value).name == "amy" and not login.user(sid.value).is_teacher
    status, _, body = run(app, PREFIX, cookies={HUB_SESSION_COOKIE: sid.value})
    assert status == 200 and body == b"page"
    assert inner.scopes[-1]["root_path"] == "/services/rooms"  # Solara's addresses carry the prefix


def test_a_code_the_hub_refuses_or_a_token_without_access_gets_no_session(served):
    app, auth = served[:2]
    status, headers, _ = run(app, PREFIX)
    state = parse_qs(urlsplit(headers["location"][0]).query)["state"][0]
    cookie = {k: m.value for k, m in SimpleCookie(headers["set-cookie"][0]).items()}
    status, headers, _ = run(app, PREFIX + "oauth_callback", query=f"code=forged&state={state}", cookies=cookie)
    assert status == 403 and HUB_SESSION_COOKIE not in str(headers.get("set-cookie"))
    with pytest.raises(AssertionError):
        log_in(app, auth, "eve", scopes=())  # the token does not carry access to this service


def test_the_teachers_pages_are_a_teachers_and_a_student_gets_a_refusal(served):
    app, auth, _, rooms, login = served
    amy = log_in(app, auth, "amy").value
    for path in ("teacher", "projector"):
        status, _, body = run(app, PREFIX + path, cookies={HUB_SESSION_COOKIE: amy})
        assert status == 403 and b"teacher" in body and b"amy" in body and b"<button" not in body
    lee = log_in(app, auth, "lee", groups=["teachers"]).value
    boss = log_in(app, auth, "boss", admin=True).value
    for sid in (lee, boss):
        assert run(app, PREFIX + "teacher", cookies={HUB_SESSION_COOKIE: sid})[0] == 200
        assert rooms.teacher_key(login.session(sid).teacher_session) == rooms.teacher_token


def test_the_websockets_user_is_the_sessions_and_nothing_is_served_outside_the_prefix(served):
    from gridwidgets.rooms.server import page_info

    app, auth, _, rooms, _ = served
    path = PREFIX + "jupyter/api/kernels/k-{}/channels"
    assert run(app, path.format(1), kind="websocket")[0] == "close"  # no session: refused
    amy = log_in(app, auth, "amy").value
    lee = log_in(app, auth, "lee", groups=["teachers"]).value
    assert run(app, path.format(2), kind="websocket", cookies={HUB_SESSION_COOKIE: amy})[0] == "open"
    assert run(app, path.format(3), kind="websocket", cookies={HUB_SESSION_COOKIE: lee})[0] == "open"
    info = page_info("k-2")
    assert info.hub_user.name == "amy" and not info.hub_user.is_teacher and info.teacher_session is None
    info = page_info("k-3")
    assert info.hub_user.is_teacher and rooms.teacher_key(info.teacher_session) == rooms.teacher_token
    assert run(app, "/teacher", cookies={HUB_SESSION_COOKIE: lee})[0] == 404
    assert run(app, "/services/roomsX/", cookies={HUB_SESSION_COOKIE: lee})[0] == 404


def test_a_students_group_keeps_other_hub_users_out(tmp_path):
    from gridwidgets.rooms.server import RoomsApp

    rooms = Rooms(Store(tmp_path / "class.sqlite"))
    auth = FakeHubOAuth()
    app = RoomsApp(Inner(), rooms, HubLogin(HubSettings.from_env(ENV, students_group="class-7b"), auth))
    log_in(app, auth, "amy", groups=["class-7b"])
    log_in(app, auth, "lee", groups=["teachers"])  # a teacher always may
    with pytest.raises(AssertionError):
        log_in(app, auth, "zed", groups=["class-8a"])
    rooms.store.close()


def test_a_hub_users_seat_is_found_by_their_student_id(tmp_path):
    rooms = Rooms(Store(tmp_path / "class.sqlite"))
    room = rooms.create("gridlock")
    assert room.seat_of_student("amy") is None and room.seat_of_student("") is None
    amy = room.join("amy", student_id="amy")
    room.join("ben", student_id="ben")
    assert room.seat_of_student("amy") is amy
    room.remove_seat(room.teacher_token, amy.token)
    assert room.seat_of_student("amy") is None
    rooms.store.close()
    again = Rooms(Store(tmp_path / "class.sqlite")).room(room.code)  # after a restart, from the database
    assert again.seat_of_student("ben").name == "ben"
    again.store.close()


def test_the_command_line_names_what_the_hub_did_not_give(monkeypatch, capsys):
    from gridwidgets.cli import main

    for key in REQUIRED_ENV:
        monkeypatch.delenv(key, raising=False)
    assert main(["classroom", "--rooms", "--hub", "--teacher-group", "staff"]) == 2
    err = capsys.readouterr().err
    assert "JUPYTERHUB_SERVICE_URL" in err and "docs/jupyterhub.md#the-rooms-on-jupyterhub" in err
    assert main(["classroom", "--hub"]) == 2
    assert "add --rooms" in capsys.readouterr().err


def test_over_https_the_cookies_are_secure(served):
    app = served[0]
    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b""}

    scope = {"type": "http", "path": PREFIX, "query_string": b"", "headers": [], "method": "GET", "scheme": "https",
             "client": ("127.0.0.1", 1)}
    in_a_thread(app(scope, receive, send))
    cookie = dict(sent[0]["headers"])[b"set-cookie"].decode()
    assert cookie.endswith("; Secure")
