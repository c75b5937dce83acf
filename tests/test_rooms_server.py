"""The rooms' server pieces (gridwidgets.rooms.server), without a browser:
sending to a page queues and never blocks, a page that reads nothing is
dropped within its bounds, the teacher token becomes an HTTP-only cookie and
leaves the address, another site's websocket is refused, agents of different
games never wait for each other. The browser tests (tests/browser/
test_rooms_browser.py) run the same pieces for real."""

from __future__ import annotations

import asyncio
import importlib.util
import threading
import time

import pytest
from waiting import wait_until

from gridwidgets.rooms import Rooms, Store
from gridwidgets.rooms import server as rooms_server

# (Solara's server is never imported in this process: it patches ipywidgets for every test after it)
pytestmark = pytest.mark.skipif(importlib.util.find_spec("solara") is None, reason="needs the rooms extra (Solara)")


@pytest.fixture
def rooms(tmp_path):
    return Rooms(Store(tmp_path / "class.sqlite"))


# -- sending to a page ------------------------------------------------------------------------------
class _Transport:
    def __init__(self) -> None:
        self.aborted = threading.Event()
        self.buffered = 0

    def abort(self) -> None:
        self.aborted.set()

    def is_closing(self) -> bool:
        return self.aborted.is_set()

    def get_write_buffer_size(self) -> int:
        return self.buffered


class _Protocol:
    def __init__(self) -> None:
        self.transport = _Transport()


class _StalledPage:
    """A starlette websocket whose page reads nothing: every send waits forever (or until ``reads`` is set)."""

    def __init__(self) -> None:
        self.scope = {"gridwidgets.protocol": _Protocol()}
        self.sent: list[str] = []
        self.reads: asyncio.Event | None = None

    async def send_text(self, data: str) -> None:
        if self.reads is None:
            self.reads = asyncio.Event()
        await self.reads.wait()
        self.sent.append(data)

    async def send_bytes(self, data: bytes) -> None:
        await self.send_text(data.decode())

    async def close(self) -> None:
        await asyncio.Event().wait()


@pytest.fixture
def loop():
    """The server's event loop, in a thread of its own (as uvicorn's)."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    yield loop
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=10)


def _bounded(loop, page):
    """The server's sending to ``page`` (the queue Solara's websocket wrapper gets in the server; made here
    without Solara's server, whose import changes ipywidgets for the whole process)."""

    async def make():
        queue = rooms_server.PageQueue()
        queue._start_queue(page, asyncio.get_running_loop())
        return queue

    return asyncio.run_coroutine_threadsafe(make(), loop).result(timeout=10)


WebSocketDisconnect = rooms_server.PageQueue.disconnect_error


def test_sending_to_a_page_that_reads_nothing_never_blocks_and_the_page_is_dropped(loop, monkeypatch):
    monkeypatch.setattr(rooms_server, "SEND_TIMEOUT", 0.5)
    page = _StalledPage()
    ws = _bounded(loop, page)
    dropped = dict(rooms_server.STATS.dropped)
    slowest = 0.0
    for k in range(200):
        t0 = time.perf_counter()
        try:
            ws.send_text(f"message {k} " + "x" * 1000)
        except WebSocketDisconnect:
            break  # dropped meanwhile: every send after that says so at once
        slowest = max(slowest, time.perf_counter() - t0)
    assert slowest < 0.05, f"a send waited {slowest:.3f} s for the page"
    transport = page.scope["gridwidgets.protocol"].transport
    assert transport.aborted.wait(10), "the page that read nothing was not cut off"
    with pytest.raises(WebSocketDisconnect):
        ws.send_text("after the drop")
    cause = f"it read nothing for {rooms_server.SEND_TIMEOUT:.0f} s"
    assert rooms_server.STATS.dropped.get(cause, 0) > dropped.get(cause, 0)


def test_a_page_whose_queue_passes_its_bound_is_dropped_at_once(loop, monkeypatch):
    monkeypatch.setattr(rooms_server, "MAX_QUEUED_BYTES", 50_000)
    page = _StalledPage()
    ws = _bounded(loop, page)
    with pytest.raises(WebSocketDisconnect):
        for _ in range(100):
            ws.send_text("x" * 1000)
    assert page.scope["gridwidgets.protocol"].transport.aborted.wait(10)


def test_a_page_that_reads_gets_everything_in_order(loop):
    page = _StalledPage()
    ws = _bounded(loop, page)
    for k in range(50):
        ws.send_text(str(k))
    wait_until(lambda: page.reads is not None, 10, "the first send")
    loop.call_soon_threadsafe(page.reads.set)
    wait_until(lambda: len(page.sent) == 50, 10, "every message sent")
    assert page.sent == [str(k) for k in range(50)]
    assert not page.scope["gridwidgets.protocol"].transport.aborted.is_set()


