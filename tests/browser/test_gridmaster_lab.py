"""The GridMaster4 widget in a real JupyterLab: a click on the 20x20 board,
three agent seats answering by themselves, and the kernel agreeing."""

from __future__ import annotations

import ast

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

ROOT = '[data-game="gridmaster4"]'


def test_gm_click_then_three_agents_move_and_the_kernel_agrees(open_notebook):
    nb = open_notebook("gridmaster_lab.ipynb")
    nb.run_all()
    nb.wait_for("(sel) => document.querySelectorAll(sel + ' [data-cell]').length === 400", ROOT)
    nb.page.locator(f'{ROOT} [data-cell="K10"]').click()
    # orange's opening (version 1), then magenta, lime and aqua by themselves
    nb.wait_for("(sel) => document.querySelector(sel).dataset.version === '4'", ROOT)
    label = nb.page.locator(f'{ROOT} [data-cell="K10"]').get_attribute("aria-label")
    assert label.startswith("K10, orange 1")
    out = nb.run_code("print([str(m) for m in g.history], g.current_player, g.scores)")
    history, rest = out.strip().split("] ", 1)
    moves = ast.literal_eval(history + "]")
    assert moves[0] == "K10" and len(moves) == 4
    assert rest.startswith("0 (1, 1, 1, 1)")
    # a click on a cell that is not a jump cell is refused, naming GM-4
    nb.page.locator(f'{ROOT} [data-cell="A1"]').click()
    nb.wait_for("(sel) => document.querySelector(sel + ' [data-role=\"message\"]').textContent.includes('GM-4')", ROOT)
    assert nb.run_code("print(len(g.history))").strip() == "4"
