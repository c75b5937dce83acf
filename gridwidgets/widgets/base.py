"""The base widget shared by every game: state sync, click intents, status
messages, buttons, the history scrubber and the keyboard (DESIGN.md).

The browser draws ``state`` and sends intents; every intent goes through
the game's own :meth:`~gridwidgets.core.Game.play` (or ``undo``/``redo``/
``goto``/``reset``), exactly as a code cell would. The protocol is written
down in ``docs/frontend.md``.
"""

from __future__ import annotations

import json
import os
import pathlib
import threading
from collections.abc import Collection, Mapping
from typing import Any

import anywidget
import traitlets

from ..analysis.hints import HINT_KINDS, compute_hints, hint_kinds
from ..core.errors import IllegalMoveError, shorten
from ..core.game import Game
from ..core.scene import move_target

__all__ = ["HINT_KINDS", "GameWidget", "compute_hints", "widget_class"]

STATIC_DIR = pathlib.Path(__file__).resolve().parent.parent / "static"


def keep_code_as_text(cls: type) -> type:
    """Give ``cls`` its front end (``_esm``, ``_css``) as text rather than as
    anywidget's watched file, unless hot reload is on (``ANYWIDGET_HMR=1``).

    anywidget connects every widget made from a class whose code is a file to
    that file's change signal, by a strong reference: none of those widgets is
    ever freed, and a server that makes a board per page load (the classroom
    rooms) would keep every one. The text is the same; only hot reload needs
    the file. Returns ``cls``.
    """
    if os.environ.get("ANYWIDGET_HMR") == "1":
        return cls
    for key in ("_esm", "_css"):
        value = cls.__dict__.get(key)
        if value is not None and not isinstance(value, (str, pathlib.Path)):
            setattr(cls, key, str(value))
    return cls

#: the longest move string accepted from the browser
_MAX_MOVE_LEN = 64


