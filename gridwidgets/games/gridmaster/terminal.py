"""GridMaster4 in a terminal (GM-1..GM-10).

The book has no dialogue; ours shows the board as text with lettered
columns (C-2), one line per player (score, tiles left, active tiles, free
placements owed, blocked), a prompt naming the player and the kind of turn,
what each move caused (``g.events``), and lets agents (``RandomAgent``)
take seats."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from ...core.errors import IllegalMoveError
from ...core.notation import cell_name
from ...terminal import Dialogue
from .rules import GridMaster4

__all__ = ["GridMaster4Dialogue", "gridmaster_board", "play_gridmaster"]

_KIND = {
    "opening": "opening: tile 1 on any open cell (GM-2)",
    "free": "free placement: tile {n} on any open cell (GM-7)",
    "normal": "normal: tile {n} on a jump cell (GM-4), marked +",
}


def gridmaster_board(game: GridMaster4, mark_legal: bool = True) -> str:
    """The board as text with the legal cells of a normal move marked
    (:meth:`GridMaster4.board_text`)."""
    return game.board_text(mark_legal=mark_legal)


def _player_lines(game: GridMaster4, agents: Mapping[int, Any]) -> list[str]:
    """One line per player: score, tiles left, active tiles, owed, status (GM-10)."""
    out = []
    name_w = max(len(n) for n in game.players)
    for p, name in enumerate(game.players):
        if game.is_over and p in game.winners:
            state = "wins" if len(game.winners) == 1 else "shares the win"
        elif game.blocked[p]:
            state = "blocked (GM-6)"
        elif p == game.current_player:
            state = "to move"
        else:
            state = ""
        owed = f"{game.owed[p]:>2}" if game.owed[p] else " -"
        parts = [
            f"  {name[0].upper()} {name:<{name_w}}  score {game.scores[p]:>3}  left {game.remaining[p]:>3}"
            f"  active {len(game.active_tiles(p)):>2}  owed {owed}"
        ]
        if state:
            parts.append(state)
        if p in agents:
            parts.append(f"[{agents[p].name}]")
        out.append("  ".join(parts))
    return out


def _prompt(game: GridMaster4) -> str:
    p = game.current_player
    assert p is not None
    name = game.players[p]
    n = game.scores[p] + 1
    kind = _KIND[game.turn_kind() or "normal"].format(n=n)
    owed = game.owed[p]
    if game.turn_kind() == "free" and owed > 1:
        kind += f", {owed} owed"
    return f"{name} ({name[0].upper()}), {kind}. Your move: "


def _moved(game: GridMaster4, player: int, move: Any, by: str = "") -> list[str]:
    """What a move did: the tile and cell, the tiles it deactivated (GM-5), the events."""
    name = game.players[player]
    who = f"{name} ({by})" if by else name
    text = f"{who} placed tile {game.scores[player]} on {move}"
    off = game.last_deactivated
    if off:
        board = game.board
        # under deactivate="all" an opponent's tile may be among them: say whose
        cells = ", ".join(
            cell_name(c) + ("" if board[c] == player else f" ({game.players[int(board[c])]})") for c in off
        )
        text += f"; now inactive: {cells} (GM-5)"
    lines = [text + "."]
    lines += [f"  * {e}" for e in game.events]
    return lines


class GridMaster4Dialogue(Dialogue):
    """GridMaster4's words on the one play loop (GM-1..GM-10)."""

    skip_empty = True
    refusals = (IllegalMoveError,)

    def show(self) -> list[str]:
        game = self.game
        return ["", gridmaster_board(game),
                "Upper case: active tile, lower case: inactive (GM-5); + a legal cell (GM-4); . open.",
                *_player_lines(game, self.seats)]

    def intro(self) -> list[str]:
        game = self.game
        n = len(game.players)
        title = f"GridMaster4, {game.size}x{game.size}, {n} player" + ("s" if n != 1 else "")
        lines = [title + f", tiles 1-{game.tiles_per_player}, deactivate={game.deactivate!r}"]
        lines += [f"{game.players[p]} is played by {agent.name}." for p, agent in self.seats.items()]
        if self.people:
            lines.append("Type a cell: K10 (column letter, row number) or 10 11 (row, column); "
                         "? help, u undo, q quit.")
        return lines if self.people else lines + self.show()

    def turn_lines(self, player: int, legal: Any) -> list[str]:
        if self.game.turn_kind() == "normal":
            return [*self.show(), f"Legal moves ({len(legal)}): " + " ".join(str(m) for m in legal)]
        return [*self.show(), f"Any open cell ({len(legal)})."]

    def prompt(self, player: int, legal: Any) -> str:
        return _prompt(self.game)

    def help_lines(self, player: int, legal: Any) -> list[str]:
        normal = self.game.turn_kind() == "normal"
        return ["Type a cell: K10 (column letter, row number) or 10 11 (row, column).",
                "u undoes the last move (and the agents' moves since), q quits.",
                "Legal now: " + " ".join(str(m) for m in legal) if normal else "Any open cell is legal now."]

    def after_undo(self, n: int) -> list[str]:
        return [f"Undone: {n} move{'s' if n != 1 else ''} taken back."]

    def agent_move(self, player: int) -> Any:
        return self.seats[player].choose(self.game.copy())

    def moved(self, player: int, move: Any, agent: Any) -> list[str]:
        return _moved(self.game, player, move, by=agent.name if agent is not None else "")

    def end(self) -> list[str]:
        return [*self.show(), self.game.status()]


