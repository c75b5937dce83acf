"""The boards in marimo (docs/hosts.md): ``marimo run`` and ``marimo edit`` of
``examples/marimo_board.py`` on 127.0.0.1, in Debian's Chromium.

A click on the board plays the move in Python, and the cell that reads the
board runs again (the page writes ``seen_version`` once its intent is
answered: marimo re-runs the cells that read a widget when its page changes a
trait). marimo draws widgets in a shadow root, so the widget's own CSS is the
only CSS it gets, and the dark theme is read from the page.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import lab_harness as harness
import pytest

pytest.importorskip("marimo", reason="marimo is not installed (pip install gridwidgets[marimo])")
pytest.importorskip("playwright.sync_api")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

from playwright.sync_api import expect  # noqa: E402

EXAMPLE = harness.REPO_ROOT / "examples" / "marimo_board.py"


class Marimo:
    """``marimo <mode> examples/marimo_board.py`` on 127.0.0.1 and a free port,
    in its own session; stopped by its PID (and what it started, by theirs)."""

    def __init__(self, mode: str, notebook: str | Path = "marimo_board.py"):
        self.mode = mode
        # an example's name, or a path to a marimo notebook
        self.source = EXAMPLE.with_name(notebook) if isinstance(notebook, str) else Path(notebook)
        self.port = harness.free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.proc: subprocess.Popen | None = None
        self._tmp = tempfile.TemporaryDirectory(prefix="gw-marimo-")
        self.log_path = Path(self._tmp.name) / "marimo.log"

    def __enter__(self) -> Marimo:
        tmp = Path(self._tmp.name)
        notebook = tmp / self.source.name
        shutil.copy(self.source, notebook)
        env = dict(os.environ, HOME=str(tmp), XDG_CONFIG_HOME=str(tmp / "config"), XDG_CACHE_HOME=str(tmp / "cache"),
                   PYTHONPATH=os.pathsep.join([str(harness.REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
        marimo = Path(sys.executable).with_name("marimo")
        cmd = [str(marimo) if marimo.exists() else "marimo", self.mode, str(notebook), "--host", "127.0.0.1",
               "--port", str(self.port), "--headless", "--no-token"]
        if self.mode == "edit":
            cmd.append("--skip-update-check")
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(cmd, cwd=tmp, env=env, stdin=subprocess.DEVNULL, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"marimo {self.mode} exited: {self.log()}")
            try:
                with urllib.request.urlopen(self.url + "health", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"marimo {self.mode} did not start: {self.log()}")

    def log(self) -> str:
        return harness.read_log(self.log_path)

    def __exit__(self, *exc) -> None:
        kids = harness.descendants(self.proc)
        if self.proc is not None:
            harness.stop_process(self.proc, 10)
        harness._end_processes(kids)
        self._log.close()
        self._tmp.cleanup()


@pytest.mark.parametrize("mode", ["run", "edit"])
def test_marimo_a_click_plays_and_the_cell_reading_the_board_runs_again(browser, mode):
    with Marimo(mode) as server:
        page = browser.new_page()
        try:
            page.goto(server.url)
            # Playwright's CSS locators go into marimo's shadow roots
            gridlock = page.locator('[data-game="gridlock"]')
            cell = gridlock.locator('[data-cell="B2"]')
            if mode == "edit":  # the editor opens with the cells not yet run: "run all stale cells",
                # once its kernel is connected (a click before that does nothing)
                for _ in range(20):
                    page.locator('[data-testid="run-button"]').last.click(timeout=60_000)
                    try:
                        cell.wait_for(timeout=4_000)
                        break
                    except Exception:
                        continue
            cell.wait_for(timeout=90_000)
            page.get_by_text("0 moves played").first.wait_for(timeout=60_000)  # the report cell ran once
            cell.click()
            page.get_by_text("1 moves played (B2)").first.wait_for(timeout=30_000)
            gridlock.locator('[data-cell="D4"]').click()
            page.get_by_text("2 moves played (B2 D4)").first.wait_for(timeout=30_000)
            # the widget's own CSS reached the shadow root: the board is laid out as a grid
            width = gridlock.locator(".gw-board").evaluate("el => el.getBoundingClientRect().width")
            assert width > 150
            # and an illegal click is refused by Python without a re-run of the report
            gridlock.locator('[data-cell="C4"]').click()  # next to O's D4: X may not play there (GL-3)
            message = gridlock.locator('[data-role="message"]')
            expect(message).to_contain_text("GL-3", timeout=10_000)
            assert page.get_by_text("2 moves played (B2 D4)").count() >= 1
            # gw.side_by_side is one anywidget: its boards are live in marimo too
            page.locator('[data-game="gridmaster4"] [data-cell="E5"]').click()
            page.get_by_text("GridMaster4: 1 moves").first.wait_for(timeout=30_000)
            page.locator('[data-game="gridbloc"] [data-cell="D4"]').click()  # the runner's first step (GB-3)
            page.get_by_text("GridBloc: 1 moves").first.wait_for(timeout=30_000)
            # marimo's dark theme reaches the board (read from the page, not a page selector)
            page.evaluate("() => document.body.classList.add('dark')")
            page.wait_for_function(
                "() => [...document.querySelectorAll('*')].some(e => e.shadowRoot && "
                "e.shadowRoot.querySelector('.gw-root.gw-dark'))", timeout=10_000)
            # with its own dark colours, not JupyterLab's (absent here): light text on a dark board
            ink = gridlock.locator('[data-role="status"]').evaluate("e => getComputedStyle(e).color")
            rgb = [int(x) for x in ink[ink.index("(") + 1 : ink.index(")")].split(",")[:3]]
            assert sum(rgb) / 3 > 180, ink
        except Exception:
            print(server.log())
            raise
        finally:
            page.context.close()


def test_marimo_the_classroom_app_plays_and_seats_an_agent(browser):
    """examples/marimo_classroom.py: the classroom's games, seats and
    explanation with marimo's menus, and its board live."""
    with Marimo("run", "marimo_classroom.py") as server:
        page = browser.new_page()
        try:
            page.goto(server.url)
            board = page.locator('[data-game="gridlock"]')
            board.locator('[data-cell="B2"]').wait_for(timeout=90_000)
            page.get_by_text("X: a person, O: a person").first.wait_for(timeout=30_000)
            # the classroom hides the board's own New game, its editor and export
            expect(board.locator('button[data-action="new"]')).to_be_hidden()
            board.locator('[data-cell="B2"]').click()
            expect(board).to_have_attribute("data-version", "1", timeout=30_000)
            # O to an agent: the position stays, and the agent answers
            page.get_by_label("O", exact=True).select_option(label="Random")
            page.get_by_text("O: Random").first.wait_for(timeout=30_000)
            board = page.locator('[data-game="gridlock"]')
            expect(board).to_have_attribute("data-version", "2", timeout=30_000)
            assert "X" in (board.locator('[data-cell="B2"]').get_attribute("aria-label") or "")
        except Exception:
            print(server.log())
            raise
        finally:
            page.context.close()


