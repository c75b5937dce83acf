"""Fuzzing every intent a room's page can send (issue 41): what a student's
page, the teacher's page and a dropped file give a room is tried the way a
careless user, a broken page or an attacker would, and each intent must keep
the promise of :mod:`gridwidgets.fuzzing`:

- nothing but a refusal comes out: :class:`~gridwidgets.rooms.RoomError` or
  ``ValueError`` (:class:`~gridwidgets.core.IllegalMoveError` is one) from
  the room's methods, a status message on a board (never an ``Internal
  error``);
- a refusal changes nothing: the room's store (what a restart reads back),
  its version, its games' save files, its seats, its polls' answers and its
  exercise sets' answers are as they were;
- a refusal says so in one line of at most
  :data:`~gridwidgets.fuzzing.MAX_STATUS` characters, repeating at most
  :data:`~gridwidgets.fuzzing.MAX_ECHO` consecutive characters of what was
  sent.

:data:`INTENTS` names each intent: a student's board (``board.play``: the
page's messages to its :class:`~gridwidgets.rooms.board.RoomBoard`;
``board.raw``: whole comm messages, the methods and shapes included), a
class poll (``poll.board``, ``poll.answer``), an exercise set
(``exercise.board``, ``exercise.record``), the seat's own calls
(``seat.play``, ``seat.ask_undo``, ``seat.reclaim``, ``join``), the teacher's actions
(``teacher.*``: rename and remove a seat, hand a player to the agent and give
it back, pause, next round, fill with agents, undo, open, close, reveal and
end a poll, show its answers live, who the projector names, give and take
off an exercise set, the teacher's session, end the class), and
the files the teacher's page takes (``drop.poll``, ``drop.exercises``:
``activities.read_dropped`` (the pages' reader of a dropped file), then what the page does
with the text). :func:`fuzz_intent` runs one with a fixed seed in a
classroom of its own (:func:`classroom`: a real SQLite file), counted into a
:class:`~gridwidgets.fuzzing.FuzzReport`; ``tests/test_rooms_fuzz.py`` runs
each, and ``benchmarks/fuzz_room_intents.py`` prints the table. Needs
``hypothesis`` (``pip install "gridwidgets[dev]"``).
"""

from __future__ import annotations

import io
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.game import Game
from ..fuzzing import (
    MAX_ECHO,
    MAX_STATUS,
    ODD_CHARS,
    FuzzReport,
    deep_value,
    json_paths,
    json_values,
    long_text,
    message_strategy,
    mutated_text,
    notations_of,
    run_examples,
    save_file_strategy,
    set_at_path,
    short_repr,
    strategies,
    weird_values,
    where_raised,
)
from .model import Room, RoomError, Rooms, Seat
from .store import Store

__all__ = ["ALLOWED", "INTENTS", "Classroom", "Intent", "Pick", "classroom", "default_game", "fuzz_intent",
           "room_state", "status_problem"]

#: what a refusal may raise out of a room's method (IllegalMoveError and StoreError are ValueErrors)
ALLOWED = (RoomError, ValueError)
#: the recursion limit an intent runs under: Python's default, as on a server (hypothesis raises it for its tests,
#: where a page's list nested 5,000 deep would then print instead of raising RecursionError)
SERVER_RECURSION_LIMIT = 1_000
#: words of a status that is no refusal but an internal error said on the page
_INTERNAL = ("Internal error", "did not work")


@dataclass
class Classroom:
    """A room to fuzz: its :class:`~gridwidgets.rooms.Rooms` on a real
    SQLite file, four students seated (two games with a few moves played),
    the teacher's token and session; a poll open and an exercise set given
    when asked. ``boards``: the pages an intent keeps open (closed by
    :meth:`close`)."""

    path: Path
    rooms: Rooms
    room: Room
    seats: list[Seat]
    key: str
    session: str
    boards: list[Any] = field(default_factory=list)
    cache: dict[str, Any] = field(default_factory=dict)

    def close(self) -> None:
        for b in self.boards:
            b.close()
        self.rooms.store.close()


def default_game() -> str:
    """The game a classroom is fuzzed in by default: the first registered game
    that has exercise kinds (every intent applies to it)."""
    from ..core import registry
    from ..exercises import kinds

    names = registry.names()
    return next((n for n in names if kinds(n)), names[0])