# -- the HTTP side ----------------------------------------------------------------------------------------
def _run(coroutine) -> None:
    """Run ``coroutine`` to its end in a thread of its own (this thread may already run
    an event loop: the browser tests' Playwright in the same session)."""
    failure: list[BaseException] = []

    def main() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as exc:  # handed back to the test
            failure.append(exc)

    thread = threading.Thread(target=main)
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive(), "the ASGI call did not end within 30 s"
    if failure:
        raise failure[0]


class _Inner:
    """Solara's app, as far as these tests go: records what reaches it."""

    def __init__(self) -> None:
        self.calls: list[dict] = []

    async def __call__(self, scope, receive, send):
        self.calls.append(scope)
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"page"})


def _http(app, path: str, query: bytes = b"", headers=()) -> list[dict]:
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "path": path, "query_string": query, "headers": list(headers), "method": "GET"}
    _run(app(scope, receive, send))
    return sent


def _headers(message: dict) -> dict[bytes, bytes]:
    return dict(message["headers"])


def test_the_teacher_token_becomes_an_http_only_cookie_and_leaves_the_address(rooms):
    inner = _Inner()
    app = rooms_server.RoomsApp(inner, rooms)
    start, _body = _http(app, "/teacher", b"token=" + rooms.teacher_token.encode())
    headers = _headers(start)
    assert start["status"] == 303 and headers[b"location"] == b"/teacher" and not inner.calls
    cookie = headers[b"set-cookie"].decode()
    name, _, rest = cookie.partition("=")
    session = rest.split(";")[0]
    assert name == rooms_server.TEACHER_COOKIE and session != rooms.teacher_token
    for attribute in ("HttpOnly", "SameSite=Strict", "Path=/"):
        assert attribute in cookie
    assert rooms.teacher_key(session) == rooms.teacher_token
    assert headers[b"cache-control"] == b"no-store" and headers[b"x-frame-options"] == b"DENY"


@pytest.mark.parametrize("query", [b"token=guess", b"token=%C3%A9", b"token=", b"token=" + b"%FF" * 3000,
                                   b"token=a&token=b", b"token=%00"])
def test_a_wrong_teacher_token_of_any_shape_is_refused_without_a_cookie(rooms, query):
    app = rooms_server.RoomsApp(_Inner(), rooms)
    start, _body = _http(app, "/teacher", query)
    headers = _headers(start)
    assert start["status"] == 303 and headers[b"location"] == b"/teacher?refused=1"
    assert b"set-cookie" not in headers


def test_the_servers_own_counts_are_for_this_computer_only(rooms):
    inner = _Inner()
    app = rooms_server.RoomsApp(inner, rooms)
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    for client, status in ((("10.0.0.7", 5000), 404), (("127.0.0.1", 5000), 200)):
        sent.clear()
        scope = {"type": "http", "path": "/resourcez", "query_string": b"", "headers": [], "client": client}
        _run(app(scope, receive, send))
        assert sent[0]["status"] == status


def test_pages_get_headers_that_keep_them_out_of_other_sites_frames(rooms):
    inner = _Inner()
    start, body = _http(rooms_server.RoomsApp(inner, rooms), "/projector")
    headers = _headers(start)
    assert body["body"] == b"page" and len(inner.calls) == 1
    assert headers[b"x-frame-options"] == b"DENY" and b"frame-ancestors 'none'" in headers[b"content-security-policy"]
    assert headers[b"cache-control"] == b"no-store"


def _websocket(app, origin: str | None, cookie: str = "") -> tuple[list[dict], dict]:
    sent: list[dict] = []

    async def receive():
        return {"type": "websocket.connect"}

    async def send(message):
        sent.append(message)

    headers = [(b"host", b"127.0.0.1:8765")]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    scope = {"type": "websocket", "path": "/jupyter/api/kernels/k-123/channels", "headers": headers,
             "client": ("10.0.0.7", 50000), "query_string": b""}
    _run(app(scope, receive, send))
    return sent, scope


def test_a_websocket_from_another_sites_page_is_refused(rooms):
    inner = _Inner()
    app = rooms_server.RoomsApp(inner, rooms)
    sent, _ = _websocket(app, "http://evil.example")
    assert sent == [{"type": "websocket.close", "code": 1008}] and not inner.calls
    sent, scope = _websocket(app, "http://127.0.0.1:8765", cookie=f"{rooms_server.TEACHER_COOKIE}=abc; other=1")
    assert inner.calls == [scope]
    info = rooms_server.page_info("k-123")
    assert info.address == "10.0.0.7" and info.teacher_session == "abc"


