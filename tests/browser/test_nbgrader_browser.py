"""An exercise assignment graded by nbgrader from the answers clicked on the board (issue 42).

For real, end to end, through nbgrader's own exchange as a course uses it: a
temporary course whose source is ``examples/nbgrader/source/board-exercises``
and a temporary exchange root (made writable by everyone, as nbgrader asks).
The teacher runs ``generate_assignment`` (hidden tests removed) and
``release_assignment``; two students run ``fetch_assignment`` into their own
folders. Alice's folder is served by JupyterLab and her copy opened through
Debian's Chromium, run, and answered by clicking the board (exercise 1 right
at the first try, exercise 2 wrong then right, exercise 3 unanswered); she
runs the check cell, and the kernel is shut down. Bob submits his fetched
copy without answering (no answers file), Carol a copy of Bob's with an
answers file that earns a point, damaged (its first line cut): both while
Alice clicks. All three ``submit``; the teacher runs ``collect``,
``autograde`` and ``generate_feedback``, and the gradebook's scores, the
graded cells and the feedback are checked against what the answers earn.

All the students are one Unix user here, so each student command names its
student (``--student``, which nbgrader's submit uses as the submission's
owner) and ``collect`` is told not to compare that name with the files'
owner (``--CollectApp.check_owner=False``); on a hub each student is their own
user and neither option is needed. Commands that do not depend on each other
(the fetches, the submits) run at the same time. Every wait is on
a condition (a page state, a process's end), never a sleep.

With ``GRIDWIDGETS_UPDATE_SCREENSHOTS=1`` it also writes the docs' pictures
(1280x720): ``docs/images/nbgrader-student-light.png`` / ``-dark.png`` (Alice's
notebook in JupyterLab, the board's answer and the check cell) and
``docs/images/nbgrader-feedback-light.png`` (her graded cell in the feedback
``generate_feedback`` writes).
"""

from __future__ import annotations

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
COURSE = "gw-board"
STUDENTS = ("alice", "bob", "carol")
UPDATE = os.environ.get("GRIDWIDGETS_UPDATE_SCREENSHOTS") == "1"
IMAGES = harness.REPO_ROOT / "docs" / "images"
#: the nbgrader commands started by this module, ended (by their own PID) if a test stops before they do
_STARTED: list[subprocess.Popen] = []
#: (command, seconds from its start to its end seen), printed at the end of the test
TIMES: list[tuple[str, float]] = []


@pytest.fixture(autouse=True)
def _end_nbgrader_commands():
    yield
    while _STARTED:
        proc = _STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=30)