@keep_code_as_text
class GameWidget(anywidget.AnyWidget):
    """An interactive board showing one :class:`~gridwidgets.core.Game`.

    Args:
        game: the game shown; the widget observes it, so moves played in
            code show at once in every open view.
        agents: ``{player: agent}``: those seats are played by agents
            (``gridwidgets.agents``), which move by themselves while
            ``playing`` is on, ``delay`` milliseconds after each move.
        seats: the seats people play from this page (player ids; default:
            every seat without an agent). A move the page sends for another
            seat, named or to act, is refused: with several pages on one game
            (a class on several devices), each page plays its own seats.

    Keyword Args:
        show_forbidden (bool): draw the cells the mover may not use.
        show_labels (bool): draw the column letters and row numbers.
        show_legal (bool): highlight the legal moves of the player to act.
        playing (bool): agents move by themselves (the play / pause buttons). By
            default on when a person plays against agents, off when every
            seat is an agent (press Play to watch).
        delay (int): milliseconds an agent waits before moving (the speed setting).
        hints (str): an overlay of advice on the legal moves, computed in a worker
            thread so the notebook never freezes: ``"solve"`` (exact
            win/loss per move, two-player games small enough, see
            ``analysis.solve``), ``"mcts"`` (visit share and value per move
            from a Monte Carlo tree search, any game), or ``""`` (off).
        hint_budget (float): seconds the hint computation may take.

    Raises:
        TypeError: for a game or an agent of the wrong kind.
        ValueError: for a seat that is not a player of the game, or a seat
            given both to an agent and to people.

    Attributes:
        game: the game object (the same one, not a copy).
        state: the synced public state (see ``docs/frontend.md``).

    One class serves every game; what is particular to a game comes from its
    view hooks (:class:`~gridwidgets.core.Game`): ``frontend_layer`` (the page's
    layer that draws it; ``""``: the generic view, which draws ``scene()`` and
    handles cell, edge, multi-cell and choice moves from ``state["targets"]``),
    ``frontend_state()`` (``state["extra"]``), ``widget_defaults`` (default
    options), ``widget_options`` (extra synced options) and the board editor,
    ``board_spec()`` and ``edit_board(action, target)``. :func:`widget_class`
    makes each game's ``<ClassName>Widget`` class.
    """

    _esm = STATIC_DIR / "widget.js"
    _css = STATIC_DIR / "widget.css"

    state = traitlets.Dict().tag(sync=True)
    show_forbidden = traitlets.Bool(True).tag(sync=True)
    show_labels = traitlets.Bool(True).tag(sync=True)
    show_legal = traitlets.Bool(False).tag(sync=True)
    playing = traitlets.Bool(True).tag(sync=True)
    delay = traitlets.Int(400, min=0, max=2_000).tag(sync=True)
    hints = traitlets.Unicode("").tag(sync=True)
    hint_budget = traitlets.Float(1.0, min=0.05, max=60.0).tag(sync=True)
    hint_data = traitlets.Dict().tag(sync=True)
    #: the last position (``state["version"]``) a page drew after one of its
    #: own intents; the page writes it. Hosts that re-run the cells reading a
    #: widget only when its page changes a trait (marimo) see each click this way
    seen_version = traitlets.Int(0, min=0).tag(sync=True)
    #: controls the page does not show, by their action name (``"new"``,
    #: ``"undo"``, ``"redo"``, ``"toggle-edit"``, ``"export"``, ...): the
    #: classroom hides the board editor, the export and the board's own *New game*
    hidden_controls = traitlets.List(traitlets.Unicode(), default_value=[]).tag(sync=True)
    #: how the board uses the space it has: ``"none"`` (its natural size, at most
    #: the width), ``"screen"`` (also at most the window's height, less
    #: ``--gw-fit-offset``: the whole board without scrolling) or ``"big"`` (as
    #: large as the window allows, for a projector)
    fit = traitlets.Enum(["none", "screen", "big"], default_value="none").tag(sync=True)

    #: the game class a widget class made by :func:`widget_class` is for (``None``: any game)
    game_class: type[Game] | None = None

    def __init__(
        self,
        game: Game | None = None,
        agents: Mapping[int, Any] | None = None,
        seats: Collection[int] | None = None,
        **kwargs: Any,
    ) -> None:
        if game is None:
            if self.game_class is None:
                raise TypeError("GameWidget needs a game: GameWidget(game) or game.widget()")
            game = self.game_class()
        if not isinstance(game, Game):
            raise TypeError(f"expected a gridwidgets game, got {type(game).__name__}")
        if self.game_class is not None and not isinstance(game, self.game_class):
            raise TypeError(f"{type(self).__name__} shows a {self.game_class.__name__}, not a {type(game).__name__}")
        for name, value in type(game).widget_defaults.items():
            kwargs.setdefault(name, value)
        self._game = game
        self._message = ("", "")
        self._hint_lock = threading.RLock()
        self._hint_token = 0  # counts hint requests: a result is posted only for the latest
        self._hint_request: tuple[Any, ...] | None = None  # the request the worker takes next
        self._hint_stop: threading.Event | None = None  # stops the computation in progress
        self._hint_thread: threading.Thread | None = None  # the one worker, while it has work
        self._agents = self._check_agents(game, agents or {})
        self._people = self._check_seats(game, seats, self._agents)
        kwargs.setdefault("playing", len(self._agents) < len(game.players))
        super().__init__(**kwargs)
        self._sync()
        self._observation = game.observe(self._on_game_change)
        self.on_msg(self._on_msg)

    @property
    def game(self) -> Game:
        """The game this widget shows."""
        return self._game

    @property
    def agents(self) -> dict[int, Any]:
        """The agent seats, ``{player: agent}`` (a copy)."""
        return dict(self._agents)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats people play from this page (player ids)."""
        return self._people

    @staticmethod
    def _check_seats(game: Game, seats: Collection[int] | None, agents: Mapping[int, Any]) -> tuple[int, ...]:
        n = len(game.players)
        if seats is None:
            return tuple(p for p in range(n) if p not in agents)
        if isinstance(seats, (str, bytes)) or not isinstance(seats, Collection):
            raise TypeError("seats must be a collection of player ids")
        out = set()
        for seat in seats:
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
                raise ValueError(f"seat {shorten(seat)} is not a player id 0..{n - 1}")
            if seat in agents:
                raise ValueError(f"seat {seat} is played by an agent: it cannot also be played from the page")
            out.add(seat)
        return tuple(sorted(out))

    @staticmethod
    def _check_agents(game: Game, agents: Mapping[int, Any]) -> dict[int, Any]:
        if not isinstance(agents, Mapping):
            raise TypeError("agents must be a mapping {player: agent}")
        out = {}
        for seat, agent in agents.items():
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(game.players):
                raise ValueError(f"agent seat {seat!r} is not a player id 0..{len(game.players) - 1}")
            if not callable(getattr(agent, "choose", None)):
                raise TypeError(f"the agent for seat {seat} has no choose(game) method")
            out[seat] = agent
        return out

    # -- agents -----------------------------------------------------------
    def agent_to_move(self) -> bool:
        """True if the player to act is an agent seat (and the game goes on)."""
        p = self._game.current_player
        return p is not None and p in self._agents

    def step(self) -> Any:
        """Let the agent whose seat is to act play one move; return it.

        The agent chooses on its view of the position without holding the
        game's lock (a search may take seconds); its move is played only if
        the game has not changed meanwhile (another page, a code cell).

        Raises:
            ValueError: if no agent is to act (a person's turn, or the end), or
                the game changed while the agent was choosing (nothing played).
        """
        g = self._game
        with g.lock:
            if not self.agent_to_move():
                who = "the game is over" if g.current_player is None else f"{g.players[g.current_player]} is a person"
                raise ValueError(f"no agent is to act: {who}")
            p = g.current_player
            assert p is not None
            view, version = g.view_for(p), g.version
        move = self._agents[p].choose(view)
        with g.lock:
            if g.version != version:
                raise _Stale(f"the game changed while {g.players[p]}'s agent was choosing: its move was not played")
            return g.play(move, player=p)

    def run(self, max_moves: int | None = None) -> int:
        """Play agent moves until a person is to act or the game ends; return how many."""
        n = 0
        while self.agent_to_move() and (max_moves is None or n < max_moves):
            try:
                self.step()
            except _Stale:
                continue  # choose again on the new position
            n += 1
        return n

    # -- Python -> browser ----------------------------------------------
    def game_state(self) -> dict[str, Any]:
        """The public state sent to the browser (``docs/frontend.md``): built from
        public information only (a hidden submission is never in it), under the
        game's lock (one position, even while another thread plays)."""
        with self._game.lock:
            return self._game_state()

    def _game_state(self) -> dict[str, Any]:
        g = self._game
        cells: list[str] = []
        owners: list[int] = []
        board = g.board
        cell_text = g.cell_text
        for r in range(g.rows):
            for c in range(g.cols):
                cells.append(cell_text((r, c)))
                owners.append(int(board[r, c]))
        history = g.history
        steps = g.steps
        future_steps = g.future_steps
        last = steps[-1].decision if steps else None
        legal = g.legal_moves(self._mover())
        state: dict[str, Any] = {
            "game": g.game_id,
            "layer": type(g).frontend_layer,
            "version": g.version,
            "rows": g.rows,
            "cols": g.cols,
            "col_labels": g.col_labels(),
            "row_labels": g.row_labels(),
            "players": list(g.players),
            "current_player": g.current_player,
            "pending": list(g.pending),
            "cells": cells,
            "owners": owners,
            "legal": [str(m) for m in legal],
            "forbidden": [_cell_str(c) for c in g.forbidden_cells()],
            "forbidden_rule": g.forbidden_rule,
            "last_move": str(history[-1]) if history else None,
            "last_step": str(last) if last is not None else None,
            "history": [str(m) for m in history],
            "future": [str(m) for m in g.future],
            "steps": [str(st) for st in steps],
            "future_steps": [str(d) for d in future_steps],
            "step": len(steps),
            "is_over": g.is_over,
            "winners": list(g.winners),
            "status": g.status(),
            "seats": [getattr(self._agents[p], "name", type(self._agents[p]).__name__) if p in self._agents else ""
                      for p in range(len(g.players))],
            "agent_to_move": self.agent_to_move(),
            "people": list(self._people),
            "message": self._message[0],
            "message_kind": self._message[1],
            "contract": self.contract(),
            "extra": g.frontend_state(),
        }
        # the picture (what the page draws, for every game), where each legal
        # move is, and what the picture outlines as the last move: what hints,
        # legal marks and the last-move outline are drawn from, never from a
        # move's notation
        scene = g.scene()
        state["targets"] = [_target(m) for m in legal]
        state["last_cells"] = [list(c) for c in scene.last]
        state["last_edges"] = [[list(a), list(b)] for a, b in scene.last_edges]
        state["scene"] = scene.to_dict()
        return state

    def _mover(self) -> int | None:
        """Whose legal moves this page shows: the player to act, unless people
        do not play it from this page while another player of this page also
        acts now (a simultaneous node seen from the other seat's page)."""
        g = self._game
        p = g.current_player
        if p is None or p in self._people:
            return p
        mine = [q for q in g.players_to_move if q in self._people]
        return mine[0] if mine else p

    def contract(self) -> dict[str, Any]:
        """What the page must know of this game and of the widget's limits, decided
        here in Python: ``hint_kinds`` the game offers, the ``delay`` bounds (ms),
        the players' ``colours`` (palette names), the ``move_kinds`` and whether the
        game has a board ``editor``."""
        g = self._game
        delay = type(self).delay
        return {
            "hint_kinds": hint_kinds(g),
            "delay_min": int(delay.min),  # type: ignore[attr-defined]
            "delay_max": int(delay.max),  # type: ignore[attr-defined]
            "colours": _colour_names(g),
            "long_name": g.game_type.long_name,
            "board_px": int(type(g).board_px),
            "move_kinds": [k.value for k in g.game_type.move_kinds],
            "simultaneous": g.game_type.simultaneous,
            "editor": g.board_spec() is not None,
        }

    def _sync(self) -> None:
        # one trait, replaced whole: one move is one message to the browser
        self.state = self.game_state()

    def _on_game_change(self, game: Game) -> None:
        self._message = ("", "")
        self._sync()
        if self.hints:
            self._start_hints()

    # -- hints ------------------------------------------------------------
    @traitlets.observe("hints", "hint_budget")
    def _on_hints(self, change: Any) -> None:
        if change["name"] == "hints" and change["new"] and change["new"] not in hint_kinds(self._game):
            offered = ", ".join(repr(k) for k in hint_kinds(self._game))
            self._say(f"Refused: {self._game.game_type.long_name} offers the hints {offered} "
                      f"(not {shorten(change['new'])}).")
            self.hints = ""
            return
        self._start_hints()

    def _start_hints(self) -> None:
        """Ask for the hint overlay of the position shown. One worker thread per
        widget computes it; a computation still running for an older position is
        stopped, and only the latest request's result is posted to ``hint_data``."""
        g = self._game
        with g.lock, self._hint_lock:  # always in this order: the game's lock, then the hints'
            self._hint_token += 1
            if self._hint_stop is not None:
                self._hint_stop.set()
            self._hint_stop = self._hint_request = None
            token, kind = self._hint_token, self.hints
            if not kind or g.is_over:
                status = "off" if not kind else "over"
                self.hint_data = {"kind": kind, "version": g.version, "status": status, "message": "", "moves": {}}
                return
            stop = threading.Event()
            self._hint_stop = stop
            self._hint_request = (token, kind, g.view_for(g.current_player), self.hint_budget, stop)
            self.hint_data = {"kind": kind, "version": g.version, "status": "computing", "message": "", "moves": {}}
            if self._hint_thread is None:
                self._hint_thread = threading.Thread(target=self._hint_worker, name=f"gridwidgets-hints-{id(self):x}",
                                                     daemon=True)
                self._hint_thread.start()

    def _hint_worker(self) -> None:
        """Take the latest request until none is left (then the thread ends)."""
        while True:
            with self._hint_lock:
                request, self._hint_request = self._hint_request, None
                if request is None:
                    self._hint_thread = None
                    return
            token, kind, view, budget, stop = request
            try:
                data = compute_hints(kind, view, budget, stop)
                data.update(kind=kind, version=view.version, status="done")
            except Exception as exc:  # shown in the overlay, never raised into the notebook
                data = {"kind": kind, "version": view.version, "status": "error", "message": _clip(str(exc)),
                        "moves": {}}
            with self._hint_lock:
                if token == self._hint_token:
                    self.hint_data = data

    def wait_hints(self, timeout: float | None = None) -> dict[str, Any]:
        """Wait until the hint worker has nothing left to compute (at most
        ``timeout`` seconds); return ``hint_data``."""
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._hint_lock:
                thread = self._hint_thread
            if thread is None:
                break
            thread.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
            if deadline is not None and time.monotonic() >= deadline:
                break
        return dict(self.hint_data)

    def _say(self, text: str, kind: str = "error") -> None:
        self._message = (text, kind)
        self._sync()

    # -- browser -> Python ----------------------------------------------
    #: synced traits only Python writes: a page that tries to set one is refused
    python_owned: frozenset[str] = frozenset({"state", "hint_data", "board_json", "hidden_controls"})
    #: the synced traits a page may set: its display toggles, the agents' controls,
    #: the hints, ``seen_version`` (plus a game's ``widget_options`` and the board
    #: editor's ``editing``: :func:`widget_class`). Every other trait, the widget's
    #: own code (``_esm``, ``_css``) and layout included, is Python's
    page_settable: frozenset[str] = frozenset({"show_forbidden", "show_labels", "show_legal", "playing", "delay",
                                               "hints", "hint_budget", "seen_version"})
    #: traits never sent back to a page that tried to set them (the code: it is large, and that page's own)
    _NO_ECHO = frozenset({"_esm", "_css", "state"})

    def set_state(self, sync_data: Any) -> None:
        """Take trait values a page sends (``playing``, ``delay``, ``hints``, the
        toggles: :attr:`page_settable`). A value that is not valid for its trait,
        an unknown name, or any trait the page may not set (``state``,
        ``hint_data``, ``board_json``, the widget's code ``_esm`` and ``_css``,
        ``layout``, ...) is refused with a status message, and the page gets the
        true value back (but never the widget's code); the valid values of the
        same update are kept. Never raises."""
        if not isinstance(sync_data, dict):
            self._say("Refused: a state update from the page must be an object.")
            return
        refused: list[str] = []
        for name, value in sync_data.items():
            if not isinstance(name, str) or name not in self.page_settable or name not in self.keys:
                refused.append(name if isinstance(name, str) and len(name) <= 24 else shorten(name, 24))
                continue
            try:
                super().set_state({name: value})
            except Exception:  # a TraitError, or an observer's refusal: the old value stays
                refused.append(name)
        if refused:
            names = ", ".join(refused[:4]) + (", ..." if len(refused) > 4 else "")
            self._say(f"Refused: the page cannot set {names}.")
            echo = [k for k in refused if k in self.keys and k not in self._NO_ECHO]
            if echo:
                self.send_state(echo)

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        """Handle one intent from the browser; never raises into the notebook."""
        try:
            self.handle_intent(content)
        except Exception as exc:  # pragma: no cover - last line of defence
            self._say(f"Internal error: {type(exc).__name__}: {exc}")

    def handle_intent(self, content: Any) -> bool:
        """Carry out one intent (``docs/frontend.md``); refuse a malformed one.

        Intents: ``play`` (``move``, ``version``, ``player``), ``undo``, ``redo``,
        ``new``, ``goto`` (``index``: a step; ``seek`` is its old name, still
        accepted), ``agent-step`` (``version``), ``edit`` (``action``, ``target``:
        the board editor of a game that has one).

        Returns:
            True if the game changed, False if the intent was refused (the
            refusal is shown in ``state["message"]``, echoing at most a few
            dozen characters of what was sent).
        """
        if not isinstance(content, dict):
            self._say("Refused: a message from the page must be an object.")
            return False
        kind = content.get("type")
        g = self._game
        if kind == "play":
            return self._play(content)
        if kind == "agent-step":
            version = content.get("version")
            with g.lock:
                if (version is not None and version != g.version) or not self.agent_to_move():
                    return False  # stale, or a person is to act: several views may send it
            try:
                self.step()
            except _Stale:
                return False  # another page or a cell moved first
            except (IllegalMoveError, ValueError) as exc:
                self._say(f"The agent failed: {_clip(str(exc))}")
                return False
            return True
        if kind == "undo":
            return self._step(self._undo_to_person, "Nothing to undo.")
        if kind == "redo":
            return self._step(g.redo, "Nothing to redo.")
        if kind == "new":
            for agent in self._agents.values():
                getattr(agent, "reset", lambda: None)()
            g.reset()
            return True
        if kind == "goto":
            index = content.get("index")
            try:
                g.goto(index)
            except IndexError as exc:
                self._say(f"Refused: {exc}.")
                return False
            return True
        if kind == "edit":
            return self._edit(content.get("action"), content.get("target"))
        self._say(f"Refused: unknown message type {shorten(kind)}.")
        return False

    def _play(self, content: dict[str, Any]) -> bool:
        g = self._game
        move = content.get("move")
        if not isinstance(move, str) or not move or len(move) > _MAX_MOVE_LEN:
            self._say(f"Refused: {shorten(move)} is not a move.")
            return False
        version = content.get("version")
        player = content.get("player")
        if player is not None and (not isinstance(player, int) or isinstance(player, bool)):
            self._say(f"Refused: {shorten(player)} is not a player.")
            return False
        with g.lock:  # the checks and the move as one change: no other thread moves in between
            if version is not None and version != g.version:
                self._say("Refused: the board changed before that move arrived; try again.")
                return False
            # a page plays for its people only: not for an agent's seat, nor another page's
            seat = player if player is not None else g.current_player
            if seat is not None and seat in self._agents:
                self._say(
                    f"Refused: {g.players[seat]} is played by {_agent_name(self._agents[seat])}; "
                    f"wait for its move, or press Step ({g.turn_rule})."
                )
                return False
            if seat is not None and 0 <= seat < len(g.players) and seat not in self._people:
                self._say(f"Refused: {g.players[seat]} is not played from this page ({g.turn_rule}).")
                return False
            try:
                g.play(move, player=player)
            except IllegalMoveError as exc:
                self._say(f"Illegal move: {_clip(str(exc))}")
                return False
        return True

    # -- the board editor (games whose board_spec() is not None) ------------
    def edit(self, action: str, target: str) -> None:
        """Change the board being designed, as the editor's clicks do: the game
        (:meth:`Game.edit_board`) makes a new game with the edit, which this game
        becomes (a new game: no history); ``board_json`` follows.

        Raises:
            ValueError: if the game has no editor, or the edit is not valid.
        """
        g = self._game
        fresh = g.edit_board(action, target)
        g.replace_with(fresh)
        spec = g.board_spec()
        if spec is not None and self.has_trait("board_json"):
            self.board_json = json.dumps(spec)

    def _edit(self, action: Any, target: Any) -> bool:
        if not isinstance(action, str) or not isinstance(target, str) or len(target) > 16 or len(action) > 16:
            self._say("Refused: an edit names an action and a target.")
            return False
        try:
            self.edit(action, target)
        except (ValueError, TypeError) as exc:
            self._say(f"Refused: {_clip(str(exc))}")
            return False
        return True

    def _undo_to_person(self) -> None:
        """Undo one move; against agents, keep undoing to a person's turn
        (else the agent would at once play again)."""
        g = self._game
        g.undo_until(set(range(len(g.players))) - set(self._agents))

    def _step(self, action: Any, refusal: str) -> bool:
        try:
            action()
        except IndexError:
            self._say(refusal, "info")
            return False
        return True

    # -- lifecycle and displays -------------------------------------------
    def close(self) -> None:
        """Stop observing the game and close the widget."""
        if hasattr(self, "_hint_lock"):
            with self._hint_lock:
                self._hint_token += 1  # a hint still computing is dropped, and stopped
                self._hint_request = None
                if self._hint_stop is not None:
                    self._hint_stop.set()
        observation = getattr(self, "_observation", None)
        if observation is not None:
            observation.stop()
        super().close()

    def __repr__(self) -> str:
        g = self._game
        n = len(g.history)
        moves = f"{n} move{'s' if n != 1 else ''}"
        return f"{type(self).__name__}({type(g).__name__} {g.rows}x{g.cols}, {moves}: {g.status()})"

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # a static picture beside the live view, for nbconvert and notebooks read
        # without a kernel (:func:`~gridwidgets.core.draw.with_picture`)
        from ..core.draw import with_picture

        return with_picture(super()._repr_mimebundle_(**kwargs), self.to_svg(), repr(self))

    def to_svg(self) -> str:
        """The static picture of what the board shows (the game's
        :meth:`~gridwidgets.core.Game.to_svg`), shown where no kernel runs the live view."""
        return self._game.to_svg()


class _Stale(ValueError):
    """An agent's move for a position the game has left (another thread moved first)."""


def _agent_name(agent: Any) -> str:
    """An agent's name for a status line, bounded (a user's agent may name itself at length)."""
    name = getattr(agent, "name", None)
    return shorten(name if isinstance(name, str) else type(agent).__name__, 40).strip("'")


def _cell_str(cell: Any) -> str:
    from ..core.notation import cell_name

    return cell_name(cell)


def _clip(text: str, limit: int = 240) -> str:
    """A message cut to ``limit`` characters (errors already quote input shortened)."""
    return text if len(text) <= limit else text[:limit] + "…"


def _target(move: Any) -> dict[str, Any]:
    """A legal move for the page: its notation and where it is (``[row, col]``
    cells; an edge's second cell may lie one step off the board)."""
    t = move_target(move)
    out: dict[str, Any] = {"move": str(move), "kind": t["kind"]}
    if t["kind"] == "cell":
        out["cell"] = list(t["cell"])
    elif t["kind"] == "cells":
        out["cells"] = [list(c) for c in t["cells"]]
    elif t["kind"] == "edge":
        out["edge"] = [list(c) for c in t["edge"]]
    return out


def _colour_names(game: Game) -> list[str]:
    from ..core.palette import palette

    names = list(game.player_colours)
    order = names + [c for c in palette()["players"] if c not in names]
    while len(order) < len(game.players):
        order += order
    return order[: len(game.players)]


_CLASSES: dict[type[Game], type[GameWidget]] = {}
_TRAIT_TYPES = {bool: traitlets.Bool, int: traitlets.Int, float: traitlets.Float, str: traitlets.Unicode}


def widget_class(cls: type[Game]) -> type[GameWidget]:
    """The widget class of a game class, ``<ClassName>Widget`` (made once, then cached).

    It is a :class:`GameWidget` for that class: made with no game, it shows a new
    game with the default options; the game's ``widget_options`` become synced
    traits, and a game with a board editor gets ``editing`` and ``board_json``.

    Raises:
        TypeError: if ``cls`` is not a game class, or an option's default is not a
            bool, int, float or str.
    """
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TypeError(f"widget_class() takes a game class, got {cls!r}")
    found = _CLASSES.get(cls)
    if found is not None:
        return found
    body: dict[str, Any] = {"game_class": cls, "__module__": __name__,
                            "__doc__": f"The interactive board of {cls.game_type.long_name} (a :class:`GameWidget`)."}
    options = dict(cls.widget_options)
    try:
        has_editor = cls.board_spec is not Game.board_spec
    except AttributeError:  # pragma: no cover
        has_editor = False
    if has_editor:
        options.setdefault("editing", False)
        options.setdefault("board_json", "")
    body["page_settable"] = GameWidget.page_settable | (set(options) - GameWidget.python_owned)
    for name, default in options.items():
        trait = _TRAIT_TYPES.get(type(default))
        if trait is None:
            raise TypeError(f"{cls.__name__}.widget_options[{name!r}] must be a bool, int, float or str")
        body[name] = trait(default).tag(sync=True)
    made = type(f"{cls.__name__}Widget", (GameWidget,), body)
    if has_editor:
        original_init = made.__init__

        def __init__(self: GameWidget, game: Game | None = None, **kwargs: Any) -> None:
            original_init(self, game, **kwargs)
            spec = self.game.board_spec()
            if spec is not None:
                self.board_json = json.dumps(spec)

        made.__init__ = __init__  # type: ignore[method-assign]
    _CLASSES[cls] = made
    return made
