"""notebooks/00-welcome.ipynb in a real JupyterLab: the four games side by
side (gw.side_by_side), each playable by a click, and the kernel agreeing."""

from __future__ import annotations

import os
from pathlib import Path

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

WELCOME = Path(__file__).resolve().parents[2] / "notebooks" / "00-welcome.ipynb"
GAMES = ("gridlock", "gridmaster4", "blockfour", "gridbloc")


def wait_version(nb, game: str, version: int) -> None:
    nb.wait_for(
        "([sel, v]) => { const r = document.querySelector(sel); return !!r && r.dataset.version === String(v); }",
        [f'[data-game="{game}"]', version],
    )


def version(nb, game: str) -> int:
    return int(nb.page.locator(f'[data-game="{game}"]').first.get_attribute("data-version"))


def test_welcome_four_boards_side_by_side_each_playable(open_notebook):
    nb = open_notebook(WELCOME)
    nb.run_all()
    for game in GAMES:
        nb.wait_for("(sel) => !!document.querySelector(sel + ' [data-cell]')", f'[data-game="{game}"]')
    # the four boards share one row of the page (two columns at least at 1280 px)
    boxes = [nb.page.locator(f'[data-game="{g}"]').first.bounding_box() for g in GAMES]
    assert boxes[0]["y"] == pytest.approx(boxes[1]["y"], abs=40), boxes
    assert boxes[1]["x"] > boxes[0]["x"] + boxes[0]["width"] - 1, boxes

    # Gridlock: the reader's board is at its start after Run All (the code below plays on a board of its
    # own); X plays D4 by a click
    v = version(nb, "gridlock")
    assert v == 0, "a later cell played on the reader's Gridlock board"
    nb.page.locator('[data-game="gridlock"]').first.locator('[data-cell="D4"]').click()
    wait_version(nb, "gridlock", v + 1)
    # GridMaster4: orange's opening tile anywhere (GM-2)
    nb.page.locator('[data-game="gridmaster4"] [data-cell="E5"]').click()
    wait_version(nb, "gridmaster4", 1)
    # Block Four: X picks two cards from the hand and locks the bid in (hidden, BF-5)
    bf = nb.page.locator('[data-game="blockfour"]')
    hand = nb.evaluate(
        "() => Array.from(document.querySelectorAll("
        "'[data-game=\"blockfour\"] [data-card][data-player=\"0\"][data-where=\"hand\"]'), e => e.dataset.card)"
    )
    for card in hand[:2]:
        bf.locator(f'[data-card="{card}"][data-player="0"][data-where="hand"]').click()
    nb.wait_for("() => { const b = document.querySelector('[data-game=\"blockfour\"] [data-action=\"lock\"]');"
                " return !!b && !b.disabled; }")
    bf.locator('[data-action="lock"]').click()
    wait_version(nb, "blockfour", 1)
    # GridBloc: the runner steps off the start tile E5 to D4 (GB-3)
    nb.page.locator('[data-game="gridbloc"] [data-cell="D4"]').click()
    wait_version(nb, "gridbloc", 1)

    out = nb.run_code(
        "print([[str(m) for m in g.history] for g in boards.games], boards.games[2].pending_bids)"
    ).strip()
    assert out.startswith("[['D4'], ['E5'], [], ['D4']]"), out
    assert out.endswith("(True, False)"), out  # X has bid; the bid itself is in no history
    assert nb.errors() == []


def test_welcome_unrun_and_untrusted_shows_the_four_boards_as_pictures(open_notebook, tmp_path):
    """A fresh clone, opened before any cell runs: JupyterLab does not trust the
    notebook, so it draws no SVG output and strips SVG from HTML (which left a
    jumble of labels, "A B C D 1 2 3 4 ..."). The stored PNG is drawn."""
    nb = open_notebook(WELCOME)
    trusted = nb.evaluate(
        "(path) => { const p = window.__gw.panel(path); return p.content.model.cells.get(1).trusted; }", nb.path)
    assert trusted is False
    first = nb.page.locator(".jp-Cell").nth(1).locator(".jp-OutputArea-output")
    first.locator("img").first.wait_for(timeout=30_000)
    size = first.locator("img").first.evaluate("i => [i.naturalWidth, i.naturalHeight, i.src.slice(0, 22)]")
    assert size[0] > 600 and size[1] > 600 and size[2] == "data:image/png;base64,", size
    # no label jumble: the output holds no text of its own
    assert first.inner_text().strip() == ""
    assert first.locator("svg").count() == 0
    shots = os.environ.get("GRIDWIDGETS_SCREENSHOTS")  # a folder for the pictures of a closing note
    if shots:
        nb.page.screenshot(path=str(Path(shots) / "welcome_unrun.png"))
