"""A real JupyterLab + Debian Chromium, driven from Python, for browser tests.

Reusable by the pytest tests in this folder and by ``benchmarks/`` (import it
by path).  See ``/work/shared/TESTING.md`` for why it is shaped this way:

* JupyterLab runs as a child process (its own session) on 127.0.0.1 and a
  free port, with a token, ``--allow-root``, every config/data/settings/
  workspace/runtime folder in a temporary directory, news and update checks
  off, and ``window.jupyterapp`` exposed so the page can run commands.
* Chromium is Debian's ``/usr/bin/chromium`` launched through Playwright for
  Python (never ``playwright install``).
* Every wait is on an explicit condition with a timeout; promises evaluated
  in the page are raced against a timeout, since ``page.evaluate`` has none.
* Shutdown is ``POST /api/shutdown``, a wait on the server's PID, then the
  leftover processes the server started are ended by their own PIDs.

Typical use::

    with JupyterLab(notebook_dir) as lab, Browser() as browser:
        nb = browser.open_notebook(lab, "demo.ipynb")
        nb.run_all()
        print(nb.run_code("print(1 + 1)"))    # -> "2\\n"
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REPO_ROOT = Path(__file__).resolve().parents[2]

#: default bound on every single wait, in seconds
TIMEOUT = 30.0

#: per game: the code that makes it, and how many moves in a position is shown
#: (random legal moves from a fixed seed, so every run shows the same position):
#: the README's pictures, the before/after screenshots, the accessibility scan
BOARD_POSITIONS = {
    "gridlock": ("g = gw.Gridlock(rows=6, cols=6)", 10),
    "gridmaster4": ("g = gw.GridMaster4(size=12)", 36),
    "blockfour": ("g = gw.BlockFour(seed=3)", 8),
    "gridbloc": ("g = gw.GridBloc()", 9),
}


def board_position_code(game: str, widget_options: str = "") -> str:
    """A notebook cell that sets up ``game`` a few moves in (:data:`BOARD_POSITIONS`)
    as ``g`` and shows its widget ``w`` (made with ``widget_options``)."""
    make, moves = BOARD_POSITIONS[game]
    return ("import random\nimport gridwidgets as gw\n"
            f"{make}\nr = random.Random(7)\n"
            f"while len(g.history) < {moves} and not g.is_over:\n"
            "    g.play(r.choice(g.legal_moves()))\n"
            "assert not g.is_over\n"
            f"w = g.widget({widget_options})\nw")


def chromium_available() -> bool:
    return os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_notebook(path: str | os.PathLike, cells: list[str]) -> Path:
    """Write a notebook of code cells, with a ``python3`` kernelspec."""
    nb = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
        },
        "cells": [
            {
                "cell_type": "code",
                "id": uuid.uuid4().hex[:8],
                "metadata": {},
                "execution_count": None,
                "outputs": [],
                "source": src,
            }
            for src in cells
        ],
    }
    path = Path(path)
    path.write_text(json.dumps(nb, indent=1))
    return path


# --------------------------------------------------------------------------
# JupyterLab server
# --------------------------------------------------------------------------


class JupyterLab:
    """A JupyterLab server on 127.0.0.1, serving ``root_dir``.

    ``root_dir`` is used as given (copy your notebooks there first; see
    :meth:`from_files`).  ``extra_pythonpath`` is prepended to the kernel's
    ``PYTHONPATH`` (the repository root by default, so ``import gridwidgets``
    works even when the package is not installed in the venv). ``python`` is
    the interpreter that runs the server and its kernels (this one by
    default; the release test gives a fresh virtual environment's).
    """

    #: ``python -m <app_module>`` starts the server
    app_module = "jupyterlab"
    #: the name in messages
    app_name = "JupyterLab"

    def __init__(
        self,
        root_dir: str | os.PathLike,
        *,
        extra_pythonpath: list[str] | None = None,
        startup_timeout: float = 60.0,
        python: str | os.PathLike = sys.executable,
    ):
        self.root_dir = Path(root_dir)
        self.python = str(python)
        self.extra_pythonpath = [str(REPO_ROOT)] if extra_pythonpath is None else extra_pythonpath
        self.startup_timeout = startup_timeout
        self.port = free_port()
        self.token = uuid.uuid4().hex
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self._tmp: tempfile.TemporaryDirectory | None = None
        self._log = None
        self.log_path: Path | None = None

    @classmethod
    def from_files(cls, files: list[str | os.PathLike], **kw) -> JupyterLab:
        """A server whose root is a fresh temporary copy of ``files``."""
        root = Path(tempfile.mkdtemp(prefix="gw-lab-root-"))
        for f in files:
            shutil.copy(f, root / Path(f).name)
        lab = cls(root, **kw)
        lab._own_root = root
        return lab

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> JupyterLab:
        self._tmp = tempfile.TemporaryDirectory(prefix="gw-lab-")
        tmp = Path(self._tmp.name)
        env, dirs = jupyter_env(tmp, self.token, "settings", "workspaces", python=self.python)
        env.update(JUPYTERLAB_SETTINGS_DIR=str(dirs["settings"]), JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]))
        # no news pop-up, no update check
        notif = dirs["settings"] / "@jupyterlab" / "apputils-extension"
        notif.mkdir(parents=True)
        (notif / "notification.jupyterlab-settings").write_text(
            json.dumps({"fetchNews": "false", "checkForUpdates": False})
        )
        if self.extra_pythonpath:
            env["PYTHONPATH"] = os.pathsep.join(
                self.extra_pythonpath + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
            )
        cmd = self.command()
        self.log_path = tmp / f"{self.app_module}.log"
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            cmd,
            cwd=str(self.root_dir),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + self.startup_timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.app_name} exited with {self.proc.returncode}:\n{self.log()}")
            try:
                self.api("GET", "/api/status", timeout=2)
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(f"{self.app_name} did not answer in {self.startup_timeout}s:\n{self.log()}")
            time.sleep(0.1)  # polling interval of an explicit condition (server answers)

    def command(self) -> list[str]:
        """The server's command line: the shared ``ServerApp`` options, then :meth:`app_options`."""
        return [
            self.python,
            "-m",
            self.app_module,
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={self.root_dir}",
            *self.app_options(),
            "--ServerApp.terminals_enabled=False",
        ]

    def app_options(self) -> list[str]:
        return [
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]

    def notebook_url(self, path: str) -> str:
        """The page that opens notebook ``path`` (relative to the root), token included."""
        return self.url(f"/lab/tree/{path}") + "&reset"

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.base_url + path,
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
        return json.loads(raw) if raw else None

    def url(self, path: str) -> str:
        return f"{self.base_url}{path}{'&' if '?' in path else '?'}token={self.token}"

    def log(self) -> str:
        return read_log(self.log_path)

    def _descendants(self) -> list:
        return descendants(self.proc)

    def stop(self, timeout: float = 15.0) -> None:
        """Shut the server down; end what it started, by PID only."""
        if self.proc is None:
            return
        children = self._descendants()  # kernels live in their own sessions: remember them now
        if self.proc.poll() is None:
            try:
                self.api("POST", "/api/shutdown", timeout=5)
            except Exception:
                pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                stop_process(self.proc, 5)
        _end_processes(children)
        if self._log:
            self._log.close()
            self._log = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
        own_root = getattr(self, "_own_root", None)
        if own_root is not None:
            shutil.rmtree(own_root, ignore_errors=True)
        self.proc = None

    def __enter__(self) -> JupyterLab:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class JupyterNotebook(JupyterLab):
    """A Jupyter Notebook 7 server, set up like :class:`JupyterLab`.

    Notebook 7 is built from JupyterLab's pieces: with
    ``--JupyterNotebookApp.expose_app_in_browser=True`` the notebook page has
    ``window.jupyterapp`` too, its shell lists the notebook panel among the
    ``main`` widgets and runs the same ``notebook:*`` commands, so
    :class:`NotebookPage` drives both.  It has no news or update-check
    options of its own: the news pop-up is off through the same user
    setting (``fetchNews``) that :meth:`JupyterLab.start` writes.
    """

    app_module = "notebook"
    app_name = "Jupyter Notebook"

    def app_options(self) -> list[str]:
        return ["--JupyterNotebookApp.expose_app_in_browser=True"]

    def notebook_url(self, path: str) -> str:
        return self.url(f"/notebooks/{path}")


def jupyter_env(
    tmp: Path, token: str, *extra_dirs: str, python: str | os.PathLike = sys.executable
) -> tuple[dict[str, str], dict[str, Path]]:
    """The environment of a Jupyter server under test: this process's, without
    any ``JUPYTER*``/``JPY_*`` variable, with ``token``, and every config, data,
    runtime and IPython folder made fresh under ``tmp`` (plus ``extra_dirs``).
    ``python``'s folder leads ``PATH``; another interpreter than this one runs
    without this process's ``PYTHONPATH`` and ``VIRTUAL_ENV``.

    Returns:
        ``(env, dirs)``: the variables, and each folder made, by name.
    """
    dirs = {}
    for name in ("config", "data", "runtime", "ipython", *extra_dirs):
        dirs[name] = tmp / name
        dirs[name].mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "JPY_"))}
    env.update(
        JUPYTER_TOKEN=token,
        JUPYTER_CONFIG_DIR=str(dirs["config"]),
        JUPYTER_DATA_DIR=str(dirs["data"]),  # kernelspec + labextensions: sys.prefix/share/jupyter
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        IPYTHONDIR=str(dirs["ipython"]),
        JUPYTER_PLATFORM_DIRS="1",
        PATH=str(Path(python).parent) + os.pathsep + env.get("PATH", ""),
        PYTHONUNBUFFERED="1",
    )
    if str(python) != sys.executable:
        env.pop("PYTHONPATH", None)
        env.pop("VIRTUAL_ENV", None)
    return env, dirs


