"""The answers file an exercise board writes (``ExerciseWidget(answers=...)``)
and its grading (``judge_answers``, ``grade_answers``): every line re-judged
from the notebook's set, never from the file's flags (issue 42)."""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gridwidgets as gw
from gridwidgets.exercises import (
    ANSWERS_FORMAT,
    MAX_ANSWER_LINE,
    MAX_ANSWERS_FILE,
    AnswersReport,
    ExerciseSet,
    grade_answers,
    judge_answers,
)


@pytest.fixture(scope="module")
def win1() -> ExerciseSet:
    """Three win-in-1 exercises on a 4x4 board (the example assignment's kind)."""
    return gw.exercises.generate("gridlock", kind="win-in", depth=1, n=3, seed=1, rows=4, cols=4)


@pytest.fixture(scope="module")
def win3() -> ExerciseSet:
    """Win-in-3 exercises: after the first right move, the other side has
    replies that defend (the solver then needs 2 more moves) and replies that
    do not (1 more move)."""
    return gw.exercises.generate("gridlock", kind="win-in", depth=3, n=3, seed=2, rows=4, cols=4)


def wrong_move(ex, game=None) -> str:
    g = game if game is not None else ex.start()
    return next(str(m) for m in g.legal_moves() if str(m) not in ex.answers)


def header(exercises: ExerciseSet) -> str:
    return json.dumps({"format": ANSWERS_FORMAT, "version": 1, "set": exercises.fingerprint,
                       "exercises": len(exercises)})


def record(exercise: int, attempt: int, line: list[str], **flags) -> str:
    return json.dumps({"exercise": exercise, "attempt": attempt, "step": 1, "line": line, "move": line[-1],
                       "time": "2026-11-29T12:00:00+00:00", "right": True, "solved": True, **flags})


def write(path: Path, *lines: str) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


# ----------------------------------------------------------------------
# recording
# ----------------------------------------------------------------------
def test_making_the_board_writes_nothing_and_a_submitted_file_stays_as_it_is(win1, tmp_path):
    path = tmp_path / "week3.answers.jsonl"
    w = win1.widget(answers=path, delay=0)
    assert not path.exists() and w.answers_path == path.absolute()
    w.answer(win1[0].answers[0])
    before = path.read_bytes()
    # the autograder re-runs the notebook: the board is made again, no answer is given
    win1.widget(answers=path, delay=0)
    win1.panel(answers=path, delay=0)
    assert path.read_bytes() == before


def test_every_answer_is_a_line_with_the_moves_from_the_start(win3, tmp_path):
    path = tmp_path / "a.jsonl"
    ex = win3[0]
    w = win3.widget(answers=path, delay=0)
    w.answer(wrong_move(ex))
    w.run()
    w.retry()
    w.answer(ex.answers[0])
    w.run()
    lines = [json.loads(s) for s in path.read_text().splitlines()]
    assert lines[0] == {"format": ANSWERS_FORMAT, "version": 1, "set": win3.fingerprint, "exercises": 3}
    first, second = lines[1], lines[2]
    assert (first["exercise"], first["attempt"], first["step"], first["right"]) == (0, 1, 1, False)
    assert first["line"] == [first["move"]]
    assert (second["attempt"], second["step"], second["line"], second["right"]) == (2, 1, [ex.answers[0]], True)
    # the second answer of the attempt: its line holds the other side's reply
    right = w._judge.right_moves(w.game, 1)
    w.answer(right[0])
    third = json.loads(path.read_text().splitlines()[3])
    assert third["step"] == 2 and len(third["line"]) == 3 and third["line"][0] == ex.answers[0]
    assert third["line"][2] == right[0] and third["move"] == right[0]


def test_attempts_go_on_counting_after_the_kernel_restarts(win1, tmp_path):
    path = tmp_path / "a.jsonl"
    w = win1.widget(answers=path, delay=0)
    w.answer(wrong_move(win1[0]))
    w2 = win1.widget(answers=path, delay=0)  # a new kernel, the same file
    w2.answer(win1[0].answers[0])
    attempts = [json.loads(s)["attempt"] for s in path.read_text().splitlines()[1:]]
    assert attempts == [1, 2]
    report = judge_answers(path, win1)
    assert report.solved == (0,) and report.first_try == ()


def test_a_file_of_another_set_is_refused_when_the_board_is_made(win1, win3, tmp_path):
    path = tmp_path / "a.jsonl"
    win3.widget(answers=path, delay=0).answer(win3[0].answers[0])
    before = path.read_bytes()
    with pytest.raises(ValueError, match="another exercise set"):
        win1.widget(answers=path)
    assert path.read_bytes() == before


