"""The rooms' server: one Python process (Solara on uvicorn) serving the
students' pages, the teacher's page and the projector's over one
:class:`~gridwidgets.rooms.Rooms`, so every game of a room is one shared
object. ``python -m gridwidgets classroom --rooms`` runs :func:`serve_rooms`;
:func:`make_server` builds the server for a program that runs it itself (the
load benchmark, the tests).

What keeps one page from slowing the others:

- **Sending never blocks.** Everything sent to a page goes into that page's
  own queue (:class:`PageQueue`, in Solara's websocket wrapper:
  :func:`bounded_websocket_class`), which one task of the event loop drains. A page that does not read
  for :data:`SEND_TIMEOUT` seconds, or whose queue passes
  :data:`MAX_QUEUED_BYTES`, is dropped: its connection is cut, the game's
  other pages, the agents and the teacher go on. When it wakes it reconnects
  and draws the game as it stands (the pages' watcher, in ``gridwidgets.rooms.app``).
- **No send under a game's lock** (:class:`~gridwidgets.rooms.board.Fanout`).
- **Agents of different games never wait for each other**: each agent move is
  chosen in a thread of its own (:class:`AgentRunner`), at most one per game.
- **Pages are let go**: a page whose connection closed is forgotten after
  :data:`CULL_TIMEOUT` (its kernel, board and threads), and a silent connection
  is found by websocket pings every :data:`PING_INTERVAL` seconds.

The teacher's token is exchanged once for an HTTP-only session cookie
(:class:`RoomsApp`): ``/teacher?token=...`` answers with the cookie and sends the
browser on to ``/teacher``, so the token leaves the address bar. A websocket
from another site's page is refused (its ``Origin``).

A student's device keeps its seat in an HTTP-only cookie per room
(``gw-seat-<ROOM>``, :data:`SEAT_COOKIE`): the seat's page posts its seat to
``/seat`` once it is seated (a page is drawn over its websocket, which cannot
set a cookie), and the server reads the cookie again from the websocket of
any page the device opens later (:func:`page_info`), so opening the room's
address lands in the same seat. ``/seat/forget?room=ROOM`` lets the seat go
on that device (a shared computer).

Needs the ``rooms`` extra: ``pip install 'gridwidgets[rooms]'`` (Solara).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import socket
import sys
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from http import cookies as http_cookies
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from .model import PAIRINGS, Room, RoomError, Rooms
from .store import Store, StoreError

__all__ = [
    "SEAT_COOKIE",
    "TEACHER_COOKIE",
    "AgentRunner",
    "PageQueue",
    "RoomsApp",
    "announce",
    "announce_hub",
    "bounded_websocket_class",
    "current_rooms",
    "hub_mode",
    "hub_settings",
    "lan_address",
    "make_server",
    "open_rooms",
    "page_info",
    "root_path",
    "serve_rooms",
    "student_url",
    "students_address",
    "teacher_url",
]

#: the rooms every page of this process serves (set by :func:`make_server`)
_ROOMS: Rooms | None = None
#: the address students open, as the server printed it (set by :func:`make_server`)
_STUDENTS_ADDRESS = ""
#: the path the pages are served under ("": the standalone server, at /; a hub service: its prefix, no last slash)
_ROOT = ""
#: the hub's login, for a server run as a JupyterHub service (:mod:`gridwidgets.rooms.hub`; set by :func:`make_server`)
_HUB: Any = None
#: seconds a service started with its hub waits for the hub's API to read the class list (the hub's users)
HUB_ROSTER_WAIT = 60.0
#: the default database file, in the directory the server starts in
DEFAULT_DB = "gridwidgets-rooms.sqlite"
#: the longest wait, in seconds, between two looks for the room agents' work (they are also woken by every change)
AGENT_INTERVAL = 0.4
#: the most agent moves being chosen at once (one per game; more games wait for a free thread)
MAX_AGENT_THREADS = 64
#: a page's queue: at most this many bytes waiting to be sent to it ...
MAX_QUEUED_BYTES = 2_000_000
#: ... and this many messages
MAX_QUEUED_MESSAGES = 5_000
#: seconds a page may take to take one message before it is dropped
SEND_TIMEOUT = 10.0
#: seconds between two websocket pings; a page that has not answered one within PING_TIMEOUT is dropped
PING_INTERVAL, PING_TIMEOUT = 5.0, 10.0
#: a closed page's kernel (its board, its threads) is let go this long after its connection closed
CULL_TIMEOUT = "30s"
#: the teacher's session cookie (HTTP-only: the page's scripts never see it)
TEACHER_COOKIE = "gw_teacher"
#: hours a teacher's session cookie lasts in the browser
SESSION_HOURS = 12
#: a student's seat cookie, one per room: this prefix and the room's code (HTTP-only)
SEAT_COOKIE = "gw-seat-"
#: hours a device keeps its seat (a school day: a shared computer forgets it by the next)
SEAT_HOURS = 12


def current_rooms() -> Rooms:
    """The rooms this process serves (the pages read them here).

    Raises:
        RuntimeError: when no server was made in this process.
    """
    if _ROOMS is None:
        raise RuntimeError("no rooms server in this process: start one with python -m gridwidgets classroom --rooms")
    return _ROOMS


def students_address() -> str:
    """The address students open, as this server printed it (``""`` before :func:`make_server`)."""
    return _STUDENTS_ADDRESS


def root_path() -> str:
    """The path this server's pages are under, without its last slash: ``""``
    for the standalone server, the service's prefix under a hub
    (``/services/rooms``). The pages put it before every address of their own
    (``root_path() + "/projector"``)."""
    return _ROOT


def hub_mode() -> bool:
    """Whether this server runs as a JupyterHub service (its users are the hub's)."""
    return _HUB is not None


def hub_settings() -> Any:
    """The :class:`~gridwidgets.rooms.hub.HubSettings` this server runs under, or ``None`` (standalone)."""
    return _HUB.settings if _HUB is not None else None


# -- what the server knows of each page's connection --------------------------------------------
@dataclass
class PageInfo:
    """What the server saw of a page's connection: the device's address,
    whether it holds a live teacher's session (its cookie, read on the server),
    and the seats the device keeps (``{room code: seat token}``, from its seat
    cookies, :data:`SEAT_COOKIE`; unchecked: the page checks them in its room);
    under a hub, the hub user logged in (a :class:`~gridwidgets.rooms.hub.HubUser`:
    ``name``, ``is_teacher``; ``None`` for the standalone server)."""

    address: str | None
    teacher_session: str | None
    seats: dict[str, str] = field(default_factory=dict)
    hub_user: Any = None


_PAGES: OrderedDict[str, PageInfo] = OrderedDict()
_PAGES_LOCK = threading.Lock()


def page_info(kernel_id: str) -> PageInfo | None:
    """What the server saw of the connection of the page with ``kernel_id`` (Solara's), or ``None``."""
    with _PAGES_LOCK:
        return _PAGES.get(kernel_id)


def _remember_page(kernel_id: str, info: PageInfo) -> None:
    with _PAGES_LOCK:
        _PAGES[kernel_id] = info
        _PAGES.move_to_end(kernel_id)
        while len(_PAGES) > 20_000:
            _PAGES.popitem(last=False)


# -- sending to a page: queued, bounded, never blocking -----------------------------------------
class _Stats:
    """Counts for the benchmarks and the tests: connections opened and closed,
    pages dropped by this server (by cause; a page that stops answering pings
    is closed by uvicorn, and counts as closed only), and the largest queue
    seen (bytes)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.opened = 0
        self.closed = 0
        self.dropped: dict[str, int] = {}
        self.largest_queue = 0

    def drop(self, cause: str) -> None:
        with self.lock:
            self.dropped[cause] = self.dropped.get(cause, 0) + 1


STATS = _Stats()


class PageQueue:
    """Sending to one page through a bounded queue (see the module's text):
    :meth:`send_text` and :meth:`send_bytes` only queue, from any thread, and
    never wait for the page; one task of the server's event loop sends in
    order. A page that takes nothing for :data:`SEND_TIMEOUT` seconds, or whose
    queue passes :data:`MAX_QUEUED_BYTES` (or :data:`MAX_QUEUED_MESSAGES`), is
    dropped: its connection is cut (the transport aborted: no goodbye to a
    page that reads nothing), and every later send raises ``disconnect_error``
    at once (Solara then stops sending to it).

    The queue starts with ``_start_queue(ws, loop)``: ``ws`` is the page's
    Starlette websocket (``send_text``, ``send_bytes``, ``close``; its
    ``scope["gridwidgets.protocol"]`` is the connection, noted by
    :class:`RoomsApp`), ``loop`` the server's event loop. Solara's websocket
    wrapper with this queue is made by :func:`bounded_websocket_class`.
    """

    #: raised by a send once the page is dropped (Solara's WebSocketDisconnect in the server)
    disconnect_error: type[Exception] = ConnectionError

    def _start_queue(self, ws: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.ws, self.event_loop = ws, loop
        self._qlock = threading.Lock()
        self._queue: deque[str | bytes] = deque()
        self._queued = 0
        self._dropped: str | None = None
        self._closing = False
        self._wake = asyncio.Event()
        self._sender = loop.create_task(self._drain())
        self._watch = loop.create_task(self._watchdog())
        with STATS.lock:
            STATS.opened += 1

    # any thread: queue, never wait for the page
    def send_text(self, data: str) -> None:
        self._enqueue(data)

    def send_bytes(self, data: bytes) -> None:
        self._enqueue(data)

    def _enqueue(self, data: str | bytes) -> None:
        size = len(data)
        with self._qlock:
            if self._dropped is not None or self._closing:
                raise self.disconnect_error()
            if self._queued + size > MAX_QUEUED_BYTES or len(self._queue) >= MAX_QUEUED_MESSAGES:
                self._dropped = "queue full"
                full = True
            else:
                self._queue.append(data)
                self._queued += size
                full = False
                if self._queued > STATS.largest_queue:
                    STATS.largest_queue = self._queued
        try:
            if full:
                self.event_loop.call_soon_threadsafe(self._drop_now, "its queue passed the bound")
            else:
                self.event_loop.call_soon_threadsafe(self._wake.set)
        except RuntimeError:  # the server's loop is closed: the page is gone
            pass
        if full:
            raise self.disconnect_error()

    # the event loop's thread: one task per page sends in order
    async def _drain(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while True:
                with self._qlock:
                    if not self._queue:
                        break
                    data = self._queue.popleft()
                    self._queued -= len(data)
                try:
                    if isinstance(data, bytes):
                        await asyncio.wait_for(self.ws.send_bytes(data), SEND_TIMEOUT)
                    else:
                        await asyncio.wait_for(self.ws.send_text(data), SEND_TIMEOUT)
                except asyncio.TimeoutError:
                    self._drop_now(f"it read nothing for {SEND_TIMEOUT:.0f} s")
                    return
                except asyncio.CancelledError:
                    raise
                except Exception:  # the connection closed meanwhile
                    self._drop_now(None)
                    return

    async def _watchdog(self) -> None:
        """Cut a connection that was asked to close but cannot: its page reads
        nothing, so what is left to send never leaves (asyncio waits for it)."""
        closing_since = None
        while True:
            await asyncio.sleep(PING_INTERVAL)
            transport = self._transport()
            if transport is None:
                return
            if transport.is_closing():
                if not transport.get_write_buffer_size():
                    return  # it closes by itself
                closing_since = closing_since or time.monotonic()
                if time.monotonic() - closing_since > PING_TIMEOUT:
                    self._drop_now("its connection would not close")
                    return
            else:
                closing_since = None

    def _transport(self) -> Any:
        protocol = self.ws.scope.get("gridwidgets.protocol")
        return getattr(protocol, "transport", None)

    def _drop_now(self, cause: str | None) -> None:
        with self._qlock:
            first = self._dropped is None or self._dropped == "queue full"
            self._dropped = cause or self._dropped or "closed"
            self._queue.clear()
            self._queued = 0
        if cause and first:
            STATS.drop(cause)
            print(f"a page was dropped ({cause}): the others go on; it reconnects when it wakes",
                  file=sys.stderr, flush=True)
        transport = self._transport()
        if transport is not None:
            transport.abort()  # no goodbye to a page that reads nothing: the connection is cut
        else:
            self.event_loop.create_task(self._close_quietly())
        current = asyncio.current_task()
        for task in (self._sender, self._watch):
            if task is not current:
                task.cancel()

    async def _close_quietly(self) -> None:
        try:
            await asyncio.wait_for(self.ws.close(), PING_TIMEOUT)
        except Exception:
            transport = self._transport()
            if transport is not None:
                transport.abort()

    def _stop_tasks(self) -> None:
        with self._qlock:
            self._closing = True
            self._queue.clear()
            self._queued = 0
        for task in (self._sender, self._watch):
            task.cancel()

    def close(self) -> None:  # any thread; never waits for the page
        with self._qlock:
            if self._closing:
                return
            self._closing = True

        def later() -> None:
            self.event_loop.create_task(self._close_quietly())
            for task in (self._sender, self._watch):
                task.cancel()

        with contextlib.suppress(RuntimeError):
            self.event_loop.call_soon_threadsafe(later)


def bounded_websocket_class() -> type:
    """Solara's websocket wrapper with a :class:`PageQueue` (made once, when the
    server is made: it imports Solara's server)."""
    from solara.server import starlette as solara_starlette
    from solara.server import websocket as solara_websocket

    base = solara_starlette.WebsocketWrapper
    if getattr(base, "_gridwidgets_bounded", False):
        return base  # type: ignore[no-any-return]

    class BoundedWebsocket(PageQueue, base):  # type: ignore[misc, valid-type]
        """Solara's websocket wrapper, sending through a bounded queue."""

        _gridwidgets_bounded = True
        disconnect_error = solara_websocket.WebSocketDisconnect

        def __init__(self, ws: Any, portal: Any) -> None:
            base.__init__(self, ws, portal)  # in the event loop's thread: self.event_loop is the server's loop
            self._start_queue(ws, self.event_loop)

        async def receive(self) -> Any:
            try:
                return await base.receive(self)
            except BaseException:  # the page is gone (or the server stops): nothing more to send it
                with STATS.lock:
                    STATS.closed += 1
                with contextlib.suppress(RuntimeError):
                    self.event_loop.call_soon_threadsafe(self._stop_tasks)
                raise

    return BoundedWebsocket


def _install_bounded() -> type:
    from solara.server import starlette as solara_starlette

    cls = bounded_websocket_class()
    solara_starlette.WebsocketWrapper = cls
    return cls


# -- the HTTP side: the teacher's cookie, the origin check, headers ----------------------------------
_SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]


#: the page a refused request gets under a hub (a non-teacher on the teacher's page, a stale login)
_REFUSAL_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>
body {{ font: 18px/1.5 system-ui, sans-serif; margin: 0; background: #fff; color: #111827; }}
main {{ max-width: 40em; margin: 48px auto; padding: 0 16px; }}
h1 {{ font-size: 28px; }} a {{ color: #1d4ed8; }}
.gw-refused {{ border-left: 6px solid #b91c1c; padding: 8px 16px; background: #fef2f2; }}
@media (prefers-color-scheme: dark) {{ body {{ background: #111827; color: #f9fafb; }} a {{ color: #93c5fd; }}
  .gw-refused {{ background: #3f1d1d; border-color: #fca5a5; }} }}
</style></head>
<body><main><h1>{title}</h1><p class="gw-refused">{text}</p></main></body></html>
"""


def _secure(scope: dict[str, Any]) -> str:
    """``"; Secure"`` for a cookie of a page served over HTTPS (the hub's proxy
    says so; uvicorn trusts its headers from 127.0.0.1), else ``""``."""
    return "; Secure" if scope.get("scheme") in ("https", "wss") else ""


def _html_escape(text: str) -> str:
    from html import escape

    return escape(text)


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return ""


def _cookies(scope: dict[str, Any]) -> dict[str, str]:
    jar = http_cookies.SimpleCookie()
    try:
        jar.load(_header(scope, b"cookie")[:8192])
    except http_cookies.CookieError:
        return {}
    return {k: m.value for k, m in jar.items()}


class RoomsApp:
    """The ASGI application the server runs: Solara's, behind a small layer of
    our own that exchanges the teacher token for a cookie (``/teacher?token=``),
    refuses websockets from another site's page, notes each page connection's
    address and teacher session (:func:`page_info`), and adds headers that keep
    the pages out of other sites' frames."""

    def __init__(self, app: Any, rooms: Rooms, hub: Any = None) -> None:
        self.app, self.rooms, self.hub = app, rooms, hub

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if self.hub is not None and scope["type"] in ("http", "websocket"):
            await self._hub_call(scope, receive, send)
            return
        if scope["type"] == "websocket":
            origin, host = _header(scope, b"origin"), _header(scope, b"host")
            if origin and host and urlsplit(origin).netloc.lower() != host.lower():
                await send({"type": "websocket.close", "code": 1008})  # before accept: refused (403)
                return
            scope["gridwidgets.protocol"] = getattr(send, "__self__", None)
            path = scope.get("path", "")
            if "/api/kernels/" in path and path.endswith("/channels"):
                kernel_id = path.split("/api/kernels/", 1)[1].split("/", 1)[0]
                client = scope.get("client")
                jar = _cookies(scope)
                seats = {k[len(SEAT_COOKIE):]: v for k, v in jar.items() if k.startswith(SEAT_COOKIE)}
                _remember_page(kernel_id, PageInfo(client[0] if client else None, jar.get(TEACHER_COOKIE),
                                                   dict(list(seats.items())[:40])))
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if path in ("/teacher", "/teacher/") and b"token=" in scope.get("query_string", b""):
            await self._exchange(scope, send)
            return
        if path == "/seat":
            await self._keep_seat(scope, receive, send)
            return
        if path == "/seat/forget":
            await self._forget_seat(scope, send)
            return
        client = scope.get("client")
        if path.startswith("/resourcez") and not (client and _is_ip(client[0])
                                                  and ipaddress.ip_address(client[0]).is_loopback):
            # the server's own counts (kernels, threads): for this computer only
            await send({"type": "http.response.start", "status": 404, "headers": _SECURITY_HEADERS})
            await send({"type": "http.response.body", "body": b""})
            return

        async def with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += _SECURITY_HEADERS
                if path.startswith(("/teacher", "/projector")):
                    headers.append((b"cache-control", b"no-store"))
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, with_headers)

    # -- under a hub (``--hub``): every page behind the hub's login ---------------------------------
    async def _hub_call(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """A JupyterHub service's requests: only under the service's prefix
        (the proxy keeps it: it becomes ASGI's ``root_path``, so Solara's
        addresses carry it); ``<prefix>oauth_callback`` ends a hub login; any
        other request needs the session cookie (:data:`~gridwidgets.rooms.hub.HUB_SESSION_COOKIE`),
        else a page is sent to the hub's login and anything else refused; the
        teacher's pages need a teacher (a refusal page otherwise)."""
        from .hub import HUB_SESSION_COOKIE

        settings = self.hub.settings
        path = scope.get("path", "")
        websocket = scope["type"] == "websocket"
        if not (path == settings.root or path.startswith(settings.prefix)):
            await self._refuse(scope, send, 404, "Not here", "This service's pages are under "
                               f"{settings.prefix}.")
            return
        scope = dict(scope, root_path=settings.root)
        rel = path[len(settings.root):] or "/"
        jar = _cookies(scope)
        sid = jar.get(HUB_SESSION_COOKIE)
        session = self.hub.session(sid)
        if websocket:
            origin, host = _header(scope, b"origin"), _header(scope, b"host")
            if session is None or (origin and host and urlsplit(origin).netloc.lower() != host.lower()):
                await send({"type": "websocket.close", "code": 1008})
                return
            scope["gridwidgets.protocol"] = getattr(send, "__self__", None)
            if "/api/kernels/" in rel and rel.endswith("/channels"):
                kernel_id = rel.split("/api/kernels/", 1)[1].split("/", 1)[0]
                client = scope.get("client")
                _remember_page(kernel_id, PageInfo(client[0] if client else None, session.teacher_session, {},
                                                   session.user))
            await self.app(scope, receive, send)
            return
        if rel == "/oauth_callback":
            await self._hub_callback(scope, jar, send)
            return
        if session is not None and self.hub.needs_recheck(sid):
            loop = asyncio.get_running_loop()
            if not await loop.run_in_executor(None, self.hub.recheck, sid):
                session = None
        if session is None:
            if scope.get("method") not in ("GET", "HEAD"):
                await self._refuse(scope, send, 403, "Log in first", "Open the class's address again: the hub "
                                   "logs you in.")
                return
            query = scope.get("query_string", b"")[:1024].decode("latin-1")
            url, cookie_name, state = self.hub.start(path + (f"?{query}" if query else ""))
            headers = [(b"location", url.encode("latin-1")), (b"cache-control", b"no-store"), *_SECURITY_HEADERS,
                       (b"set-cookie", f"{cookie_name}={state}; HttpOnly; SameSite=Lax; Path={settings.prefix}; "
                        f"Max-Age=600{_secure(scope)}".encode("latin-1"))]
            await send({"type": "http.response.start", "status": 302, "headers": headers})
            await send({"type": "http.response.body", "body": b""})
            return
        if rel.startswith(("/teacher", "/projector")) and not session.user.is_teacher:
            name, group = _html_escape(session.user.name), _html_escape(repr(settings.teacher_group))
            await self._refuse(scope, send, 403, "The teacher's page", f"This page is the teacher's. You are logged "
                               f"in to the hub as {name}, who is not in the hub group {group} nor a hub admin. "
                               f"Students open the class at <a href='{settings.prefix}'>{settings.prefix}</a>.")
            return
        client = scope.get("client")
        if rel.startswith("/resourcez") and not (client and _is_ip(client[0])
                                                 and ipaddress.ip_address(client[0]).is_loopback):
            await self._refuse(scope, send, 404, "Not here", "")
            return

        async def with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + _SECURITY_HEADERS
                if rel.startswith(("/teacher", "/projector")) or rel == "/":
                    headers.append((b"cache-control", b"no-store"))
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, with_headers)

    async def _hub_callback(self, scope: dict[str, Any], jar: dict[str, str], send: Any) -> None:
        """``<prefix>oauth_callback?code=...&state=...``: the hub's answer to a
        login. The state must be the one this browser's state cookie holds;
        the code is exchanged for the user's token (kept on the server), the
        browser gets the session cookie and goes on to the page it asked for.
        A teacher's session also opens a teacher's session of the rooms."""
        from .hub import HUB_SESSION_COOKIE, HUB_SESSION_HOURS

        settings = self.hub.settings
        raw = scope.get("query_string", b"")[:4096].decode("latin-1")
        fields = parse_qs(raw, max_num_fields=8)
        code, state = (fields.get("code") or [""])[0], (fields.get("state") or [""])[0]
        cookie_name = self.hub.state_cookie(state) if state else ""
        if not code or not state or jar.get(cookie_name) != state:
            await self._refuse(scope, send, 403, "Login not finished", "This login does not match this browser's "
                               f"(it may be old): open <a href='{settings.prefix}'>the class's address</a> again.")
            return
        loop = asyncio.get_running_loop()
        try:
            sid, next_url, user = await loop.run_in_executor(None, self.hub.finish, code, state)
        except PermissionError as exc:
            logout = _html_escape(self.hub.logout_url)
            await self._refuse(scope, send, 403, "Not for this class", _html_escape(str(exc)) + ". "
                               f"<a href='{logout}'>Log out of the hub</a>")
            return
        if user.is_teacher:
            try:
                teacher = await loop.run_in_executor(None, self.rooms.open_session, self.rooms.teacher_token)
            except RoomError:  # the class ended: the teacher's page says so
                teacher = None
            if teacher is not None:
                self.hub.set_teacher_session(sid, teacher)
        headers = [(b"location", next_url.encode("latin-1", "replace")), (b"cache-control", b"no-store"),
                   *_SECURITY_HEADERS,
                   (b"set-cookie", f"{HUB_SESSION_COOKIE}={sid}; HttpOnly; SameSite=Lax; Path={settings.prefix}; "
                    f"Max-Age={HUB_SESSION_HOURS * 3600}{_secure(scope)}".encode("latin-1")),
                   (b"set-cookie", f"{cookie_name}=; HttpOnly; SameSite=Lax; Path={settings.prefix}; Max-Age=0"
                    .encode("latin-1"))]
        await send({"type": "http.response.start", "status": 302, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    async def _refuse(self, scope: dict[str, Any], send: Any, status: int, title: str, text_html: str) -> None:
        """A small page of our own saying why (``text_html``: our words; names in it escaped by the caller)."""
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        body = _REFUSAL_PAGE.format(title=_html_escape(title), text=text_html).encode("utf-8")
        headers = [(b"content-type", b"text/html; charset=utf-8"), (b"cache-control", b"no-store"),
                   *_SECURITY_HEADERS]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body if scope.get("method") != "HEAD" else b""})

    async def _exchange(self, scope: dict[str, Any], send: Any) -> None:
        """``/teacher?token=...``: a session cookie for the right token, and the
        browser sent on to ``/teacher`` (the token leaves the address bar)."""
        raw = scope.get("query_string", b"")[:1024].decode("latin-1")
        token = (parse_qs(raw).get("token") or [""])[0]
        headers = [(b"location", b"/teacher"), (b"cache-control", b"no-store"), *_SECURITY_HEADERS]
        try:
            session = await asyncio.get_running_loop().run_in_executor(None, self.rooms.open_session, token)
        except RoomError:
            headers[0] = (b"location", b"/teacher?refused=1")
        else:
            cookie = (f"{TEACHER_COOKIE}={session}; HttpOnly; SameSite=Strict; Path=/; "
                      f"Max-Age={SESSION_HOURS * 3600}")
            headers.append((b"set-cookie", cookie.encode("latin-1")))
        await send({"type": "http.response.start", "status": 303, "headers": headers})
        await send({"type": "http.response.body", "body": b""})


    async def _keep_seat(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """``POST /seat`` (``room=CODE&seat=TOKEN``, from the seat's own page):
        the device keeps that seat in an HTTP-only cookie (204); a seat that is
        not one of that room's, another site's page or another method get no
        cookie (403)."""
        body, more = b"", True
        while more and len(body) <= 1024:
            message = await receive()
            if message.get("type") != "http.request":
                return
            body += message.get("body", b"")
            more = bool(message.get("more_body"))
        origin, host = _header(scope, b"origin"), _header(scope, b"host")
        fields = parse_qs(body[:1024].decode("latin-1"), max_num_fields=4)
        code, token = (fields.get("room") or [""])[0], (fields.get("seat") or [""])[0]
        headers = [(b"cache-control", b"no-store"), *_SECURITY_HEADERS]
        status = 403
        try:
            room = self.rooms.room(code) if code else None
        except RoomError:
            room = None
        if (scope.get("method") == "POST" and not more and room is not None and token in room.seats
                and (not origin or (host and urlsplit(origin).netloc.lower() == host.lower()))):
            status = 204
            cookie = (f"{SEAT_COOKIE}{room.code}={token}; HttpOnly; SameSite=Lax; Path=/; "
                      f"Max-Age={SEAT_HOURS * 3600}")
            headers.append((b"set-cookie", cookie.encode("latin-1")))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    async def _forget_seat(self, scope: dict[str, Any], send: Any) -> None:
        """``/seat/forget?room=CODE``: this device lets its seat in that room go
        (the cookie is cleared), and opens the room's join form."""
        raw = scope.get("query_string", b"")[:256].decode("latin-1")
        code = "".join(ch for ch in (parse_qs(raw).get("room") or [""])[0].upper() if ch.isalnum())[:12]
        headers = [(b"location", f"/?room={code}".encode("latin-1") if code else b"/"),
                   (b"cache-control", b"no-store"), *_SECURITY_HEADERS]
        if code:
            headers.append((b"set-cookie", f"{SEAT_COOKIE}{code}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0"
                            .encode("latin-1")))
        await send({"type": "http.response.start", "status": 303, "headers": headers})
        await send({"type": "http.response.body", "body": b""})


# -- agents ------------------------------------------------------------------------------------
class AgentRunner(threading.Thread):
    """A daemon thread that finds where room agents are to move (woken by every
    change, and every ``interval`` seconds at the latest), and lets each game's
    agent choose in a thread of its own: agents of different games never wait
    for each other, and at most one move a game is chosen at once
    (:data:`MAX_AGENT_THREADS` in all). Stops at :meth:`stop`."""

    def __init__(self, rooms: Rooms, interval: float = AGENT_INTERVAL) -> None:
        super().__init__(name="gridwidgets-room-agents", daemon=True)
        self.rooms, self.interval = rooms, interval
        self._stop_event = threading.Event()
        self._wake = threading.Event()
        self._busy: set[int] = set()
        self._busy_lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(MAX_AGENT_THREADS)
        rooms.set_on_change(self._wake.set)

    def wake(self) -> None:
        """Look for agent moves now."""
        self._wake.set()

    def run(self) -> None:
        while not self._stop_event.is_set():
            self._wake.wait(self.interval)
            self._wake.clear()
            if self._stop_event.is_set():
                return
            for room in self.rooms.rooms():
                try:
                    turns = room.agent_turns()
                except Exception as exc:  # one room's failure must not stop the others
                    print(f"room {room.code}: the agent failed: {type(exc).__name__}: {exc}", file=sys.stderr)
                    continue
                for rg, player, view, version in turns:
                    with self._busy_lock:
                        if rg.id in self._busy:
                            continue
                        if not self._slots.acquire(blocking=False):
                            break
                        self._busy.add(rg.id)
                    threading.Thread(target=self._move, args=(room, rg, player, view, version),
                                     name=f"gridwidgets-agent-{rg.id}", daemon=True).start()

    def _move(self, room: Room, rg: Any, player: int, view: Any, version: int) -> None:
        try:
            move = rg.agent.choose(view)
            if not self._stop_event.is_set():
                room.agent_play(rg, player, version, move)
        except Exception as exc:  # an agent's failure must not stop the others
            print(f"room {room.code}: the agent failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        finally:
            with self._busy_lock:
                self._busy.discard(rg.id)
            self._slots.release()
            self._wake.set()  # the game may need the agent again (more agents than one in it)

    def idle(self) -> bool:
        """Whether no agent move is being chosen now."""
        with self._busy_lock:
            return not self._busy

    def stop(self) -> None:
        """Stop after the current sweep (a move being chosen is not played)."""
        self._stop_event.set()
        self._wake.set()


# -- making and running the server ---------------------------------------------------------------
def _need_solara() -> None:
    try:
        import solara  # noqa: F401
    except ImportError:
        raise ImportError("the rooms server needs Solara: pip install 'gridwidgets[rooms]'") from None


def make_server(rooms: Rooms, host: str = "127.0.0.1", port: int = 8765, *, agents: bool = True,
                theme: str = "light", students: str | None = None, hub: Any = None) -> Any:
    """A uvicorn server of the rooms' pages over ``rooms`` (not yet running:
    call its ``run()``, in the main thread or another), with the room agents'
    thread started if ``agents``; ``theme`` ``"light"`` or ``"dark"`` (the
    pages' colours; the boards follow); ``students`` the address students open
    (default: :func:`student_url` of ``host`` and ``port``); ``hub`` a
    :class:`~gridwidgets.rooms.hub.HubLogin`: the server is a JupyterHub
    service (its pages under the service's prefix, each behind the hub's
    login; the students' address the hub's, :attr:`~gridwidgets.rooms.hub.HubSettings.public_url`).

    Returns:
        the ``uvicorn.Server``; its attribute ``agent_runner`` is the
        :class:`AgentRunner` (or ``None``).

    Raises:
        ImportError: without the ``rooms`` extra.
        ValueError: a theme other than light or dark.
    """
    global _ROOMS, _STUDENTS_ADDRESS, _ROOT, _HUB
    if theme not in ("light", "dark"):
        raise ValueError(f"theme must be light or dark, got {str(theme)[:20]!r}")
    _ROOMS = rooms
    _HUB, _ROOT = hub, (hub.settings.root if hub is not None else "")
    _STUDENTS_ADDRESS = students or (hub.settings.public_url if hub is not None else student_url(host, port))
    os.environ["SOLARA_APP"] = "gridwidgets.rooms.app"
    os.environ["SERVER_NAME"], os.environ["SERVER_PORT"] = host, str(port)
    _need_solara()
    import uvicorn
    from solara.server import settings

    # the settings are read from the environment when Solara is imported: set them here
    settings.main.mode = "production"
    settings.telemetry.mixpanel_enable = False
    settings.theme.show_banner = False
    settings.theme.variant = settings.ThemeVariant(theme)
    settings.theme.force_refresh = True  # a page Solara cannot restore reloads by itself
    settings.kernel.cull_timeout = CULL_TIMEOUT
    settings.main.root_path = _ROOT or None  # under a hub, the service's prefix (else Solara takes ASGI's)
    _install_bounded()
    from solara.server.starlette import app as solara_app

    from .names import skeleton

    skeleton("")  # Unicode's confusables table, read now rather than at the first join

    config = uvicorn.Config(RoomsApp(solara_app, rooms, hub), host=host, port=port, log_level="warning",
                            ws_ping_interval=PING_INTERVAL, ws_ping_timeout=PING_TIMEOUT, lifespan="on")
    server = uvicorn.Server(config)
    runner = AgentRunner(rooms) if agents else None
    if runner is not None:
        runner.start()
    server.agent_runner = runner  # type: ignore[attr-defined]
    return server


def lan_address() -> str:
    """This computer's address on its local network (the one the default route
    leaves by; no packet is sent), for ``--lan``.

    Raises:
        OSError: when this computer is on no network (only loopback).
    """
    candidates = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: picks the outgoing interface, sends nothing
        candidates.append(s.getsockname()[0])
    with contextlib.suppress(OSError):
        candidates += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    for address in candidates:
        ip = ipaddress.ip_address(address)
        if not ip.is_loopback and not ip.is_unspecified and not ip.is_link_local:
            return str(address)
    raise OSError("this computer has no address on a network (only 127.0.0.1): connect it to the class's Wi-Fi "
                  "or turn on a hotspot, then start again")


def _shown_host(host: str) -> str:
    if host in ("0.0.0.0", "::", ""):
        try:
            return lan_address()
        except OSError:
            return socket.gethostname()
    return f"[{host}]" if ":" in host else host


def student_url(host: str, port: int) -> str:
    """The address students open (they type the room code there)."""
    return f"http://{_shown_host(host)}:{port}/"


def teacher_url(host: str, port: int, token: str) -> str:
    """The teacher's address, with the teacher token (keep it to yourself: it is
    exchanged for a cookie when opened, and leaves the address bar)."""
    return f"http://{_shown_host(host)}:{port}/teacher?token={token}"


def _banner(text: str) -> str:
    line = "=" * (len(text) + 8)
    return f"{line}\n    {text}\n{line}"


def _qr_text(url: str) -> str:
    try:
        import segno
    except ImportError:  # the rooms extra has it; without it, the address alone
        return ""
    import io

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def open_rooms(db: str | os.PathLike[str], *, reopen: bool = False, new_token: bool = False) -> Rooms:
    """The class in database ``db``, for serving: checked, migrated, restored.

    Raises:
        StoreError: ``db`` is no class's database, is damaged, holds a class
            that ended (unless ``reopen``), ... (one line naming the file and what to do).
    """
    store = Store(db)
    try:
        rooms = Rooms(store)
        ended = rooms.ended
        if ended is not None and not reopen:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(ended))
            raise StoreError(f"{Path(str(db)).resolve()} holds a class that ended on {when} (its games and results "
                             "stay in it): for a new lesson pass another --db; to open this class again add --reopen")
        if ended is not None:
            rooms.reopen()
        elif new_token:
            rooms.new_teacher_token()
        return rooms
    except BaseException:
        store.close()
        raise


def serve_rooms(
    db: str | os.PathLike[str] = DEFAULT_DB,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    game: str | None = None,
    board: str | None = None,
    pairing: str = "arrival",
    agent: str = "random",
    open_browser: bool = False,
    theme: str = "light",
    lan: bool = False,
    new_teacher_token: bool = False,
    reopen: bool = False,
    hub: Any = None,
    roster: str | os.PathLike[str] | None = None,
) -> int:
    """Serve the rooms until Ctrl-C (or SIGTERM): print the students' address
    (large, with a QR code), the teacher's address (with the teacher token)
    and the room codes. With no room in the database yet, or with ``game``
    given, a room is opened first (``game`` default: the first of the menu) —
    unless the database has an open room with exactly these choices, which is
    reopened. The database is checkpointed at start and at stop.

    Args:
        lan: serve on this computer's address on its local network (``host`` ignored).
        new_teacher_token: issue a new teacher token (the old one stops working).
        reopen: serve a class that was ended (its rooms open again, a new teacher token).
        hub: a :class:`~gridwidgets.rooms.hub.HubSettings`: serve as a JupyterHub
            service (``host``, ``port`` and ``lan`` ignored: the service's address
            is the hub's; no teacher token printed: the teacher is a hub user).

        roster: a class list's CSV file to load first (:meth:`Rooms.import_roster
            <gridwidgets.rooms.model.Rooms.import_roster>`), replacing the database's.

    Raises:
        ImportError: without the ``rooms`` extra (or, with ``hub``, the ``hub`` extra).
        ValueError: an unknown game, board, pairing or agent, a database
            that cannot hold this class (:class:`~gridwidgets.rooms.store.StoreError`),
            or a class list that cannot be read (its row named; nothing loaded).
        OSError: ``lan`` on a computer with no network.
    """
    _need_solara()
    if pairing not in PAIRINGS:
        raise ValueError(f"pairing must be one of {', '.join(PAIRINGS)}")
    login = None
    if hub is not None:
        from .hub import HubLogin

        login = HubLogin(hub)
        host, port, lan, open_browser = hub.host, hub.port, False, False
    if lan:
        host = lan_address()
    rooms = open_rooms(db, reopen=reopen, new_token=new_teacher_token)
    try:
        if roster is not None:
            try:
                read = rooms.import_roster(Path(roster))
            except ValueError as exc:
                raise ValueError(f"{str(roster)[-60:]}: {exc}") from None
            print(f"Class list loaded from {roster}: {read.summary()}", flush=True)
        elif hub is not None:  # the class list: the hub's students (who has come, who has not)
            from .hub import load_hub_roster

            def read_the_hubs_users() -> None:
                # a managed service starts while the hub does: its API may answer a few seconds later
                deadline = time.monotonic() + HUB_ROSTER_WAIT
                while True:
                    try:
                        print(f"Class list: {load_hub_roster(rooms, hub)}", flush=True)
                        return
                    except OSError as exc:
                        if time.monotonic() < deadline and not isinstance(exc, PermissionError):
                            time.sleep(1.0)
                            continue
                        problem: Exception = exc
                    except (LookupError, ValueError) as exc:
                        problem = exc
                    print(f"NOTE: no class list from the hub ({str(problem)[:200]}); any hub user may join "
                          "(the teacher's page can read the hub's users again)", file=sys.stderr, flush=True)
                    return

            threading.Thread(target=read_the_hubs_users, name="gw-hub-roster", daemon=True).start()
        if game is not None or not rooms.rooms():
            from ..menu import games_menu

            name = game or next(iter(games_menu()))
            found = rooms.find(name, board, pairing=pairing, agent=agent)
            if found is None:
                rooms.create(name, board, pairing=pairing, agent=agent, teacher_token=rooms.teacher_token)
        server = make_server(rooms, host, port, theme=theme, hub=login)
    except BaseException:
        rooms.store.close()
        raise
    if hub is not None:
        announce_hub(rooms, db, hub)
    else:
        announce(rooms, db, host, port)
    if open_browser:
        import webbrowser

        threading.Timer(1.5, webbrowser.open, args=(teacher_url(host, port, rooms.teacher_token),)).start()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        if server.agent_runner is not None:
            server.agent_runner.stop()
        rooms.store.close()
    return 0


def announce(rooms: Rooms, db: str | os.PathLike[str], host: str, port: int, out: Any = None,
             err: Any = None) -> None:
    """Print what the class needs (:func:`serve_rooms` does at start): where the
    class is saved, the students' address, the teacher's address, the rooms;
    served beyond this computer, the students' address large with a QR code,
    and a warning; served to this computer only, a note saying so.

    Args:
        out, err: where to print (default ``sys.stdout``, ``sys.stderr``).
    """
    out, err = out or sys.stdout, err or sys.stderr
    local = ipaddress.ip_address(host).is_loopback if _is_ip(host) else host == "localhost"
    students = student_url(host, port)
    print(f"Classroom rooms, saved in {Path(str(db)).resolve()}", file=out, flush=True)
    print(f"  students open:  {students}", file=out, flush=True)
    print(f"  the teacher:    {teacher_url(host, port, rooms.teacher_token)}", file=out, flush=True)
    for room in rooms.rooms():
        state = " (closed)" if room.closed else ""
        print(f"  room {room.code}: {room.game_name}, {room.board}, pairing {room.pairing}{state}", file=out,
              flush=True)
    if local:
        print(f"NOTE: serving on {host} only: no other device can open these pages. For a class on its own "
              "devices, start with --lan (docs/classroom.md, Before class).", file=err, flush=True)
        return
    print("\n" + _banner(f"Students open  {students}") + "\n", file=out, flush=True)
    qr = _qr_text(students)
    if qr:
        print(qr, file=out, flush=True)
    print(f"WARNING: serving on {host}: anyone who can reach this computer on port {port} can open the "
          "students' page and join a room with its code; keep the teacher's address to yourself. "
          "Use this on a class network you trust, not on the internet.", file=err, flush=True)


def announce_hub(rooms: Rooms, db: str | os.PathLike[str], hub: Any, out: Any = None) -> None:
    """What :func:`serve_rooms` prints at start as a JupyterHub service (``hub``
    a :class:`~gridwidgets.rooms.hub.HubSettings`): where the class is saved,
    the service's addresses (no token: the hub logs everyone in) and the rooms."""
    out = out or sys.stdout
    print(f"Classroom rooms (a JupyterHub service), saved in {Path(str(db)).resolve()}", file=out, flush=True)
    print(f"  listening on:   {hub.service_url}", file=out, flush=True)
    print(f"  students open:  {hub.public_url}  (logged in by the hub)", file=out, flush=True)
    print(f"  the teacher:    {hub.prefix}teacher  (hub group {hub.teacher_group!r} or a hub admin)", file=out,
          flush=True)
    if hub.students_group:
        print(f"  students:       members of the hub group {hub.students_group!r}", file=out, flush=True)
    for room in rooms.rooms():
        state = " (closed)" if room.closed else ""
        print(f"  room {room.code}: {room.game_name}, {room.board}, pairing {room.pairing}{state}", file=out,
              flush=True)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
