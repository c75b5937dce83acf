"""The Gridlock widget in a real JupyterLab, driven through Debian's Chromium.

Notebook: ``gridlock_lab.ipynb`` (``g = gw.Gridlock(); w = g.widget(); w`` and
a second view ``w``).  Every wait is on a condition in the page (the root's
``data-version``, a cell's label, an output's text), never a sleep.
"""

from __future__ import annotations

import ast
import re

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

NOTEBOOK = "gridlock_lab.ipynb"
ROOT = '[data-game="gridlock"]'


# -- helpers ---------------------------------------------------------------


def versions(nb) -> list[int]:
    """The ``data-version`` of every view of the board, in page order."""
    return [
        int(v) for v in nb.evaluate("(sel) => Array.from(document.querySelectorAll(sel), e => e.dataset.version)", ROOT)
    ]


def wait_versions(nb, version: int, views: int = 2) -> None:
    """Wait until ``views`` views of the board all show ``version``."""
    nb.wait_for(
        """([sel, v, n]) => { const r = document.querySelectorAll(sel);
             return r.length === n && Array.from(r).every(e => e.dataset.version === String(v)); }""",
        [ROOT, version, views],
    )


def cell_texts(nb, name: str) -> list[str]:
    """What cell ``name`` shows in every view: its aria-label (e.g. ``"B2, X"``)."""
    return nb.evaluate(
        "([sel, name]) => Array.from(document.querySelectorAll(sel),"
        " r => r.querySelector(`[data-cell=\"${name}\"]`).getAttribute('aria-label'))",
        [ROOT, name],
    )


def role_texts(nb, role: str) -> list[str]:
    return nb.evaluate(
        "([sel, role]) => Array.from(document.querySelectorAll(sel),"
        " r => (r.querySelector(`[data-role=\"${role}\"]`) || {}).textContent || '')",
        [ROOT, role],
    )


def view(nb, index: int = 0):
    return nb.page.locator(ROOT).nth(index)


def content(label: str) -> str:
    """The content part of a cell's label: ``"B2, X"`` -> ``"X"``; ``"C2, empty, forbidden (GL-3)"`` -> ``"empty"``."""
    parts = [p.strip() for p in label.split(",")]
    return parts[1] if len(parts) > 1 else ""


def shows(label: str, marker: str) -> bool:
    return content(label) == marker


def empty(label: str) -> bool:
    return content(label) == "empty"


@pytest.fixture
def board(open_notebook):
    """The test notebook, opened and run: two views of one fresh game."""
    nb = open_notebook(NOTEBOOK)
    nb.run_all()
    nb.wait_for("(sel) => document.querySelectorAll(sel + '[data-version]').length === 2", ROOT)
    assert versions(nb)[0] == versions(nb)[1]
    return nb


# -- tests -----------------------------------------------------------------


def test_click_forbidden_code_cell_undo_roundtrip(board):
    nb = board
    v0 = versions(nb)[0]

    # a click plays X at B2, in both views
    view(nb, 0).locator('[data-cell="B2"]').click()
    wait_versions(nb, v0 + 1)
    assert all(shows(t, "X") for t in cell_texts(nb, "B2")), cell_texts(nb, "B2")
    for status in role_texts(nb, "status"):
        assert re.search(r"\bO\b", status) and "turn" in status, status

    # O clicks C2, next to X (GL-3): refused with the rule named, nothing changes
    view(nb, 0).locator('[data-cell="C2"]').click()
    nb.wait_for(
        "(sel) => { const m = document.querySelector(sel + ' [data-role=\"message\"]');"
        " return !!m && m.textContent.includes('GL-3'); }",
        ROOT,
    )
    assert versions(nb) == [v0 + 1, v0 + 1]
    assert all(empty(t) for t in cell_texts(nb, "C2")), cell_texts(nb, "C2")
    assert all(shows(t, "X") for t in cell_texts(nb, "B2"))
    assert all(re.search(r"\bO\b", s) for s in role_texts(nb, "status"))

    # a code cell plays O at D4: both views follow
    assert nb.run_code('g.play("D4")\nprint(g.history)') != ""
    wait_versions(nb, v0 + 2)
    assert all(shows(t, "O") for t in cell_texts(nb, "D4")), cell_texts(nb, "D4")
    for status in role_texts(nb, "status"):
        assert re.search(r"\bX\b", status), status

    # the undo button (second view) takes D4 back, in both views
    view(nb, 1).locator('[data-action="undo"]').click()
    wait_versions(nb, v0 + 3)
    assert all(empty(t) for t in cell_texts(nb, "D4")), cell_texts(nb, "D4")
    assert all(shows(t, "X") for t in cell_texts(nb, "B2"))

    # the kernel's game is the one the page shows
    out = nb.run_code("print([str(m) for m in g.history])")
    assert ast.literal_eval(out.strip()) == ["B2"], out
    out = nb.run_code("print([str(m) for m in g.future], g.current_player)")
    assert out.strip() == "['D4'] 1", out


