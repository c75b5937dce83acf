"""GridBloc in a terminal (GB-1..GB-10).

The book has no dialogue; ours shows the board with its walls, the runner's
steps marked, the round and the walls placed in it, each player's role and
points and how many unscored tiles the runner can still reach (GB-6), and
announces the round end, the reset to the original walls (GB-7) and the
result. ``--setup`` opens the book's setup phase (GB-10)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from ...core.errors import IllegalMoveError
from ...core.notation import cell_name
from ...terminal import Dialogue
from .rules import Done, GridBloc, StartMove, Wall

__all__ = ["GridBlocDialogue", "gridbloc_board", "play_gridbloc"]

#: how many open edges ``?`` shows to the blocker (there can be over a hundred)
SOME_WALLS = 12

GB_LEGEND = "R runner  * start  . scored  + a step that scores  (.) a step back, no point (GB-5)  # hole"
GB_INPUT = "Step: D5 (or 5 4, row and column). Wall: C4|D4, the two tiles it separates (GB-8)."


def gridbloc_board(game: GridBloc, mark_legal: bool = True) -> str:
    """The board as text with lettered columns (C-2): walls ``|`` and ``---``
    (the border is always closed, GB-2), ``R`` the runner, ``*`` the start,
    ``.`` a tile scored this round, ``#`` a hole; with ``mark_legal``, when the
    runner is to step, ``+`` on the tiles where a step scores and brackets,
    ``(.)`` or ``(*)``, on the scored tiles it may step back to (GB-3, GB-5).
    Built from the game's public state only."""
    n = game.size
    closed = {(w.a, w.b) for w in game.walls}
    holes = set(game.holes)
    scored = set(game.scored)
    runner = game.runner if game.phase != "setup" else None
    legal = {m.cell for m in game.legal_moves()} if mark_legal and game.to_act == "run" else set()

    def shut(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return (a, b) in closed or a in holes or b in holes

    def mark(cell: tuple[int, int]) -> str:
        if cell in holes:
            return " # "
        if cell == runner:
            return " R "
        ch = "*" if cell == game.start else "." if cell in scored else " "
        if cell in legal:
            return " + " if cell not in scored else f"({ch})"
        return f" {ch} "

    lines = ["    " + "".join(f" {cell_name((0, c))[:-1]:<3}" for c in range(n)).rstrip()]
    border = "   +" + "---+" * n
    lines.append(border)
    for r in range(n):
        row = f"{r + 1:>2} |"
        for c in range(n):
            row += mark((r, c))
            if c + 1 < n:
                row += "|" if shut((r, c), (r, c + 1)) else " "
        lines.append(row + "|")
        if r + 1 < n:
            lines.append("   +" + "".join(("---" if shut((r, c), (r + 1, c)) else "   ") + "+" for c in range(n)))
    lines.append(border)
    return "\n".join(lines)


def _gb_player_lines(game: GridBloc, agents: Mapping[int, Any]) -> list[str]:
    """One line per player: role, points (GB-5), the runner's reach (GB-6), who acts, the result."""
    out = []
    name_w = max(len(n) for n in game.players)
    for p, name in enumerate(game.players):
        if game.phase == "over":
            role = ""
        elif game.phase == "setup":
            role = "setup" if p == 0 else ""
        else:
            role = "runner" if p == game.runner_player else "blocker"
        parts = [f"  {name:<{name_w}}  {role:<7}  points {game.scores[p]:>3}"]
        if role == "runner":
            k = game.unscored_reachable()
            parts.append(f"on {cell_name(game.runner)}, {k} unscored tile{'s' if k != 1 else ''} in reach (GB-6)")
        if game.phase == "over" and p in game.winners:
            parts.append("wins" if len(game.winners) == 1 else "draw")
        elif p == game.current_player:
            parts.append("to move")
        if p in agents:
            parts.append(f"[{agents[p].name}]")
        out.append("  ".join(parts))
    return out


def _gb_round_line(game: GridBloc) -> str:
    if game.phase == "setup":
        return "Setup (GB-10): Player 1 adds original walls (C4|D4), may move the start (start E5), then done."
    if game.phase == "over":
        (a0, a1), (b0, b1) = game.round_scores
        return (f"Round 1: {game.players[1]} ran and scored {a1}. Round 2: {game.players[0]} ran and scored {b0}. "
                f"Totals {a0 + b0} to {a1 + b1} (GB-7).")
    placed = game.placed_walls
    runner, blocker = game.players[game.runner_player], game.players[game.blocker_player]
    text = f"Round {game.round} of 2: {runner} runs, {blocker} blocks."
    if placed:
        text += f" Walls placed this round ({len(placed)}): " + " ".join(str(w) for w in placed) + "."
    return text


def _gb_prompt(game: GridBloc) -> str:
    p = game.current_player
    assert p is not None
    name = game.players[p]
    if game.phase == "setup":
        return f"{name} (setup), a wall, 'start E5' or 'done': "
    if game.to_act == "run":
        return f"{name} (runner, round {game.round}), your step: "
    return f"{name} (blocker, round {game.round}), your wall: "


def _gb_near_walls(game: GridBloc, walls: Sequence[Any], k: int = SOME_WALLS) -> list[Any]:
    """The ``k`` open edges nearest the runner, nearest first (what a blocker looks at first)."""
    r0, c0 = game.runner

    def far(w: Any) -> tuple[int, Any]:
        return (sum(max(abs(r - r0), abs(c - c0)) for r, c in (w.a, w.b)), w)

    return sorted(walls, key=far)[:k]


def _gb_help(game: GridBloc, legal: Sequence[Any]) -> list[str]:
    if game.phase == "setup":
        walls = [m for m in legal if isinstance(m, Wall)]
        starts = [m for m in legal if isinstance(m, StartMove)]
        return [
            "Setup (GB-10): add an original wall (C4|D4), move the start tile (start E5), or type done "
            "to begin round one.",
            f"{len(walls)} open edges for a wall; {len(starts)} other tiles for the start; then done.",
        ]
    if game.to_act == "run":
        return [
            "Type the tile to step to: D5, or 5 4 (row, column). One step to one of the 8 neighbouring tiles; "
            "a wall blocks a straight step, and a diagonal step only when walls close both sides of the "
            "corner it passes (GB-3).",
            f"Steps ({len(legal)}): " + " ".join(str(m) for m in legal),
        ]
    some = _gb_near_walls(game, legal)
    return [
        "Type a wall as the two tiles it separates, top or left tile first: C4|D4 or C4|C5 (GB-8). "
        "Any open edge between two tiles (GB-4).",
        f"{len(legal)} open edges; the {len(some)} nearest the runner: " + " ".join(str(m) for m in some),
    ]


def _gb_moved(game: GridBloc, player: int, move: Any, before: tuple[int, ...], by: str = "") -> list[str]:
    """What a move did: the step and its point (GB-5), the wall, a setup change (GB-10); then the
    events (round end GB-6, the reset to the original walls GB-7, the result)."""
    name = game.players[player]
    who = f"{name} ({by})" if by else name
    if isinstance(move, StartMove):
        text = f"{who} moves the start to {cell_name(move.cell)} (GB-10)."
    elif isinstance(move, Done):
        k = len(game.original_walls)
        text = f"{who} ends the setup: {k} original wall{'s' if k != 1 else ''}, start {cell_name(game.start)}."
    elif isinstance(move, Wall):
        kind = "an original wall" if game.phase == "setup" else "a wall"
        text = f"{who} placed {kind} on {move}."
    elif game.scores[player] > before[player]:
        text = f"{who} stepped to {move}: 1 point ({game.scores[player]} in all)."
    else:
        text = f"{who} stepped to {move}: scored already, no point (GB-5)."
    return [text] + [f"  * {e}" for e in game.events]


def _undo_gridbloc(game: GridBloc, people: Sequence[int]) -> int:
    """Undo back to, and including, the last move a person made (the agents'
    moves after it too); return how many moves were taken back, 0 (nothing
    changed) when no person has made a move yet."""
    n = 0
    with game.batch():
        while game.history:
            game.undo()
            n += 1
            if game.current_player in people:  # the move just undone was this person's
                return n
        for _ in range(n):  # only agents' moves: put them back
            game.redo()
    return 0


class GridBlocDialogue(Dialogue):
    """GridBloc's words on the one play loop (GB-1..GB-10)."""

    skip_empty = True
    refusals = (IllegalMoveError,)

    def show(self) -> list[str]:
        game = self.game
        return ["", gridbloc_board(game), GB_LEGEND, _gb_round_line(game), *_gb_player_lines(game, self.seats)]

    def intro(self) -> list[str]:
        game = self.game
        spec = game.board_preset()
        k, h = len(spec["walls"]), len(spec["holes"])
        title = f"GridBloc, {game.size}x{game.size}: {k} original wall{'s' if k != 1 else ''}"
        if h:
            title += f", {h} hole{'s' if h != 1 else ''}"
        lines = [title + f", start {spec['start']} (GB-1).",
                 f"Two rounds: {game.players[0]} blocks in round 1 while {game.players[1]} runs; then they swap, "
                 "and the walls go back to the original ones (GB-7)."]
        lines += [f"{game.players[p]} is played by {agent.name}." for p, agent in self.seats.items()]
        if self.people:
            lines.append(GB_INPUT + " ? help, u undo, q quit.")
        # a start tile sealed by the original walls ends round one at once (GB-6)
        lines += [f"  * {e}" for e in game.events]
        return lines if self.people else lines + self.show()

    def turn_lines(self, player: int, legal: Any) -> list[str]:
        game = self.game
        if game.phase == "setup":
            return [*self.show(), _gb_round_line(game)]
        if game.to_act == "run":
            return [*self.show(), f"Steps ({len(legal)}): " + " ".join(str(m) for m in legal)]
        return [*self.show(), f"Open edges: {len(legal)} (? shows the nearest)."]

    def prompt(self, player: int, legal: Any) -> str:
        return _gb_prompt(self.game)

    def help_lines(self, player: int, legal: Any) -> list[str]:
        return [*_gb_help(self.game, legal), "u undoes your last move (and the agent's since), q quits."]

    def undo(self) -> list[str] | None:
        n = _undo_gridbloc(self.game, self.people)
        return [f"Undone: {n} move{'s' if n != 1 else ''} taken back."] if n else None

    def agent_move(self, player: int) -> Any:
        """An agent seat in the setup keeps the board as it is (``done``)."""
        return Done() if self.game.phase == "setup" else self.seats[player].choose(self.game.copy())

    def moved(self, player: int, move: Any, agent: Any) -> list[str]:
        return _gb_moved(self.game, player, move, self.scores_before, by=agent.name if agent is not None else "")

    def end(self) -> list[str]:
        return [*self.show(), self.game.status()]


def play_gridbloc(
    game: GridBloc,
    agents: Mapping[int, Any] | None = None,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> GridBloc:
    """Play ``game`` to its end in a terminal (RULES GB-1..GB-10).

    Before each move of a person it prints the board (:func:`gridbloc_board`,
    with the runner's steps marked), a legend, the round and the walls
    placed in it, one line per player (role, points, the runner's unscored
    tiles in reach, GB-6) and the runner's steps, or the number of open
    edges; the prompt names the player, the role and the round.

    - A step is the tile, ``D5`` or ``5 4`` (row, column) (GB-3, C-2).
    - A wall is the two tiles it separates, ``C4|D4`` (GB-8).
    - In the setup (``setup=True``, GB-10): a wall, ``start E5``, ``done``.
    - ``?`` explains and lists the steps, or how many open edges there are
      and the ones nearest the runner; ``u`` undoes back to before this
      person's last move (the agents' moves since too); ``q`` quits.

    An illegal input prints the :class:`IllegalMoveError` message (naming
    the rule) and asks again. After each move: the step and whether it
    scored (GB-5), or the wall, then the events (``game.events``: the round
    end GB-6, round two on the original walls GB-7, the result). An agent
    seat in the setup keeps the board as it is (``done``).

    Args:
        game: the game to play on (it may already hold moves).
        agents: ``{player: agent}`` seats played by agents; every other seat
            is asked through ``read``.
        read: the prompt function (``input`` by default).
        out: where to print (``sys.stdout`` by default).

    Returns:
        The same game, over, or as it was left on ``q`` or end of input.
    """
    return GridBlocDialogue(game, agents, read, out).run()  # type: ignore[no-any-return]


def _gb_seat(text: str) -> int:
    """``--agent`` for GridBloc: the player id 0 (Player 1) or 1 (Player 2), C-3."""
    t = text.strip().lower()
    if t in ("0", "one", "player one"):
        return 0
    if t in ("1", "two", "player two"):
        return 1
    raise argparse.ArgumentTypeError(f"{text!r} is not a GridBloc seat: 0 (Player 1) or 1 (Player 2) (C-3)")



def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, default=None, help="board size 2-26 (default 9)")
    parser.add_argument("--rows", "--cols", dest="rows", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--preset", choices=["classic", "blank"], default=None,
                        help="the board (GB-1; default classic on 9x9, blank on other sizes)")
    parser.add_argument("--setup", action="store_true",
                        help="open in the setup phase: Player 1 places original walls and the start (GB-10)")
    parser.add_argument("--agent", default=None, metavar="SEAT",
                        help="the seat played by a RandomAgent: 0 or 1 (default: two people, one keyboard)")
    parser.add_argument("--seed", type=int, default=None, help="seeds the agent")
    parser.add_argument("--agent-seed", type=int, default=None, metavar="N", help="seeds the agent (instead of --seed)")


def session(args: argparse.Namespace) -> Callable[[], Any]:
    if args.rows is not None:
        raise ValueError("GridBloc boards are square: use --size (GB-1)")
    game = GridBloc(size=args.size, preset=args.preset, setup=args.setup)
    seat = None if args.agent is None else _gb_seat(args.agent)
    from ...agents import RandomAgent

    seed = args.agent_seed if args.agent_seed is not None else args.seed
    agents = {} if seat is None else {seat: RandomAgent(seed=seed)}
    return lambda: play_gridbloc(game, agents=agents)
