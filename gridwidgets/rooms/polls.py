"""Class polls: the teacher puts one position on every seated student's
screen, each student answers it with one move, and the class's answers are
shown on the board as a heat map, next to what the solver says.

A poll (:class:`Poll`) is a position of the room's game (from one of its
games, at its current step or any step of its history; from an exercise; from
a save file) and the player whose move the class chooses. It goes through
:data:`POLL_STATES`:

- ``"open"``: every seated student's page shows the position; a student's
  answer (:meth:`~gridwidgets.rooms.Room.answer_poll`) is a move that player
  could play there (for a simultaneous node, that player's choice), checked
  by the same ``play()`` as every move, on a copy: the poll's position never
  changes. A student may change the answer until the poll is closed; no page
  of a student shows anyone else's answer, and the teacher's page and the
  projector show only how many answered (no count per move, no list): a
  student who looks up at the screen copies no majority. Unless the teacher
  asked for the answers live (:attr:`Poll.live_answers`, off by default).
- ``"closed"``: answers are refused; the teacher's page and the projector
  show the heat map (:meth:`Poll.overlay`): a count per move, on the board,
  and the table of the answers (:meth:`Poll.table`).
- ``"revealed"``: the analysis (:func:`analyse`) is shown beside it: the
  solver's value of every move where the position is solved within
  :data:`REVEAL_SECONDS` (Monte Carlo tree search estimates otherwise, said
  as such), and at a simultaneous node of two players, where the exact
  solver settles the position within :data:`EQUILIBRIUM_SECONDS`, the
  subgame-perfect equilibrium mix next to the class's mix, and what the
  class's mix gives away against a best reply (its exploitability, measured
  in the node's exact matrix: stable, where comparing mix with mix is not, a
  game having several equilibrium mixes); estimates otherwise, said as such.
- ``"ended"``: the students' pages are back to their games.

Every poll and every answer is written to the room's store before it counts
(the ``polls`` and ``poll_answers`` tables); names are the teacher's to show
(:meth:`Poll.table` names no one unless asked).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.errors import InvalidMoveError, shorten
from ..core.game import Game

if TYPE_CHECKING:
    from .model import Room

__all__ = ["EQUILIBRIUM_SECONDS", "MAX_POLLS", "POLL_STATES", "REVEAL_SECONDS", "Answer", "Poll", "analyse",
           "answer_poll", "current_poll", "end_poll", "heat_overlay", "open_poll", "poll_position", "restore_polls",
           "set_poll_live", "set_poll_state"]

#: the states of a poll, in order
POLL_STATES = ("open", "closed", "revealed", "ended")
#: the solver's budget (seconds) on "reveal"; Monte Carlo tree search estimates beyond it
REVEAL_SECONDS = 2.0
#: the exact solver's budget (seconds) at a simultaneous node, where the whole matrix of the
#: node is needed (an endgame a few turns from the end); estimates beyond it
EQUILIBRIUM_SECONDS = 10.0
#: the most polls one room keeps (a class asks a few dozen)
MAX_POLLS = 500


@dataclass(frozen=True)
class Answer:
    """One student's answer to a poll.

    Attributes:
        token: the seat token of the student.
        move: the move, in notation (rule C-2), as the game writes it.
        at: when it was given (Unix time, seconds).
        changes: how many times the student changed it before this one (0: a first answer).
    """

    token: str
    move: str
    at: float
    changes: int = 0


@dataclass
class Poll:
    """One position asked of the whole class (see the module's text).

    Attributes:
        id: its id in the store.
        room: the room's code.
        game: the position (the poll's own copy: nobody plays on it).
        player: the player id whose move the class chooses.
        source: where the position comes from, as the teacher's page says it
            (``"game 3, step 12"``, ``"exercise 2"``, ``"a save file"``).
        opened: when the poll was opened (Unix time, seconds).
        state: one of :data:`POLL_STATES`.
        answers: per seat token, the latest :class:`Answer`.
        live_answers: whether the answers (their counts, the heat map, the
            table) are shown while the poll is open; off by default: until
            the teacher closes it, the pages show only how many answered
            (:attr:`answers_shown`).
    """

    id: int
    room: str
    game: Game
    player: int
    source: str
    opened: float
    state: str = "open"
    answers: dict[str, Answer] = field(default_factory=dict)
    live_answers: bool = False
    #: counts every change (pages compare it to redraw)
    version: int = 0
    _analysis: dict[str, Any] | None = field(default=None, repr=False)
    _analysis_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def check_move(self, move: Any) -> str:
        """The notation of ``move`` if :attr:`player` could play it at the
        poll's position (on a copy; the position never changes).

        Raises:
            IllegalMoveError: naming the rule, as ``play()`` does.
        """
        if not isinstance(move, str) or not move or len(move) > 200:
            raise InvalidMoveError(f"{shorten(move)} is not a move", rule="C-2", move=move)
        trial = self.game.copy()
        return str(trial.play(move, player=self.player))

    def counts(self) -> dict[str, int]:
        """How many students chose each move: ``{notation: count}``, most chosen first."""
        tally: dict[str, int] = {}
        for a in self.answers.values():
            tally[a.move] = tally.get(a.move, 0) + 1
        return dict(sorted(tally.items(), key=lambda kv: (-kv[1], kv[0])))

    def mine(self, token: str) -> str | None:
        """The answer of the seat ``token`` (notation), or ``None``."""
        a = self.answers.get(token)
        return a.move if a is not None else None

    def analysis(self, budget: float = REVEAL_SECONDS) -> dict[str, Any]:
        """:func:`analyse` of the poll's position for its player, computed once
        (the first caller computes it; the others wait for it)."""
        with self._analysis_lock:
            if self._analysis is None:
                self._analysis = analyse(self.game, self.player, budget)
            return self._analysis

    def class_exploitability(self) -> float | None:
        """What the class's mix (each answer's share) gives away against a best
        reply at this simultaneous node: the node's value for :attr:`player`
        minus what the mix guarantees, in the node's exact matrix (the rest of
        the game played subgame-perfectly); 0 for an equilibrium mix. ``None``
        before the analysis, without an exact matrix (not a simultaneous node,
        or not solved in time), or without answers."""
        a = self._analysis
        counts = self.counts()
        if not a or "matrix" not in a or not counts:
            return None
        import numpy as np

        m = a["matrix"]
        mine = m["rows"] if self.player == 0 else m["cols"]
        values = np.asarray(m["values"], dtype=float)  # the first player's payoffs
        total = sum(counts.values())
        mix = np.array([counts.get(label, 0) / total for label in mine])
        if self.player == 0:
            return max(0.0, float(m["value"]) - float((mix @ values).min()))
        return max(0.0, float((values @ mix).max()) - float(m["value"]))

    @property
    def answers_shown(self) -> bool:
        """Whether the pages may show the class's answers (their counts):
        once the poll is closed (or revealed), or while open when
        :attr:`live_answers` is on. Before that :meth:`overlay` and
        :meth:`table` hold no answer, and the pages say only "N of M answered"."""
        return self.state != "open" or self.live_answers

    @property
    def kept_analysis(self) -> dict[str, Any] | None:
        """:meth:`analysis` if it is computed (or was restored from the store), else ``None``."""
        return self._analysis

    @property
    def analysed(self) -> bool:
        """Whether :meth:`analysis` is computed already."""
        return self._analysis is not None

    def overlay(self, *, revealed: bool | None = None) -> dict[str, Any]:
        """The heat map as a board's hint overlay (the widget's ``hint_data``):
        ``{"kind": "poll", "version", "status": "done", "message", "moves":
        {notation: {"label", "value", "share", "best", "tone"}}}``: ``label``
        the count (``""`` for a move nobody chose), ``share`` the count over
        the largest count, ``best`` the most chosen moves. Before the reveal every move is drawn in the heat
        colour; once revealed (and :meth:`analysis` computed), every move the
        analysis values is drawn, coloured by its value for :attr:`player`
        (the unchosen ones unlabelled); at a simultaneous node (an
        equilibrium mix, no verdict on a move) the colour stays the heat's.

        While the answers are not shown (:attr:`answers_shown`: the poll open,
        not live) there are no ``moves`` and the message says only how many
        answered."""
        n = len(self.answers)
        if not self.answers_shown:
            return heat_overlay(self.game, {}, f"{n} answered; the answers are shown once the poll is closed")
        shown = self.state == "revealed" if revealed is None else revealed
        analysis = self._analysis if shown else None
        values: dict[str, float] = {}
        if analysis is not None:
            values = {m: float(v["value"]) for m, v in analysis.get("moves", {}).items()}
        message = f"{n} answer{'' if n == 1 else 's'}" + (f". {analysis['message']}" if analysis is not None else "")
        given_away = self.class_exploitability() if analysis is not None else None
        if given_away is not None:
            message += (f" The class's mix gives away {given_away:.2f} against a best reply "
                        "(its exploitability; 0 for an equilibrium mix).")
        # a mix is no verdict on a move: its moves keep the heat colour
        mix = analysis is not None and bool(analysis.get("mix"))
        return heat_overlay(self.game, self.counts(), message, dict.fromkeys(values, 0.0) if mix else values,
                            coloured=not mix)

    def table(self, names: dict[str, str] | None = None) -> list[dict[str, Any]]:
        """One row per move answered or valued: ``move``, ``answers`` (count),
        ``share`` (of the answers, 0..1), and once revealed ``value`` (the
        solver's -1..1 for :attr:`player`, or the MCTS estimate) or ``mix``
        (the equilibrium probability at a simultaneous node) and ``best`` (one
        of the analysis's best moves); with ``names``
        (seat token -> name) also ``who``, the students who chose it. Most
        chosen first, then by value. No row while the answers are not shown
        (:attr:`answers_shown`)."""
        if not self.answers_shown:
            return []
        counts = self.counts()
        total = sum(counts.values())
        a = self._analysis if self.state == "revealed" else None
        valued = a.get("moves", {}) if a else {}
        mix = a.get("mix", {}) if a else {}
        rows = []
        for move in dict.fromkeys([*counts, *valued, *mix]):
            row: dict[str, Any] = {"move": move, "answers": counts.get(move, 0),
                                   "share": counts.get(move, 0) / total if total else 0.0}
            if move in valued:
                row["value"] = float(valued[move]["value"])
                row["verdict"] = valued[move]["label"]
                row["best"] = bool(valued[move].get("best"))
            if mix:
                row["mix"] = float(mix.get(move, 0.0))
            if names is not None:
                row["who"] = sorted(names.get(t, "?") for t, ans in self.answers.items() if ans.move == move)
            rows.append(row)
        rows.sort(key=lambda r: (-r["answers"], -r.get("value", r.get("mix", 0.0)), r["move"]))
        return rows


def heat_overlay(game: Game, counts: Mapping[str, int], message: str, values: Mapping[str, float] | None = None,
                 *, coloured: bool = True) -> dict[str, Any]:
    """Counts of moves as a board's hint overlay (the widget's ``hint_data``,
    kind ``"poll"``): each move of ``counts`` or ``values`` labelled with its
    count (``""`` for none), ``share`` the count over the largest, ``best``
    the most chosen; a move of ``values`` (an analysis's -1..1) is coloured
    by its value when ``coloured``, every other one in the heat colour
    (``"tone": "heat"``)."""
    values = values or {}
    top = max(counts.values(), default=0)
    moves: dict[str, dict[str, Any]] = {}
    for move in dict.fromkeys([*counts, *values]):
        n = counts.get(move, 0)
        entry: dict[str, Any] = {"label": str(n) if n else "", "value": float(values.get(move, 0.0)),
                                 "share": n / top if top else 0.0, "best": bool(top) and n == top}
        if move not in values or not coloured:
            entry["tone"] = "heat"
        moves[move] = entry
    return {"kind": "poll", "version": game.version, "status": "done", "message": message, "moves": moves}


def analyse(game: Game, player: int, budget: float = REVEAL_SECONDS,
            equilibrium_budget: float = EQUILIBRIUM_SECONDS) -> dict[str, Any]:
    """What the class's answers are compared with on "reveal".

    - At a simultaneous node of two players in a two-player zero-sum game:
      the subgame-perfect equilibrium of the node, solved exactly by
      :func:`gridwidgets.analysis.solve_simultaneous` (every joint action
      valued by the rest of the game, ``root_matrix=True``) within
      ``equilibrium_budget`` seconds: ``player``'s mix, and the node's matrix
      for :meth:`Poll.class_exploitability`.
    - Else, for two-player zero-sum games of perfect information: the exact
      value of every move (:func:`gridwidgets.analysis.solve`) within
      ``budget`` seconds.
    - Else, or when the solver runs out of budget: Monte Carlo tree search
      estimates (:class:`gridwidgets.agents.MCTSAgent`), said as such.

    Args:
        game: the position.
        player: whose move it is about (a player to move).
        budget: seconds for the solver (MCTS gets half of it).
        equilibrium_budget: seconds for the exact solve at a simultaneous node.

    Returns:
        ``{"kind": "solve" | "mcts" | "equilibrium" | "none", "exact": bool,
        "moves": {notation: {"label", "value", "share", "best"}}, "mix":
        {notation: probability}, "message": str}`` (``value`` in -1..1 for
        ``player``; ``mix`` only at a simultaneous node solved exactly, with
        ``"matrix": {"rows", "cols", "values", "value"}``: both players'
        choices, the first player's exact payoff of each pair and the node's
        value for the first player).
    """
    from ..analysis.hints import compute_hints, hint_kinds

    reason = ""
    if game.is_simultaneous_node() and len(game.players) == 2 and player in (0, 1):
        from ..analysis import SolveBudgetExceeded, solve_simultaneous
        from ..analysis.equilibrium import before_submissions

        try:
            sol = solve_simultaneous(before_submissions(game), root_matrix=True, time_limit=equilibrium_budget,
                                     progress=False)
            node = sol.root
            if node is None:
                raise ValueError("the position is not a simultaneous node of both players")
            labels, probs = (node.rows, node.x) if player == 0 else (node.cols, node.y)
            mix = {lab: float(p) for lab, p in zip(labels, probs, strict=True)}
            value = sol.value if player == 0 else -sol.value
            best = max(mix.values(), default=0.0)
            moves = {m: {"label": f"{p:.0%}", "value": max(-1.0, min(1.0, 2 * p - 1)), "share": p,
                         "best": p == best} for m, p in mix.items() if p > 1e-9}
            return {"kind": "equilibrium", "exact": True, "moves": moves, "mix": mix,
                    "matrix": {"rows": list(node.rows), "cols": list(node.cols),
                               "values": node.lower.tolist(), "value": float(sol.value)},
                    "message": (f"Subgame-perfect equilibrium mix of {game.players[player]}, solved exactly "
                                f"(expected result {value:+.2f}; other equilibrium mixes may exist).")}
        except SolveBudgetExceeded:
            reason = f"too far from the end to solve exactly in {equilibrium_budget:g} s"
        except ValueError as exc:  # a game the exact solver does not take: MCTS below
            reason = f"no exact equilibrium ({shorten(str(exc), 60)})"
    view = game.view_for(player) if game.is_simultaneous_node() else game
    if "solve" in hint_kinds(view) and not view.is_simultaneous_node():
        try:
            data = compute_hints("solve", view, budget)
            return {"kind": "solve", "exact": True, "moves": data["moves"], "mix": {},
                    "message": f"Solved exactly: {data['message']}"}
        except (RuntimeError, ValueError) as exc:
            reason = f"too big to solve in {budget:g} s" if isinstance(exc, RuntimeError) else shorten(str(exc), 60)
    try:
        data = compute_hints("mcts", view, max(0.2, budget / 2))
    except Exception as exc:
        return {"kind": "none", "exact": False, "moves": {}, "mix": {},
                "message": f"This position could not be analysed ({type(exc).__name__}: {shorten(str(exc), 60)})."}
    why = f" ({reason})" if reason else ""
    return {"kind": "mcts", "exact": False, "moves": data["moves"], "mix": {},
            "message": f"Estimates, not exact{why}: {data['message']}"}


def poll_position(source: Any, *, step: int | None = None) -> Game:
    """The position a poll asks, as its own game with no moves to undo past it.

    Args:
        source: a :class:`~gridwidgets.core.Game` (its current position, or
            the one after ``step`` steps of its history), an exercise (its
            ``start()``), a save file's text (``to_json``; any registered
            game), or a position's text (``Game.position()``: the game's
            id, then its fields).
        step: for a game or a save file, the step of its history (0 is the
            start); default its current position.

    Raises:
        ValueError: a save file or position that does not load (saying why), a step
            outside the history, a position where the game is over, or a
            source of another kind.
    """
    if isinstance(source, str) and not source.lstrip().startswith("{"):
        game = Game.from_position(source)  # a position's text, its game named by its first word
    elif isinstance(source, (str, bytes, dict)):
        from ..core.savefile import load

        game = load(Game, source)
    elif isinstance(source, Game):
        game = source.copy()
    elif callable(getattr(source, "start", None)):
        game = source.start()
        if not isinstance(game, Game):
            raise ValueError(f"an exercise's start() gave {type(game).__name__}, not a game")
    else:
        raise ValueError("a poll's position comes from a game, an exercise or a save file, "
                         f"not {type(source).__name__}")
    if step is not None:
        total = game.step_count + len(game.future_steps)
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= total:
            raise ValueError(f"step {shorten(step)} is outside this game's history (0..{total})")
        game.goto(step)
    if game.pending:
        from ..analysis.equilibrium import before_submissions

        game = before_submissions(game)
    if game.is_over:
        raise ValueError("the game is over at that position: no move to ask")
    return game


def now() -> float:
    """The time an answer is stamped with (Unix seconds)."""
    return time.time()


# -- the life cycle of a room's polls (Room.open_poll, answer_poll, ... call these under the room's rules) ----------
def current_poll(room: Room) -> Poll | None:
    """The poll on ``room``'s students' screens (open, closed or revealed), or ``None``."""
    poll = room.polls[-1] if room.polls else None
    return poll if poll is not None and poll.state != "ended" else None


def _label(source: Any, step: int | None) -> str:
    text = isinstance(source, str) and not source.lstrip().startswith("{")
    label = "a position" if text else "a save file" if isinstance(source, (str, bytes, dict)) else (
        "an exercise" if not isinstance(source, Game) else "a game")
    return label + (f", step {step}" if step is not None else "")


def open_poll(room: Room, source: Any, *, step: int | None = None, player: int | None = None,
              label: str = "", live_answers: bool = False) -> Poll:
    """Open a poll in ``room`` (the teacher already checked; see
    :meth:`~gridwidgets.rooms.Room.open_poll`): the position read outside the
    room's lock, then stored and put on the screens under it; a poll still on
    the screens ends first. ``live_answers``: show the answers while it is
    open (:attr:`Poll.live_answers`).

    Raises:
        RoomError: :data:`MAX_POLLS` asked already.
        ValueError: a source that gives no position, a step outside its
            history, a position where the game is over, a player not to move.
    """
    from .model import RoomError

    game = poll_position(source, step=step)
    to_move = list(game.players_to_move)
    if player is None:
        player = to_move[0]
    if player not in to_move:
        raise ValueError(f"player {shorten(player, 8)} is not to move at that position (to move: {to_move})")
    if not isinstance(label, str):  # repr of a page's junk (nested 5,000 deep) would raise, not refuse
        raise ValueError(f"a poll's label is text, not {type(label).__name__}")
    label = (label or _label(source, step))[:80]
    with room.lock:
        if len(room.polls) >= MAX_POLLS:
            raise RoomError(f"this room has asked {MAX_POLLS} polls already: open another room")
        end_poll(room)
        live_answers = bool(live_answers)
        poll_id = room.store.add_poll(room.code, game.to_json(indent=None), player, label, live=live_answers)
        poll = Poll(poll_id, room.code, game, player, label, now(), live_answers=live_answers)
        room.polls.append(poll)
        room.changed()
        return poll


def answer_poll(room: Room, token: str, move: Any) -> str:
    """The seat of ``token`` answers ``room``'s open poll (see
    :meth:`~gridwidgets.rooms.Room.answer_poll`); return the move's notation.

    Raises:
        RoomError: no poll open, or the poll closed.
        IllegalMoveError: a move the poll's player could not play there (naming the rule).
    """
    from .model import RoomError

    poll = current_poll(room)
    if poll is None:
        raise RoomError("no poll is open in this room")
    if poll.state != "open":
        raise RoomError("the poll is closed: answers are no longer taken")
    text = poll.check_move(move)  # outside the room's lock: a copy of the position, played
    with room.lock:
        if poll.state != "open" or current_poll(room) is not poll:
            raise RoomError("the poll is closed: answers are no longer taken")
        before = poll.answers.get(token)
        if before is not None and before.move == text:
            return text
        at = now()
        room.store.add_poll_answer(poll.id, token, text, at)
        poll.answers[token] = Answer(token, text, at, 0 if before is None else before.changes + 1)
        poll.version += 1
        room.changed()
    return text


def _on_screens(room: Room) -> Poll:
    """``room``'s poll on the screens (the caller holds the room's lock).

    Raises:
        RoomError: no poll on the screens.
    """
    from .model import RoomError

    poll = current_poll(room)
    if poll is None:
        raise RoomError("no poll is on the screens")
    return poll


def set_poll_state(room: Room, state: str) -> Poll:
    """Move ``room``'s poll on the screens to ``state`` (``"closed"`` or
    ``"revealed"``; a revealed poll stays revealed when closed again); on
    reveal, the analysis is computed on a thread of its own and the pages
    redrawn when it is in.

    Raises:
        RoomError: no poll on the screens.
    """
    with room.lock:
        poll = _on_screens(room)
        if poll.state == state or (state == "closed" and poll.state == "revealed"):
            return poll
        poll.state = state
        poll.version += 1
        room.store.set_poll(poll.id, state)
        room.changed()
    if state == "revealed" and not poll.analysed:
        threading.Thread(target=_analyse, args=(room, poll), name="gridwidgets-poll-reveal", daemon=True).start()
    return poll


def set_poll_live(room: Room, live: bool) -> Poll:
    """Show ``room``'s poll's answers while it is open (``live``), or hide
    them again until it is closed (:attr:`Poll.live_answers`).

    Raises:
        RoomError: no poll on the screens.
    """
    with room.lock:
        poll = _on_screens(room)
        if poll.live_answers == bool(live):
            return poll
        room.store.set_poll_live(poll.id, bool(live))
        poll.live_answers = bool(live)
        poll.version += 1
        room.changed()
    return poll


def _analyse(room: Room, poll: Poll) -> None:
    analysis = poll.analysis()
    with room.lock:
        room.store.set_poll(poll.id, poll.state, analysis)
        poll.version += 1
        room.changed()


def end_poll(room: Room) -> None:
    """Take ``room``'s poll off the screens (the caller holds the room's lock)."""
    poll = current_poll(room)
    if poll is not None:
        poll.state = "ended"
        poll.version += 1
        room.store.set_poll(poll.id, "ended")


def restore_polls(room_of: Callable[[Any, str], Room], data: Mapping[str, list[dict[str, Any]]],
                  damaged: Callable[[str, Exception], Exception]) -> None:
    """Put the store's polls and answers back in their rooms (``data``: what
    :meth:`~gridwidgets.rooms.Store.load` read; ``room_of(code, what)`` finds
    a row's room or raises; ``damaged(what, exc)`` makes the error for a row
    that cannot be read back)."""
    polls: dict[int, Poll] = {}
    for p in data["polls"]:
        room = room_of(p["room"], f"poll {p['id']}")
        try:
            poll = Poll(int(p["id"]), room.code, Game.from_json(p["save"]), int(p["player"]), str(p["source"]),
                        float(p["opened"]), str(p["state"]), live_answers=bool(p.get("live") or 0))
            if poll.state not in POLL_STATES or poll.player not in range(len(poll.game.players)):
                raise ValueError("its state or player is not one a poll has")
        except (ValueError, TypeError, KeyError) as exc:
            raise damaged(f"poll {str(p.get('id'))[:8]}", exc) from None
        poll._analysis = p["analysis"]
        room.polls.append(poll)
        polls[poll.id] = poll
    for a in data["poll_answers"]:
        poll = polls.get(a["poll"])
        if poll is None:
            raise damaged(f"an answer to poll {str(a['poll'])[:8]}", KeyError("no such poll"))
        before = poll.answers.get(a["token"])
        poll.answers[a["token"]] = Answer(a["token"], a["move"], float(a["at"]),
                                          0 if before is None else before.changes + 1)