def classroom(path: str | Path, game: str | None = None, *, poll: bool = False, exercises: bool = False,
              seed: int = 0) -> Classroom:
    """A classroom to fuzz in a new SQLite file ``path`` (see :class:`Classroom`;
    ``game``: default :func:`default_game`)."""
    game = game if game is not None else default_game()
    rng = random.Random(f"classroom|{seed}")
    rooms = Rooms(Store(path))
    room = rooms.create(game, teacher_token=rooms.teacher_token)  # as the server makes them
    seats = [room.join(name) for name in ("Ann", "Bob", "Cy", "Dee")]
    for rg in room.games:
        for _ in range(rng.randrange(1, 4)):
            g = rg.game
            if g.is_over:
                break
            p = g.players_to_move[0]
            room.play(rg.players[p], rng.choice(g.legal_moves(p)))
    key = rooms.teacher_token
    c = Classroom(Path(path), rooms, room, seats, key, rooms.open_session(rooms.teacher_token))
    if poll:
        room.open_poll(key, room.games[0].game, label="game 1")
    if exercises:
        from ..exercises import generate, kinds

        room.assign_exercises(key, generate(game, kind=kinds(game)[0], depth=1, n=3, seed=seed))
    return c


def room_state(c: Classroom) -> tuple[Any, ...]:
    """Everything a refusal must leave as it was: the store's rows (what a
    restart reads back), the room's version, seats, pause, round and closing,
    each game's save file and handed seats, each poll's state and answers,
    each exercise set's answers, the teacher's session."""
    room = c.room
    with room.lock:
        games = []
        for rg in room.games:
            with rg.game.lock:
                games.append((rg.id, rg.game.to_json(), tuple(sorted(rg.handed)), tuple(rg.players)))
        return (room.version, room.paused, room.round, room.closed, getattr(room, "projector_names", None),
                tuple(getattr(p, "live_answers", None) for p in room.polls),
                tuple(sorted((t, s.name) for t, s in room.seats.items())), tuple(sorted(room.former)), tuple(games),
                tuple((p.id, p.state, p.version, tuple(sorted((t, a.move, a.changes) for t, a in p.answers.items())))
                      for p in room.polls),
                tuple((a.id, a.ended, len(a.answers)) for a in room.assignments),
                json.dumps(c.rooms.store.load(), sort_keys=True, default=repr),
                c.rooms.ended, c.rooms.store.has_session(c.session))


# ----------------------------------------------------------------------
# What an intent is given
# ----------------------------------------------------------------------
@dataclass(frozen=True)
class Pick:
    """A choice made when the intent runs, from the room as it is then: a
    seat's token (``"seat"``), a game's id (``"game"``), an exercise set's id
    (``"set"``), the teacher's token (``"key"``) or session (``"session"``),
    the game's legal move (``"move"``)."""

    kind: str
    i: int = 0

    def resolve(self, c: Classroom) -> Any:
        room = c.room
        if self.kind == "seat":
            tokens = list(room.seats)
            return tokens[self.i % len(tokens)] if tokens else "no-seat-left"
        if self.kind == "former":
            tokens = list(room.former)
            return tokens[self.i % len(tokens)] if tokens else "no-seat-removed"
        if self.kind == "game":
            return room.games[self.i % len(room.games)].id if room.games else 1
        if self.kind == "set":
            return room.assignments[self.i % len(room.assignments)].id if room.assignments else 1
        if self.kind == "key":
            return c.key
        if self.kind == "session":
            return c.session
        raise ValueError(self.kind)  # pragma: no cover - the strategies make no other


def _resolve(value: Any, c: Classroom) -> Any:
    if isinstance(value, Pick):
        return value.resolve(c)
    if isinstance(value, tuple) and any(isinstance(v, Pick) for v in value):
        return tuple(_resolve(v, c) for v in value)
    return value


def _junk() -> Any:
    """Anything at all: ``None``, numbers, huge strings, nested lists and dicts, bytes, Unicode."""
    st = strategies()
    deep = st.builds(deep_value, st.sampled_from((1_500, 5_000)), st.sampled_from(("list", "dict")))
    return st.one_of(weird_values(), deep, st.binary(max_size=40), st.text(alphabet=st.characters(), max_size=30),
                     st.sampled_from(("", " ", "\n", "\x00", "١٢", "²", "🙂" * 70, "A1\nB2", "None", "null")))


def _mostly(good: Any, bad: Any, tenths: int = 6) -> Any:
    """``good`` ``tenths`` times in ten, else ``bad`` (hypothesis's ``one_of``
    would draw from every branch of a nested ``one_of`` alike)."""
    return strategies().integers(0, 9).flatmap(lambda k: good if k < tenths else bad)


def _tokens() -> Any:
    """A seat token: a seat's (often), a removed seat's, or junk (wrong tokens of every shape)."""
    st = strategies()
    wrong = st.one_of(st.builds(Pick, st.just("former"), st.integers(0, 3)),
                      st.sampled_from(("", "AGENT", "agent", "x" * 22, "\x00" * 22)), _junk())
    return _mostly(st.builds(Pick, st.just("seat"), st.integers(0, 7)), wrong)