def _post(app, path: str, body: bytes, headers=(), method: str = "POST") -> list[dict]:
    sent: list[dict] = []
    parts = [body[: len(body) // 2], body[len(body) // 2 :]]  # in two messages, as a server may give it

    async def receive():
        chunk = parts.pop(0)
        return {"type": "http.request", "body": chunk, "more_body": bool(parts)}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "path": path, "query_string": b"", "method": method,
             "headers": [(b"host", b"127.0.0.1:8765"), *headers]}
    _run(app(scope, receive, send))
    return sent


def test_a_seated_page_gets_an_http_only_seat_cookie_that_its_next_websocket_brings_back(rooms):
    room = rooms.create("gridlock")
    ann = room.join("Ann")
    inner = _Inner()
    app = rooms_server.RoomsApp(inner, rooms)
    body = f"room={room.code.lower()}&seat={ann.token}".encode()
    start, _ = _post(app, "/seat", body, [(b"origin", b"http://127.0.0.1:8765")])
    headers = _headers(start)
    assert start["status"] == 204 and not inner.calls
    cookie = headers[b"set-cookie"].decode()
    assert cookie.startswith(f"{rooms_server.SEAT_COOKIE}{room.code}={ann.token};")
    for attribute in ("HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="):
        assert attribute in cookie
    jar = f"{rooms_server.SEAT_COOKIE}{room.code}={ann.token}; {rooms_server.SEAT_COOKIE}ZZZZZ=x; other=1"
    _websocket(app, "http://127.0.0.1:8765", cookie=jar)
    assert rooms_server.page_info("k-123").seats == {room.code: ann.token, "ZZZZZ": "x"}
    forget = _http(app, "/seat/forget", f"room={room.code}".encode())[0]
    headers = _headers(forget)
    assert forget["status"] == 303 and headers[b"location"] == f"/?room={room.code}".encode()
    assert headers[b"set-cookie"].decode().startswith(f"{rooms_server.SEAT_COOKIE}{room.code}=;")
    assert "Max-Age=0" in headers[b"set-cookie"].decode()


def test_no_seat_cookie_for_another_rooms_seat_a_guess_another_site_or_a_get(rooms):
    room, other = rooms.create("gridlock"), rooms.create("gridlock")
    ann = room.join("Ann")
    app = rooms_server.RoomsApp(_Inner(), rooms)
    for body, headers, method in [
        (f"room={other.code}&seat={ann.token}".encode(), (), "POST"),  # a seat of another room
        (f"room={room.code}&seat=guess".encode(), (), "POST"),
        (f"room=NOPE&seat={ann.token}".encode(), (), "POST"),
        (f"room={room.code}&seat={ann.token}".encode(), [(b"origin", b"http://evil.example")], "POST"),
        (f"room={room.code}&seat={ann.token}".encode(), (), "GET"),
        (f"room={room.code}&seat={ann.token}".encode() + b"&x=" + b"y" * 5000, (), "POST"),  # too long
        (b"\xff\x00" * 10, (), "POST"),
    ]:
        start, _ = _post(app, "/seat", body, headers, method)
        assert start["status"] == 403 and b"set-cookie" not in _headers(start), body[:40]


# -- agents ------------------------------------------------------------------------------------------------
class _SlowAgent:
    """An agent that thinks until told to stop (a long search)."""

    name = "slow"

    def __init__(self) -> None:
        self.go = threading.Event()
        self.thinking = threading.Event()

    def choose(self, game):
        self.thinking.set()
        assert self.go.wait(60)
        return game.legal_moves()[0]


def test_agents_of_different_games_never_wait_for_each_other(rooms):
    slow_room = rooms.create("gridlock", pairing="agent")
    quick_room = rooms.create("gridlock", pairing="agent")
    ann = slow_room.join("Ann")
    bob = quick_room.join("Bob")
    slow, _ = slow_room.game_of(ann.token)
    quick, _ = quick_room.game_of(bob.token)
    slow.agent = _SlowAgent()
    runner = rooms_server.AgentRunner(rooms, interval=5.0)  # woken by changes, not by its clock
    runner.start()
    try:
        slow_room.play(ann.token, "B2")
        assert slow.agent.thinking.wait(10), "the slow agent was not asked"
        for k in range(3):  # the other game's agent answers every move while the slow one still thinks
            move = str(quick.game.legal_moves()[0])
            quick_room.play(bob.token, move)
            wait_until(lambda k=k: len(quick.game.history) == 2 * (k + 1), 10, "the quick agent's answer")
        assert len(slow.game.history) == 1
        slow.agent.go.set()
        wait_until(lambda: len(slow.game.history) == 2, 10, "the slow agent's move")
    finally:
        slow.agent.go.set()
        runner.stop()
        runner.join(timeout=10)


def test_lan_address_is_not_loopback_or_says_why():
    try:
        address = rooms_server.lan_address()
    except OSError as exc:
        assert "hotspot" in str(exc)
    else:
        import ipaddress

        assert not ipaddress.ip_address(address).is_loopback


@pytest.mark.parametrize("search", ["", "room=ABCDE&seat=x", "a" * 10_000, "room=%C3%A9&seat=%FF%FE", "&" * 500,
                                    "=" * 300, "room=" + "%00" * 100, ";;;", None, 42])
def test_a_pages_query_string_of_any_shape_is_read_without_error(search):
    from types import SimpleNamespace

    from gridwidgets.rooms.app import _query

    got = _query(SimpleNamespace(search=search))
    assert isinstance(got, dict) and all(len(v) <= 64 for v in got.values())


def test_served_to_the_network_the_students_address_is_printed_large_with_a_qr_code(rooms, tmp_path):
    import io

    out, err = io.StringIO(), io.StringIO()
    rooms.create("gridlock", teacher_token=rooms.teacher_token)
    rooms_server.announce(rooms, tmp_path / "class.sqlite", "192.168.1.20", 8765, out, err)
    text = out.getvalue()
    assert "  students open:  http://192.168.1.20:8765/" in text
    assert "=\n    Students open  http://192.168.1.20:8765/\n=" in text  # the banner
    assert sum(line.count("█") for line in text.splitlines()) > 200  # the QR code, drawn in the terminal
    assert "WARNING: serving on 192.168.1.20" in err.getvalue()
    out, err = io.StringIO(), io.StringIO()
    rooms_server.announce(rooms, tmp_path / "class.sqlite", "127.0.0.1", 8765, out, err)
    assert "█" not in out.getvalue() and "NOTE: serving on 127.0.0.1 only" in err.getvalue()
    assert "--lan" in err.getvalue()


def test_every_option_of_the_rooms_command_is_in_the_classroom_docs():
    import re
    from pathlib import Path

    from gridwidgets import cli

    parser_help = []

    class Stop(Exception):
        pass

    def capture(self, file=None):  # argparse prints the help, then exits
        parser_help.append(self.format_help())
        raise Stop

    import argparse

    original = argparse.ArgumentParser.print_help
    argparse.ArgumentParser.print_help = capture
    try:
        with pytest.raises(Stop):
            cli.main(["classroom", "--help"])
    finally:
        argparse.ArgumentParser.print_help = original
    options = set(re.findall(r"(--[a-z][a-z-]+)", parser_help[0])) - {"--help"}
    docs = (Path(__file__).resolve().parents[1] / "docs" / "classroom.md").read_text()
    missing = sorted(o for o in options if f"`{o}" not in docs)
    assert {"--rooms", "--lan", "--backup", "--new-teacher-token", "--reopen"} <= options and not missing, missing


_CHARTS_AT_ONCE = r"""
import sys, threading
from gridwidgets.rooms import app  # what the server imports first: matplotlib comes with it
assert "matplotlib.figure" in sys.modules, "the pages' module must import matplotlib once, at start"
from gridwidgets.rooms import Rooms, Store, results
rooms = Rooms(Store(sys.argv[1]))
room = rooms.create("blockfour")
for name in ("Ann", "Bob", "Cy", "Dee"):
    room.join(name)
errors = []
barrier = threading.Barrier(2)
def chart(make):
    try:
        barrier.wait(10)
        make([room])
    except Exception as exc:
        errors.append(repr(exc))
threads = [threading.Thread(target=chart, args=(f,)) for f in (results.choices_figure, results.win_rates_figure)]
for t in threads:
    t.start()
for t in threads:
    t.join(60)
assert not errors, errors
print("ok")
"""


def test_results_and_show_results_together_draw_their_charts_without_a_half_imported_matplotlib(tmp_path):
    """Results on the teacher's page and Show results on the projector made
    their first charts on two threads at once and found matplotlib half
    imported (``AttributeError: ... '_docstring'``): the pages' module imports
    it at start. A fresh interpreter, as a server starts."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _CHARTS_AT_ONCE, str(tmp_path / "class.sqlite")],
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-2000:]
