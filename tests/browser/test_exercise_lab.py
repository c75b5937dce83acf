"""An exercise answered by clicking, in a real JupyterLab through Debian's Chromium.

Notebook: ``exercise_lab.ipynb`` (a win-in-2 set on a small board; ``w`` its
board in exercise mode, the exercise's side played by the exercise with a
short delay). A wrong click shows its refutation on the board move by move,
New game starts the exercise again, a right click is said and recorded in
the kernel. Every wait is on a condition in the page, never a sleep.
"""

from __future__ import annotations

import ast

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

ROOT = '[data-game="gridlock"]'


def message(nb) -> str:
    return nb.evaluate("(sel) => (document.querySelector(sel + ' [data-role=\"message\"]') || {}).textContent || ''",
                       ROOT)


def wait_message(nb, text: str) -> None:
    nb.wait_for("([sel, t]) => { const m = document.querySelector(sel + ' [data-role=\"message\"]');"
                " return !!m && m.textContent.includes(t); }", [ROOT, text])


def test_an_exercise_answered_wrong_then_right_by_clicking(open_notebook, tmp_path):
    nb = open_notebook("exercise_lab.ipynb")
    nb.run_all()
    nb.wait_for("(sel) => !!document.querySelector(sel + '[data-version]')", ROOT)
    out = nb.run_code("e = w.exercise; g = w.game\n"
                      "print([e.prompt, list(e.answers), [str(m) for m in g.legal_moves() if str(m) not in e.answers]])")
    prompt, answers, wrong = ast.literal_eval(out.strip())
    assert wrong, "the exercise has a wrong move to click"
    wait_message(nb, prompt)
    board = nb.page.locator(ROOT).first
    # nothing gives the answer away: no hints menu, no agents box, no undo or history
    for hidden in ['[data-role="hint-box"]', '[data-role="agents"]', '[data-action="undo"]', '[data-action="goto"]']:
        assert board.locator(hidden).first.is_hidden(), f"{hidden} is shown on an exercise board"

    # a wrong click: said, and the refutation plays itself on the board to the end
    board.locator(f'[data-cell="{wrong[0]}"]').click()
    wait_message(nb, f"Not {wrong[0]}")
    wait_message(nb, "refutation ends,")
    out = nb.run_code("print(g.is_over, g.winner == e.player, len(g.history) - len(e.position['history']))")
    over, won, played = out.split()
    assert (over, won) == ("True", "False") and int(played) >= 2, out
    board.screenshot(path=str(tmp_path / "exercise-wrong.png"))

    # New game starts the exercise again; a right click is said and recorded
    board.locator('[data-action="new"]').click()
    wait_message(nb, prompt)
    board.locator(f'[data-cell="{answers[0]}"]').click()
    wait_message(nb, f"Right: {answers[0]}")
    out = nb.run_code("print([(r['move'], r['right'], r['step']) for r in w.results])")
    assert ast.literal_eval(out.strip()) == [(wrong[0], False, 1), (answers[0], True, 1)], out