def _keys() -> Any:
    """The teacher's token (often) or anything else."""
    st = strategies()
    return _mostly(st.just(Pick("key")), st.one_of(st.sampled_from(("", "teacher", " " * 22)), _junk()))


def _ids() -> Any:
    st = strategies()
    return _mostly(st.builds(Pick, st.just("game"), st.integers(0, 7)),
                   st.one_of(st.integers(-3, 40), st.sampled_from((True, 1.0, "1", 2**70, -(2**70))), _junk()), 5)


def _players() -> Any:
    st = strategies()
    return _mostly(st.integers(-2, 5), st.one_of(st.sampled_from((True, 0.0, "0", "X", None, 2**70)), _junk()))


def _json_corrupted(text: str) -> Any:
    """A JSON file's text corrupted: a value replaced, a key dropped or added,
    cut short, a character inserted, a byte flipped (bytes), padded, nested deep."""
    st = strategies()
    base = json.loads(text)

    @st.composite
    def corrupt(draw: Any) -> str | bytes:
        data = json.loads(text)
        op = draw(st.integers(0, 8))
        if op == 0:
            paths = json_paths(data)
            if paths:
                set_at_path(data, draw(st.sampled_from(paths)), draw(weird_values()))
        elif op == 1 and isinstance(data, dict) and data:
            key = draw(st.sampled_from(sorted(data)))
            if draw(st.booleans()):
                del data[key]
            else:
                data[draw(st.text(max_size=8))] = draw(weird_values())
        try:
            out = json.dumps(data, allow_nan=True)
        except (RecursionError, ValueError):
            out = json.dumps(base)
        if op == 2:
            return out[: draw(st.integers(0, len(out)))]
        if op == 3:
            i = draw(st.integers(0, len(out)))
            return out[:i] + draw(st.sampled_from((*ODD_CHARS, "{", "}", "]", ":", "\ufeff"))) + out[i:]
        if op == 4:
            raw = bytearray(out.encode())
            raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
            return bytes(raw)
        if op == 5:
            depth = draw(st.sampled_from((65, 1_200, 100_000)))
            return "[" * depth + "]" * depth
        if op == 6:
            return draw(st.sampled_from(("", " ", "null", "[]", '"x"', "1e999", "NaN", out + "x", " " * 50_000 + out)))
        return out

    return corrupt()


# ----------------------------------------------------------------------
# The intents
# ----------------------------------------------------------------------
#: what an intent's run gives back: ``(accepted, status)``; ``status`` is the refusal said (a board's status)
Outcome = tuple[bool, str]


@dataclass(frozen=True)
class Intent:
    """One thing a page can send a room.

    Attributes:
        name: its name in the table (``"teacher.rename_seat"``).
        what: what it is, in words.
        strategy: ``strategy(classroom)`` gives the hypothesis strategy of its inputs.
        run: ``run(classroom, example)`` sends one; returns ``(accepted, status)``
            or raises (a refusal: :data:`ALLOWED`).
        poll: its classroom has a poll open.
        exercises: its classroom has an exercise set given.
    """

    name: str
    what: str
    strategy: Callable[[Classroom], Any]
    run: Callable[[Classroom, Any], Outcome]
    poll: bool = False
    exercises: bool = False


def _board(c: Classroom, which: int) -> Any:
    """A student's board of game 0 (``which``: the player), made once per classroom."""
    from .board import room_board

    name = f"board{which}"
    if name not in c.cache:
        rg = c.room.games[0]
        c.cache[name] = room_board(c.room, rg, which)
        c.cache[name + "|start"] = rg.game.copy()
        c.boards.append(c.cache[name])
    return c.cache[name]


def _said(board: Any, accepted: bool) -> Outcome:
    return accepted, str(board.status[0])


def _board_messages(c: Classroom) -> Any:
    st = strategies()
    g = c.room.games[0].game
    legal = sorted(str(m) for m in g.legal_moves(g.players_to_move[0]))
    plays = st.fixed_dictionaries({"type": st.just("play"), "move": st.sampled_from(legal)},
                                  optional={"version": st.just(g.version)})
    return st.tuples(st.integers(-1, 1), st.one_of(plays, message_strategy(g)))


def _board_play(c: Classroom, example: Any) -> Outcome:
    which, message = example
    if which < 0:  # the page of the player to move
        which = c.room.games[0].game.players_to_move[0]
    board = _board(c, which)
    board._status = ("", "")
    accepted = bool(board.handle_intent(message))
    if accepted:  # back to the start (a played game ends no fuzzing); written to the store as any change
        c.room.games[0].game.replace_with(c.cache[f"board{which}|start"])
    return _said(board, accepted)


