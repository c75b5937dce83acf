"""The protocol every game speaks: the :class:`Game` base class.

A game subclasses :class:`Game`, declares what kind of game it is
(:class:`~gridwidgets.core.gametype.GameType`) and writes only its rules:
how to read a move, which moves are legal, what a move changes, and how to
snapshot its state. Everything else comes from here, the same for every
game: ``play`` with its errors, undo and redo by *steps*, the history
scrubber (``goto``), simultaneous nodes with hidden submissions, observers,
versioned JSON, copies, views that hide what a player may not know, the
displays, ``simulate`` and the widget.

The vocabulary is the field's (python-chess's ``Board`` and OpenSpiel's game
states are the models): player, legal moves, terminal, returns, and
simultaneous nodes whose joint action is revealed once every player has
chosen (M. Lanctot et al., "OpenSpiel", 2019, arXiv:1908.09453).

**Steps.** The history is the flat list of moves (``history``), one entry
per move, as notation files store it. Undo, redo, ``goto`` and the widget's
history slider move by *steps*: a step is one decision, a single move or
the revealed joint action of a simultaneous node, together with the moves
the rules then made by themselves (say, a placement skipped because it fits nowhere).

**Simultaneous nodes.** Where a game's :meth:`Game._simultaneous` names
several players, each of them submits one move, in any order (``play(move,
player=p)``; by default the lowest-numbered player who has not submitted).
A submission is hidden: it is in no history, save file, display or widget,
and :meth:`Game.view_for` hides it from the other players. Once all are in,
the joint action is revealed, applied and recorded as one step. Undo while
a submission is still hidden withdraws it (and returns ``None``, so nothing
of it is shown).
"""

from __future__ import annotations

import copy as _copy
import os
import threading
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar, TypeVar

import numpy as np

from . import savefile
from .errors import IllegalMoveError, shorten
from .gametype import Chance, GameInfo, GameType, Utility
from .hooks import KnowledgeHooks, PictureHooks, TerminalHooks, ViewHooks
from .moves import CellMove, Hidden, JointMove, Step
from .notation import col_label
from .savefile import MAX_SAVE_CHARS

#: the longest position text :meth:`Game.from_position` reads (a 26x26 board with every field is far shorter)
MAX_POSITION_CHARS = 20_000

__all__ = ["CellMove", "Game", "Hidden", "JointMove", "Observation", "Step"]

G = TypeVar("G", bound="Game")

#: attributes that copies share: lists of immutable moves and undo records
_SHARED = frozenset({"_history", "_future", "_step_records"})
#: attributes a copy never takes from the original
_OWN = frozenset({"_observers", "_lock", "_quiet", "_dirty"})
#: element types a list may hold to be copied flat (``list(value)``): immutable,
#: so the flat copy is what ``deepcopy`` would make, without a call per element
_ATOMIC = frozenset({int, float, bool, str, type(None)})


class Observation:
    """Handle returned by :meth:`Game.observe`; call :meth:`stop` to stop."""

    def __init__(self, game: Game, callback: Callable[[Game], Any]) -> None:
        self._game = game
        self.callback = callback

    def stop(self) -> None:
        """Stop calling the callback (idempotent)."""
        self._game._observers.pop(id(self), None)

    __call__ = stop

    @property
    def active(self) -> bool:
        """True while the callback is still being called."""
        return id(self) in self._game._observers


