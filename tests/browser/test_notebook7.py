"""A real tutorial in Jupyter Notebook 7 (not only JupyterLab): open
notebooks/01-gridlock.ipynb there, run every cell, click a move on the first
board, and check that the page and the kernel agree."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
pytest.importorskip("notebook", reason="Jupyter Notebook 7 is not installed")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

TUTORIAL = harness.REPO_ROOT / "notebooks" / "01-gridlock.ipynb"
ROOT = '[data-game="gridlock"]'


def wait_version(nb, version: int) -> None:
    nb.wait_for("([sel, v]) => document.querySelector(sel).dataset.version === String(v)", [ROOT, version])


@pytest.fixture(scope="module")
def notebook7():
    root = Path(tempfile.mkdtemp(prefix="gw-nb7-root-"))
    shutil.copy(TUTORIAL, root / TUTORIAL.name)
    server = harness.JupyterNotebook(root)
    server.start()
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


def test_tutorial_runs_in_notebook7_and_a_click_plays(notebook7, browser):
    nb = browser.open_notebook(notebook7, TUTORIAL.name)
    try:
        # Notebook 7's own page, not JupyterLab's
        assert "/notebooks/" in nb.page.url
        assert nb.page.locator("#main-panel, .jp-NotebookPanel").count() > 0
        nb.run_all()
        nb.wait_for("(sel) => document.querySelectorAll(sel + ' [data-cell]').length >= 16", ROOT)
        board = nb.page.locator(ROOT).first
        # the tutorial ends with its first game over: take the last move back by the Undo button
        ended = nb.run_code("print(w.game.is_over, len(w.game.history))").split()
        assert ended[0] == "True", ended
        version = int(board.get_attribute("data-version"))
        board.locator('[data-action="undo"]').click()
        wait_version(nb, version + 1)
        out = nb.run_code("print(' '.join(str(m) for m in w.game.legal_moves()), len(w.game.history))").split()
        kernel_legal, moves_before = out[:-1], int(out[-1])
        assert moves_before == int(ended[1]) - 1 and kernel_legal, out
        # a click on a legal cell plays it
        move = kernel_legal[-1]
        board.locator(f'[data-cell="{move}"]').click()
        wait_version(nb, version + 2)
        label = board.locator(f'[data-cell="{move}"]').get_attribute("aria-label")
        assert label.startswith(f"{move}, "), label
        out = nb.run_code("print(len(w.game.history), w.game.history[-1])").split()
        assert out == [str(moves_before + 1), move], out
        assert nb.errors() == []
    finally:
        nb.close()