def test_answers_from_two_threads_are_whole_lines(win1, tmp_path):
    path = tmp_path / "a.jsonl"
    boards = [win1.widget(answers=path, delay=0) for _ in range(2)]
    boards[1].show(1)

    def answer(w, ex):
        for _ in range(20):
            w.answer(wrong_move(ex))
            w.retry()

    threads = [threading.Thread(target=answer, args=(w, win1[i])) for i, w in enumerate(boards)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = path.read_text().splitlines()
    assert len(lines) == 41 and all(json.loads(s) for s in lines)
    assert judge_answers(path, win1).attempts == (20, 20, 0)


# ----------------------------------------------------------------------
# judging
# ----------------------------------------------------------------------
def test_right_wrong_and_unanswered_earn_what_they_should(win1, tmp_path):
    path = tmp_path / "a.jsonl"
    w = win1.widget(answers=path, delay=0)
    w.answer(win1[0].answers[0])
    w.show(1)
    w.answer(wrong_move(win1[1]))
    w.run()
    w.retry()
    w.answer(win1[1].answers[0])
    report = judge_answers(path, win1)
    assert report == AnswersReport(3, (0, 1), (0,), (1, 2, 0), None)
    assert grade_answers(path, win1, 3) == 2.0
    assert grade_answers(path, win1, 3, first_try=True) == 1.0
    assert type(grade_answers(path, win1, 6)) is float


def test_forged_right_flags_earn_nothing(win1, tmp_path):
    ex = win1[0]
    path = write(tmp_path / "a.jsonl", header(win1), record(0, 1, [wrong_move(ex)], right=True, solved=True))
    assert judge_answers(path, win1).solved == ()
    # and a right move whose flags say wrong still counts: the flags are never read
    write(path, header(win1), record(0, 1, [ex.answers[0]], right=False, solved=False))
    assert judge_answers(path, win1).solved == (0,)


def test_a_line_not_from_the_exercise_start_or_with_a_bad_reply_earns_nothing(win3, tmp_path):
    ex = win3[0]
    g = ex.start()
    g.play(g.parse_move(ex.answers[0]))
    judge = ex.judge()
    replies = [str(m) for m in g.legal_moves()]
    good = [m for m in replies if judge.could_reply(g, m)]
    weak = [m for m in replies if m not in good]
    assert good and weak, "the fixture has a defending and a non-defending reply"

    def finish(reply: str) -> list[str]:
        """The solver's right moves to the end after ``reply``, the best defence between."""
        line = [ex.answers[0], reply]
        h = g.copy()
        h.play(h.parse_move(reply))
        own = 1
        while True:
            move = judge.right_moves(h, own)[0]
            line.append(move)
            h.play(h.parse_move(move))
            own += 1
            if judge.finished(h, own):
                return line
            r = judge.reply(h)
            line.append(str(r))
            h.play(r)

    path = tmp_path / "a.jsonl"
    write(path, header(win3), record(0, 1, finish(good[0])))
    assert judge_answers(path, win3).first_try == (0,)
    # the other side played a move that does not defend: the line is forged
    write(path, header(win3), record(0, 1, finish(weak[0])))
    assert judge_answers(path, win3).solved == ()
    # an illegal reply (an occupied cell), a move after the end, a line ending on the other side's move
    occupied = ex.answers[0]
    write(path, header(win3), record(0, 1, [ex.answers[0], occupied, *finish(good[0])[2:]]),
          record(0, 2, [*finish(good[0]), good[0]]), record(0, 3, finish(good[0])[:2]))
    assert judge_answers(path, win3).solved == ()
    # an attempt's lines that do not lead to one another are not one attempt
    write(path, header(win3), record(0, 1, [wrong_move(ex)]), record(0, 1, finish(good[0])))
    assert judge_answers(path, win3).solved == ()


@pytest.mark.parametrize("content, words", [
    (None, "no answers file"),
    ("", "empty"),
    ('{"format": "gridwidgets-answers", "vers', "not JSON"),
    ('{"format": "something-else"}\n', "not an answers file"),
    ('[1, 2]\n', "not an answers file"),
    ("HEADER\n" + '{"exercise": 0, "attempt": 1}\n' + "{}\n", "damaged: line 2"),
    ("HEADER\n" + "x" * (MAX_ANSWER_LINE + 1) + "\n", "line 2 is too long"),
    ("HEADER\n" + "[" * 5000 + "\n", "line 2 is not JSON"),
])
def test_a_missing_or_damaged_file_gives_0_and_says_why(win1, tmp_path, capsys, content, words):
    path = tmp_path / "a.jsonl"
    if content is not None:
        path.write_text(content.replace("HEADER", header(win1)))
    report = judge_answers(path, win1)
    assert report.solved == () and words in (report.problem or "")
    assert grade_answers(path, win1, 3) == 0.0
    out, err = capsys.readouterr()
    assert words in out and err == ""


def test_a_file_of_another_set_gives_0(win1, win3, tmp_path):
    path = write(tmp_path / "a.jsonl", header(win3), record(0, 1, [win1[0].answers[0]]))
    report = judge_answers(path, win1)
    assert report.solved == () and "another exercise set" in report.problem


def test_a_last_line_cut_short_is_left_out(win1, tmp_path):
    path = write(tmp_path / "a.jsonl", header(win1), record(0, 1, [win1[0].answers[0]]))
    path.write_text(path.read_text() + record(1, 1, [win1[1].answers[0]])[:30])
    report = judge_answers(path, win1)
    assert report.solved == (0,) and report.problem is None
    # the next answer starts a line of its own
    w = win1.widget(answers=path, delay=0)
    w.show(1)
    w.answer(win1[1].answers[0])
    assert judge_answers(path, win1).solved == (0, 1)


def test_a_file_too_large_gives_0_without_reading_it_all(win1, tmp_path):
    path = tmp_path / "a.jsonl"
    with open(path, "w") as f:
        f.write(header(win1) + "\n")
        line = record(0, 1, [win1[0].answers[0]]) + "\n"
        f.write(line * (MAX_ANSWERS_FILE // len(line) + 2))
    report = judge_answers(path, win1)
    assert report.solved == () and "too large" in report.problem


def test_many_attempts_are_judged_once_decided(win1, tmp_path):
    """20,000 lines of the same exercise: it is decided at the first and the rest skipped."""
    lines = [record(0, k + 1, [win1[0].answers[0]]) for k in range(19_999)]
    path = write(tmp_path / "a.jsonl", header(win1), *lines)
    assert judge_answers(path, win1).first_try == (0,)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=3000), prefix=st.booleans())
def test_random_bytes_never_raise(win1, tmp_path, data, prefix):
    path = tmp_path / "random.jsonl"
    path.write_bytes((header(win1).encode() + b"\n" if prefix else b"") + data)
    points = grade_answers(path, win1, 3)
    assert isinstance(points, float) and 0.0 <= points <= 3.0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records=st.lists(st.fixed_dictionaries({
    "exercise": st.integers(-1, 4), "attempt": st.integers(0, 3), "step": st.integers(0, 3),
    "line": st.lists(st.sampled_from(["A1", "B1", "C1", "D1", "A2", "B2", "C4", "Z9", "", "pass"]), max_size=4),
    "right": st.booleans(), "solved": st.booleans()}), max_size=8))
