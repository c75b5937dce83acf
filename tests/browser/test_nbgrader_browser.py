"""An exercise assignment graded by nbgrader from the answers clicked on the board (issue 42).

For real, end to end: a temporary nbgrader course whose source is
``examples/nbgrader/source/board-exercises``; ``nbgrader generate_assignment``
makes the student version (hidden tests removed); a student's copy of the
release is opened in JupyterLab through Debian's Chromium, run, and answered
by clicking the board (exercise 1 right at the first try, exercise 2 wrong
then right, exercise 3 unanswered); the kernel is shut down and the folder
submitted (copied to ``submitted/<student>/`` with a ``timestamp.txt``, as
``nbgrader collect`` leaves it), beside two more submissions, one without
its answers file and one with it damaged; ``nbgrader autograde`` runs them
all, and the gradebook's scores are checked against what the answers earn.
Every wait is on a condition in the page, never a sleep.
"""

from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
pytest.importorskip("nbgrader", reason="nbgrader is not installed (pip extra 'nbgrader')")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

from gridwidgets.exercises import ExerciseSet, judge_answers

pytestmark = pytest.mark.browser

ASSIGNMENT = "board-exercises"
SOURCE = harness.REPO_ROOT / "examples" / "nbgrader" / "source" / ASSIGNMENT
NOTEBOOK = f"{ASSIGNMENT}.ipynb"
ANSWERS = f"{ASSIGNMENT}.answers.jsonl"
ROOT = '[data-game="gridlock"]'