def descendants(proc: subprocess.Popen | None) -> list:
    """Every process ``proc`` started (psutil), or [] once it is gone."""
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil comes with jupyter
        return []
    if proc is None:
        return []
    try:
        return psutil.Process(proc.pid).children(recursive=True)
    except psutil.Error:
        return []


def stop_process(proc: subprocess.Popen, timeout: float) -> None:
    """SIGTERM ``proc`` (a process this harness started), wait up to
    ``timeout`` seconds, then SIGKILL it and wait for it."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


def read_log(path: Path | None) -> str:
    """The last 8,000 characters of a server's log file."""
    if path and path.exists():
        return path.read_text(errors="replace")[-8000:]
    return ""


def _end_processes(procs: list, timeout: float = 5.0) -> None:
    """SIGTERM then SIGKILL the given psutil processes (checked by create time)."""
    if not procs:
        return
    import psutil

    alive = []
    for p in procs:
        try:
            if p.is_running():  # is_running also guards against PID reuse
                p.send_signal(signal.SIGTERM)
                alive.append(p)
        except psutil.Error:
            pass
    _, still = psutil.wait_procs(alive, timeout=timeout)
    for p in still:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(still, timeout=timeout)


# --------------------------------------------------------------------------
# Browser + notebook page
# --------------------------------------------------------------------------


