"""The harness itself: a plain notebook runs in JupyterLab and the kernel answers."""

from __future__ import annotations

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser


def test_run_all_and_run_code(lab, lab_root, browser):
    harness.write_notebook(lab_root / "harness_smoke.ipynb", ["x = 1 + 1", "print('x is', x)"])
    nb = browser.open_notebook(lab, "harness_smoke.ipynb")
    try:
        nb.run_all()
        assert nb.cell_count() == 2
        assert nb.run_code("print(x * 21)") == "42\n"
        assert nb.run_code("x * 2") == "4\n"  # text/plain of the result
        assert nb.run_code("1/0").startswith("ZeroDivisionError")
        assert nb.cell_count() == 5
        assert nb.kernel_status() == "idle"
    finally:
        nb.close()
