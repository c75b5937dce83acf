"""The pages' parts for the class-wide activities: a class poll (the
student's answer board, the teacher's heat map, the reveal) and an exercise
set given to a room (the student's exercise board, the teacher's live table,
the heat map of an exercise's wrong answers, the downloads).

Solara components, drawn by :mod:`gridwidgets.rooms.app`'s pages; what they
do is :class:`~gridwidgets.rooms.Room`'s (``open_poll``, ``answer_poll``,
``reveal_poll``, ``assign_exercises``, ...), the same methods a notebook calls.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from html import escape
from typing import Any

import solara

from . import classwork, exports
from .board import exercise_board, poll_board
from .model import Room, RoomError
from .pageutil import safe_action as _safe
from .polls import Poll

__all__ = ["MAX_DROPPED", "SOURCES", "AskClass", "ExercisePanel", "ExerciseSeat", "PollPanel", "PollSeat",
           "game_label", "game_labels", "read_dropped"]

#: where the teacher's form takes a poll's position from
SOURCES = {"game": "A game of this room", "exercise": "An exercise of the room's set",
           "file": "A save file or a position"}

CSS = """
.gw-poll-head { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: baseline; }
.gw-poll-count { font-size: 20px; font-weight: 700; }
.gw-poll-board { max-width: 640px; }
.gw-poll-table table { border-collapse: collapse; font-size: 15px; }
.gw-poll-table th, .gw-poll-table td { border-bottom: 1px solid #d1d5db; padding: 4px 10px; text-align: left; }
.gw-poll-table td.gw-num { text-align: right; font-variant-numeric: tabular-nums; }
.gw-ex-table table { border-collapse: collapse; font-size: 15px; }
.gw-ex-table th, .gw-ex-table td { border: 1px solid #d1d5db; padding: 3px 8px; text-align: center; }
.gw-ex-table th:first-child, .gw-ex-table td:first-child { text-align: left; }
.gw-rooms textarea { font-family: "DejaVu Sans Mono", monospace; font-size: 13px; }
"""


#: the largest file the teacher's page reads (an exercise set's file is at most 5 MB: ``exercises.MAX_FILE``)
MAX_DROPPED = 5_000_000


def read_dropped(file: Any) -> str:
    """The text of a file dropped on the teacher's page (Solara's ``FileInfo``), at most :data:`MAX_DROPPED` bytes.

    Raises:
        ValueError: a larger file, or one that is not UTF-8 text.
    """
    size = file.get("size")  # what the page says (it may say anything): only a hint, the read below decides
    if isinstance(size, int) and size > MAX_DROPPED:
        raise ValueError(f"that file has more than {MAX_DROPPED:,} bytes: not a save file nor an exercise set")
    data = file["file_obj"].read(MAX_DROPPED + 1)
    if len(data) > MAX_DROPPED:
        raise ValueError(f"that file has more than {MAX_DROPPED:,} bytes: not a save file nor an exercise set")
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("that file is not text (UTF-8): not a save file nor an exercise set") from None


def _p(inner_html: str, cls: str = "") -> None:
    solara.HTML(tag="p", unsafe_innerHTML=inner_html, classes=[cls] if cls else [])


def game_label(room: Room, rg: Any) -> str:
    """A game of ``room`` as people name it: its round and its players, ``"Round 2: Ann vs Bob"``."""
    return f"Round {rg.round}: " + " vs ".join(room.player_name(rg, p) for p in range(len(rg.players)))


def game_labels(room: Room, games: list[Any]) -> dict[str, str]:
    """``{game id (str): label}`` for a menu of ``games`` (:func:`game_label`; a label two games would
    share, e.g. a game started again, gets the game's number too)."""
    labels = {str(rg.id): game_label(room, rg) for rg in games}
    seen: dict[str, int] = {}
    for label in labels.values():
        seen[label] = seen.get(label, 0) + 1
    return {gid: label if seen[label] == 1 else f"{label} (game {gid})" for gid, label in labels.items()}


# -- the student's page ----------------------------------------------------------------------------------
@solara.component
def PollSeat(room: Room, poll: Poll, token: str, state: str) -> None:
    """A student's page during a poll: the position, to answer with one move
    (``state``, the poll's, redraws the board's status when the teacher
    closes or reveals it)."""
    board = solara.use_memo(lambda: poll_board(poll, room=room, token=token, fit="screen"), [poll.id, token])
    solara.use_effect(lambda: board.close, [board])
    solara.use_effect(board.refresh, [state])
    solara.HTML(tag="h2", unsafe_innerHTML="Class poll", classes=["gw-poll-title"])
    who = escape(poll.game.player_label(poll.player))
    if state == "open":
        _p(f"What would you play for <b>{who}</b>? Choose one move, as in a game; you can change it until the "
           "teacher closes the poll. Nobody sees your answer but the teacher.", "gw-poll-ask")
    else:
        _p("The poll is closed: look at the teacher's screen.", "gw-poll-ask")
    solara.display(board)


@solara.component
def ExerciseSeat(room: Room, assignment: Any, token: str) -> None:
    """A student's page while the room has an exercise set: the exercise
    mode, one exercise at a time, at the student's own pace."""
    board = solara.use_memo(lambda: exercise_board(room, assignment, token, fit="screen"), [assignment.id, token])
    solara.use_effect(lambda: board.close, [board])
    index, set_index = solara.use_state(board.index)
    n = len(assignment.exercises)

    def go(i: int) -> None:
        board.show(i)
        set_index(i)

    solara.HTML(tag="h2", unsafe_innerHTML=f"Exercise {index + 1} of {n}", classes=["gw-ex-title"])
    _p(escape(assignment.exercises[index].prompt), "gw-ex-prompt")
    solara.display(board)
    with solara.Row(style={"gap": "12px", "flex-wrap": "wrap"}):
        solara.Button("Previous", on_click=lambda: go(index - 1), disabled=index == 0, outlined=True,
                      classes=["gw-ex-previous"])
        solara.Button("Try again", on_click=lambda: go(index), outlined=True, classes=["gw-ex-retry"])
        solara.Button("Next", on_click=lambda: go(index + 1), disabled=index + 1 >= n, color="primary",
                      classes=["gw-ex-next"])


# -- the teacher's page ------------------------------------------------------------------------------------
@solara.component
def AskClass(room: Room, key: Callable[[], str], on_close: Callable[[], None]) -> None:
    """The teacher's form that puts a position on every student's screen."""
    games = list(room.games)
    source, set_source = solara.use_state("game")
    game_id, set_game_id = solara.use_state(str(games[-1].id) if games else "")
    step, set_step = solara.use_state(-1)
    exercise, set_exercise = solara.use_state(0)
    text, set_text = solara.use_state("")
    live, set_live = solara.use_state(False)
    error, set_error = solara.use_state("")
    offered = {k: v for k, v in SOURCES.items() if k != "exercise" or room.assignments}

    def open_poll() -> None:
        if source == "game":
            rg = room.game(int(game_id) if isinstance(game_id, str) and game_id.isascii() and game_id.isdigit()
                           and len(game_id) < 12 else -1)
            at = None if step < 0 else step
            label = game_label(room, rg)
            # the poll copies the game (under its lock)
            room.open_poll(key(), rg.game, step=at, label=label + (f", step {at}" if at is not None else ""),
                           live_answers=live)
        elif source == "exercise":
            a = room.assignments[-1]
            room.open_poll(key(), a.exercises[exercise], label=f"exercise {exercise + 1}", live_answers=live)
        else:
            room.open_poll(key(), text, live_answers=live)
        on_close()

    with solara.Card("Ask the class one position", classes=["gw-ask"]):
        back = {label: k for k, label in offered.items()}
        solara.Select("Where from", value=offered.get(source, SOURCES["game"]), values=list(back),
                      on_value=lambda label: set_source(back.get(label, "game")), classes=["gw-ask-source"])
        if source == "game":
            if not games:
                _p("No game in this room yet.")
            else:
                labels = game_labels(room, games)
                ids = {label: gid for gid, label in labels.items()}
                solara.Select("Game", value=labels.get(game_id, labels[str(games[-1].id)]),
                              values=list(ids), on_value=lambda label: set_game_id(ids.get(label, game_id)),
                              classes=["gw-ask-game"])
                rg = room.game(int(game_id)) if game_id in labels else games[-1]
                total = len(rg.game.steps) + len(rg.game.future_steps)
                with solara.Div(classes=["gw-ask-step"]):
                    solara.SliderInt("Step (-1: its position now)", value=step, min=-1, max=total,
                                     on_value=set_step, thumb_label="always")
        elif source == "exercise":
            a = room.assignments[-1]
            with solara.Div(classes=["gw-ask-exercise"]):
                solara.SliderInt("Exercise", value=exercise + 1, min=1, max=len(a.exercises),
                                 on_value=lambda v: set_exercise(v - 1), thumb_label="always")
        else:
            with solara.Div(classes=["gw-ask-file"]):
                solara.InputTextArea("Paste a save file (a game's Export, to_json()) or a position (position())",
                                     value=text,
                                     on_value=set_text, continuous_update=True, rows=4)
            solara.FileDrop("…or drop a save file here (.json)",
                            on_file=lambda f: _safe(lambda: set_text(read_dropped(f)), set_error)())
        with solara.Div(classes=["gw-ask-live"]):
            solara.Checkbox(label="Show the answers live, before I close the poll (on the projector too)",
                            value=live, on_value=set_live)
        with solara.Row(style={"gap": "12px"}):
            solara.Button("Put it on every screen", on_click=_safe(open_poll, set_error), color="primary",
                          classes=["gw-open-poll"])
            solara.Button("Cancel", on_click=on_close, text=True)
        if error:
            solara.Error(error, classes=["gw-ask-error"])


@solara.component
def PollPanel(room: Room, poll: Poll, key: Callable[[], str] | None, version: Any) -> None:
    """A poll on the teacher's page (``key`` given: with its controls) or the
    projector's (``key`` None): how many answered; once the poll is closed (or
    live, :attr:`Poll.live_answers`) the heat map on the board and the table
    of the answers; once revealed the analysis next to the class's choices.
    Both pages show the same (the teacher's screen is often projected). Names
    are hidden unless the teacher shows them (the teacher's page only)."""
    names_shown, set_names_shown = solara.use_state(False)
    error, set_error = solara.use_state("")
    # the projector's board as large as its window allows (read from the back of the room)
    board = solara.use_memo(lambda: poll_board(poll, fit="screen" if key is not None else "big"), [poll.id])
    solara.use_effect(lambda: board.close, [board])
    solara.use_effect(board.refresh, [version, poll.analysed])
    seated = len(room.seats)
    answered = sum(1 for t in poll.answers if t in room.seats)
    with solara.Card(classes=["gw-poll"]):
        with solara.Div(classes=["gw-poll-head"]):
            # where it comes from names the game's players ("game 3 (Ann vs Bob)"): on the projector only
            # when the teacher shows names there (Room.projector_names)
            named = key is not None or room.projector_names == "name"
            solara.HTML(tag="h2", unsafe_innerHTML="Class poll" + (f": {escape(poll.source)}" if named else ""))
            solara.HTML(tag="span", unsafe_innerHTML=f"{answered} of {seated} answered",
                        classes=["gw-poll-count"], attributes={"aria-live": "polite"})
            state = {"open": "open: answers are taken", "closed": "closed", "revealed": "revealed"}.get(poll.state, "")
            solara.Text(f"{poll.game.player_label(poll.player)} to choose · {state}", classes=["gw-poll-state"])
        if key is not None:
            with solara.Row(style={"gap": "12px", "flex-wrap": "wrap"}):
                # every button stays where it is (disabled once done): none moves under the teacher's pointer
                solara.Button("Close answers", on_click=_safe(lambda: room.close_poll(key()), set_error),
                              color="warning", classes=["gw-close-poll"], disabled=poll.state != "open")
                solara.Button("Reveal", on_click=_safe(lambda: room.reveal_poll(key()), set_error),
                              color="primary", classes=["gw-reveal-poll"], disabled=poll.state == "revealed")
                solara.Button("End the poll (back to the games)", on_click=_safe(lambda: room.end_poll(key()),
                                                                                   set_error),
                              outlined=True, classes=["gw-end-poll"])
                if poll.state == "open":
                    solara.Button("Hide the answers until closed" if poll.live_answers else "Show the answers live",
                                  text=True, classes=["gw-poll-live"],
                                  on_click=_safe(lambda: room.set_poll_live(key(), not poll.live_answers), set_error))
                solara.Button("Hide names" if names_shown else "Show names", text=True,
                              on_click=lambda: set_names_shown(not names_shown), classes=["gw-poll-names"],
                              disabled=not poll.answers_shown)
        if error:
            solara.Error(error)
        with solara.Div(classes=["gw-poll-board" if key is not None else "gw-poll-board-big"]):
            solara.display(board)
        if poll.state == "revealed" and not poll.analysed:
            solara.Info("Analysing the position…", classes=["gw-poll-analysing"])
        names = {t: room.name_of(t) for t in poll.answers} if (names_shown and key is not None) else None
        _poll_table(poll, names)


def _poll_table(poll: Poll, names: dict[str, str] | None) -> None:
    if not poll.answers_shown:
        _p("The answers are shown here once the poll is closed.", "gw-poll-hidden")
        return
    rows = poll.table(names)
    if not rows:
        _p("No answer yet.", "gw-poll-empty")
        return
    revealed = poll.state == "revealed" and poll.analysed
    analysis = poll._analysis or {}
    mix = bool(analysis.get("mix")) and revealed
    head = ["Move", "Answers", "Share"] + (["Equilibrium mix"] if mix else ["Value"] if revealed else []) + (
        ["Who"] if names is not None else [])
    body = []
    # the moves nobody chose are summed up, but for the analysis's best ones (at most 5; none when every move is best)
    unchosen = [r for r in rows if not r["answers"]]
    all_best = bool(unchosen) and all(r.get("best") for r in rows)
    keep = [r for r in unchosen if (r.get("best") and not all_best) or r.get("mix", 0.0) > 0.0][:5]
    rest = [r for r in unchosen if r not in keep]
    rows = [r for r in rows if r["answers"]] + keep
    for r in rows:
        cells = [f"<td>{escape(r['move'])}</td>", f"<td class='gw-num'>{r['answers']}</td>",
                 f"<td class='gw-num'>{r['share']:.0%}</td>"]
        if mix:
            cells.append(f"<td class='gw-num'>{r.get('mix', 0.0):.0%}</td>")
        elif revealed:
            v = r.get("value")
            word = r.get("verdict", "")
            shown = "" if v is None else (word if analysis.get("kind") == "solve" else f"{v:+.2f} ({word})")
            cells.append(f"<td>{escape(shown)}</td>")
        if names is not None:
            cells.append(f"<td class='gw-names'>{escape(', '.join(r.get('who', [])))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    if rest:
        verdicts = sorted({str(r.get("verdict", "")) for r in rest} - {""})
        said = f" ({', '.join(verdicts)})" if verdicts and analysis.get("kind") == "solve" else ""
        body.append(f"<tr><td colspan='{len(head)}'>and {len(rest)} more move{'s' if len(rest) != 1 else ''} nobody "
                    f"chose{escape(said)}</td></tr>")
    caption = escape(analysis.get("message", "")) if revealed else "The class's answers."
    solara.HTML(tag="div", unsafe_innerHTML=f"<table><caption>{caption}</caption><thead><tr>"
                + "".join(f"<th scope='col'>{h}</th>" for h in head) + "</tr></thead><tbody>" + "".join(body)
                + "</tbody></table>", classes=["gw-poll-table"])


@solara.component
def ExercisePanel(room: Room, key: Callable[[], str], version: Any) -> None:
    """The teacher's exercise sets: give one to the room (generated, or
    pasted from its file), the live table (students x exercises, hardest
    first), an exercise's wrong answers as a heat map, the CSV."""
    from ..exercises import generate, kinds
    from ..menu import start_game

    options = solara.use_memo(lambda: start_game(room.game_name, room.board).options(), [room.game_name, room.board])
    offered = solara.use_memo(lambda: kinds(room.game_name, **options), [room.game_name, room.board])
    kind, set_kind = solara.use_state(offered[0] if offered else "")
    count, set_count = solara.use_state(6)
    depth, set_depth = solara.use_state(2)
    text, set_text = solara.use_state("")
    error, set_error = solara.use_state("")
    busy, set_busy = solara.use_state(False)
    shown, set_shown = solara.use_state(-1)
    a = room.assignment

    def make() -> None:
        if busy or room.assignment is not a:  # a second click, or a set given meanwhile: nothing more
            return
        token = key()
        set_busy(True)

        def work() -> None:
            try:
                exercises = generate(room.game_name, kind=kind, depth=depth, n=count, seed=secrets.randbelow(10**6),
                                     **options)
                room.assign_exercises(token, exercises)
                set_error("")
            except (RoomError, ValueError) as exc:
                set_error(str(exc))
            finally:
                set_busy(False)

        threading.Thread(target=work, name="gridwidgets-exercises", daemon=True).start()

    def give(source: str) -> None:
        if room.assignment is a:  # the set the page showed (none): a second click gives nothing more
            room.assign_exercises(key(), source)

    with solara.Card("Exercises for the class", classes=["gw-exercises"]):
        if a is None:
            if offered:
                with solara.Row(style={"gap": "12px", "flex-wrap": "wrap", "align-items": "center"}):
                    solara.Select("Kind", value=kind, values=offered, on_value=set_kind, classes=["gw-ex-kind"])
                    solara.InputInt("How many", value=count, on_value=lambda v: set_count(max(1, min(30, v))),
                                    classes=["gw-ex-count"])
                    solara.InputInt("Depth (own moves)", value=depth,
                                    on_value=lambda v: set_depth(max(1, min(4, v))), classes=["gw-ex-depth"])
                    solara.Button("Make and give to the room", on_click=_safe(make, set_error), color="primary",
                                  disabled=busy, classes=["gw-ex-make"])
                if busy:
                    solara.Info("Making the exercises (the solver checks each one)…")
            with solara.Div(classes=["gw-ex-file"]):
                solara.InputTextArea("…or paste an exercise set's file (ExerciseSet.save)", value=text,
                                     on_value=set_text, continuous_update=True, rows=3)
            solara.Button("Give this set to the room", disabled=not text.strip(), outlined=True,
                          on_click=_safe(lambda: give(text), set_error),
                          classes=["gw-ex-give"])
            solara.FileDrop("…or drop the set's file here (.json)",
                            on_file=lambda f: _safe(lambda: give(read_dropped(f)), set_error)())
        else:
            _p(f"On the students' screens: <b>{escape(a.exercises.title or 'an exercise set')}</b>, "
               f"{len(a.exercises)} exercises.")
            solara.Button("Take the exercises off the screens", outlined=True, classes=["gw-ex-end"],
                          on_click=_safe(lambda: room.end_exercises(key()), set_error))
        if error:
            solara.Error(error, classes=["gw-ex-error"])
        latest = room.assignments[-1] if room.assignments else None
        if latest is not None:
            ExerciseTable(room, latest, version, shown, set_shown)
            solara.FileDownload(lambda: exports.exercise_csv(room), filename=f"exercises-{room.code}.csv",
                                label="Download every answer (CSV)", mime_type="text/csv")


@solara.component
def ExerciseTable(room: Room, a: Any, version: Any, shown: int, on_show: Callable[[int], None]) -> None:
    table = classwork.exercise_table(room, a)
    order = classwork.exercise_order(a)
    _p("Hardest first: ✓ solved at the first try, ✓ (retried) solved later, ✗ a wrong answer, … under way.",
       "gw-room-note")
    head = "".join(f"<th scope='col'>{escape(str(c))}</th>" for c in ["student", *table.columns])
    body = "".join("<tr>" + f"<th scope='row' class='gw-names'>{escape(str(i))}</th>"
                   + "".join(f"<td>{escape(str(v))}</td>" for v in row) + "</tr>"
                   for i, row in zip(table.index, table.itertuples(index=False), strict=True))
    solara.HTML(tag="div", unsafe_innerHTML=f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>",
                classes=["gw-ex-table"])
    with solara.Row(style={"gap": "8px", "flex-wrap": "wrap", "align-items": "center"}):
        solara.Text("Wrong answers of:")
        for i in order:
            solara.Button(str(i + 1), small=True, outlined=shown != i, color="primary",
                          on_click=lambda i=i: on_show(-1 if shown == i else i), classes=["gw-ex-wrong"])
    if 0 <= shown < len(a.exercises):
        WrongAnswersBoard(a, shown, version)


@solara.component
def WrongAnswersBoard(a: Any, index: int, version: Any) -> None:
    wrong = classwork.wrong_answers(a, index)
    board = solara.use_memo(lambda: poll_board(wrong), [a.id, index])
    solara.use_effect(lambda: board.close, [board])

    def refresh() -> None:
        board.poll.counts_ = classwork.wrong_answers(a, index).counts_  # the same position: new counts
        board.refresh()

    solara.use_effect(refresh, [version])
    ex = a.exercises[index]
    with solara.Div(classes=["gw-poll-board"]):
        _p(f"Exercise {index + 1}: {escape(ex.prompt)} Right: <b>{escape(', '.join(ex.answers[:6]))}</b>. "
           f"The heat map counts the wrong first moves ({sum(wrong.counts().values())}).", "gw-ex-heat-note")
        solara.display(board)