class Browser:
    """Debian Chromium through Playwright (sync API), headless."""

    def __init__(self, *, viewport=(1280, 900), timeout: float = TIMEOUT):
        self.viewport = viewport
        self.timeout = timeout
        self._pw = None
        self.browser = None

    def start(self) -> Browser:
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        try:
            self.browser = self._pw.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, timeout=self.timeout * 1000
            )
        except Exception:
            self._pw.stop()
            self._pw = None
            raise
        return self

    def stop(self) -> None:
        if self.browser is not None:
            try:
                self.browser.close()
            finally:
                self.browser = None
        if self._pw is not None:
            self._pw.stop()
            self._pw = None

    def __enter__(self) -> Browser:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def new_page(self):
        ctx = self.browser.new_context(
            viewport={"width": self.viewport[0], "height": self.viewport[1]},
            color_scheme="light",
        )
        ctx.set_default_timeout(self.timeout * 1000)
        page = ctx.new_page()
        page.console_messages = []  # type: ignore[attr-defined]
        page.on("console", lambda m: page.console_messages.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: page.console_messages.append(f"pageerror: {e}"))
        return page

    def open_notebook(self, lab: JupyterLab, path: str) -> NotebookPage:
        page = self.new_page()
        nb = NotebookPage(page, lab, path, timeout=self.timeout)
        nb.open()
        return nb