def _raw_messages(c: Classroom, game: Game | None = None) -> Any:
    st = strategies()
    content = st.one_of(message_strategy(game or c.room.games[0].game), _junk())
    data = st.fixed_dictionaries({"method": st.one_of(st.sampled_from(("custom", "update", "request_state",
                                                                        "echo_update")), _junk())},
                                 optional={"content": content, "state": st.one_of(json_values(), _junk()),
                                           "buffer_paths": _junk()})
    msg = st.one_of(st.fixed_dictionaries({"content": st.fixed_dictionaries({"data": data})}),
                    st.fixed_dictionaries({"content": st.one_of(_junk(), st.fixed_dictionaries({"data": _junk()}))}),
                    _junk())
    return st.tuples(st.integers(0, 1), msg)


def _board_raw(c: Classroom, example: Any) -> Outcome:
    which, msg = example
    board = _board(c, which)
    board._status = ("", "")
    return _raw(c, board, msg, lambda: c.room.games[0].game.replace_with(c.cache[f"board{which}|start"]))


def _raw(c: Classroom, board: Any, msg: Any, reset: Callable[[], None]) -> Outcome:
    """Give ``board`` a whole comm message (as the page's websocket does)."""
    board._message = ("", "")
    board._stamps.clear()  # the flood limit is tried by the tests of rooms.board: here every message is read
    board._requests.clear()
    before = board.game.version
    changed = room_state(c)
    board._handle_msg(msg)
    accepted = board.game.version != before or room_state(c) != changed
    if accepted:
        reset()
    status = str(board._message[0])
    # a message that asks for nothing (a state request, a page's own toggles) is neither: say accepted
    return accepted or not status, status


def _poll_raw(c: Classroom, example: Any) -> Outcome:
    which, msg = example
    return _raw(c, _poll_board(c, which), msg, lambda: None)


def _exercise_raw(c: Classroom, example: Any) -> Outcome:
    which, msg = example
    board = _exercise_board(c, which)
    return _raw(c, board, msg, board.retry)


def _poll_board(c: Classroom, which: int) -> Any:
    from .board import poll_board

    name = f"poll{which}"
    if name not in c.cache:
        c.cache[name] = poll_board(c.room.polls[-1], room=c.room, token=c.seats[which].token)
        c.boards.append(c.cache[name])
    return c.cache[name]


def _poll_moves(c: Classroom) -> Any:
    st = strategies()
    texts = notations_of(c.room.polls[-1].game)
    return _mostly(st.one_of(st.sampled_from(texts), mutated_text(texts), st.text(max_size=6)), _junk(), 5)


def _poll_messages(c: Classroom) -> Any:
    st = strategies()
    play = st.fixed_dictionaries({"type": st.just("play"), "move": _poll_moves(c)},
                                 optional={"version": _junk(), "player": _players()})
    return st.tuples(st.integers(0, 3), _mostly(play, st.one_of(message_strategy(c.room.polls[-1].game), _junk())))


def _poll_board_play(c: Classroom, example: Any) -> Outcome:
    which, message = example
    board = _poll_board(c, which)
    poll = c.room.polls[-1]
    before = poll.version
    board._message = ("", "")
    board.handle_intent(message)  # always False: the poll's position never changes
    text, kind = board._message
    return poll.version != before or (kind == "info" and text.startswith("Answer taken")), str(text)


def _answer_poll(c: Classroom, example: Any) -> Outcome:
    token, move = _resolve(example, c)
    c.room.answer_poll(token, move)
    return True, ""


def _exercise_board(c: Classroom, which: int) -> Any:
    from .board import exercise_board

    name = f"exercise{which}"
    if name not in c.cache:
        c.cache[name] = exercise_board(c.room, c.room.assignments[-1], c.seats[which].token)
        c.boards.append(c.cache[name])
    return c.cache[name]


def _exercise_messages(c: Classroom) -> Any:
    st = strategies()
    board = _exercise_board(c, 0)
    return st.tuples(st.integers(0, 1), message_strategy(board.game))


def _exercise_board_play(c: Classroom, example: Any) -> Outcome:
    which, message = example
    board = _exercise_board(c, which)
    board._status = ("", "")
    board._message = ("", "")
    a = c.room.assignments[-1]
    answers = len(a.answers)
    accepted = bool(board.handle_intent(message))
    if accepted:
        board.retry()  # the exercise from its start again (its answers stay stored)
    status = str(board._message[0]) if not accepted else ""
    if isinstance(message, dict) and message.get("type") == "agent-step" and not status:
        return True, ""  # a stale agent step is dropped unsaid (several views send it), as on every board
    return accepted or len(a.answers) != answers, status


