"""The rooms' server (``python -m gridwidgets classroom --rooms``) as a child
process on 127.0.0.1 and a free port, with its SQLite file in a temporary
folder, for the browser tests and the load benchmark (import it by path).

Started and stopped by PID (SIGTERM, or SIGKILL for the restart test);
``teacher_url`` and ``codes`` are read from what the server prints.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from lab_harness import REPO_ROOT, free_port, read_log, stop_process


class RoomsServer:
    """One rooms server: ``RoomsServer(db, game="gridlock").start()``."""

    def __init__(self, db: Path, *, game: str | None = None, board: str | None = None,
                 pairing: str = "arrival", agent: str = "random", port: int | None = None) -> None:
        self.db = Path(db)
        self.log_path = self.db.with_suffix(".log")
        self.port = port or free_port()
        self.args = ["--db", str(self.db), "--port", str(self.port), "--no-browser", "--pairing", pairing,
                     "--agent", agent]
        if game:
            self.args += ["--game", game]
        if board:
            self.args += ["--board", board]
        self.proc: subprocess.Popen | None = None
        self.teacher_url = ""
        self.codes: list[str] = []

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0, args: list[str] | None = None) -> RoomsServer:
        """Start the server (``args`` instead of the first start's, e.g. no ``--game``
        on a restart) and wait until it answers and has printed its addresses."""
        log = open(self.log_path, "a")
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gridwidgets", "classroom", "--rooms", *(args if args is not None else self.args)],
            cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the rooms server ended ({self.proc.returncode}):\n{read_log(self.log_path)}")
            text = read_log(self.log_path)
            urls = re.findall(r"the teacher:\s+(\S+)", text)
            if urls:
                try:
                    with urllib.request.urlopen(self.base + "/", timeout=5) as r:
                        if r.status == 200:
                            self.teacher_url = urls[-1]
                            start = text.rfind("Classroom rooms")
                            self.codes = re.findall(r"room ([A-Z0-9]{5}):", text[start:])
                            return self
                except OSError:
                    pass
            time.sleep(0.3)
        self.stop()
        raise TimeoutError(f"the rooms server did not answer:\n{read_log(self.log_path)}")

    def kill(self) -> None:
        """SIGKILL the server (a power cut: nothing gets to clean up)."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None:
            stop_process(self.proc, timeout=10)

    def log(self) -> str:
        return read_log(self.log_path)

    def __enter__(self) -> RoomsServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def join(browser, server: RoomsServer, code: str, name: str, timeout: float = 30.0, before=None, touch=False,
         viewport=(1280, 720)):
    """A new browser context (a student's device) joining room ``code`` as ``name``;
    returns its page once it is seated (the seat token in its address).
    ``before(page)`` runs before the page opens (to listen to its traffic);
    ``touch``: a touch screen (``page.tap``); ``viewport``: its size (a phone: 390x844)."""
    ctx = browser.browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, has_touch=touch)
    ctx.set_default_timeout(timeout * 1000)
    page = ctx.new_page()
    if before is not None:
        before(page)
    page.goto(server.base + "/")
    page.locator(".gw-join-code input").fill(code)
    page.locator(".gw-join-name input").fill(name)
    page.locator(".gw-join").click()
    page.wait_for_function("location.search.includes('seat=')")
    page.locator(".gw-seat-name").wait_for()
    return page


class StoppableChromium:
    """A Chromium of its own (a student's laptop), driven over CDP, whose
    processes can be stopped and resumed by PID (SIGSTOP/SIGCONT: a laptop lid
    closed and opened). ``with StoppableChromium(playwright) as c: page = c.new_page()``."""

    def __init__(self, playwright, viewport=(1280, 720)) -> None:
        import tempfile

        self._pw = playwright
        self.viewport = viewport
        self.profile = Path(tempfile.mkdtemp(prefix="gw-stoppable-"))
        self.proc: subprocess.Popen | None = None
        self.browser = None
        self.stopped: list[int] = []

    def start(self, timeout: float = 30.0) -> StoppableChromium:
        self.proc = subprocess.Popen(
            ["/usr/bin/chromium", "--headless=new", "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
             "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"chromium ended ({self.proc.returncode})")
            text = port_file.read_text() if port_file.exists() else ""
            if text.strip():
                self.browser = self._pw.chromium.connect_over_cdp(f"http://127.0.0.1:{text.split()[0]}")
                return self
            time.sleep(0.1)
        self.close()
        raise TimeoutError("chromium did not open its debugging port")

    def new_page(self):
        ctx = self.browser.new_context(viewport={"width": self.viewport[0], "height": self.viewport[1]})
        ctx.set_default_timeout(30_000)
        return ctx.new_page()

    def pids(self) -> list[int]:
        """The browser's process and every process it started (renderers, the network service, ...)."""
        import psutil

        root = psutil.Process(self.proc.pid)
        return [root.pid] + [p.pid for p in root.children(recursive=True)]

    def stop(self) -> None:
        """SIGSTOP every process of this browser, by PID: it reads and answers nothing."""
        self.stopped = self.pids()
        for pid in self.stopped:
            os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT the processes :meth:`stop` stopped."""
        for pid in self.stopped:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self.stopped = []

    def close(self) -> None:
        self.resume()
        if self.browser is not None:
            try:
                self.browser.close()
            except Exception:
                pass
        if self.proc is not None:
            stop_process(self.proc, timeout=10)
        import shutil

        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> StoppableChromium:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()