# JS helpers installed in the page.  ``__gw.panel(path)`` finds the notebook
# panel of a path among the main-area widgets; ``__gw.race`` bounds a promise.
_PAGE_HELPERS = r"""
() => {
  if (window.__gw) return true;
  window.__gw = {
    panel(path) {
      const app = window.jupyterapp;
      if (!app || !app.shell) return null;
      for (const w of app.shell.widgets('main')) {
        if (w.context && w.context.path === path && w.content && w.sessionContext) return w;
      }
      return null;
    },
    race(promise, ms, what) {
      let timer;
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
      });
      return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
    },
    outputText(cellModel) {
      const out = [];
      for (const o of cellModel.outputs.toJSON()) {
        if (o.output_type === 'stream') out.push(Array.isArray(o.text) ? o.text.join('') : o.text);
        else if (o.output_type === 'error') out.push(`${o.ename}: ${o.evalue}\n`);
        else if (o.data && o.data['text/plain'] !== undefined) {
          const t = o.data['text/plain'];
          out.push((Array.isArray(t) ? t.join('') : t) + '\n');
        }
      }
      return out.join('');
    },
  };
  return true;
}
"""


class NotebookPage:
    """One notebook opened in JupyterLab, in its own browser context."""

    def __init__(self, page, lab: JupyterLab, path: str, timeout: float = TIMEOUT):
        self.page = page
        self.lab = lab
        self.path = path
        self.timeout = timeout

    @property
    def ms(self) -> int:
        return int(self.timeout * 1000)

    def evaluate(self, expression: str, arg: Any = None) -> Any:
        """``page.evaluate`` of a function ``(arg) => ...`` after installing helpers."""
        self.page.evaluate(_PAGE_HELPERS)
        return self.page.evaluate(expression, arg)

    def wait_for(self, js_predicate: str, arg: Any = None, timeout: float | None = None) -> Any:
        """Wait until ``js_predicate(arg)`` is truthy in the page; return its value."""
        self.page.evaluate(_PAGE_HELPERS)
        handle = self.page.wait_for_function(js_predicate, arg=arg, timeout=int((timeout or self.timeout) * 1000))
        return handle.json_value()

    # -- opening -----------------------------------------------------------

    def open(self) -> None:
        self.page.goto(self.lab.notebook_url(self.path), wait_until="domcontentloaded")
        self.page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell", timeout=self.ms)
        self.page.evaluate(_PAGE_HELPERS)
        self.page.wait_for_function(
            "(path) => { const p = window.__gw && window.__gw.panel(path); return !!p; }",
            arg=self.path,
            timeout=self.ms,
        )
        self.evaluate(
            """async ([path, ms]) => {
                const p = __gw.panel(path);
                await __gw.race(p.context.ready, ms, 'notebook context ready');
                await __gw.race(p.sessionContext.ready, ms, 'session ready');
                window.jupyterapp.shell.activateById(p.id);
                return true;
            }""",
            [self.path, self.ms],
        )
        self.wait_kernel_idle()

    def kernel_status(self) -> str | None:
        return self.evaluate(
            "(path) => { const p = __gw.panel(path); const k = p && p.sessionContext.session"
            " && p.sessionContext.session.kernel; return k ? k.status : null; }",
            self.path,
        )

    def wait_kernel_idle(self, timeout: float | None = None) -> None:
        self.wait_for(
            "(path) => { const p = window.__gw.panel(path); const k = p && p.sessionContext.session"
            " && p.sessionContext.session.kernel; return !!k && k.status === 'idle'; }",
            self.path,
            timeout,
        )

    # -- running cells -----------------------------------------------------

    def cell_count(self) -> int:
        return self.evaluate("(path) => __gw.panel(path).content.model.cells.length", self.path)

    def run_all(self, timeout: float | None = None) -> None:
        """Run every cell and wait until each has run and the kernel is idle."""
        ms = int((timeout or self.timeout) * 1000)
        self.evaluate(
            """async ([path, ms]) => {
                const app = window.jupyterapp, p = __gw.panel(path);
                app.shell.activateById(p.id);
                await __gw.race(app.commands.execute('notebook:run-all-cells'), ms, 'run all cells');
                return true;
            }""",
            [self.path, ms],
        )
        self.wait_for(
            """(path) => {
                const p = window.__gw.panel(path);
                const cells = Array.from(p.content.model.cells);
                const k = p.sessionContext.session && p.sessionContext.session.kernel;
                return cells.every(c => c.type !== 'code' || c.executionCount !== null)
                    && !!k && k.status === 'idle';
            }""",
            self.path,
            timeout,
        )
        errors = self.errors()
        if errors:
            raise RuntimeError(f"notebook {self.path} raised:\n" + "\n".join(errors))

    def errors(self) -> list[str]:
        """``ename: evalue`` of every error output in the notebook."""
        return self.evaluate(
            """(path) => {
                const out = [];
                for (const c of __gw.panel(path).content.model.cells) {
                    if (c.type !== 'code') continue;
                    for (const o of c.outputs.toJSON())
                        if (o.output_type === 'error') out.push(`${o.ename}: ${o.evalue}`);
                }
                return out;
            }""",
            self.path,
        )

    def run_code(self, source: str, timeout: float | None = None) -> str:
        """Append a code cell, run it, return its text output (stream, text/plain, errors)."""
        ms = int((timeout or self.timeout) * 1000)
        return self.evaluate(
            """async ([path, source, ms]) => {
                const app = window.jupyterapp, p = __gw.panel(path), nb = p.content;
                app.shell.activateById(p.id);
                const index = nb.model.cells.length;
                nb.model.sharedModel.insertCell(index, {cell_type: 'code', source});
                nb.activeCellIndex = index;
                nb.mode = 'command';
                const cell = nb.model.cells.get(index);
                await __gw.race(app.commands.execute('notebook:run-cell'), ms, 'run cell');
                // the run resolves on the execute reply; wait for the count as well
                const t0 = performance.now();
                while (cell.executionCount === null) {
                    if (performance.now() - t0 > ms) throw new Error('cell did not finish');
                    await new Promise(r => requestAnimationFrame(r));
                }
                return __gw.outputText(cell);
            }""",
            [self.path, source, ms],
        )

    def execute_command(self, command: str, args: dict | None = None, timeout: float | None = None) -> Any:
        ms = int((timeout or self.timeout) * 1000)
        return self.evaluate(
            """async ([command, args, ms]) => {
                const r = await __gw.race(window.jupyterapp.commands.execute(command, args || {}), ms, command);
                return (r === undefined || typeof r === 'object') ? null : r;
            }""",
            [command, args, ms],
        )

    def set_theme(self, theme: str, timeout: float | None = None) -> None:
        """Switch theme (``"JupyterLab Light"``/``"JupyterLab Dark"``) and wait until applied."""
        self.execute_command("apputils:change-theme", {"theme": theme}, timeout)
        light = "true" if "Light" in theme else "false"
        # the theme's stylesheet is in, and the splash screen JupyterLab shows
        # while it switches themes has faded out
        self.wait_for(
            "([light, name]) => document.body.dataset.jpThemeLight === light"
            " && document.body.dataset.jpThemeName === name"
            " && !document.getElementById('jupyterlab-splash')",
            [light, theme],
            timeout,
        )

    def close(self) -> None:
        try:
            self.page.context.close()
        except Exception:
            pass