def test_keyboard_plays_without_jupyterlab_shortcuts(board):
    nb = board
    v0 = versions(nb)[0]
    # command mode on the first cell: arrows would move the active cell, Enter
    # would enter edit mode, if JupyterLab saw the keys
    nb.evaluate(
        "(path) => { const nb = __gw.panel(path).content; nb.activeCellIndex = 0; nb.mode = 'command'; }",
        nb.path,
    )
    before = nb.evaluate(
        "(path) => { const p = __gw.panel(path).content;"
        " return {cells: p.model.cells.length, active: p.activeCellIndex, mode: p.mode,"
        " sources: Array.from(p.model.cells, c => c.sharedModel.getSource())}; }",
        nb.path,
    )
    # the board is the focusable grid; the keyboard cursor starts on A1
    view(nb, 0).locator('[role="grid"][tabindex]').focus()
    assert nb.evaluate(
        "(sel) => { const a = document.activeElement; return !!a && !!a.closest(sel)"
        " && !!a.closest('[data-lm-suppress-shortcuts]'); }",
        ROOT,
    ), "the focused board element is not inside [data-lm-suppress-shortcuts]"
    # A1 -> B1 -> B2 -> A2 -> A3 -> B3, then Enter plays B3; "b" means nothing
    # to the board but would insert a cell below in command mode
    for key in ("ArrowRight", "ArrowDown", "b", "ArrowLeft", "ArrowDown", "ArrowRight", "Enter"):
        nb.page.keyboard.press(key)
    wait_versions(nb, v0 + 1)
    after = nb.evaluate(
        "(path) => { const p = __gw.panel(path).content;"
        " return {cells: p.model.cells.length, active: p.activeCellIndex, mode: p.mode,"
        " sources: Array.from(p.model.cells, c => c.sharedModel.getSource())}; }",
        nb.path,
    )
    assert after == before, (before, after)
    assert all(shows(t, "X") for t in cell_texts(nb, "B3")), cell_texts(nb, "B3")
    out = nb.run_code("print([str(m) for m in g.history])")
    assert ast.literal_eval(out.strip()) == ["B3"], out


def test_screenshots_light_and_dark(board, tmp_path):
    """Screenshots of the board in both themes (in pytest's tmp dir); the board
    follows the theme (its empty tiles and status text change colour)."""
    nb = board
    v0 = versions(nb)[0]
    view(nb, 0).locator('[data-cell="B2"]').click()
    wait_versions(nb, v0 + 1)
    colours = {}
    try:
        for theme in ("JupyterLab Light", "JupyterLab Dark"):
            nb.set_theme(theme)
            # let the new theme's stylesheet apply: two animation frames
            nb.wait_for("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
            path = tmp_path / f"gridlock-{theme.split()[-1].lower()}.png"
            view(nb, 0).screenshot(path=str(path))
            assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            colours[theme] = nb.evaluate(
                """(sel) => { const r = document.querySelector(sel);
                     return { tile: getComputedStyle(r.querySelector('[data-cell="A1"] .gw-bg')).fill,
                              status: getComputedStyle(r.querySelector('[data-role="status"]')).color }; }""",
                ROOT,
            )
            print(f"{theme}: {path} {colours[theme]}")
    finally:
        nb.set_theme("JupyterLab Light")  # the theme is a user setting: shared by the session's tests
    light, dark = colours["JupyterLab Light"], colours["JupyterLab Dark"]
    assert light["tile"] != dark["tile"], colours
    assert light["status"] != dark["status"], colours