def play_gridmaster(
    game: GridMaster4,
    agents: Mapping[int, Any] | None = None,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> GridMaster4:
    """Play ``game`` to its end in a terminal (RULES GM-1..GM-10).

    Before each turn of a person the board (:func:`gridmaster_board`), a
    legend, one line per player and the legal moves are printed; the prompt
    names the player and the kind of turn (opening GM-2, free placement
    GM-7, normal GM-4). Input is a cell, ``K10`` or ``10 11`` (C-2); an
    illegal one prints the :class:`IllegalMoveError` message (naming the
    rule) and asks again. ``?`` lists the legal moves, ``u`` undoes back to
    this person's previous turn, ``q`` quits. After every move its tile,
    the tiles it made inactive (GM-5) and its events (``game.events``:
    blocks GM-6, free placements GM-7, the end GM-8) are printed.

    Args:
        game: the game to play on (it may already hold moves).
        agents: ``{player: agent}`` seats played by agents
            (``gridwidgets.agents``); every other seat is asked through ``read``.
        read: the prompt function (``input`` by default).
        out: where to print (``sys.stdout`` by default).

    Returns:
        The same game, over, or as it was left on ``q`` or end of input.
    """
    return GridMaster4Dialogue(game, agents, read, out).run()  # type: ignore[no-any-return]


# ----------------------------------------------------------------------


def _seats(text: str, game: GridMaster4) -> list[int]:
    """Seats from ``--agents``: player ids (0-based, C-3) or names, comma separated."""
    seats = []
    for part in text.split(","):
        part = part.strip().lower()
        if not part:
            continue
        if part.isdigit():
            seat = int(part)
        else:
            matches = [p for p, n in enumerate(game.players) if n == part or n[0] == part]
            if not matches:
                raise ValueError(f"--agents: {part!r} is not a player of this game ({', '.join(game.players)})")
            seat = matches[0]
        if not 0 <= seat < len(game.players):
            raise ValueError(f"--agents: seat {seat} is not a player id 0..{len(game.players) - 1} (C-3)")
        if seat not in seats:
            seats.append(seat)
    return seats



def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, default=20, help="board size 1-26 (default 20)")
    parser.add_argument("--rows", "--cols", dest="rows", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--players", type=int, default=4, help="players, 1-4 (default 4)")
    parser.add_argument("--tiles", type=int, default=100, help="tiles per player (default 100)")
    parser.add_argument("--deactivate", choices=["own", "all"], default="own", help="GM-5 or its variant (default own)")
    parser.add_argument("--agents", default="", metavar="SEATS",
                        help="seats played by RandomAgent: player ids 0-3 or names, e.g. 1,2,3 or magenta,lime,aqua")
    parser.add_argument("--seed", type=int, default=None, help="seeds the agents (seat p gets seed + p)")


def session(args: argparse.Namespace) -> Callable[[], Any]:
    if args.rows is not None:
        raise ValueError("GridMaster4 boards are square: use --size (GM-1)")
    game = GridMaster4(size=args.size, players=args.players, tiles=args.tiles, deactivate=args.deactivate)
    seats = _seats(args.agents, game)
    from ...agents import RandomAgent

    agents = {p: RandomAgent(seed=None if args.seed is None else args.seed + p) for p in seats}
    return lambda: play_gridmaster(game, agents=agents)
