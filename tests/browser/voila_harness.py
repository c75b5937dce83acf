"""The classroom command (Voila) as a child process, and its page in Chromium.

Shaped like ``lab_harness.py`` (see ``/work/shared/TESTING.md``):

* ``python -m gridwidgets classroom --port N --no-browser`` runs as a child
  process in its own session, on 127.0.0.1 and a free port, with the token
  in ``JUPYTER_TOKEN`` and every Jupyter config/data/runtime folder and
  ``IPYTHONDIR`` in a temporary directory. Readiness is the port answering
  (a GET of the page would start a kernel).
* Every page opened gets its own kernel (Voila runs the notebook per page).
* Shutdown is SIGTERM to the command (Voila then shuts its kernels down), a
  wait on its PID, then the leftover processes it started are ended by their
  own PIDs (kernels run in their own sessions).

Typical use::

    with VoilaClassroom() as server, Browser() as browser:
        page = ClassroomPage.open(browser, server)
        page.pick_game("GridBloc")
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from lab_harness import (
    REPO_ROOT,
    TIMEOUT,
    _end_processes,
    descendants,
    free_port,
    jupyter_env,
    read_log,
    stop_process,
)

__all__ = ["ClassroomPage", "VoilaClassroom"]


class VoilaClassroom:
    """``python -m gridwidgets classroom`` on 127.0.0.1 and a free port, with a token."""

    def __init__(self, *, startup_timeout: float = 60.0, extra_args: list[str] | None = None):
        self.startup_timeout = startup_timeout
        self.extra_args = list(extra_args or [])
        self.port = free_port()
        self.token = uuid.uuid4().hex
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self._tmp: tempfile.TemporaryDirectory | None = None
        self._log = None
        self.log_path: Path | None = None
        self.started_in: float | None = None

    @property
    def url(self) -> str:
        """The page's link, token included."""
        return f"{self.base_url}/?token={self.token}"

    def start(self) -> VoilaClassroom:
        t0 = time.monotonic()
        self._tmp = tempfile.TemporaryDirectory(prefix="gw-voila-")
        tmp = Path(self._tmp.name)
        env, dirs = jupyter_env(tmp, self.token, "cwd")
        env.update(
            PYTHONPATH=os.pathsep.join([str(REPO_ROOT), *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])]),
            TMPDIR=str(tmp),  # Voila's connection files
        )
        cmd = [sys.executable, "-m", "gridwidgets", "classroom", "--port", str(self.port), "--no-browser",
               *self.extra_args]
        self.log_path = tmp / "voila.log"
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            cmd,
            cwd=str(dirs["cwd"]),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + self.startup_timeout
        while True:
            if self.proc.poll() is not None:
                log = self.log()
                self.stop()
                raise RuntimeError(f"the classroom command exited with {self.proc and self.proc.returncode}:\n{log}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                log = self.log()
                self.stop()
                raise TimeoutError(f"Voila did not answer in {self.startup_timeout}s:\n{log}")
            time.sleep(0.1)  # polling interval of an explicit condition (the port answers)
        self.started_in = time.monotonic() - t0
        return self

    def log(self) -> str:
        return read_log(self.log_path)

    def kernels(self) -> list:
        """The kernel processes running now (psutil), children of the command."""
        return [p for p in descendants(self.proc) if "ipykernel" in " ".join(_cmdline(p))]

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM the command (Voila shuts its kernels down), then end leftovers by PID."""
        if self.proc is None:
            return
        children = descendants(self.proc)  # kernels live in their own sessions: remember them now
        stop_process(self.proc, timeout)
        self.leftovers = [p for p in children if p.is_running()]
        _end_processes(children)
        if self._log:
            self._log.close()
            self._log = None
        self.final_log = self.log()
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
        self.proc = None

    def __enter__(self) -> VoilaClassroom:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def _cmdline(p) -> list[str]:
    try:
        return p.cmdline()
    except Exception:
        return []


class ClassroomPage:
    """The classroom page in its own browser context (so its own kernel)."""

    #: the board inside the classroom
    BOARD = ".gw-classroom [data-game]"

    def __init__(self, page, timeout: float = TIMEOUT):
        self.page = page
        self.timeout = timeout

    @classmethod
    def open(cls, browser, server: VoilaClassroom, timeout: float = TIMEOUT) -> ClassroomPage:
        """Open the page and wait until the board is drawn (the notebook has run)."""
        page = browser.new_page()
        self = cls(page, timeout)
        page.goto(server.url, wait_until="domcontentloaded")
        self.wait_board()
        return self

    @property
    def ms(self) -> int:
        return int(self.timeout * 1000)

    def wait_for(self, js_predicate: str, arg: Any = None, timeout: float | None = None) -> Any:
        handle = self.page.wait_for_function(js_predicate, arg=arg, timeout=int((timeout or self.timeout) * 1000))
        return handle.json_value()

    def wait_board(self, game: str | None = None, version: int | None = None) -> None:
        """Wait until the board of ``game`` is drawn (at ``version``, if given)."""
        sel = f'.gw-classroom [data-game="{game}"]' if game else self.BOARD
        self.wait_for(
            """([sel, v]) => { const r = document.querySelector(sel);
                 return !!r && r.dataset.version !== undefined && r.querySelector('[data-cell]') !== null
                     && (v === null || r.dataset.version === String(v)); }""",
            [sel, version],
        )

    def game(self) -> str:
        return self.page.evaluate("(sel) => document.querySelector(sel).dataset.game", self.BOARD)

    def version(self) -> int:
        return int(self.page.evaluate("(sel) => document.querySelector(sel).dataset.version", self.BOARD))

    def wait_version(self, version: int, at_least: bool = False) -> int:
        """Wait until the board shows ``version`` (or a later one); return it."""
        return int(self.wait_for(
            """([sel, v, later]) => { const r = document.querySelector(sel);
                 if (!r || r.dataset.version === undefined) return false;
                 const n = Number(r.dataset.version);
                 return (later ? n >= v : n === v) ? String(n) : false; }""",
            [self.BOARD, version, at_least],
        ))

    def cell(self, name: str) -> str:
        """What cell ``name`` shows: its aria-label, e.g. ``"B2, X"``."""
        return self.board().locator(f'[data-cell="{name}"]').get_attribute("aria-label") or ""

    def cells(self) -> dict[str, str]:
        return self.page.evaluate(
            "(sel) => Object.fromEntries(Array.from(document.querySelector(sel).querySelectorAll('[data-cell]'),"
            " c => [c.dataset.cell, c.getAttribute('aria-label') || '']))",
            self.BOARD,
        )

    def board(self):
        return self.page.locator(self.BOARD)

    def status(self) -> str:
        """The classroom's explanation line."""
        return self.page.locator(".gw-classroom-status").inner_text()

    def wait_status(self, text: str) -> None:
        self.wait_for("(t) => { const s = document.querySelector('.gw-classroom-status');"
                      " return !!s && s.textContent.includes(t); }", text)

    def pick_game(self, label: str) -> None:
        self.page.locator(".gw-classroom-game select").select_option(label=label)

    def pick_board(self, label: str) -> None:
        self.page.locator(".gw-classroom-board select").select_option(label=label)

    def pick_seat(self, player: int, label: str) -> None:
        self.page.locator(f".gw-classroom .gw-seat-{player} select").select_option(label=label)

    def seat_names(self) -> list[str]:
        return self.page.evaluate("() => Array.from(document.querySelectorAll('.gw-classroom-seat label'),"
                                  " l => l.textContent)")

    def new_game(self) -> None:
        self.page.locator(".gw-classroom-new").click()

    def close(self) -> None:
        try:
            self.page.context.close()
        except Exception:
            pass
