"""The README's pictures: each game's board in JupyterLab (light theme), a few
moves into a game, as the browser draws it.

Every run takes the four pictures and checks that they are real pictures of
a board (a PNG of sensible size with many colours, the board's cells and
pieces drawn); with ``GRIDWIDGETS_UPDATE_SCREENSHOTS=1`` they are also written
to ``docs/images/<game>.png``, the files the README shows (committed).
"""

from __future__ import annotations

import os
import shutil

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
Image = pytest.importorskip("PIL.Image", reason="Pillow (a matplotlib dependency) is not installed")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

IMAGES = harness.REPO_ROOT / "docs" / "images"
UPDATE = os.environ.get("GRIDWIDGETS_UPDATE_SCREENSHOTS") == "1"


@pytest.mark.parametrize("game", list(harness.BOARD_POSITIONS))
def test_board_picture(game, lab, lab_root, browser, tmp_path):
    name = f"picture_{game}.ipynb"
    harness.write_notebook(lab_root / name, [harness.board_position_code(game)])
    nb = browser.open_notebook(lab, name)
    try:
        nb.set_theme("JupyterLab Light")
        nb.run_all()
        root = f'[data-game="{game}"]'
        nb.wait_for("(sel) => !!document.querySelector(sel + ' [data-cell]')", root)
        moves = int(nb.run_code("print(len(g.history))"))
        nb.wait_for("([sel, v]) => document.querySelector(sel).dataset.version === String(v)", [root, moves])
        # a page tall enough for the whole widget: no toolbar over its top
        nb.page.set_viewport_size({"width": 1280, "height": 1600})
        nb.page.locator(root).scroll_into_view_if_needed()
        nb.page.mouse.move(0, 0)  # no hover highlight in the picture
        nb.page.evaluate("() => document.activeElement && document.activeElement.blur()")
        nb.page.wait_for_timeout(300)  # let the hover transition end (CSS, 150 ms)
        shot = tmp_path / f"{game}.png"
        nb.page.locator(root).screenshot(path=str(shot), animations="disabled")
    finally:
        nb.close()

    with Image.open(shot) as im:
        assert im.format == "PNG"
        width, height = im.size
        assert 300 <= width <= 1200 and 250 <= height <= 1000, im.size
        colours = im.convert("RGB").getcolors(maxcolors=1 << 16)
        assert colours is None or len(colours) > 50, "the picture is nearly blank"
    if UPDATE:
        IMAGES.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, IMAGES / f"{game}.png")