class Game(KnowledgeHooks, PictureHooks, TerminalHooks, ViewHooks, ABC):
    """Base class of the games: a plain object with ``play``/``undo``/``redo``.

    A subclass declares :attr:`game_type` (what kind of game it is) and
    :attr:`players`, and implements the abstract methods (its rules). The
    optional *hooks* (``gridwidgets.core.hooks``: knowledge, picture,
    terminal, view) attach what a game knows beyond its rules; every
    generic layer (agents, the solver, ``simulate``, tournaments, the
    terminal, the widget, the rooms) reads them instead of asking which
    game it is. Save files are ``gridwidgets.core.savefile``'s, move value
    types ``gridwidgets.core.moves``'. ``docs/adding-a-game.md`` walks
    through it.

    Two facades reach above the core, as ``chess.Board`` reaches ``chess.svg``
    only through ``_repr_svg_``: :meth:`widget` (``gridwidgets.widgets``)
    and :meth:`simulate` (``gridwidgets.sim``), each imported when called.
    """

    #: what kind of game this is (dynamics, information, chance, utility,
    #: players, move kinds); every generic layer reads it
    game_type: ClassVar[GameType]
    #: the registry name and save-file id, ``game_type.short_name``
    game_id: ClassVar[str] = ""
    #: version of this game's save format
    save_version: ClassVar[int] = 1
    #: the longest save file :meth:`from_json` reads (characters); a game with very long
    #: histories raises it
    max_save_chars: ClassVar[int] = MAX_SAVE_CHARS
    #: the rule cited when a move is tried after the game ended
    end_rule: ClassVar[str] = "C-5"
    #: the rule cited when a move names the wrong player
    turn_rule: ClassVar[str] = "C-3"
    #: the rule cited when a player submits twice at a simultaneous node
    final_rule: ClassVar[str] = "C-5"
    #: the rule that keeps submissions hidden (cited when a view would need one)
    secrecy_rule: ClassVar[str] = "C-5"
    #: the words for a choice at a simultaneous node, for pages that speak to one seat:
    #: (verb, its past with "has", noun), e.g. ``("bid", "has bid", "bid")``
    simultaneous_words: ClassVar[tuple[str, str, str]] = ("choose", "has chosen", "choice")
    #: player names, index = player id (rule C-3)
    players: tuple[str, ...] = ()
    rows: int
    cols: int

    #: the position a game made by :meth:`from_position` started at (its notation), else ``None``
    _start_position: str | None = None
    #: attributes that never change after ``__init__`` (lookup tables): copies share them
    _static: ClassVar[frozenset[str]] = frozenset()
    #: True if :attr:`game_type` says some node is simultaneous (a fast check in ``play``)
    _has_joint: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        if "game_id" in own:
            raise TypeError(f"{cls.__name__}: declare a game_type; game_id is its short_name")
        if "game_type" in own:
            gt = own["game_type"]
            if not isinstance(gt, GameType):
                raise TypeError(f"{cls.__name__}.game_type must be a GameType, got {type(gt).__name__}")
            cls.game_id = gt.short_name
        gt = getattr(cls, "game_type", None)
        cls._has_joint = bool(gt is not None and gt.simultaneous)

    def __init__(self) -> None:
        self._history: list[Any] = []
        self._future: list[Any] = []
        # one entry per step: (undo record, history entries of the step, joint players or None)
        self._step_records: list[tuple[Any, int, tuple[int, ...] | None]] = []
        self._pending: dict[int, Any] = {}
        self._hidden_players: frozenset[int] = frozenset()
        self._auto: list[Any] = []
        self._observers: dict[int, Observation] = {}
        self._lock = threading.RLock()
        self._quiet = 0
        self._dirty = False
        self._version = 0

    # ------------------------------------------------------------------
    # What a game writes: its rules
    # ------------------------------------------------------------------
    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The constructor options of this game, as JSON-able keyword arguments."""

    @abstractmethod
    def parse_move(self, value: Any, player: int | None = None) -> Any:
        """Read a move given as a move object, notation or tuple.

        Args:
            value: what was given.
            player: whose move it is (at a simultaneous node); ``None``: the
                player to act. Sequential games may ignore it.

        Raises:
            InvalidMoveError: when it cannot be read (rule C-2).
            IllegalMoveError: when it can be read but names something that
                cannot be (a cell off the board, C-1).
        """

    @abstractmethod
    def legal_moves(self, player: int | None = None) -> list[Any]:
        """Every legal move of ``player`` now (default :attr:`current_player`);
        ``[]`` for a player who is not to act and once the game is over.

        At a simultaneous node every player of :meth:`players_to_move` has
        moves; one who has already submitted has none.
        """

    @abstractmethod
    def _check(self, move: Any) -> None:
        """Raise :class:`IllegalMoveError` naming the rule if ``move`` is illegal now."""

    @abstractmethod
    def _apply(self, move: Any) -> None:
        """Apply a legal move."""

    @abstractmethod
    def _snapshot(self) -> Any:
        """An independent copy of the mutable state (for undo)."""

    @abstractmethod
    def _restore(self, snapshot: Any) -> None:
        """Put back a state made by :meth:`_snapshot`."""

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The player to act (rule C-3), ``None`` when the game is over.

        At a simultaneous node: a player who has not submitted yet (by
        convention the lowest-numbered one, :meth:`_first_to_submit`).
        """

    @property
    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """Every winning or drawing player; empty while ongoing (rule C-4)."""

    @property
    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """One int per player; what it counts is said by each game."""

    @property
    @abstractmethod
    def board(self) -> np.ndarray:
        """A read-only ``(rows, cols)`` numpy array of the cells."""

    # Rules hooks for simultaneous nodes ----------------------------------
    def _simultaneous(self) -> tuple[int, ...]:
        """The players who choose at once at this node, in increasing order;
        ``()`` at a sequential node (the default: every node)."""
        return ()

    def _apply_joint(self, moves: tuple[Any, ...]) -> None:
        """Apply the revealed joint action: ``moves[k]`` is the move of the
        ``k``-th player of :meth:`_simultaneous`. Games with simultaneous
        nodes implement it (and may add automatic moves to ``self._auto``)."""
        raise NotImplementedError(f"{type(self).__name__} has simultaneous nodes but no _apply_joint")

    def _check_submission(self, move: Any, player: int) -> None:
        """Raise :class:`IllegalMoveError` if ``player`` may not submit ``move``
        here (default: :meth:`_check`). Whether the player already submitted
        is checked by the base class."""
        self._check(move)

    def _hidden_move(self, player: int) -> Any:
        """What a view shows in place of ``player``'s hidden submission (default :class:`Hidden`)."""
        return Hidden(player)

    def _first_to_submit(self) -> int | None:
        """At a simultaneous node, the lowest-numbered player who has not
        submitted (the usual :attr:`current_player` there); ``None`` elsewhere."""
        for p in self._simultaneous():
            if p not in self._pending:
                return p
        return None

    def _end_rule(self) -> str:
        """The rule cited for a move after the end (default :attr:`end_rule`)."""
        return self.end_rule

    # Metadata hooks --------------------------------------------------------
    def max_game_length(self) -> int | None:
        """The most entries :attr:`history` can reach with these options
        (OpenSpiel's ``MaxGameLength``), ``None`` if no bound exists.
        Games override it; the default, ``None``, claims nothing."""
        return None

    @property
    def game_info(self) -> GameInfo:
        """What this game's options fix: players, maximum length, returns
        (:class:`~gridwidgets.core.gametype.GameInfo`)."""
        utility = self.game_type.utility
        return GameInfo(
            num_players=len(self.players),
            max_game_length=self.max_game_length(),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if utility is Utility.ZERO_SUM else None,
        )

    @property
    def num_players(self) -> int:
        """How many players this game has (``len(players)``)."""
        return len(self.players)

    #: named setups for menus (the classroom, the CLI): ``{key: (label, options)}``,
    #: the first the default; games override it
    presets: ClassVar[dict[str, tuple[str, dict[str, Any]]]] = {}
    #: one or two sentences on how to play on the board, for menus and help
    how_to_play: ClassVar[str] = ""
    # ------------------------------------------------------------------
    # Derived state
    # ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True when the game has ended (terminal, in OpenSpiel's words)."""
        return self.current_player is None

    @property
    def is_terminal(self) -> bool:
        """Same as :attr:`is_over` (OpenSpiel's word)."""
        return self.current_player is None

    @property
    def winner(self) -> int | None:
        """The single winner's id, or ``None`` (ongoing, draw or shared win; rule C-4)."""
        w = self.winners
        return w[0] if len(w) == 1 else None

    def returns(self) -> tuple[float, ...]:
        """Per-player returns: +1 for a sole winner, -1 for the others;
        a shared win or draw gives 0 to the sharers and -1 to the others;
        all zero while ongoing (OpenSpiel's ``returns``)."""
        w = self.winners
        if not w:
            return tuple(0.0 for _ in self.players)
        if len(w) == 1:
            return tuple(1.0 if p in w else -1.0 for p in range(len(self.players)))
        return tuple(0.0 if p in w else -1.0 for p in range(len(self.players)))

    def is_simultaneous_node(self) -> bool:
        """True where several players choose at once (a joint action)."""
        return bool(self._has_joint and self._simultaneous())

    @property
    def players_to_move(self) -> tuple[int, ...]:
        """Who must still choose here: the players of a simultaneous node who
        have not submitted, else ``(current_player,)``; ``()`` when over."""
        if self._has_joint:
            sim = self._simultaneous()
            if sim:
                return tuple(p for p in sim if p not in self._pending)
        p = self.current_player
        return () if p is None else (p,)

    def hidden_submissions(self) -> dict[int, Any]:
        """The submissions of this simultaneous node still hidden, ``{player:
        move}``: what the holder of the true game keeps (a server's database,
        to restore the node after a restart). Never for a page or an agent,
        which get :meth:`view_for`; on a view, the hidden moves are placeholders.

        Replay with ``play(move, player=p)`` in player order to restore them.
        """
        with self._lock:
            return dict(self._pending)

    @property
    def pending(self) -> tuple[int, ...]:
        """The players whose submission at this simultaneous node is in but
        still hidden, in the order they came; never what they chose."""
        return tuple(self._pending)

    @property
    def history(self) -> list[Any]:
        """The moves played, oldest first (a copy; ``str(m)`` is the notation).
        A joint action stands as its submissions in player order; a hidden
        submission is not here. The moves the rules made by themselves (a
        forced pass) are here too, after the decision they followed
        (:attr:`Step.automatic <gridwidgets.core.moves.Step.automatic>`), and
        :meth:`play` refuses them, so to replay a game play the decisions of
        its :attr:`steps` instead: a step's ``moves[0]``, or for a joint
        action (``players`` not ``None``) each of its first ``len(players)``
        moves for its player."""
        return list(self._history)

    @property
    def future(self) -> list[Any]:
        """The undone decisions that :meth:`redo` replays, next first, as moves
        (a joint action as its submissions in player order; a copy)."""
        if not self._has_joint:  # no joint actions in this game: the decisions are the moves
            return self._future[::-1]
        out: list[Any] = []
        for d in reversed(self._future):
            out.extend(d.moves if isinstance(d, JointMove) else (d,))
        return out

    @property
    def steps(self) -> list[Step]:
        """The history as steps (what undo takes back at once), oldest first."""
        out: list[Step] = []
        i = 0
        history = self._history
        for _, n, players in self._step_records:
            out.append(Step(tuple(history[i : i + n]), players))
            i += n
        return out

    @property
    def future_steps(self) -> list[Any]:
        """The undone decisions, next first: moves, or :class:`JointMove` for joint actions."""
        return list(reversed(self._future))

    @property
    def step_count(self) -> int:
        """How many steps have been played: the position :meth:`goto` names."""
        return len(self._step_records)

    @property
    def lock(self) -> threading.RLock:
        """The game's re-entrant lock. Every change (``play``, ``undo``, ``redo``,
        ``goto``, ``reset``, loading) holds it, so a change is atomic; a reader in
        another thread holds it to read several things as one position::

            with g.lock:
                moves, version = g.legal_moves(), g.version
        """
        return self._lock  # type: ignore[return-value]

    @property
    def version(self) -> int:
        """Increases on every change (move, submission, undo, redo, reset, load)."""
        return self._version

    def is_legal(self, move: Any, player: int | None = None) -> bool:
        """True if ``move`` could be played now (by ``player``, default the player to act)."""
        try:
            with self._lock:
                if self._has_joint and self._simultaneous():
                    p = self._submitter(player, move)
                    m = self.parse_move(move, p)
                    self._check_submission(m, p)
                else:
                    m = self.parse_move(move)
                    self._check_turn(m, player)
                    self._check(m)
        except IllegalMoveError:
            return False
        return True

    # ------------------------------------------------------------------
    # Changing the game
    # ------------------------------------------------------------------
    def play(self, move: Any, player: int | None = None) -> Any:
        """Play a move for the player to act, or submit one at a simultaneous node.

        Args:
            move: a move object, its notation string (``"B2"``, rule C-2),
                or for a cell move a 0-based ``(row, col)`` tuple.
            player: if given, the player who means to move; at a sequential
                node a different player than :attr:`current_player` is
                refused; at a simultaneous node it says who submits
                (default: the lowest-numbered player who has not).

        Returns:
            The move object played (submitted).

        Raises:
            IllegalMoveError: naming the broken rule; the state is unchanged
                (rule C-5). :class:`InvalidMoveError`, a subclass, when the
                move cannot be read.
        """
        lock = self._lock
        lock.acquire()  # (explicit: several times cheaper than ``with`` on an RLock, and play is hot)
        try:
            if self._has_joint and self._simultaneous():
                return self._submit(move, player)
            m = self.parse_move(move)
            self._check_turn(m, player)
            self._check(m)
            self._push(m)
            if self._future:
                self._future.clear()
            self._version += 1  # _changed(), inlined: play is hot in searches
            if self._quiet:
                self._dirty = True
            elif self._observers:
                self._notify()
            return m
        finally:
            lock.release()

    def play_joint(self, moves: Mapping[int, Any]) -> None:
        """Submit the moves of every player still to choose at a simultaneous
        node at once (``{player: move}``, others ignored): all or nothing.

        Raises:
            IllegalMoveError: a move refused, or a player to move without one;
                the submissions made by this call are withdrawn first, so the
                state is as before (rule C-5).
        """
        with self._lock:
            movers = self.players_to_move
            missing = [p for p in movers if p not in moves]
            if missing:
                raise IllegalMoveError(
                    "no move for " + ", ".join(self.players[p] for p in missing) + ", who must choose",
                    rule=self.turn_rule)
            before = len(self._pending)
            try:
                for p in movers:
                    self.play(moves[p], player=p)
            except Exception:
                while len(self._pending) > before:  # withdraw what went in
                    self.undo()
                raise

    def _check_player(self, player: Any, move: Any) -> None:
        """Refuse a ``player`` that is not a player id of this game (rule C-3)."""
        if player is None:
            return
        if not isinstance(player, (int, np.integer)) or isinstance(player, bool) or not 0 <= player < len(
            self.players
        ):
            names = ", ".join(f"{i} is {n}" for i, n in enumerate(self.players))
            raise IllegalMoveError(f"{shorten(player)} is not a player ({names})", rule="C-3", move=move)

    def _check_turn(self, move: Any, player: int | None) -> None:
        current = self.current_player
        if current is None:
            raise IllegalMoveError(
                f"the game is over: no move can be played ({self.status()})",
                rule=self._end_rule(),
                move=move,
            )
        if player is not None and player != current:
            self._check_player(player, move)
            raise IllegalMoveError(
                f"it is not {self.players[player]}'s turn: {self.players[current]} is to move",
                rule=self.turn_rule,
                move=move,
            )

    def _submitter(self, player: Any, move: Any) -> int:
        """Who submits at this simultaneous node (checked)."""
        self._check_player(player, move)
        sim = self._simultaneous()
        if player is None:
            p = self._first_to_submit()
            assert p is not None
            return p
        player = int(player)
        if player not in sim:
            raise IllegalMoveError(
                f"{self.players[player]} has no choice to make now: "
                + ", ".join(self.players[q] for q in sim) + " choose at once",
                rule=self.turn_rule,
                move=move,
            )
        if player in self._pending:
            raise IllegalMoveError(
                f"{self.players[player]} has already chosen: a submission is final", rule=self.final_rule, move=move
            )
        return player

    def _submit(self, move: Any, player: int | None) -> Any:
        """Take one player's hidden submission; once all are in, reveal and apply the joint action."""
        p = self._submitter(player, move)
        m = self.parse_move(move, p)
        self._check_submission(m, p)
        sim = self._simultaneous()
        if len(self._pending) + 1 == len(sim):
            hidden = [q for q in self._pending if q in self._hidden_players]
            if hidden:
                raise IllegalMoveError(
                    f"{', '.join(self.players[q] for q in hidden)}'s choice is hidden in this view: "
                    "guess it with with_submission() first",
                    rule=self.secrecy_rule,
                    move=move,
                )
            chosen = {**self._pending, p: m}
            joint = JointMove(sim, tuple(chosen[q] for q in sim))
            self._push_joint(joint)
            self._pending = {}
        else:
            self._pending = {**self._pending, p: m}
        self._future.clear()
        self._changed()
        return m

    def _do(self, move: Any) -> Any:
        """Apply a legal move and return what :meth:`_undo` needs to take it back.

        By default a full :meth:`_snapshot` taken before :meth:`_apply`; a
        game may override both with a smaller undo record for speed. A
        record is never changed once made, and :meth:`_undo`/:meth:`_restore`
        copy what they take from it: copies of a game share their records.
        """
        snap = self._snapshot()
        try:
            self._apply(move)
        except Exception:
            self._restore(snap)
            raise
        return snap

    def _do_joint(self, joint: JointMove) -> Any:
        """Apply a joint action and return its undo record (a snapshot by default)."""
        snap = self._snapshot()
        try:
            self._apply_joint(joint.moves)
        except Exception:
            self._restore(snap)
            raise
        return snap

    def _undo(self, record: Any) -> None:
        """Take back the step whose :meth:`_do` (or :meth:`_do_joint`) returned ``record``."""
        self._restore(record)

    def _push(self, move: Any) -> None:
        try:
            record = self._do(move)
        except Exception:
            self._auto = []
            raise
        self._history.append(move)
        # moves the rules made by themselves right after this one (a skipped
        # placement) go into the history too, and are undone with it
        auto = self._auto
        if auto:
            self._auto = []
            self._history.extend(auto)
            self._step_records.append((record, 1 + len(auto), None))
        else:
            self._step_records.append((record, 1, None))

    def _push_joint(self, joint: JointMove) -> None:
        try:
            record = self._do_joint(joint)
        except Exception:
            self._auto = []
            raise
        self._history.extend(joint.moves)
        auto = self._auto
        if auto:
            self._auto = []
            self._history.extend(auto)
        self._step_records.append((record, len(joint.moves) + len(auto), joint.players))

    def _withdraw(self) -> Any:
        """Withdraw the last hidden submission (not kept for redo)."""
        p = next(reversed(self._pending))
        pending = dict(self._pending)
        del pending[p]
        self._pending = pending
        self._hidden_players = self._hidden_players - {p}

    def _pop_step(self) -> Any:
        record, n, players = self._step_records.pop()
        self._undo(record)
        history = self._history
        if n == 1:
            decision = history.pop()
        else:
            entries = history[len(history) - n :]
            del history[len(history) - n :]
            decision = entries[0] if players is None else JointMove(players, tuple(entries[: len(players)]))
        self._future.append(decision)
        return decision

    def undo(self) -> Any:
        """Take back the last step and return its decision: the move, or the
        :class:`JointMove` of a simultaneous node. A submission still hidden
        is withdrawn instead (not kept for redo) and ``None`` is returned, so
        nothing of it is shown.

        Raises:
            IndexError: if nothing has been played.
        """
        lock = self._lock
        lock.acquire()
        try:
            if self._pending:
                self._withdraw()
                self._changed()
                return None
            records = self._step_records
            if not records:
                raise IndexError("nothing to undo: no move has been played")
            record, n, _ = records[-1]
            if n == 1:  # the common step, one move (inlined: undo is hot in searches)
                records.pop()
                self._undo(record)
                decision = self._history.pop()
                self._future.append(decision)
            else:
                decision = self._pop_step()
            self._version += 1
            if self._quiet:
                self._dirty = True
            elif self._observers:
                self._notify()
            return decision
        finally:
            lock.release()

    def _replay(self, decision: Any) -> None:
        """Apply an undone decision again (checked by the rules)."""
        if isinstance(decision, JointMove):
            for p, m in zip(decision.players, decision.moves, strict=True):
                self._check_submission(m, p)
            self._push_joint(decision)
        else:
            self._check(decision)
            self._push(decision)

    def redo(self) -> Any:
        """Play again the last undone step and return its decision.

        Raises:
            IndexError: if there is nothing to redo.
        """
        lock = self._lock
        lock.acquire()
        try:
            future = self._future
            if not future or self._pending:
                raise IndexError("nothing to redo")
            decision = future[-1]
            if type(decision) is JointMove:
                self._replay(decision)
            else:  # inlined: redo is hot in searches
                self._check(decision)
                self._push(decision)
            future.pop()
            self._version += 1
            if self._quiet:
                self._dirty = True
            elif self._observers:
                self._notify()
            return decision
        finally:
            lock.release()

    def undo_until(self, players: Collection[int]) -> int:
        """Undo one step, then go on undoing until one of ``players`` is to
        move (or the start is reached), as an Undo button does against agents
        (else an agent would at once play again). Observers are told once.

        Args:
            players: the player ids who are people; empty: undo one step only.

        Returns:
            How many steps were taken back (a withdrawn hidden submission counts).

        Raises:
            IndexError: if nothing has been played.
        """
        with self.batch():
            self.undo()
            n = 1
            while players and (self._step_records or self._pending) and not any(
                q in players for q in self.players_to_move
            ):
                self.undo()
                n += 1
        return n

    def goto(self, index: int) -> None:
        """Go to the position after ``index`` steps of ``steps + future_steps``
        (the history slider), notifying observers once. A hidden submission
        is withdrawn when the position changes.

        Raises:
            IndexError: if ``index`` is outside ``0..len(steps)+len(future_steps)``.
        """
        with self._lock:
            total = len(self._step_records) + len(self._future)
            if not isinstance(index, (int, np.integer)) or isinstance(index, bool) or not 0 <= index <= total:
                raise IndexError(f"position {shorten(index)} is outside 0..{total}")
            if index == len(self._step_records):
                return
            with self.batch():
                while self._pending:
                    self.undo()
                while len(self._step_records) > index:
                    self.undo()
                while len(self._step_records) < index:
                    self.redo()

    def reset(self) -> None:
        """Start a new game with the same options (history, redo and hidden submissions cleared)."""
        with self._lock:
            while self._step_records:
                self._undo(self._step_records.pop()[0])
            self._history.clear()
            self._future.clear()
            self._pending = {}
            self._hidden_players = frozenset()
            self._changed()


    def replace_with(self, other: Game) -> None:
        """Become a copy of ``other`` (a game of the same class: a board from
        an editor, a loaded file), keeping this object's observers; they are
        notified once.

        Raises:
            TypeError: if ``other`` is of another class.
        """
        if type(other) is not type(self):
            raise TypeError(f"cannot become a {type(other).__name__}: this is a {type(self).__name__}")
        fresh = other.copy()
        with self._lock:
            keep = {k: self.__dict__[k] for k in _OWN if k in self.__dict__}
            version = self._version
            self.__dict__.clear()
            self.__dict__.update(fresh.__dict__)
            self.__dict__.update(keep)
            self._version = version
            self._changed()

    # ------------------------------------------------------------------
    # Observers
    # ------------------------------------------------------------------
    def observe(self, callback: Callable[[Game], Any]) -> Observation:
        """Call ``callback(game)`` after every change (move, undo, redo, reset, load).

        Returns:
            A handle; ``handle.stop()`` stops the calls.
        """
        obs = Observation(self, callback)
        self._observers[id(obs)] = obs
        return obs

    def unobserve(self, handle: Observation) -> None:
        """Stop an observation made by :meth:`observe` (same as ``handle.stop()``)."""
        handle.stop()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group several changes so observers are called once, at the end
        (and hold the game's lock meanwhile: the changes are atomic)."""
        with self._lock:
            self._quiet += 1
            try:
                yield
            finally:
                self._quiet -= 1
                if not self._quiet and self._dirty:
                    self._dirty = False
                    self._notify()

    def _changed(self) -> None:
        self._version += 1
        if self._quiet:
            self._dirty = True
        elif self._observers:
            self._notify()

    def _notify(self) -> None:
        if not self._observers:
            return
        for obs in list(self._observers.values()):
            try:
                obs.callback(self)
            except Exception as exc:  # an observer never breaks the game
                warnings.warn(f"observer {obs.callback!r} failed: {exc!r}", RuntimeWarning, stacklevel=3)

    # ------------------------------------------------------------------
    # Copies, views, equality, save/load
    # ------------------------------------------------------------------
    def copy(self: G) -> G:
        """An independent deep copy (history and hidden submissions included, observers not).

        Moves are immutable and undo records are never changed once made
        (see :meth:`_do`), so the copy shares them: copying a long game is cheap.
        """
        new = object.__new__(type(self))
        memo: dict[int, Any] = {}
        with self._lock:
            for key, value in self.__dict__.items():
                if key in _OWN:
                    continue
                if key in _SHARED:
                    new.__dict__[key] = list(value)
                elif key in self._static or key == "_pending" or key == "_hidden_players":
                    new.__dict__[key] = value  # never changed in place (replaced on change)
                elif type(value) is list and id(value) not in memo and all(type(x) in _ATOMIC for x in value):
                    new.__dict__[key] = memo[id(value)] = list(value)  # a board of ints: flat
                    memo.setdefault(id(memo), []).append(value)  # kept alive, as deepcopy keeps its originals
                else:
                    new.__dict__[key] = _copy.deepcopy(value, memo)
        new._observers = {}
        new._lock = threading.RLock()
        new._quiet = 0
        new._dirty = False
        return new

    def __copy__(self: G) -> G:
        return self.copy()

    def __deepcopy__(self: G, memo: dict[int, Any]) -> G:
        return self.copy()

    def __getstate__(self) -> dict[str, Any]:
        # for pickling (worker processes): no lock, no observers
        with self._lock:
            return {k: v for k, v in self.__dict__.items() if k not in _OWN}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._observers = {}
        self._lock = threading.RLock()
        self._quiet = 0
        self._dirty = False

    def view_for(self: G, player: int | None) -> G:
        """A copy showing only what ``player`` may know (what an agent is
        given): the others' hidden submissions at a simultaneous node are
        replaced by :meth:`_hidden_move` placeholders, so the view knows
        *that* they have chosen, not what; ``None`` hides every one. A game
        with other hidden information overrides this."""
        g = self.copy()
        if g._pending:
            hidden = {q for q in g._pending if q != player}
            g._pending = {q: (g._hidden_move(q) if q in hidden else m) for q, m in g._pending.items()}
            g._hidden_players = frozenset(hidden)
        return g

    def with_submission(self: G, move: Any, player: int) -> G:
        """A copy of this view with ``player``'s hidden submission replaced by
        ``move`` (a guess), e.g. for search over what the other player may have chosen.

        Raises:
            IllegalMoveError: if ``player`` has no hidden submission here, or
                ``move`` is not one they could have submitted.
        """
        if player not in self._hidden_players:
            raise IllegalMoveError(
                f"{self.players[player]} has no hidden choice here", rule=self.secrecy_rule, move=move
            )
        g = self.copy()
        pending = dict(g._pending)
        del pending[player]
        g._pending = pending
        g._hidden_players = g._hidden_players - {player}
        m = g.parse_move(move, player)
        g._check_submission(m, player)
        quiet = g._quiet
        g._quiet = 1  # a copy has no observers; keep its version as the view's
        try:
            g._submit(m, player)
        finally:
            g._quiet = quiet
            g._dirty = False
        return g

    def __eq__(self, other: object) -> bool:
        """Same class, options, start position (:attr:`start_position`),
        history, redo list, board and player to act (at
        a simultaneous node: the players who choose there). Hidden submissions
        are not compared, nor who has submitted one: like a save file, which
        leaves them out, equality is about the public game."""
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Game)
        return (
            self.options() == other.options()
            and [str(m) for m in self._history] == [str(m) for m in other._history]
            and [str(m) for m in self.future] == [str(m) for m in other.future]
            and np.array_equal(self.board, other.board)
            and self._public_turn() == other._public_turn()
            and self._start_position == other._start_position
        )

    def _public_turn(self) -> Any:
        """Who is to act, as everyone may know it: the players of a simultaneous
        node (whoever has submitted), else :attr:`current_player`."""
        if self._has_joint:
            sim = self._simultaneous()
            if sim:
                return sim
        return self.current_player

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The save file as a dict (see :meth:`to_json`)."""
        return savefile.to_dict(self)

    def to_json(self, indent: int | None = 1) -> str:
        """A versioned save file (``gridwidgets.core.savefile``): the
        options, the moves played and undone (notation) and, for people and
        as a check, the board's text rows. A submission still hidden is not
        saved (it would reveal it)."""
        return savefile.dumps(self, indent=indent)

    @classmethod
    def from_json(cls: type[G], text: str | bytes | dict[str, Any]) -> G:
        """Load a save file made by :meth:`to_json`, checking every part
        (:func:`gridwidgets.core.savefile.load`). On ``Game`` itself, the
        game is found by the file's ``"game"`` id.

        Every move is replayed through the rules, so a file can only give a
        game that could have been played.

        Raises:
            ValueError: saying what is wrong (not JSON, another game, an
                unknown version, bad options, an illegal or unreadable move,
                a board that does not match the moves). No game is returned
                half-loaded.
        """
        return savefile.load(cls, text)  # type: ignore[return-value]

    # ------------------------------------------------------------------
    # Simulation
    # ------------------------------------------------------------------
    def _rollout(self, rng: Any) -> None:
        """Play uniformly random legal moves (``rng.randrange``) to the end;
        games may override with a faster path (used by ``simulate``)."""
        while not self.is_over:
            if self._has_joint and self._simultaneous():
                for p in self.players_to_move:
                    moves = self.legal_moves(p)
                    self.play(moves[rng.randrange(len(moves))], player=p)
                continue
            moves = self.search_moves()
            self.play(moves[rng.randrange(len(moves))])

    @classmethod
    def new_for_seed(cls: type[G], options: dict[str, Any], seed: int) -> G:
        """The game ``simulate`` and ``tournament`` play with ``seed``: a game
        whose setup is drawn by chance (:attr:`GameType.chance`) draws it
        from the seed unless the options fix it (a ``seed`` option given)."""
        if cls.game_type.chance is Chance.SEEDED_SETUP and "seed" not in options:
            return cls(seed=seed, **options)  # type: ignore[call-arg]
        return cls(**options)

    def result_row(self) -> dict[str, Any]:
        """One finished game as a row of ``simulate``'s columns: ``length``
        (moves played), ``winners``, ``winner`` (-1 for a draw or a shared
        win), ``shared``, and ``score_<player>`` per player. Games add columns."""
        w = self.winners
        row: dict[str, Any] = {
            "length": len(self._history),
            "winners": w,
            "winner": w[0] if len(w) == 1 else -1,
            "shared": len(w) > 1,
        }
        scores = self.scores
        for p, name in enumerate(self.players):
            row[f"score_{name}"] = scores[p]
        return row

    @classmethod
    def simulate(
        cls,
        n_games: int,
        seed: int | None = None,
        n_jobs: int | None = 1,
        progress: bool = True,
        parquet: str | os.PathLike[str] | None = None,
        batch: int = 10_000,
        start: Game | str | None = None,
        **options: Any,
    ) -> Any:
        """Play ``n_games`` uniformly random games and return one row per game.

        Args:
            n_games: how many games.
            seed: seeds the games (each gets its own stream from
                ``numpy.random.SeedSequence(seed).spawn``): the results do
                not depend on ``n_jobs``, the backend or the compiled path.
            n_jobs: processes for joblib (``-1``: every core; ``None``:
                joblib's current ``parallel_config``, e.g. a Dask or Ray
                cluster, see ``docs/scale.md``).
            progress: show a tqdm progress bar.
            parquet: a folder: stream the games there in batches, as Parquet
                files, and resume a run cut short (see :func:`gridwidgets.sim.simulate`).
            batch: games per Parquet file.
            start: every game starts here instead: a position's text
                (:meth:`position`) or a game of this class (no options then).
            **options: constructor options.

        Returns:
            A ``pandas.DataFrame`` with ``n_games`` rows: ``game``
            (0..n-1) and the columns of :meth:`result_row` (``length``,
            ``winners``, ``winner``, ``shared``, ``score_<player>``, and
            the game's own); with ``parquet``, a
            :class:`~gridwidgets.sim.StreamedRun` (``.read()`` gives that table).

        With numba installed (``gridwidgets[fast]``) a game with a compiled
        kernel plays the very same games compiled (:mod:`gridwidgets.fast`).

        Raises:
            ValueError: for a bad ``n_games`` or bad options.
        """
        from ..sim import simulate

        return simulate(cls, n_games, seed=seed, n_jobs=n_jobs, progress=progress, parquet=parquet, batch=batch,
                        start=start, **options)

    # ------------------------------------------------------------------
    # Positions as text
    # ------------------------------------------------------------------
    def position(self) -> str:
        """The whole state as one line of text, the game's position notation
        (what a FEN is to chess): ``"<game id> <the game's fields>"``, e.g.
        ``"<id> 4x4 ..../.X../..O./.... X"``. A hidden submission is never
        in it. :meth:`from_position` reads it back to an equal position.

        Raises:
            NotImplementedError: for a game without a position notation.
        """
        with self._lock:
            return f"{self.game_id} {self._write_position()}"

    @classmethod
    def from_position(cls: type[G], text: str) -> G:
        """A game that starts at the position ``text``: :meth:`position`'s
        notation, or the text board that ``print(g)`` shows where the game
        reads one. Its history is empty, so undo and :meth:`reset` stop there.
        On ``Game`` itself, the game is found by the position's game id.

        Raises:
            ValueError: for text that is not a position of this game, saying
                what is wrong (a count that cannot be, a cell off the board),
                quoting at most a few dozen characters of it; longer than
                ``MAX_POSITION_CHARS`` (20,000), refused unread.
            NotImplementedError: for a game without a position notation.
        """
        if not isinstance(text, str):
            raise ValueError(f"a position is text, got {type(text).__name__} (C-2)")
        if len(text) > MAX_POSITION_CHARS:
            raise ValueError(f"a position has at most {MAX_POSITION_CHARS:,} characters, got {len(text):,} (C-2)")
        body = text.strip()
        head, _, rest = body.partition(" ")
        if not getattr(cls, "game_type", None):  # Game itself: the game named by the id
            from .registry import lookup_id, names

            found = lookup_id(head)
            if found is None:
                raise ValueError(f"a position starts with its game's id ({', '.join(names())}), "
                                 f"not {shorten(head)} (C-2)")
            return found.from_position(body)  # type: ignore[return-value]
        if head == cls.game_id:
            body = rest.strip()
        elif head.isidentifier() and head.islower() and "\n" not in body.split(" ", 1)[0]:
            raise ValueError(f"{shorten(head)} is not this game's id ({cls.game_id}): a position of another game? "
                             "(C-2)")
        game = cls._read_position(body)
        start = game.position()
        try:
            fresh = cls(**game.options()).position()
        except (TypeError, ValueError):  # pragma: no cover - options() makes a new game by contract
            fresh = None
        if start != fresh:  # the constructor's own first position needs no start to be kept
            game._start_position = start
        return game

    @property
    def start_position(self) -> str | None:
        """The position this game started at (:meth:`position`'s text), where
        :meth:`from_position` made it and it is not the constructor's first
        position; ``None`` for a game its constructor started. Undo,
        :meth:`reset`, copies and save files keep it."""
        return self._start_position

    def _write_position(self) -> str:
        """The game's fields of :meth:`position` (a game overrides it)."""
        raise NotImplementedError(f"{type(self).__name__} has no position notation")

    @classmethod
    def _read_position(cls: type[G], body: str) -> G:
        """A new game at the position ``body`` (:meth:`position` without the
        game id, or the text board): a game overrides it."""
        raise NotImplementedError(f"{cls.__name__} has no position notation")

    # ------------------------------------------------------------------
    # Displays
    # ------------------------------------------------------------------
    def text_rows(self) -> list[str]:
        """The board as one string per row, ``.`` for an empty cell."""
        rows = []
        for r in range(self.rows):
            rows.append("".join((self.cell_text((r, c)) or ".")[:1] for c in range(self.cols)))
        return rows

    def __str__(self) -> str:
        from .draw import text_board

        with self._lock:  # one position, even while another thread plays
            return text_board(self.rows, self.cols, lambda cell: self.cell_text(cell))

    def __repr__(self) -> str:
        with self._lock:
            opts = ", ".join(f"{k}={v!r}" for k, v in self.options().items())
            moves = len(self._history)
            return f"<{type(self).__name__}({opts}): {moves} move{'s' if moves != 1 else ''}, {self.status()}>"

    def widget(self, **options: Any) -> Any:
        """The interactive board for this very game object (an anywidget).

        Keyword options are passed to the widget class (e.g. ``show_forbidden``).
        """
        from ..widgets import widget_for

        return widget_for(self, **options)

    # Helpers for subclasses ----------------------------------------------
    def col_labels(self) -> list[str]:
        return [col_label(c) for c in range(self.cols)]

    def row_labels(self) -> list[str]:
        return [str(r + 1) for r in range(self.rows)]


