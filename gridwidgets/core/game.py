"""The rules-independent base of every game: history, undo/redo, observers,
save/load, and the displays (python-chess's ``Board`` and OpenSpiel's game
states are the models for the vocabulary).

A game subclasses :class:`Game` and writes only its rules: how to read a
move, which moves are legal, what a move changes, and how to snapshot its
state. Undo, redo, the history scrubber, observers, versioned JSON, copies,
the SVG and text displays and the widget come from here.
"""

from __future__ import annotations

import copy as _copy
import json
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import numpy as np

from .errors import IllegalMoveError
from .notation import Cell, cell_name, col_label

__all__ = ["FORMAT", "CellMove", "Game", "Observation"]

#: the ``"format"`` field of every save file
FORMAT = "gridwidgets"

G = TypeVar("G", bound="Game")

#: attributes that copies share: lists of immutable moves and undo records
_SHARED = frozenset({"_history", "_future", "_undo_records"})


@dataclass(frozen=True, order=True)
class CellMove:
    """A move that is one cell (Gridlock GL-5, GridMaster4 GM-9).

    ``str(move)`` is its notation (``"B2"``, RULES C-2); ``move.cell`` the
    0-based ``(row, col)`` tuple (RULES C-1).
    """

    cell: Cell

    def __str__(self) -> str:
        return cell_name(self.cell)

    def __repr__(self) -> str:
        return f"CellMove({cell_name(self.cell)!r})"


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


