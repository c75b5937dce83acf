"""The rooms' server: one Python process (Solara on uvicorn) serving the
students' pages and the teacher's page over one :class:`~gridwidgets.rooms.Rooms`,
so every game of a room is one shared object; the room agents move from a
thread of their own. ``python -m gridwidgets classroom --rooms`` runs
:func:`serve_rooms`; :func:`make_server` builds the server for a program that
runs it itself (the load benchmark, the tests).

Needs the ``rooms`` extra: ``pip install 'gridwidgets[rooms]'`` (Solara).
"""

from __future__ import annotations

import os
import socket
import sys
import threading
from pathlib import Path
from typing import Any

from .model import PAIRINGS, Rooms
from .store import Store

__all__ = ["AgentRunner", "current_rooms", "make_server", "serve_rooms", "student_url", "teacher_url"]

#: the rooms every page of this process serves (set by :func:`make_server`)
_ROOMS: Rooms | None = None
#: the default database file, in the directory the server starts in
DEFAULT_DB = "gridwidgets-rooms.sqlite"
#: seconds between two sweeps of the room agents
AGENT_INTERVAL = 0.4


def current_rooms() -> Rooms:
    """The rooms this process serves (the pages read them here).

    Raises:
        RuntimeError: when no server was made in this process.
    """
    if _ROOMS is None:
        raise RuntimeError("no rooms server in this process: start one with python -m gridwidgets classroom --rooms")
    return _ROOMS


class AgentRunner(threading.Thread):
    """A daemon thread: every ``interval`` seconds, each room's agent plays
    where it is to move (:meth:`~gridwidgets.rooms.Room.step_agents`), until
    :meth:`stop`."""

    def __init__(self, rooms: Rooms, interval: float = AGENT_INTERVAL) -> None:
        super().__init__(name="gridwidgets-room-agents", daemon=True)
        self.rooms, self.interval = rooms, interval
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.wait(self.interval):
            for room in self.rooms.rooms():
                try:
                    room.step_agents()
                except Exception as exc:  # an agent's failure must not stop the others
                    print(f"room {room.code}: the agent failed: {type(exc).__name__}: {exc}", file=sys.stderr)

    def stop(self) -> None:
        """Stop after the current sweep."""
        self._stop_event.set()


def _need_solara() -> None:
    try:
        import solara  # noqa: F401
    except ImportError:
        raise ImportError("the rooms server needs Solara: pip install 'gridwidgets[rooms]'") from None


def make_server(rooms: Rooms, host: str = "127.0.0.1", port: int = 8765, *, agents: bool = True,
                theme: str = "light") -> Any:
    """A uvicorn server of the rooms' pages over ``rooms`` (not yet running:
    call its ``run()``, in the main thread or another), with the room agents'
    thread started if ``agents``; ``theme`` ``"light"`` or ``"dark"`` (the
    pages' colours; the boards follow).

    Returns:
        the ``uvicorn.Server``; its attribute ``agent_runner`` is the
        :class:`AgentRunner` (or ``None``).

    Raises:
        ImportError: without the ``rooms`` extra.
    """
    global _ROOMS
    if theme not in ("light", "dark"):
        raise ValueError(f"theme must be light or dark, got {str(theme)[:20]!r}")
    _ROOMS = rooms
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

    config = uvicorn.Config("solara.server.starlette:app", host=host, port=port, log_level="warning",
                            ws_ping_interval=20, ws_ping_timeout=60)
    server = uvicorn.Server(config)
    runner = AgentRunner(rooms) if agents else None
    if runner is not None:
        runner.start()
    server.agent_runner = runner  # type: ignore[attr-defined]
    return server


def _shown_host(host: str) -> str:
    if host in ("0.0.0.0", "::", ""):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
                return str(s.getsockname()[0])
        except OSError:
            return socket.gethostname()
    return f"[{host}]" if ":" in host else host


def student_url(host: str, port: int) -> str:
    """The address students open (they type the room code there)."""
    return f"http://{_shown_host(host)}:{port}/"


def teacher_url(host: str, port: int, token: str) -> str:
    """The teacher's address, with the teacher token (keep it to yourself)."""
    return f"http://{_shown_host(host)}:{port}/teacher?token={token}"


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
) -> int:
    """Serve the rooms until Ctrl-C: print the students' address, the teacher's
    address (with the teacher token) and the room codes. With no room in the
    database yet, or with ``game`` given, a room is opened first (``game``
    default: the first of the menu).

    Raises:
        ImportError: without the ``rooms`` extra.
        ValueError: an unknown game, board, pairing or agent.
    """
    _need_solara()
    if pairing not in PAIRINGS:
        raise ValueError(f"pairing must be one of {', '.join(PAIRINGS)}")
    rooms = Rooms(Store(db))
    if game is not None or not rooms.rooms():
        from ..classroom import games_menu

        rooms.create(game or next(iter(games_menu())), board, pairing=pairing, agent=agent,
                     teacher_token=rooms.teacher_token)
    server = make_server(rooms, host, port, theme=theme)
    local = host in ("127.0.0.1", "localhost", "::1")
    print(f"Classroom rooms, saved in {Path(str(db)).resolve()}", flush=True)
    print(f"  students open:  {student_url(host, port)}", flush=True)
    print(f"  the teacher:    {teacher_url(host, port, rooms.teacher_token)}", flush=True)
    for room in rooms.rooms():
        print(f"  room {room.code}: {room.game_name}, {room.board}, pairing {room.pairing}", flush=True)
    if not local:
        print(f"WARNING: serving on {host}: anyone who can reach this machine on port {port} can open the "
              "students' page and join a room with its code; keep the teacher's address to yourself. "
              "Use this on a class network you trust, not on the internet.", file=sys.stderr, flush=True)
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