def _records(c: Classroom) -> Any:
    st = strategies()
    good = {"exercise": 0, "move": "B2", "right": True, "step": 1, "seconds": 1.5, "solved": False}

    @st.composite
    def record(draw: Any) -> Any:
        shape = draw(st.integers(0, 5))
        if shape == 0:
            return draw(_junk())
        out: dict[Any, Any] = dict(good)
        for _ in range(draw(st.integers(1, 3))):
            key = draw(st.sampled_from(sorted(good)))
            how = draw(st.integers(0, 3))
            if how == 0:
                out.pop(key, None)
            elif how == 1:
                out[key] = draw(_junk())
            else:
                out[key] = draw(st.sampled_from((-1, 0, 2, 3, 10_001, 2**70, float("nan"), float("inf"), -0.5,
                                                 True, "", "x" * 300, "A1")))
        if draw(st.integers(0, 4)) == 0:
            out[draw(st.one_of(st.text(max_size=6), st.integers()))] = draw(_junk())
        return out

    sets = _mostly(st.builds(Pick, st.just("set"), st.integers(0, 2)), st.one_of(st.integers(-2, 5), _junk()))
    return st.tuples(_tokens(), sets, _mostly(record(), st.just(dict(good)), 8))


def _record(c: Classroom, example: Any) -> Outcome:
    token, set_id, record = _resolve(example, c)
    c.room.record_exercise_answer(token, set_id, record)
    return True, ""


def _moves(c: Classroom) -> Any:
    st = strategies()
    texts = notations_of(c.room.games[0].game)
    return st.one_of(st.sampled_from(texts), mutated_text(texts), _junk())


def _seat_play(c: Classroom, example: Any) -> Outcome:
    token, move = _resolve(example, c)
    starts = c.cache.setdefault("starts", [rg.game.copy() for rg in c.room.games])
    c.room.play(token, move)
    for rg, start in zip(c.room.games, starts, strict=False):  # an ended game starts again: moves to play
        if rg.game.is_over:
            rg.game.replace_with(start)
    return True, ""


def _ask_undo(c: Classroom, example: Any) -> Outcome:
    c.room.ask_undo(_resolve(example, c))
    return True, ""


def _codes() -> Any:
    """A seat code as a student types it: a seat's (any case, dashes, spaces), one letter off, or junk."""
    st = strategies()

    @st.composite
    def typed(draw: Any) -> Any:
        return ("code", draw(st.integers(0, 7)), draw(st.sampled_from(("upper", "lower", "dash", "spaced", "off"))))

    return _mostly(typed(), st.one_of(st.sampled_from(("", "K7Q-4M", "O0O-0O0", "ABCDEF" * 10)), _junk()), 5)


def _reclaim(c: Classroom, example: Any) -> Outcome:
    typed, address = example
    if isinstance(typed, tuple) and len(typed) == 3 and typed[0] == "code":  # a seat's code, as typed
        seats = list(c.room.seats.values())
        code = getattr(seats[typed[1] % len(seats)], "reclaim", "K7QM4X")
        code = {"upper": code, "lower": code.lower(), "dash": f"{code[:3]}-{code[3:]}", "spaced": f" {code} ",
                "off": code[:-1] + ("A" if code[-1] != "A" else "B")}[typed[2]]
    else:
        code = typed
    seat = c.room.reclaim(code, address=address, limiter=c.rooms.join_allowed)
    return seat.token in c.room.seats, ""


def _names() -> Any:
    st = strategies()
    return _mostly(st.sampled_from(("Eve", "Ann", "ann", "Ánn", "A\u0301nn", "Zoë", "  Bob  ", "Bob2", "李雷")),
                   st.one_of(st.text(max_size=40), _junk()), 5)


def _join(c: Classroom, example: Any) -> Outcome:
    name, student_id, address = example
    seat = c.room.join(name, student_id=student_id, address=address, limiter=c.rooms.join_allowed)
    # a seat joined is taken out again (the room keeps a class's size; MAX_SEATS is tried elsewhere)
    c.room.remove_seat(c.key, seat.token)
    return True, ""


def _teacher(method: str, *parts: Callable[[], Any]) -> tuple[Callable[[Classroom], Any], Callable[..., Outcome]]:
    """The strategy and run of ``room.<method>(key, *parts)``."""

    def strategy(c: Classroom) -> Any:
        return strategies().tuples(_keys(), *(p() for p in parts))

    def run(c: Classroom, example: Any) -> Outcome:
        args = _resolve(example, c)
        getattr(c.room, method)(*args)
        return True, ""

    return strategy, run


def _flags() -> Any:
    st = strategies()
    return _mostly(st.booleans(), st.one_of(st.sampled_from((0, 1, "", "no", None)), _junk()))


def _sources(c: Classroom) -> Any:
    """Where a poll comes from: a game of the room, a position's or a save file's text, mutated, or junk."""
    st = strategies()
    g = c.room.games[0].game
    position = next((rg.game.position() for rg in c.room.games if rg.game.current_player is not None), g.position())
    from ..fuzzing import position_strategy

    return st.one_of(st.just(g), st.just(position), position_strategy(g), save_file_strategy(g), _junk(),
                     st.sampled_from(({}, [], b"", "{", Game)))