def nbgrader_start(cwd: Path, args: list[str]) -> tuple[list[str], subprocess.Popen]:
    """Start the ``nbgrader`` command of this venv in ``cwd`` (a course or a student's folder)."""
    env, _dirs = harness.jupyter_env(Path(tempfile.mkdtemp(dir=cwd.parent, prefix="jupyter-")), "unused")
    env.pop("JUPYTER_TOKEN", None)
    env["PYTHONPATH"] = os.pathsep.join([str(harness.REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    # nbgrader runs alembic (its database) and kernels from PATH: this venv's bin first
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env["PATH"]
    cmd = [str(Path(sys.executable).parent / "nbgrader"), *args]
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    proc.started = time.monotonic()  # type: ignore[attr-defined]
    _STARTED.append(proc)
    return args, proc


def nbgrader_wait(*started: tuple[list[str], subprocess.Popen], timeout: float = 300) -> list[str]:
    """Wait for started ``nbgrader`` commands; their outputs (raises if one failed or outlived ``timeout`` s)."""
    outs, failed = [], []
    for args, proc in started:
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
            out += f"\n(timed out after {timeout} s)"
        outs.append(out)
        who = [a.split("=", 1)[1] for a in args if a.startswith("--student=")]
        TIMES.append((" ".join([args[0], *who]), time.monotonic() - proc.started))
        if proc.returncode != 0:
            failed.append(f"nbgrader {' '.join(args)} failed ({proc.returncode}):\n{out[-6000:]}")
    if failed:
        raise RuntimeError("\n".join(failed))
    return outs


def nbgrader(*runs: tuple[Path, list[str]], timeout: float = 300) -> list[str]:
    """Run ``nbgrader`` commands ``(cwd, args)`` at the same time; their outputs (raises if one fails)."""
    return nbgrader_wait(*[nbgrader_start(cwd, args) for cwd, args in runs], timeout=timeout)


def student(name: str, command: str, exchange: Path) -> list[str]:
    """A student's command: on a hub only ``command``, ``--course`` and the exchange (in a config)."""
    return [command, ASSIGNMENT, f"--course={COURSE}", f"--Exchange.root={exchange}", f"--student={name}"]


def wait_message(nb, text: str) -> None:
    nb.wait_for("([sel, t]) => { const m = document.querySelector(sel + ' [data-role=\"message\"]');"
                " return !!m && m.textContent.includes(t); }", [ROOT, text])


def run_cell(nb, grade_id: str) -> str:
    """Run the notebook's cell of this nbgrader ``grade_id`` as a student does (select it, Shift+Enter); its text."""
    return nb.evaluate(
        """async ([path, id, ms]) => {
            const app = window.jupyterapp, p = __gw.panel(path), nb = p.content;
            app.shell.activateById(p.id);
            const index = Array.from(nb.model.cells).findIndex(
                c => ((c.getMetadata ? c.getMetadata('nbgrader') : c.metadata.nbgrader) || {}).grade_id === id);
            if (index < 0) throw new Error('no cell ' + id);
            const cell = nb.model.cells.get(index), before = cell.executionCount;
            nb.activeCellIndex = index;
            nb.mode = 'command';
            await __gw.race(app.commands.execute('notebook:run-cell'), ms, 'run cell');
            const t0 = performance.now();
            while (cell.executionCount === null || cell.executionCount === before) {
                if (performance.now() - t0 > ms) throw new Error('cell did not finish');
                await new Promise(r => requestAnimationFrame(r));
            }
            return __gw.outputText(cell);
        }""",
        [nb.path, grade_id, nb.ms],
    )


def picture(nb, path: Path, theme: str) -> None:
    """The notebook as it is, in a JupyterLab theme: the board's output and the check cell's in view."""
    nb.set_theme(theme)
    nb.evaluate(
        """(sel) => {
            const board = document.querySelector(sel).closest('.jp-Cell');
            const check = board.nextElementSibling.nextElementSibling;
            check.scrollIntoView({block: 'end'});
            check.closest('.jp-WindowedPanel-outer').scrollTop += 12;
            return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));
        }""",
        ROOT,
    )
    nb.page.screenshot(path=str(path))


def show_folder(nb) -> None:
    """The file browser lists the answers file beside the notebook, its name in full."""
    nb.execute_command("filebrowser:refresh")
    nb.wait_for("(name) => [...document.querySelectorAll('.jp-DirListing-itemText')]"
                ".some(e => e.textContent === name)", ANSWERS)
    if nb.evaluate("() => !!document.querySelector('.jp-DirListing-headerItem.jp-id-modified')"):
        nb.execute_command("filebrowser:toggle-last-modified")
        nb.wait_for("() => !document.querySelector('.jp-DirListing-headerItem.jp-id-modified')")


def graded_cell_text(course: Path, name: str) -> str:
    nb = json.loads((course / "autograded" / name / ASSIGNMENT / NOTEBOOK).read_text())
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
    course, exchange = tmp_path / "course", tmp_path / "exchange"
    shutil.copytree(SOURCE, course / "source" / ASSIGNMENT)
    exchange.mkdir()
    exchange.chmod(0o777)  # nbgrader's exchange: a folder every user can write
    (course / "nbgrader_config.py").write_text(
        "c = get_config()\n"
        f"c.CourseDirectory.root = {str(course)!r}\n"
        f"c.CourseDirectory.course_id = {COURSE!r}\n"
        f"c.Exchange.root = {str(exchange)!r}\n")
    homes = {name: tmp_path / name for name in STUDENTS}
    for home in homes.values():
        home.mkdir()
    generating = nbgrader_start(course, ["generate_assignment", ASSIGNMENT, "--force"])
    home = homes["alice"]
    first, second = exercises[0], exercises[1]
    wrong = next(str(m) for m in second.start().legal_moves() if str(m) not in second.answers)
    with harness.JupyterLab(home) as lab:  # Alice's JupyterLab, started meanwhile
        nbgrader_wait(generating)
        release = course / "release" / ASSIGNMENT
        released = json.loads((release / NOTEBOOK).read_text())
        sources = ["".join(c["source"]) for c in released["cells"]]
        assert not any("HIDDEN TESTS" in s or "grade_answers(ANSWERS" in s for s in sources), "hidden tests released"
        assert (release / f"{ASSIGNMENT}.json").exists() and not (release / ANSWERS).exists()
        nbgrader((course, ["release_assignment", ASSIGNMENT]))
        assert (exchange / COURSE / "outbound" / ASSIGNMENT / NOTEBOOK).exists()

        # Alice and Bob fetch the assignment into their own folders
        nbgrader(*[(homes[name], student(name, "fetch_assignment", exchange)) for name in ("alice", "bob")])
        for folder in (homes["alice"], homes["bob"]):
            assert (folder / ASSIGNMENT / NOTEBOOK).read_bytes() == (release / NOTEBOOK).read_bytes()
            assert not (folder / ASSIGNMENT / ANSWERS).exists()
        fetched = time.monotonic()
        # while Alice clicks: Bob submits his copy as fetched, unanswered (no answers file); Carol a copy
        # of it with an answers file (exercise 1 answered right, as a click does) whose first line is cut
        shutil.copytree(homes["bob"] / ASSIGNMENT, homes["carol"] / ASSIGNMENT)
        damaged = homes["carol"] / ASSIGNMENT / ANSWERS
        exercises.widget(answers=damaged, delay=0).answer(first.answers[0])
        assert judge_answers(damaged, exercises).solved == (0,)
        damaged.write_bytes(b'{"format": "gridwidgets-ans' + damaged.read_bytes()[40:])
        others = [nbgrader_start(homes[name], student(name, "submit", exchange)) for name in ("bob", "carol")]

        # Alice's copy, answered by clicks in JupyterLab
        nb = browser.open_notebook(lab, f"{ASSIGNMENT}/{NOTEBOOK}")
        try:
            nb.page.set_viewport_size({"width": 1280, "height": 720})
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
            # she runs the check cell: her standing, judged as the grader will
            standing = run_cell(nb, "check")
            assert "2 of 3 exercises solved, 1 at the first try" in standing, standing
            rows = [line.split() for line in standing.splitlines() if line.strip()[:1].isdigit()]
            assert rows[-3:] == [["1", "1", "yes", "yes"], ["2", "2", "yes", "no"], ["3", "0", "no", "no"]], standing
            if UPDATE:
                show_folder(nb)
                picture(nb, IMAGES / "nbgrader-student-light.png", "JupyterLab Light")
                picture(nb, IMAGES / "nbgrader-student-dark.png", "JupyterLab Dark")
            # exercise 3: shown, not answered
            nb.page.locator("button.widget-button", has_text="Next").first.click()
            nb.page.locator(".widget-html", has_text="Exercise 3 of 3").first.wait_for()
            nb.execute_command("docmanager:save")
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

    # Alice submits her folder, the answers file in it
    nbgrader_wait(*others, nbgrader_start(home, student("alice", "submit", exchange)))
    inbound = sorted(p.name.split("+")[0] for p in (exchange / COURSE / "inbound").iterdir())
    assert inbound == sorted(STUDENTS)
    submitted = time.monotonic()

    # the teacher collects, grades and writes the feedback
    nbgrader((course, ["collect", ASSIGNMENT, "--CollectApp.check_owner=False"]))
    for name in STUDENTS:
        assert (course / "submitted" / name / ASSIGNMENT / NOTEBOOK).exists(), name
    assert not (course / "submitted" / "bob" / ASSIGNMENT / ANSWERS).exists()
    (out,) = nbgrader((course, ["autograde", ASSIGNMENT, "--force"]))
    graded = time.monotonic()
    nbgrader((course, ["generate_feedback", ASSIGNMENT, "--force"]))
    fed_back = time.monotonic()

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", COURSE) as gb:
        scores = {s: gb.find_submission(ASSIGNMENT, s).score for s in STUDENTS}
        cell = {s: gb.find_grade("grade-board", ASSIGNMENT, ASSIGNMENT, s) for s in STUDENTS}
        auto = {s: (g.auto_score, g.max_score) for s, g in cell.items()}
    assert scores == {"alice": 2.0, "bob": 0.0, "carol": 0.0}, out[-3000:]
    assert auto == {"alice": (2.0, 3.0), "bob": (0.0, 3.0), "carol": (0.0, 3.0)}
    alice = graded_cell_text(course, "alice")
    assert "2 of 3 solved, 1 at the first try -> 2 of 3 points" in alice and alice.strip().endswith("2.0"), alice
    assert "no answers file" in graded_cell_text(course, "bob")
    assert "is damaged: line 1 is not JSON" in graded_cell_text(course, "carol"), graded_cell_text(course, "carol")
    # the answers file graded is the one Alice clicked, carried by submit and collect
    assert (course / "autograded" / "alice" / ASSIGNMENT / ANSWERS).read_bytes() == answers.read_bytes()
    # the feedback each student gets back shows the graded cell's table and score
    feedback = course / "feedback" / "alice" / ASSIGNMENT / NOTEBOOK.replace(".ipynb", ".html")
    html = feedback.read_text()
    assert "2 of 3 solved, 1 at the first try" in html and "Score: 2.0 / 3.0" in html
    if UPDATE:
        page = browser.new_page()
        try:
            page.set_viewport_size({"width": 1280, "height": 720})
            page.goto(feedback.as_uri())
            # cropped from the check cell to the graded cell's result: what the student gets back
            top = page.locator('[id="cell-id=check"]').bounding_box()["y"] - 8
            graded_cell = page.locator('[id="cell-id=grade-board"]').bounding_box()
            bottom = graded_cell["y"] + graded_cell["height"] + 16
            page.screenshot(path=str(IMAGES / "nbgrader-feedback-light.png"), full_page=True,
                            clip={"x": 0, "y": top, "width": 1280, "height": bottom - top})
        finally:
            page.context.close()
    print(f"\nnbgrader end to end: {fetched - started:.1f} s to generate, release and fetch, "
          f"{clicked - fetched:.1f} s to click, {submitted - clicked:.1f} s for Alice to submit, "
          f"{graded - submitted:.1f} s to collect and autograde, {fed_back - graded:.1f} s for the feedback"
          f"\nnbgrader commands (s, from start to end seen): "
          + ", ".join(f"{cmd} {s:.1f}" for cmd, s in TIMES)
          + f"\n--- alice's graded cell ---\n{alice}")
