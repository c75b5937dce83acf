"""The GridBloc widget in a real JupyterLab: the runner steps by a click on a
highlighted tile, the blocker places a wall by a click on an edge, and the
kernel agrees (docs/frontend.md, "GridBloc")."""

from __future__ import annotations

import ast

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

ROOT = '[data-game="gridbloc"]'


def wait_version(nb, version: int) -> None:
    nb.wait_for("([sel, v]) => { const r = document.querySelector(sel); return !!r && r.dataset.version === String(v); }",
                [ROOT, version])


def test_gb_step_then_wall_by_clicks_and_the_kernel_agrees(open_notebook):
    nb = open_notebook("gridbloc_lab.ipynb")
    nb.run_all()
    nb.wait_for("(sel) => document.querySelectorAll(sel + ' [data-cell]').length === 81", ROOT)
    wait_version(nb, 0)
    root = nb.page.locator(ROOT)
    legal = nb.evaluate("(sel) => Array.from(document.querySelectorAll(sel + ' .gw-cell.is-legal'), e => e.dataset.cell)", ROOT)
    assert "D4" in legal, legal
    root.locator('[data-cell="D4"]').click()
    wait_version(nb, 1)
    assert root.locator('[data-cell="D4"]').get_attribute("aria-label").startswith("D4, runner")
    # the blocker's turn: the open edges are the slots
    assert root.locator("[data-edge]").count() > 100
    root.locator('[data-edge="D4|E4"]').click()
    wait_version(nb, 2)
    assert root.locator('.gw-scene-edge.gw-p0[data-line="D4|E4"]').count() == 1

    out = nb.run_code("print([str(m) for m in g.history], [str(x) for x in g.placed_walls], g.to_act)")
    history, rest = out.strip().split("] ", 1)
    assert ast.literal_eval(history + "]") == ["D4", "D4|E4"], out
    assert rest.startswith("['D4|E4'] run"), out

    # a step through that wall is refused, naming GB-3; the kernel's game is unchanged
    root.locator('[data-cell="E4"]').click()
    nb.wait_for("(sel) => document.querySelector(sel + ' [data-role=\"message\"]').textContent.includes('GB-3')", ROOT)
    assert nb.run_code("print(len(g.history))").strip() == "2"