def test_random_records_never_raise_and_earn_only_right_lines(win1, tmp_path, records):
    path = tmp_path / "records.jsonl"
    write(path, header(win1), *(json.dumps(r) for r in records))
    report = judge_answers(path, win1)
    for i in report.solved:
        assert any(r["exercise"] == i and r["line"] and r["line"][0] in win1[i].answers for r in records)
    assert 0.0 <= grade_answers(path, win1, 3) <= 3.0


def test_bad_points_are_the_teachers_error(win1, tmp_path):
    with pytest.raises(ValueError, match="points"):
        grade_answers(tmp_path / "a.jsonl", win1, 0)


# ----------------------------------------------------------------------
# the example assignment, run with no front end (as nbgrader's autograder does)
# ----------------------------------------------------------------------
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "nbgrader" / "source" / "board-exercises"


@pytest.mark.parametrize("answers, expected", [("clicked", 2.0), ("missing", 0.0), ("damaged", 0.0)])
def test_the_example_notebook_runs_headless_and_nbgrader_reads_its_points(tmp_path, answers, expected):
    """Every cell runs with no browser (nothing waits for a front end), and
    nbgrader's own ``determine_grade`` reads the graded cell's points."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    utils = pytest.importorskip("nbgrader.utils")
    folder = tmp_path / "board-exercises"
    shutil.copytree(EXAMPLE, folder)
    ex = ExerciseSet.load(folder / "board-exercises.json")
    path = folder / "board-exercises.answers.jsonl"
    if answers != "missing":
        w = ex.widget(answers=path, delay=0)
        w.answer(ex[0].answers[0])
        w.show(1)
        w.answer(wrong_move(ex[1]))
        w.retry()
        w.answer(ex[1].answers[0])
    if answers == "damaged":
        path.write_bytes(path.read_bytes()[:50] + b"\x00garbage")
    before = path.read_bytes() if path.exists() else None
    nb = nbformat.read(folder / "board-exercises.ipynb", as_version=4)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(EXAMPLE.parents[3]), os.environ.get("PYTHONPATH", "")]))
    client = nbclient.NotebookClient(nb, timeout=120, allow_errors=True, resources={"metadata": {"path": str(folder)}},
                                     kernel_name="python3")
    client.execute(env=env)
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "grade-board")
    assert utils.determine_grade(cell) == (expected, 3.0)
    assert (path.read_bytes() if path.exists() else None) == before  # the run wrote nothing


def test_judging_stops_at_its_time_limit_and_says_so(win1, tmp_path, monkeypatch, capsys):
    import gridwidgets.exercises as exercises

    path = write(tmp_path / "a.jsonl", header(win1), record(0, 1, [win1[0].answers[0]]))
    monkeypatch.setattr(exercises, "JUDGE_SECONDS", -1.0)
    report = judge_answers(path, win1)
    assert report.solved == () and "judging stopped" in report.problem
    assert grade_answers(path, win1, 3) == 0.0 and "judging stopped" in capsys.readouterr().out
