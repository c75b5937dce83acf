"""The alpha-beta stepper (gridwidgets.teach) in a real JupyterLab through
Debian's Chromium: Step and Back move the search on the live board and in
the kernel, Run plays it to the end by itself. Every wait is on a condition
in the page or in the kernel, never a sleep."""

from __future__ import annotations

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

ROOT = '[data-game="gridlock"]'


def info_has(nb, text: str) -> None:
    nb.wait_for("(t) => Array.from(document.querySelectorAll('.widget-html-content'))"
                ".some(e => e.textContent.includes(t))", text)


def test_step_back_and_run_move_the_search_on_the_board(open_notebook):
    nb = open_notebook("teach_lab.ipynb")
    nb.run_all()
    nb.wait_for("(sel) => !!document.querySelector(sel + '[data-version]')", ROOT)
    info_has(nb, "Step 0 of 15")
    step = nb.page.locator("button.jupyter-button", has_text="Step").first
    for _ in range(3):
        step.click()
    info_has(nb, "Step 3 of 15")
    out = nb.run_code("print(s.index, [str(m) for m in s.board.game.history] == ['A1', *s.event.line])")
    assert out.split() == ["3", "True"], out
    # the board the page shows is the searched position: the line's cells are taken
    moves = nb.run_code("print(' '.join(str(m) for m in s.board.game.history))").split()
    for cell in moves:
        label = nb.evaluate("([sel, c]) => document.querySelector(sel + ` [data-cell=\"${c}\"]`).getAttribute('aria-label')",
                            [ROOT, cell])
        assert "empty" not in label, (cell, label)
    nb.page.locator("button.jupyter-button", has_text="Back").first.click()
    info_has(nb, "Step 2 of 15")
    # Run: the Play control advances by itself to the end
    nb.page.locator(".widget-play button").first.click()
    info_has(nb, "Step 15 of 15")
    out = nb.run_code("print(s.index, s.value, s.best_move, [str(m) for m in g.history])")
    assert out.split() == ["15", "-1.0", "C1", "['A1']"], out