def _open_poll_strategy(c: Classroom) -> Any:
    st = strategies()
    steps = st.one_of(st.none(), st.integers(-2, 12), _junk())
    players = st.one_of(st.none(), _players())
    labels = st.one_of(st.just(""), st.text(max_size=10), long_text(), _junk())
    return st.tuples(_keys(), _sources(c), steps, players, labels, _flags())


def _open_poll(c: Classroom, example: Any) -> Outcome:
    key, source, step, player, label, live = _resolve(example, c)
    c.room.open_poll(key, source, step=step, player=player, label=label, live_answers=live)
    c.room.end_poll(c.key)  # off the screens again: the room is as a class with no poll
    return True, ""


def _exercise_files(c: Classroom) -> Any:
    st = strategies()
    text = c.cache.get("exercise-file")
    if text is None:
        from ..exercises import generate, kinds

        game = c.room.game_name
        text = c.cache["exercise-file"] = generate(game, kind=kinds(game)[0], depth=1, n=2, seed=1).to_json()
    return st.one_of(_json_corrupted(text), st.just(text), _junk())


def _assign(c: Classroom, example: Any) -> Outcome:
    key, text = _resolve(example, c)
    c.room.assign_exercises(key, text)
    return True, ""


def _session(c: Classroom, example: Any) -> Outcome:
    session = _resolve(example, c)
    key = c.rooms.teacher_key(session)
    return key == c.key, ""