def nbgrader(course: Path, *args: str, timeout: float = 300) -> str:
    """Run the ``nbgrader`` command of this venv in ``course``; its output (raises on failure)."""
    env, _dirs = harness.jupyter_env(Path(tempfile.mkdtemp(dir=course.parent, prefix="jupyter-")), "unused")
    env.pop("JUPYTER_TOKEN", None)
    env["PYTHONPATH"] = os.pathsep.join([str(harness.REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    # nbgrader runs alembic (its database) and kernels from PATH: this venv's bin first
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env["PATH"]
    cmd = [str(Path(sys.executable).parent / "nbgrader"), *args]
    proc = subprocess.run(cmd, cwd=course, env=env, capture_output=True, text=True, timeout=timeout)
    out = proc.stdout + proc.stderr
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({proc.returncode}):\n{out[-6000:]}")
    return out


def wait_message(nb, text: str) -> None:
    nb.wait_for("([sel, t]) => { const m = document.querySelector(sel + ' [data-role=\"message\"]');"
                " return !!m && m.textContent.includes(t); }", [ROOT, text])


def submit(student_dir: Path, course: Path, student: str) -> Path:
    """Copy a student's assignment folder to ``submitted/<student>/`` with a timestamp, as collect does."""
    dest = course / "submitted" / student / ASSIGNMENT
    shutil.copytree(student_dir, dest, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f %Z")
    (dest / "timestamp.txt").write_text(stamp)
    return dest


def graded_cell_text(course: Path, student: str) -> str:
    nb = json.loads((course / "autograded" / student / ASSIGNMENT / NOTEBOOK).read_text())
    cell = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade_id") == "grade-board")
    out = []
    for o in cell["outputs"]:
        if o["output_type"] == "stream":
            out.append("".join(o["text"]) if isinstance(o["text"], list) else o["text"])
        elif o["output_type"] == "execute_result":
            t = o["data"]["text/plain"]
            out.append("".join(t) if isinstance(t, list) else t)
        else:
            out.append(f"<{o['output_type']}: {o.get('ename', '')} {o.get('evalue', '')}>")
    return "\n".join(out)


def test_an_assignment_answered_by_clicks_is_graded_by_nbgrader(browser, tmp_path):
    started = time.monotonic()
    exercises = ExerciseSet.load(SOURCE / f"{ASSIGNMENT}.json")
    course = tmp_path / "course"
    shutil.copytree(SOURCE, course / "source" / ASSIGNMENT)
    (course / "nbgrader_config.py").write_text(
        "c = get_config()\n"
        f"c.CourseDirectory.root = {str(course)!r}\n"
        "c.CourseDirectory.course_id = 'gw-board'\n")
    nbgrader(course, "generate_assignment", ASSIGNMENT, "--force")
    release = course / "release" / ASSIGNMENT
    released = json.loads((release / NOTEBOOK).read_text())
    sources = ["".join(c["source"]) for c in released["cells"]]
    assert not any("HIDDEN TESTS" in s or "grade_answers(ANSWERS" in s for s in sources), "hidden tests released"
    assert (release / f"{ASSIGNMENT}.json").exists() and not (release / ANSWERS).exists()

    # the student's copy, answered by clicks in JupyterLab
    home = tmp_path / "alice"
    shutil.copytree(release, home / ASSIGNMENT)
    first, second = exercises[0], exercises[1]
    wrong = next(str(m) for m in second.start().legal_moves() if str(m) not in second.answers)
    with harness.JupyterLab(home) as lab:
        nb = browser.open_notebook(lab, f"{ASSIGNMENT}/{NOTEBOOK}")
        try:
            nb.run_all()
            nb.wait_for("(sel) => !!document.querySelector(sel + '[data-version]')", ROOT)
            board = nb.page.locator(ROOT).first
            label = nb.page.locator(".widget-html", has_text="Exercise 1 of 3").first
            label.wait_for()
            # exercise 1: right at the first try
            board.locator(f'[data-cell="{first.answers[0]}"]').click()
            wait_message(nb, f"Right: {first.answers[0]}")
            # exercise 2: wrong, the refutation shown, New game, then right
            nb.page.locator("button.widget-button", has_text="Next").first.click()
            nb.page.locator(".widget-html", has_text="Exercise 2 of 3").first.wait_for()
            wait_message(nb, second.prompt)
            board.locator(f'[data-cell="{wrong}"]').click()
            wait_message(nb, f"Not {wrong}")
            wait_message(nb, "refutation ends,")
            board.locator('[data-action="new"]').click()
            wait_message(nb, second.prompt)
            board.locator(f'[data-cell="{second.answers[0]}"]').click()
            wait_message(nb, f"Right: {second.answers[0]}")
            # exercise 3: shown, not answered
            nb.page.locator("button.widget-button", has_text="Next").first.click()
            nb.page.locator(".widget-html", has_text="Exercise 3 of 3").first.wait_for()
            nb.execute_command("docmanager:save")
            board.screenshot(path=str(tmp_path / "nbgrader-student-board.png"))
        finally:
            nb.close()
        for kernel in lab.api("GET", "/api/kernels"):  # the student closes the kernel
            lab.api("DELETE", f"/api/kernels/{kernel['id']}")
    clicked = time.monotonic()

    answers = home / ASSIGNMENT / ANSWERS
    lines = [json.loads(s) for s in answers.read_text().splitlines()]
    assert [(r["exercise"], r["attempt"], r["move"]) for r in lines[1:]] == [
        (0, 1, first.answers[0]), (1, 1, wrong), (1, 2, second.answers[0])]
    earned = judge_answers(answers, exercises)
    assert (earned.solved, earned.first_try, earned.problem) == ((0, 1), (0,), None)

    # three submissions: the clicked one, one without its answers file, one with it damaged
    submit(home / ASSIGNMENT, course, "alice")
    (submit(home / ASSIGNMENT, course, "bob") / ANSWERS).unlink()
    damaged = submit(home / ASSIGNMENT, course, "carol") / ANSWERS
    damaged.write_bytes(b'{"format": "gridwidgets-ans' + damaged.read_bytes()[40:])
    out = nbgrader(course, "autograde", ASSIGNMENT, "--force")
    graded = time.monotonic()

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", "gw-board") as gb:
        scores = {s: gb.find_submission(ASSIGNMENT, s).score for s in ("alice", "bob", "carol")}
        cell = {s: gb.find_grade("grade-board", ASSIGNMENT, ASSIGNMENT, s) for s in ("alice", "bob", "carol")}
        auto = {s: (g.auto_score, g.max_score) for s, g in cell.items()}
    assert scores == {"alice": 2.0, "bob": 0.0, "carol": 0.0}, out[-3000:]
    assert auto == {"alice": (2.0, 3.0), "bob": (0.0, 3.0), "carol": (0.0, 3.0)}
    alice = graded_cell_text(course, "alice")
    assert "2 of 3 solved, 1 at the first try -> 2 of 3 points" in alice and alice.strip().endswith("2.0"), alice
    assert "no answers file" in graded_cell_text(course, "bob")
    assert "is not an answers file" in graded_cell_text(course, "carol") or "damaged" in graded_cell_text(
        course, "carol"), graded_cell_text(course, "carol")
    # the submitted answers file is as the student left it
    assert (course / "autograded" / "alice" / ASSIGNMENT / ANSWERS).read_bytes() == answers.read_bytes()
    print(f"\nnbgrader end to end: {clicked - started:.1f} s to release and click, "
          f"{graded - clicked:.1f} s to autograde three submissions\n--- alice's graded cell ---\n{alice}")
