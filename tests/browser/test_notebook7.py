"""The first tutorial in Jupyter Notebook 7 (not JupyterLab), driven through
Debian's Chromium: run all cells, click a move on the live board, and check
that the kernel's game and the page both have it.

Notebook 7 is started by :class:`lab_harness.JupyterNotebook` (same temporary
folders, token and options as JupyterLab, plus
``--JupyterNotebookApp.expose_app_in_browser=True``); the page is
``/notebooks/<path>`` and is driven by the same :class:`lab_harness.NotebookPage`.
"""

from __future__ import annotations

import ast

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
pytest.importorskip("notebook", reason="Jupyter Notebook 7 is not installed")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

TUTORIAL = harness.REPO_ROOT / "notebooks" / "01-gridlock.ipynb"
ROOT = '[data-game="gridlock"]'


@pytest.fixture(scope="module")
def notebook7():
    """A Notebook 7 server whose root is a temporary copy of the tutorial."""
    server = harness.JupyterNotebook.from_files([TUTORIAL])
    server.start()
    yield server
    server.stop()


def versions(nb) -> list[int]:
    return [
        int(v) for v in nb.evaluate("(sel) => Array.from(document.querySelectorAll(sel), e => e.dataset.version)", ROOT)
    ]


def history(nb) -> list[str]:
    return ast.literal_eval(nb.run_code("print([str(m) for m in g.history])").strip())


def test_tutorial_runs_in_notebook7_and_a_click_plays(notebook7, browser, tmp_path):
    nb = browser.open_notebook(notebook7, TUTORIAL.name)
    try:
        # the page is Notebook 7's notebook page, not JupyterLab
        assert "/notebooks/" in nb.page.url
        assert nb.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
        nb.run_all(timeout=120)

        # two live boards: the reader's own game (``mine``: nothing below plays
        # on it, so after Run All it is still empty, as the text says) and a
        # view of ``g``, which the tutorial plays to the end
        views = nb.page.locator(ROOT)
        nb.wait_for("(sel) => document.querySelectorAll(sel + '[data-version]').length === 2", ROOT)
        assert views.count() == 2
        mine, view = views.nth(0), views.nth(1)
        assert mine.get_attribute("data-version") == "0"
        assert mine.locator(".gw-cell.is-legal").count() == 16  # an empty 4x4 board, X to move
        played = history(nb)
        assert len(played) == 8 and nb.run_code("print(g.is_over)").strip() == "True"
        assert view.locator(".gw-cell.is-legal").count() == 0

        # the undo button of the view of g takes the last move back ...
        v0 = versions(nb)[1]
        view.locator('[data-action="undo"]').click()
        nb.wait_for("([sel, v]) => document.querySelectorAll(sel)[1].dataset.version === String(v)", [ROOT, v0 + 1])
        assert history(nb) == played[:-1]

        # ... then a click on a legal cell plays it
        legal = nb.evaluate(
            "(sel) => Array.from(document.querySelectorAll(sel)[1].querySelectorAll('.gw-cell.is-legal'),"
            " e => e.dataset.cell)",
            ROOT,
        )
        assert legal, "no legal cell after undo"
        cell = legal[0]
        assert view.locator(f'[data-cell="{cell}"]').get_attribute("aria-label") == f"{cell}, empty"
        view.locator(f'[data-cell="{cell}"]').click()
        nb.wait_for("([sel, v]) => document.querySelectorAll(sel)[1].dataset.version === String(v)", [ROOT, v0 + 2])

        # the kernel's game has the move, the page shows it, and the reader's own board is untouched
        assert history(nb) == [*played[:-1], cell]
        label = view.locator(f'[data-cell="{cell}"]').get_attribute("aria-label")
        owner = "X" if len(played[:-1]) % 2 == 0 else "O"  # X moves first (GL-2)
        assert label == f"{cell}, {owner}", label
        assert nb.run_code("print(mine.history)").strip() == "[]"
        assert mine.get_attribute("data-version") == "0"
        assert nb.errors() == []
    except Exception:
        nb.page.screenshot(path=str(tmp_path / "failure-notebook7.png"))
        (tmp_path / "console-notebook7.txt").write_text("\n".join(nb.page.console_messages))
        print(f"failure screenshot and console log in {tmp_path}\n{notebook7.log()}")
        raise
    finally:
        nb.close()