def test_marimo_the_welcome_notebook_converted_unchanged_has_four_live_boards(browser, tmp_path):
    """``marimo convert notebooks/00-welcome.ipynb``, then ``marimo run``: the
    tutorial, unchanged, shows its four boards live (side_by_side is one
    anywidget) and a click plays."""
    marimo = Path(sys.executable).with_name("marimo")
    converted = tmp_path / "welcome.py"
    subprocess.run([str(marimo) if marimo.exists() else "marimo", "convert",
                    str(harness.REPO_ROOT / "notebooks" / "00-welcome.ipynb"), "-o", str(converted)],
                   check=True, capture_output=True, timeout=120)
    with Marimo("run", converted) as server:
        page = browser.new_page()
        try:
            page.goto(server.url)
            for game in ("gridlock", "gridmaster4", "blockfour", "gridbloc"):
                page.locator(f'[data-game="{game}"] [data-cell]').first.wait_for(timeout=90_000)
            board = page.locator('[data-game="gridlock"]').first
            # the reader's board: untouched by the cells below (they play on a board of their own); X clicks
            expect(board.locator('[data-cell="B2"]')).to_have_attribute("aria-label", "B2, empty")
            version = int(board.get_attribute("data-version"))
            board.locator('[data-cell="D4"]').click()
            expect(board).to_have_attribute("data-version", str(version + 1), timeout=30_000)
            expect(board.locator('[data-cell="D4"]')).to_have_attribute("aria-label", "D4, X")
        except Exception:
            print(server.log())
            raise
        finally:
            page.context.close()
