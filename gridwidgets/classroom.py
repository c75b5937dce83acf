"""The classroom app: pick a game and who plays each seat, then play in the
browser, with no code on the page.

``Classroom()`` is an ipywidgets container: a game menu (every game of the
registry, entry-point games included), a board menu (the game's presets),
one menu per seat (a person or an agent from :data:`AGENTS`), a *New game*
button, a one-line explanation, and the live board below
(``game.widget(agents=...)``). The board does all the playing; this module
only builds it. ``python -m gridwidgets classroom`` serves it as a page
through Voila (``gridwidgets/apps/classroom.ipynb``, see
``docs/classroom.md``).

- Changing the game or the board starts a new game; *New game* too.
- Changing a seat keeps the position: the same game goes on with the new
  seats (a fresh board widget on the same game object).
- Hidden submissions of a simultaneous node stay secret (C-5): the board
  never shows a locked choice before all are in, agents choose from
  ``game.view_for(player)``, and the explanation tells two people at one
  screen to look away while the other chooses. Nothing here reads a
  submission.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import ipywidgets

from .core.game import Game
from .core.gametype import Dynamics
from .menu import AGENTS, GAMES, PERSON, AgentChoice, BoardChoice, GameChoice, games_menu, start_game
from .widgets.base import GameWidget

__all__ = ["AGENTS", "GAMES", "HIDDEN_CONTROLS", "HOT_SEAT_BIDS", "PERSON", "AgentChoice", "BoardChoice", "Classroom"]
__all__ += ["GameChoice", "explain", "games_menu", "seat_board", "start_game"]

#: the board's controls the classroom does not show: its own New game (the
#: app has one), the board editor and the export
HIDDEN_CONTROLS = ("new", "toggle-edit", "export")


#: two people at one screen, a simultaneous node: how the choice stays secret (C-5)
HOT_SEAT_BIDS = (
    "Two people at one screen: the other looks away while one makes a secret choice and locks it; "
    "the page then shows only that a choice is in (C-5)."
)


class Classroom(ipywidgets.VBox):
    """Pick a game, a board and who plays each seat; play on the live board below.

    Args:
        game: the key of the game in :func:`games_menu` (a registry name;
            default: the first registered game).
        board: the key of the board in ``GAMES[game].boards`` (default: the first).
        seats: ``{player: kind}`` with kind ``"person"`` or a key of
            :data:`AGENTS`; seats not given are people. Player ids are the
            game's (0 moves first, C-3).
        seed: seeds the agents (seat ``p`` gets ``seed + p``) and a setup
            drawn by chance, so a class can replay a game; None (the
            default) gives a different game each time.
        delay: milliseconds an agent waits before it moves (the board's
            speed setting).

    Raises:
        ValueError: for an unknown game, board or seat kind, or a seat that
            is not a player of the game.

    Attributes:
        game_picker: the game menu (an ``ipywidgets.Dropdown``; value: a key of :func:`games_menu`).
        board_picker: the board menu (value: a key of ``GAMES[game].boards``).
        seat_pickers: one menu per player, in player order (value: ``"person"`` or a key of :data:`AGENTS`).
        new_button: starts a new game with the same choices (the board's own
            *New game*, its editor and its export are hidden: :data:`HIDDEN_CONTROLS`).
        big_screen: a toggle: the board fills the window (a projector) or fits it.
        status: the one-line explanation under the menus (an ``ipywidgets.HTML``).
        board_box: holds the board widget.
    """

    def __init__(
        self,
        game: str | None = None,
        board: str | None = None,
        seats: Mapping[int, str] | None = None,
        seed: int | None = None,
        delay: int = 400,
        **kwargs: Any,
    ) -> None:
        self._menu = games_menu()
        if game is None:
            game = next(iter(self._menu))
        if game not in self._menu:
            raise ValueError(f"unknown game {game!r}: one of {', '.join(self._menu)}")
        boards = self._menu[game].boards
        if board is not None and board not in boards:
            raise ValueError(f"unknown board {board!r} for {self._menu[game].label}: one of {', '.join(boards)}")
        seats = dict(seats or {})
        _check_seats(_players(self._menu[game], board if board is not None else next(iter(boards))), seats)
        self.seed = seed
        self.delay = int(delay)
        self._widget: GameWidget | None = None
        self._game: Game | None = None
        self._quiet = False  # menus being refilled: their events are not the user's
        wide = {"description_width": "initial"}
        self.game_picker = ipywidgets.Dropdown(
            options=[(c.label, k) for k, c in self._menu.items()], value=game, description="Game", style=wide,
        )
        self.game_picker.add_class("gw-classroom-game")
        self.board_picker = ipywidgets.Dropdown(description="Board", style=wide)
        self.board_picker.add_class("gw-classroom-board")
        self.new_button = ipywidgets.Button(description="New game", tooltip="Start a new game with these choices")
        self.new_button.add_class("gw-classroom-new")
        self.big_screen = ipywidgets.ToggleButton(
            value=False, description="Big screen", tooltip="Fill the window with the board, for a projector",
        )
        self.big_screen.add_class("gw-classroom-big")
        self.seat_pickers: list[ipywidgets.Dropdown] = []
        self._seat_row = ipywidgets.HBox(layout=ipywidgets.Layout(flex_flow="row wrap"))
        self._seat_row.add_class("gw-classroom-seats")
        self.status = ipywidgets.HTML()
        self.status.add_class("gw-classroom-status")
        self.board_box = ipywidgets.Box()
        self.board_box.add_class("gw-classroom-board-box")
        menus = ipywidgets.HBox([self.game_picker, self.board_picker, self.new_button, self.big_screen],
                                layout=ipywidgets.Layout(flex_flow="row wrap"))
        super().__init__([menus, self._seat_row, self.status, self.board_box], **kwargs)
        self.add_class("gw-classroom")
        self._fill_boards(board)
        self._fill_seats(seats)
        self.game_picker.observe(self._on_game, names="value")
        self.board_picker.observe(self._on_board, names="value")
        self.new_button.on_click(lambda _button: self.new_game())
        self.big_screen.observe(self._on_big_screen, names="value")
        self.new_game()

    # -- what is chosen ------------------------------------------------------
    @property
    def choice(self) -> GameChoice:
        """The game chosen in the menu."""
        return self._menu[self.game_picker.value]

    @property
    def seats(self) -> dict[int, str]:
        """``{player: kind}`` for every seat, kind ``"person"`` or a key of :data:`AGENTS`."""
        return {p: d.value for p, d in enumerate(self.seat_pickers)}

    @property
    def game(self) -> Game:
        """The game on the board (the same object the board widget plays)."""
        assert self._game is not None
        return self._game

    @property
    def widget(self) -> GameWidget:
        """The board: a :class:`~gridwidgets.widgets.GameWidget` for :attr:`game`."""
        assert self._widget is not None
        return self._widget

    def set_seat(self, player: int, kind: str) -> None:
        """Give seat ``player`` to a person (``"person"``) or an agent (a key of :data:`AGENTS`).

        The game goes on with the new seats (as a change in the seat's menu does).

        Raises:
            ValueError: for a player that is not in the game or an unknown kind.
        """
        _check_seats(self._players(), {player: kind})
        self.seat_pickers[player].value = kind

    # -- building ------------------------------------------------------------
    def new_game(self) -> Game:
        """Start a new game of the chosen kind, board and seats; return it."""
        self._game = start_game(self.game_picker.value, self.board_picker.value, seed=self.seed)
        self._seat_board()
        return self._game

    def _seat_board(self) -> None:
        """Put a fresh board widget for :attr:`game` with the chosen seats in the box."""
        old = self._widget
        self._widget = seat_board(self.game, self.seats, seed=self.seed, delay=self.delay,
                                  big_screen=self.big_screen.value)
        # first: the page has the explanation by the time it draws the board
        self.status.value = explain(self.game_picker.value, self.board_picker.value, self.game, self.seats)
        self.board_box.children = (self._widget,)
        if old is not None:
            old.close()

    def _fill_boards(self, board: str | None = None) -> None:
        boards = self.choice.boards
        self._quiet = True
        try:
            self.board_picker.options = [(b.label, k) for k, b in boards.items()]
            self.board_picker.value = board if board is not None else next(iter(boards))
        finally:
            self._quiet = False
        self.board_picker.disabled = len(boards) == 1

    def _players(self) -> tuple[str, ...]:
        """The players of the chosen game and board (before it is built)."""
        return _players(self.choice, self.board_picker.value)

    def _fill_seats(self, seats: Mapping[int, str]) -> None:
        """One menu per player of the chosen game and board; ``seats`` gives their kinds."""
        players = self._players()
        _check_seats(players, seats)
        for d in self.seat_pickers:
            d.unobserve(self._on_seat, names="value")
            d.close()
        options = [("Person", PERSON)] + [(a.label, k) for k, a in AGENTS.items()]
        self.seat_pickers = []
        for p, name in enumerate(players):
            d = ipywidgets.Dropdown(options=options, value=seats.get(p, PERSON), description=name,
                                    style={"description_width": "initial"},
                                    layout=ipywidgets.Layout(width="auto"))
            d.add_class("gw-classroom-seat")
            d.add_class(f"gw-seat-{p}")
            d.observe(self._on_seat, names="value")
            self.seat_pickers.append(d)
        self._seat_row.children = tuple(self.seat_pickers)

    # -- menu events ---------------------------------------------------------
    def _on_game(self, _change: Any) -> None:
        if self._quiet:
            return
        kinds = self.seats
        self._fill_boards()
        n = len(self._players())
        self._fill_seats({p: k for p, k in kinds.items() if p < n})
        self.new_game()

    def _on_board(self, _change: Any) -> None:
        if self._quiet:
            return
        kinds = self.seats
        n = len(self._players())
        self._fill_seats({p: k for p, k in kinds.items() if p < n})
        self.new_game()

    def _on_big_screen(self, change: Any) -> None:
        # the explanation makes way for the board (widget.css: .gw-big-screen)
        if change["new"]:
            self.add_class("gw-big-screen")
        else:
            self.remove_class("gw-big-screen")
        if self._widget is not None:
            self._widget.fit = "big" if change["new"] else "screen"

    def _on_seat(self, _change: Any) -> None:
        if not self._quiet and self._game is not None:
            self._seat_board()

    def close(self) -> None:
        """Close the board, the menus and this container."""
        if getattr(self, "_widget", None) is not None:
            self._widget.close()
        names = ("game_picker", "board_picker", "new_button", "big_screen", "status", "_seat_row", "board_box")
        for w in (*getattr(self, "seat_pickers", ()), *(getattr(self, n, None) for n in names)):
            if w is not None:
                w.close()
        super().close()

    def __repr__(self) -> str:
        seats = ", ".join(f"{p}={k}" for p, k in self.seats.items())
        return f"Classroom({self.choice.label} {self.board_picker.value}, seats: {seats}; {self._widget!r})"


def seat_board(game: Game, seats: Mapping[int, str], *, seed: int | None = None, delay: int = 400,
               big_screen: bool = False) -> GameWidget:
    """The classroom's board for ``game``: the seats given to people
    (``"person"``) or agents (keys of :data:`AGENTS`, seat ``p`` seeded
    ``seed + p``), the board's own *New game*, editor and export hidden
    (:data:`HIDDEN_CONTROLS`), fitted to the window (``fit="screen"``, or
    ``"big"`` for a projector).

    Raises:
        ValueError: for a seat that is not a player or an unknown kind.
    """
    _check_seats(tuple(game.players), seats)
    agents = {p: AGENTS[kind].make(None if seed is None else seed + p) for p, kind in seats.items() if kind != PERSON}
    return game.widget(agents=agents, delay=int(delay), hidden_controls=list(HIDDEN_CONTROLS),
                       fit="big" if big_screen else "screen")


def explain(game: str, board: str, played: Game, seats: Mapping[int, str]) -> str:
    """The classroom's explanation (HTML): the game and board, who plays each
    seat, how to play (the game's ``how_to_play``), and for two people at one
    screen at a simultaneous node how a choice stays secret (C-5)."""
    choice = games_menu()[game]
    people = [p for p, kind in seats.items() if kind == PERSON]
    who = ", ".join(
        f"{html.escape(played.players[p])}: {'a person' if kind == PERSON else AGENTS[kind].label}"
        for p, kind in seats.items()
    )
    parts = [f"<b>{html.escape(choice.label)}</b>, {html.escape(choice.boards[board].label)}. {who}.",
             html.escape(choice.how)]
    if type(played).game_type.dynamics is Dynamics.SIMULTANEOUS and len(people) >= 2:
        parts.append(html.escape(HOT_SEAT_BIDS))
    if not people:
        parts.append("Every seat is an agent: press Play on the board to watch.")
    return " ".join(parts)


def _players(choice: GameChoice, board: str) -> tuple[str, ...]:
    """The players of ``choice`` on ``board`` (the names, in player order)."""
    return tuple(choice.cls(**dict(choice.boards[board].options)).players)


def _check_seats(players: tuple[str, ...], seats: Mapping[Any, Any]) -> None:
    """Raise ``ValueError`` for a seat that is not a player id or a kind that is not on the menu."""
    for p, kind in seats.items():
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < len(players):
            raise ValueError(f"seat {p!r} is not a player id 0..{len(players) - 1} (C-3)")
        if kind != PERSON and kind not in AGENTS:
            raise ValueError(f"unknown seat kind {kind!r}: {PERSON!r} or one of {', '.join(AGENTS)}")