def _file_info(contents: Any) -> Any:
    """A dropped file as Solara's ``FileInfo`` gives it, its contents as
    drawn, its size told right, wrong or absent."""
    st = strategies()

    @st.composite
    def info(draw: Any) -> dict[str, Any]:
        data = draw(contents)
        try:
            raw = data if isinstance(data, bytes) else str(data).encode("utf-8", "surrogatepass")
        except RecursionError:  # a value nested too deep to write: a file of brackets
            raw = b"[" * 100_000
        if draw(st.integers(0, 9)) == 0:
            raw = draw(st.sampled_from((b"\xff\xfe" + raw, raw[: len(raw) // 2], b"\x00" * 1000, b"x" * 5_000_001)))
        size = draw(_mostly(st.just(len(raw)), st.one_of(st.sampled_from((0, None, 5_000_001, -1, "12", 2**70)),
                                                          _junk())))
        return {"name": draw(st.one_of(st.just("class.json"), st.text(max_size=12))), "size": size,
                "file_obj": io.BytesIO(raw)}

    return info()


def _drop_poll_strategy(c: Classroom) -> Any:
    from . import activities  # noqa: F401 - imported (Solara) before the first example is timed

    st = strategies()
    g = c.room.games[0].game
    from ..fuzzing import position_strategy

    texts = st.one_of(save_file_strategy(g), position_strategy(g), st.just(g.to_json()), st.binary(max_size=64),
                      st.text(max_size=64))
    return st.tuples(_keys(), _file_info(texts))


def _drop_poll(c: Classroom, example: Any) -> Outcome:
    from .activities import read_dropped

    key, file = _resolve(example, c)
    c.room.open_poll(key, read_dropped(file))  # what the teacher's form does with the text (AskClass)
    c.room.end_poll(c.key)
    return True, ""


def _drop_exercises_strategy(c: Classroom) -> Any:
    from . import activities  # noqa: F401 - imported (Solara) before the first example is timed

    return strategies().tuples(_keys(), _file_info(_exercise_files(c)))


def _drop_exercises(c: Classroom, example: Any) -> Outcome:
    from .activities import read_dropped

    key, file = _resolve(example, c)
    c.room.assign_exercises(key, read_dropped(file))  # what the teacher's exercise panel does (ExercisePanel)
    return True, ""


def _one(strategy: Callable[[], Any]) -> Callable[[Classroom], Any]:
    return lambda c: strategy()


_rename = _teacher("rename_seat", _tokens, _names)
_remove = _teacher("remove_seat", _tokens)
_hand = _teacher("hand_to_agent", _ids, _players)
_give = _teacher("give_back", _ids, _players)
_pause = _teacher("set_paused", _flags)
_next = _teacher("next_round")
_fill = _teacher("fill_with_agents")
_undo = _teacher("teacher_undo", _ids)
_close = _teacher("close_poll")
_live = _teacher("set_poll_live", _flags)
_projector = _teacher("set_projector_names",
                      lambda: _mostly(strategies().sampled_from(("seat", "name")),
                                      strategies().one_of(strategies().sampled_from(("Seat", "names", "")), _junk())))
_end_poll = _teacher("end_poll")
_end_ex = _teacher("end_exercises")


def _junk_key_only(method: str) -> tuple[Callable[[Classroom], Any], Callable[..., Outcome]]:
    """``room.<method>(key)`` with anything but the teacher's token (the right one
    would start a solver, or end the class: tried by the rooms' own tests)."""

    def strategy(c: Classroom) -> Any:
        st = strategies()
        return st.one_of(st.sampled_from(("", "teacher", " " * 22)), _junk())

    def run(c: Classroom, key: Any) -> Outcome:
        if method == "end_class":
            c.rooms.end_class(key)
        else:
            getattr(c.room, method)(key)
        return True, ""

    return strategy, run


_reveal = _junk_key_only("reveal_poll")
_end_class = _junk_key_only("end_class")


def _sessions(c: Classroom) -> Any:
    st = strategies()
    return _mostly(st.just(Pick("session")), st.one_of(st.text(min_size=20, max_size=40), _junk()), 3)


def _join_fields() -> Any:
    st = strategies()
    return st.tuples(_names(), st.one_of(st.just(""), st.text(max_size=30), _junk()),
                     st.one_of(st.just("10.0.0.1"), st.text(max_size=50)))


def _reclaim_fields() -> Any:
    st = strategies()
    return st.tuples(_codes(), st.one_of(st.just("10.0.0.2"), st.text(max_size=50)))


#: every intent a room's page can send, by name (see the module's text)
INTENTS: dict[str, Intent] = {i.name: i for i in (
    Intent("board.play", "a student's board: the page's intents (play, undo, goto, ...)", _board_messages,
           _board_play),
    Intent("board.raw", "a student's board: whole comm messages (methods, trait updates, any shape)", _raw_messages,
           _board_raw),
    Intent("poll.board", "a student's poll board: a click or a typed move", _poll_messages, _poll_board_play,
           poll=True),
    Intent("poll.raw", "a student's poll board: whole comm messages",
           lambda c: _raw_messages(c, c.room.polls[-1].game), _poll_raw, poll=True),
    Intent("poll.answer", "Room.answer_poll from Python", lambda c: strategies().tuples(_tokens(), _poll_moves(c)),
           _answer_poll, poll=True),
    Intent("exercise.board", "a student's exercise board: the page's intents", _exercise_messages,
           _exercise_board_play, exercises=True),
    Intent("exercise.raw", "a student's exercise board: whole comm messages",
           lambda c: _raw_messages(c, _exercise_board(c, 0).game), _exercise_raw, exercises=True),
    Intent("exercise.record", "Room.record_exercise_answer with any record", _records, _record, exercises=True),
    Intent("seat.play", "Room.play: a seat's move from Python", lambda c: strategies().tuples(_tokens(), _moves(c)),
           _seat_play),
    Intent("seat.ask_undo", "Room.ask_undo: a seat asks to take back a move", _one(_tokens), _ask_undo),
    Intent("join", "Room.join: a display name, a student id, a device address",
           lambda c: _join_fields(), _join),
    Intent("seat.reclaim", "Room.reclaim: a seat code typed on another device",
           lambda c: _reclaim_fields(), _reclaim),
    Intent("teacher.rename_seat", "rename a seat", *_rename),
    Intent("teacher.remove_seat", "remove a seat", *_remove),
    Intent("teacher.hand_to_agent", "hand a player to the agent", *_hand),
    Intent("teacher.give_back", "give a handed player back", *_give),
    Intent("teacher.set_paused", "pause or resume", *_pause),
    Intent("teacher.next_round", "start the next round", *_next),
    Intent("teacher.fill_with_agents", "start the waiting students with agents", *_fill),
    Intent("teacher.undo", "take back a game's last move", *_undo),
    Intent("teacher.open_poll", "open a poll from any source, step, player, label", _open_poll_strategy, _open_poll),
    Intent("teacher.poll_live", "show the poll's answers live, or hide them", *_live, poll=True),
    Intent("teacher.projector_names", "who the projector names", *_projector),
    Intent("teacher.close_poll", "close the poll", *_close, poll=True),
    Intent("teacher.reveal_poll", "reveal the poll (wrong tokens)", *_reveal, poll=True),
    Intent("teacher.end_poll", "end the poll", *_end_poll, poll=True),
    Intent("teacher.assign_exercises", "give an exercise set from any text",
           lambda c: strategies().tuples(_keys(), _exercise_files(c)), _assign),
    Intent("teacher.end_exercises", "take the exercise set off the screens", *_end_ex, exercises=True),
    Intent("teacher.session", "Rooms.teacher_key: the teacher page's session", _sessions, _session),
    Intent("teacher.end_class", "end the class (wrong tokens)", *_end_class),
    Intent("drop.poll", "a file dropped on the poll form: read_dropped, then open_poll", _drop_poll_strategy,
           _drop_poll),
    Intent("drop.exercises", "a file dropped on the exercise panel: read_dropped, then assign_exercises",
           _drop_exercises_strategy, _drop_exercises),
)}


# ----------------------------------------------------------------------
# Running one
# ----------------------------------------------------------------------
def _strings(value: Any, out: list[str], depth: int = 0) -> list[str]:
    """The strings (and bytes, decoded) inside ``value``, a few levels deep."""
    if len(out) > 50 or depth > 6:
        return out
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, (bytes, bytearray)):
        out.append(bytes(value).decode("utf-8", "replace"))
    elif isinstance(value, dict):
        for k, v in list(value.items())[:20]:
            _strings(k, out, depth + 1)
            _strings(v, out, depth + 1)
    elif isinstance(value, (list, tuple)):
        for v in list(value)[:20]:
            _strings(v, out, depth + 1)
    elif isinstance(value, io.BytesIO):
        out.append(value.getvalue()[:2_000_000].decode("utf-8", "replace"))
    return out


def status_problem(status: str, given: Any) -> str | None:
    """Why ``status`` is no clear refusal of ``given`` (``None``: it is one): it
    is empty, more than one line, longer than :data:`~gridwidgets.fuzzing.MAX_STATUS`
    characters, or repeats more than :data:`~gridwidgets.fuzzing.MAX_ECHO`
    consecutive characters of a string in ``given``."""
    if not status.strip():
        return "says nothing"
    if "\n" in status or "\r" in status:
        return "is not one line"
    if len(status) > MAX_STATUS:
        return f"has {len(status)} characters"
    for text in _strings(given, []):
        if len(text) > MAX_ECHO and any(status[k:k + MAX_ECHO + 1] in text for k in range(len(status) - MAX_ECHO)):
            return f"repeats more than {MAX_ECHO} characters of the input"
    return None


def fuzz_intent(name: str, path: str | Path, n: int = 200, seed: int = 0, game: str | None = None) -> FuzzReport:
    """Send ``n`` fuzzed examples of the intent ``name`` (a key of
    :data:`INTENTS`) to a classroom of its own in the new SQLite file
    ``path`` (see the module's text for what each must keep).

    Returns:
        A :class:`~gridwidgets.fuzzing.FuzzReport` (``game``: the room's game,
        ``target``: the intent): ``escaped`` counts exceptions other than a
        refusal, ``internal`` statuses that say an internal error, ``changed``
        refusals after which the room was not the same, ``lost`` refusals
        whose status is not one clear line (and, once, a class that does not
        come back from its file).
    """
    intent = INTENTS[name]
    game = game if game is not None else default_game()
    if intent.exercises or "exercises" in name:
        from ..exercises import kinds

        if not kinds(game):
            raise ValueError(f"{game} has no exercise kinds: the intent {name} needs a game that has")
    report = FuzzReport(game, name)
    c = classroom(path, game, poll=intent.poll, exercises=intent.exercises, seed=seed)

    def body(example: Any) -> None:
        report.tried += 1
        before = room_state(c)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(SERVER_RECURSION_LIMIT)  # a server's, not the one hypothesis raises for its tests
        t0 = time.perf_counter()
        try:
            accepted, status = intent.run(c, example)
        except ALLOWED as exc:
            accepted, status = False, str(exc)
        except Exception as exc:
            report.fail("escaped", f"{short_repr(example)} raised {type(exc).__name__}: "
                                   f"{short_repr(str(exc))}{where_raised(exc)}")
            return
        finally:
            sys.setrecursionlimit(limit)
        if any(word in status for word in _INTERNAL):
            report.fail("internal", f"{short_repr(example)}: {status[:160]}")
        if accepted:
            report.accepted += 1
            return
        report.refused += 1
        report.timed((time.perf_counter() - t0) * 1000, example)
        if room_state(c) != before:
            report.fail("changed", f"{short_repr(example)} was refused ({status[:80]}) but changed the room")
        why = status_problem(status, example)
        if why:
            report.fail("lost", f"{short_repr(example)} was refused with a status that {why}: {status[:120]!r}")

    try:
        strategy = intent.strategy(c)
        run_examples(strategy, body, n, seed)
        report.tried += 1
        try:  # what the refusals and acceptances left is a class that comes back from its file
            again = Rooms(Store(path))
            back = again.room(c.room.code)
            if sorted(back.seats) != sorted(c.room.seats) or len(back.games) != len(c.room.games):
                report.fail("lost", "the class read back from its file is not the room")
            again.store.close()
        except Exception as exc:
            report.fail("lost", f"the class does not come back from its file: {type(exc).__name__}: "
                                f"{short_repr(str(exc))}")
    finally:
        c.close()
    return report
