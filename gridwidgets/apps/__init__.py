"""Notebooks served as standalone pages, and the commands that serve them.

``python -m gridwidgets classroom`` runs Voila on :data:`CLASSROOM_NOTEBOOK`
(``Classroom()`` from :mod:`gridwidgets.classroom`), bound to 127.0.0.1 by
default, with the code cells stripped from the page and a token in the
link (``docs/classroom.md``). Voila is an optional dependency
(``pip install gridwidgets[classroom]``), imported only when serving.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

__all__ = [
    "CLASSROOM_NOTEBOOK",
    "CULL_AFTER",
    "DEFAULT_IP",
    "DEFAULT_PORT",
    "INSTALL_HINT",
    "PAGE_EXTENSIONS",
    "THEMES",
    "classroom_url",
    "pick_port",
    "serve_classroom",
    "voila_argv",
]

#: the notebook the classroom command serves (inside the package, so an installed wheel has it)
CLASSROOM_NOTEBOOK = Path(__file__).resolve().parent / "classroom.ipynb"
#: Voila's own default port, tried first
DEFAULT_PORT = 8866
#: the address served on unless asked otherwise: this machine only
DEFAULT_IP = "127.0.0.1"
#: the JupyterLab extensions the page loads: the widget managers and anywidget.
#: Others installed for JupyterLab (jupytext, notebook's) are built for a newer
#: JupyterLab than Voila 0.5's page and fail there, so they are left out.
PAGE_EXTENSIONS = (
    "@jupyter-widgets/jupyterlab-manager",
    "@voila-dashboards/widgets-manager8",
    "@voila-dashboards/widgets-manager7",
    "anywidget",
)
#: seconds before the kernel of a closed page is shut down. Voila 0.5 asks for
#: that when a tab closes, but the request is refused ("'_xsrf' argument
#: missing from POST", voila-dashboards/voila#1458), so without culling every
#: page ever opened keeps its kernel until the server stops. Only kernels with
#: no page connected are culled (``cull_connected`` stays off): an open page
#: keeps its game however long the class thinks.
CULL_AFTER = 900
#: what to do when Voila is missing
INSTALL_HINT = (
    "The classroom app needs Voila, which is not installed here.\n"
    "Install it with:  pip install 'gridwidgets[classroom]'   (or: pip install voila)"
)


#: the page themes (Voila's ``--theme``: JupyterLab Light or Dark)
THEMES = ("light", "dark")


def voila_argv(
    notebook: str | os.PathLike[str],
    port: int,
    ip: str = DEFAULT_IP,
    token: str = "",
    cull_after: int = CULL_AFTER,
    theme: str = "light",
) -> list[str]:
    """The arguments of ``voila`` that serve ``notebook`` as a page with no code.

    Args:
        notebook: path of the ``.ipynb`` file.
        port: TCP port; Voila tries no other (``port_retries=0``), so the
            printed link is right.
        ip: the address to bind (``"127.0.0.1"``: this machine only).
        token: the token the page's link must carry ("" for none).
        cull_after: seconds after which the kernel of a page nobody is
            connected to any more (a closed tab) is shut down; 0 never.
        theme: ``"light"`` or ``"dark"``: JupyterLab's theme of that name
            for the page (the boards follow it).

    Returns:
        ``[notebook, "--no-browser", "--strip_sources=True", ...]``, for
        ``voila`` on a command line or ``Voila.launch_instance(argv=...)``.
        Only the extensions in :data:`PAGE_EXTENSIONS` are loaded.
        The browser is never opened by Voila itself (its link would lack the
        token): :func:`serve_classroom` opens it.
    """
    if theme not in THEMES:
        raise ValueError(f"theme must be one of {', '.join(THEMES)}, not {theme!r}")
    return [
        str(notebook),
        "--no-browser",
        f"--theme={theme}",
        "--strip_sources=True",
        f"--Voila.ip={ip}",
        f"--port={int(port)}",
        "--Voila.port_retries=0",
        f"--Voila.token={token}",
        "--show_tracebacks=False",
        *(f"--VoilaConfiguration.extension_allowlist={name}" for name in PAGE_EXTENSIONS),
        f"--MappingKernelManager.cull_idle_timeout={int(cull_after)}",
        f"--MappingKernelManager.cull_interval={max(1, min(60, int(cull_after) // 2)) if cull_after else 300}",
    ]


def _is_wildcard(ip: str) -> bool:
    return ip in ("", "0.0.0.0", "::")


def _is_loopback(ip: str) -> bool:
    if ip == "localhost":
        return True
    try:
        return ipaddress.ip_address(ip).is_loopback
    except ValueError:
        return False


def classroom_url(ip: str, port: int, token: str = "") -> str:
    """The link to open: ``http://127.0.0.1:8866/?token=...``.

    For a wildcard address (``0.0.0.0``, ``::``) it names this machine by
    its host name, as Voila does.
    """
    host = socket.gethostname() if _is_wildcard(ip) else ip
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    return f"http://{host}:{int(port)}/" + (f"?token={token}" if token else "")


def _port_free(ip: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in ip else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((ip, port))
        except OSError:
            return False
    return True


def pick_port(ip: str = DEFAULT_IP, port: int | None = None) -> int:
    """The port to serve on: ``port`` if given (0: any free one), else
    :data:`DEFAULT_PORT` when it is free on ``ip``, else any free port.

    Raises:
        OSError: if ``port`` is given and already in use on ``ip``.
    """
    if port is None:
        if _port_free(ip, DEFAULT_PORT):
            return DEFAULT_PORT
        port = 0
    if port == 0:
        family = socket.AF_INET6 if ":" in ip else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.bind((ip, 0))
            return int(s.getsockname()[1])
    if not _port_free(ip, port):
        raise OSError(f"port {port} is already in use on {ip or 'every address'}: choose another with --port")
    return port


def _open_when_up(url: str, ip: str, port: int, timeout: float = 60.0) -> None:
    """Open ``url`` in the web browser once the port answers (in a daemon thread)."""

    def wait_and_open() -> None:
        host = "127.0.0.1" if _is_wildcard(ip) else ip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((host, port), timeout=1):
                    break
            except OSError:
                time.sleep(0.2)  # polling interval of an explicit condition (the port answers)
        else:
            return
        webbrowser.open(url)

    threading.Thread(target=wait_and_open, name="gridwidgets-open-browser", daemon=True).start()


def _launch_voila(argv: Sequence[str]) -> None:  # pragma: no cover - runs a server until stopped
    from voila.app import Voila

    Voila.launch_instance(argv=list(argv))


def serve_classroom(
    port: int | None = None,
    ip: str = DEFAULT_IP,
    open_browser: bool = True,
    token: str | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    launch: Callable[[Sequence[str]], None] | None = None,
    theme: str = "light",
) -> int:
    """Serve the classroom page with Voila until Ctrl-C (or SIGTERM); return the exit status.

    Args:
        port: the port (default: 8866 if free, else any free one; 0: any free one).
        ip: the address to bind. ``"127.0.0.1"`` (the default) serves this
            machine only. Another address (``"0.0.0.0"``: every network
            interface) lets others on the network open the page, each page
            running Python on this machine: see ``docs/classroom.md``.
        open_browser: open the page in the default web browser once it is up.
        token: the token the link carries (default: ``$JUPYTER_TOKEN`` if
            set, else a new random one).
        out, err: where to print the link and the errors (``sys.stdout``, ``sys.stderr``).
        launch: runs Voila with the given arguments (default: Voila in this
            process; tests replace it).
        theme: ``"light"`` (default) or ``"dark"``, see :data:`THEMES`.

    Returns:
        0 after the server stopped; 1 if Voila is missing (the message says
        how to install it) or the port is taken.
    """
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    if launch is None:
        try:
            import voila.app  # noqa: F401  (lazy: an optional dependency)
        except ImportError:
            print(INSTALL_HINT, file=err)
            return 1
        launch = _launch_voila
    if not CLASSROOM_NOTEBOOK.is_file():
        print(f"The classroom notebook is missing: {CLASSROOM_NOTEBOOK}", file=err)
        return 1
    try:
        port = pick_port(ip, port)
    except OSError as exc:
        print(f"Cannot serve the classroom: {exc}", file=err)
        return 1
    token = token or os.environ.get("JUPYTER_TOKEN") or secrets.token_urlsafe(18)
    url = classroom_url(ip, port, token)
    if not _is_loopback(ip):
        print(f"Warning: serving on {ip or 'every address'}, not only this machine. Anyone who can reach port "
              f"{port} here and has the link (its token) can open the page, and every page runs Python on this "
              "machine as you. Use it on a network you trust, and stop the server after class.", file=err)
    print(f"The classroom is at {url}", file=out)
    print("Every page opened is its own game (its own Python kernel). Press Ctrl-C to stop.", file=out, flush=True)
    if open_browser:
        _open_when_up(url, ip, port)
    try:
        launch(voila_argv(CLASSROOM_NOTEBOOK, port, ip, token, theme=theme))
    except KeyboardInterrupt:
        pass
    return 0