class Game(ABC):
    """Base class of the games: a plain object with ``play``/``undo``/``redo``.

    Subclasses set the class attributes :attr:`game_id` and :attr:`players`
    and implement the abstract methods. Everything a user calls is here.
    """

    #: short name used in save files and by the front end (``"gridlock"``)
    game_id: ClassVar[str] = ""
    #: version of this game's save format
    save_version: ClassVar[int] = 1
    #: the rule cited when a move is tried after the game ended
    end_rule: ClassVar[str] = "C-5"
    #: the rule cited when a move names the wrong player
    turn_rule: ClassVar[str] = "C-3"
    #: player names, index = player id (RULES C-3)
    players: tuple[str, ...] = ()
    rows: int
    cols: int

    _registry: ClassVar[dict[str, type[Game]]] = {}
    #: attributes that never change after ``__init__`` (lookup tables): copies share them
    _static: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.game_id:
            Game._registry[cls.game_id] = cls

    def __init__(self) -> None:
        self._history: list[Any] = []
        self._future: list[Any] = []
        self._undo_records: list[tuple[Any, int]] = []
        self._auto: list[Any] = []
        self._observers: dict[int, Observation] = {}
        self._quiet = 0
        self._dirty = False
        self._version = 0

    # ------------------------------------------------------------------
    # What a game writes
    # ------------------------------------------------------------------
    @abstractmethod
    def options(self) -> dict[str, Any]:
        """The constructor options of this game, as JSON-able keyword arguments."""

    @abstractmethod
    def parse_move(self, value: Any) -> Any:
        """Read a move given as a move object, notation or tuple.

        Raises:
            IllegalMoveError: (``C-2``) when it cannot be read.
        """

    @abstractmethod
    def legal_moves(self) -> list[Any]:
        """Every legal move of :attr:`current_player`; empty when the game is over."""

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
        """The player to act (RULES C-3), ``None`` when the game is over."""

    @property
    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """Every winning or drawing player; empty while ongoing (RULES C-4)."""

    @property
    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """One int per player; what it counts is said by each game."""

    @property
    @abstractmethod
    def board(self) -> np.ndarray:
        """A read-only ``(rows, cols)`` numpy array of the cells."""

    # Optional hooks -----------------------------------------------------
    def status(self) -> str:
        """One line for people: whose turn it is, or the result."""
        if self.is_over:
            if self.winner is not None:
                return f"{self.players[self.winner]} wins."
            return "Draw between " + ", ".join(self.players[p] for p in self.winners) + "."
        assert self.current_player is not None
        return f"{self.players[self.current_player]} to move."

    def forbidden_cells(self) -> list[Cell]:
        """Empty cells the mover may not use, for display (none by default)."""
        return []

    forbidden_rule: ClassVar[str] = ""

    def cell_text(self, cell: Cell) -> str:
        """The text drawn in a cell: the owner's name by default, ``""`` if empty."""
        owner = int(self.board[cell])
        return self.players[owner] if owner >= 0 else ""

    # ------------------------------------------------------------------
    # Derived state
    # ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True when the game has ended (terminal, in OpenSpiel's words)."""
        return self.current_player is None

    is_terminal = is_over

    @property
    def winner(self) -> int | None:
        """The single winner's id, or ``None`` (ongoing, draw or shared win; RULES C-4)."""
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

    @property
    def history(self) -> list[Any]:
        """The moves played, oldest first (a copy; ``str(m)`` is the notation)."""
        return list(self._history)

    @property
    def future(self) -> list[Any]:
        """The undone moves that :meth:`redo` replays, next first (a copy)."""
        return list(reversed(self._future))

    @property
    def version(self) -> int:
        """Increases on every change (move, undo, redo, reset, load)."""
        return self._version

    def is_legal(self, move: Any) -> bool:
        """True if ``move`` could be played now."""
        try:
            m = self.parse_move(move)
            self._check_turn(m, None)
            self._check(m)
        except IllegalMoveError:
            return False
        return True

    # ------------------------------------------------------------------
    # Changing the game
    # ------------------------------------------------------------------
    def play(self, move: Any, player: int | None = None) -> Any:
        """Play a move for the player to act.

        Args:
            move: a move object, its notation string (``"B2"``, RULES C-2),
                or for a cell move a 0-based ``(row, col)`` tuple.
            player: if given, the player who means to move; a different
                player than :attr:`current_player` is refused.

        Returns:
            The move object played.

        Raises:
            IllegalMoveError: naming the broken rule; the state is unchanged
                (RULES C-5).
        """
        m = self.parse_move(move)
        self._check_turn(m, player)
        self._check(m)
        self._push(m)
        self._future.clear()
        self._changed()
        return m

    def _check_turn(self, move: Any, player: int | None) -> None:
        if self.is_over:
            raise IllegalMoveError(
                f"the game is over: no move can be played ({self.status()})",
                rule=self.end_rule,
                move=move,
            )
        if player is not None and player != self.current_player:
            name = self.players[player] if isinstance(player, int) and 0 <= player < len(self.players) else repr(player)
            raise IllegalMoveError(
                f"it is not {name}'s turn: {self.players[self.current_player]} is to move",  # type: ignore[index]
                rule=self.turn_rule,
                move=move,
            )

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

    def _undo(self, record: Any) -> None:
        """Take back the move whose :meth:`_do` returned ``record``."""
        self._restore(record)

    def _push(self, move: Any) -> None:
        try:
            record = self._do(move)
        except Exception:
            self._auto = []
            raise
        self._history.append(move)
        # moves the rules made by themselves right after this one (a skipped
        # placement, BF-7) go into the history too, and are undone with it
        auto = self._auto
        if auto:
            self._auto = []
            self._history.extend(auto)
        self._undo_records.append((record, len(auto)))

    def undo(self) -> Any:
        """Take back the last move and return it.

        Raises:
            IndexError: if no move has been played.
        """
        if not self._undo_records:
            raise IndexError("nothing to undo: no move has been played")
        record, n_auto = self._undo_records.pop()
        self._undo(record)
        del self._history[len(self._history) - n_auto :]
        move = self._history.pop()
        self._future.append(move)
        self._changed()
        return move

    def redo(self) -> Any:
        """Play again the last undone move and return it.

        Raises:
            IndexError: if there is nothing to redo.
        """
        if not self._future:
            raise IndexError("nothing to redo")
        move = self._future[-1]
        self._check(move)
        self._push(move)
        self._future.pop()
        self._changed()
        return move

    def goto(self, index: int) -> None:
        """Go to the position after ``index`` moves of ``history + future``
        (the history scrubber), notifying observers once.

        Raises:
            IndexError: if ``index`` is outside ``0..len(history)+len(future)``.
        """
        total = len(self.history) + len(self._future)
        if not isinstance(index, (int, np.integer)) or isinstance(index, bool) or not 0 <= index <= total:
            raise IndexError(f"position {index!r} is outside 0..{total}")
        with self.batch():
            while len(self.history) > index:
                self.undo()
            while len(self.history) < index and self._future:
                self.redo()

    def reset(self) -> None:
        """Start a new game with the same options (history and redo cleared)."""
        while self._undo_records:
            self._undo(self._undo_records.pop()[0])
        self._history.clear()
        self._future.clear()
        self._changed()

    new_game = reset

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
        """Group several changes so observers are called once, at the end."""
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
        else:
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
    # Copies, equality, save/load
    # ------------------------------------------------------------------
    def copy(self: G) -> G:
        """An independent deep copy (history included, observers not).

        Moves are immutable and undo records are never changed once made
        (see :meth:`_do`), so the copy shares them: copying a long game is cheap.
        """
        new = object.__new__(type(self))
        memo: dict[int, Any] = {}
        for key, value in self.__dict__.items():
            if key == "_observers":
                new.__dict__[key] = {}
            elif key in _SHARED:
                new.__dict__[key] = list(value)
            elif key in self._static:
                new.__dict__[key] = value
            else:
                new.__dict__[key] = _copy.deepcopy(value, memo)
        return new

    def __copy__(self: G) -> G:
        return self.copy()

    def __deepcopy__(self: G, memo: dict[int, Any]) -> G:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Game)
        return (
            self.options() == other.options()
            and [str(m) for m in self._history] == [str(m) for m in other._history]
            and [str(m) for m in self._future] == [str(m) for m in other._future]
            and np.array_equal(self.board, other.board)
            and self.current_player == other.current_player
        )

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        """The save file as a dict (see :meth:`to_json`)."""
        return {
            "format": FORMAT,
            "game": self.game_id,
            "version": self.save_version,
            "options": self.options(),
            "history": [str(m) for m in self.history],
            "future": [str(m) for m in self.future],
            "board": self.text_rows(),
        }

    def to_json(self, indent: int | None = 1) -> str:
        """A versioned save file: the options, the moves played and undone
        (notation) and, for people and as a check, the board's text rows."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_json(cls: type[G], text: str | bytes | dict[str, Any]) -> G:
        """Load a save file made by :meth:`to_json`, checking every part.

        Every move is replayed through the rules, so a file can only give a
        game that could have been played.

        Raises:
            ValueError: saying what is wrong (not JSON, another game, an
                unknown version, bad options, an illegal or unreadable move,
                a board that does not match the moves). No game is returned
                half-loaded.
        """
        if isinstance(text, dict):
            data: Any = text
        else:
            try:
                data = json.loads(text)
            except (TypeError, json.JSONDecodeError) as exc:
                raise ValueError(f"not a gridwidgets save file: not valid JSON ({exc})") from None
        if not isinstance(data, dict):
            raise ValueError("not a gridwidgets save file: the top level must be a JSON object")
        if data.get("format") != FORMAT:
            raise ValueError(f"not a gridwidgets save file: 'format' must be {FORMAT!r}, got {data.get('format')!r}")
        game_id = data.get("game")
        target: type[Game] = cls
        if not cls.game_id:
            if game_id not in Game._registry:
                raise ValueError(f"unknown game {game_id!r}; known: {sorted(Game._registry)}")
            target = Game._registry[game_id]
        elif game_id != cls.game_id:
            raise ValueError(f"this file holds a {game_id!r} game, not {cls.game_id!r}")
        version = data.get("version")
        if version != target.save_version:
            raise ValueError(
                f"unsupported save version {version!r} (this gridwidgets reads version {target.save_version})"
            )
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise ValueError("'options' must be a JSON object")
        try:
            game = target(**options)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"bad options {options!r}: {exc}") from None
        lists = {}
        for key in ("history", "future"):
            moves = data.get(key, [])
            if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise ValueError(f"{key!r} must be a list of move strings")
            lists[key] = moves
        game._quiet += 1  # no observers can exist yet; skip notifications
        try:
            history, future = lists["history"], lists["future"]
            i = 0
            while i < len(history):
                before = len(game._history)
                game._replay(history[i], i + 1)
                # moves the rules made by themselves (skips) stand in the file too
                made = [str(m) for m in game._history[before:]]
                if made != history[i : i + len(made)]:
                    raise ValueError(
                        f"moves {i + 1}.. of the history are {history[i : i + len(made)]!r}, "
                        f"but the rules give {made!r}"
                    )
                i += len(made)
            for j, text_move in enumerate(future):
                game._replay(text_move, len(history) + j + 1)
            for _ in future:
                game.undo()
        finally:
            game._quiet -= 1
            game._dirty = False
        board = data.get("board")
        if board is not None and board != game.text_rows():
            raise ValueError("the saved 'board' does not match the position reached by the moves")
        return game  # type: ignore[return-value]

    def _replay(self, text: str, number: int) -> None:
        try:
            self.play(text)
        except IllegalMoveError as exc:
            raise ValueError(f"move {number} ({text!r}) cannot be played: {exc}") from None

    def _rollout(self, rng: Any) -> None:
        """Play uniformly random legal moves (``rng.randrange``) to the end;
        games may override with a faster path (used by ``simulate``)."""
        while not self.is_over:
            moves = self.legal_moves()
            self.play(moves[rng.randrange(len(moves))])

    @classmethod
    def _sim_new(cls: type[G], options: dict[str, Any], seed: int) -> G:
        """The game ``simulate`` plays with ``seed`` (games with a random setup use the seed)."""
        return cls(**options)

    def _sim_row(self) -> dict[str, Any]:
        """One finished game as a row of ``simulate``'s columns: ``length``
        (moves played), ``winners``, ``winner`` (-1 for a draw or a shared
        win), ``shared``, and ``score_<player>`` per player."""
        w = self.winners
        row: dict[str, Any] = {
            "length": len(self._history),
            "winners": w,
            "winner": w[0] if len(w) == 1 else -1,
            "shared": len(w) > 1,
        }
        for p, name in enumerate(self.players):
            row[f"score_{name}"] = self.scores[p]
        return row

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

        return text_board(self.rows, self.cols, lambda cell: self.cell_text(cell))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options().items())
        moves = len(self._history)
        return f"<{type(self).__name__}({opts}): {moves} move{'s' if moves != 1 else ''}, {self.status()}>"

    def to_svg(self, size: int = 320, show_forbidden: bool = False) -> str:
        """A static SVG picture of the position (no JavaScript needed).

        Args:
            size: width of the picture in CSS pixels.
            show_forbidden: mark the cells the mover may not use.
        """
        from .draw import svg_board

        last = self._history[-1] if self._history else None
        last_cell = getattr(last, "cell", None)
        return svg_board(
            self.rows,
            self.cols,
            {
                (r, c): (self.cell_text((r, c)), int(self.board[r, c]))
                for r in range(self.rows)
                for c in range(self.cols)
                if self.cell_text((r, c))
            },
            last=last_cell,
            marked=self.forbidden_cells() if show_forbidden else (),
            size=size,
            title=f"{type(self).__name__}: {self.status()}",
        )

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def view_for(self, player: int | None) -> Game:
        """A copy showing only what ``player`` may know (what an agent is
        given): here the whole game; games with hidden information (Block
        Four's bids) leave out what ``player`` must not see."""
        return self.copy()

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


def moves_to_str(moves: Sequence[Any]) -> list[str]:
    """Notation of each move."""
    return [str(m) for m in moves]
