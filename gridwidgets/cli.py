"""The command line: terminal play and the classroom app.

``python -m gridwidgets classroom`` serves the classroom app (Voila, see
``docs/classroom.md``). Terminal play: ``python -m gridwidgets play gridlock`` (RULES GL-6),
``python -m gridwidgets play gridmaster4`` (RULES GM-1..GM-10),
``python -m gridwidgets play blockfour`` (RULES BF-1..BF-13) and
``python -m gridwidgets play gridbloc`` (RULES GB-1..GB-10).

The Gridlock dialogue is the seed's command-line sample, word for word:
the prompt ``Player 1 (X), it's your turn. Enter your move (row and
column):``, the confirmation ``You placed an 'X' at position (2,2).``, the
invalid-move message and the final line.

The GridMaster4 book has no dialogue; ours shows the board as text with
lettered columns (C-2), one line per player (score, tiles left, active
tiles, free placements owed, blocked), a prompt naming the player and the
kind of turn, what each move caused (``g.events``), and lets agents
(``RandomAgent``) take seats.

Block Four's book has no dialogue either; ours shows the board with the nine
fields drawn apart and the marks per field beside it, both players' hands and
tables with the card numbers, the reveal of the bids (matches and placement
order, BF-6), skips and gap fills (``g.events``). Hot seat by default: after
the first person's bid the screen is cleared and the keyboard passed on, so
the second bidder never sees the first bid (BF-5); an agent seat bids from
``g.view_for(player)`` only.

GridBloc's book has no dialogue either; ours shows the board with its walls,
the runner's steps marked, the round and the walls placed in it, each
player's role and points and how many unscored tiles the runner can still
reach (GB-6), and announces the round end, the reset to the original walls
(GB-7) and the result. ``--setup`` opens the book's setup phase (GB-10).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from .analysis.bids import describe_order
from .core.errors import IllegalMoveError
from .core.notation import cell_name
from .games.blockfour import NUMBERS, BlockFour, placement_order
from .games.gridbloc import Done, GridBloc, StartMove, Wall
from .games.gridlock import Gridlock
from .games.gridmaster import GridMaster4

__all__ = [
    "blockfour_board",
    "gridbloc_board",
    "gridmaster_board",
    "main",
    "play_blockfour",
    "play_gridbloc",
    "play_gridlock",
    "play_gridmaster",
]

ADJACENT = "Invalid move. You cannot place next to an opponent's marker. Please choose a different cell."
OCCUPIED = "Invalid move. That cell is already taken. Please choose a different cell."


def _console(out: TextIO | None) -> tuple[TextIO, Callable[..., None]]:
    """The stream to print to (``sys.stdout`` by default) and a ``say(text="")``
    that prints a line to it at once."""
    stream = out if out is not None else sys.stdout

    def say(text: str = "") -> None:
        print(text, file=stream, flush=True)

    return stream, say


def _seating(game: Any, agents: Mapping[int, Any] | None) -> tuple[dict[int, Any], list[int]]:
    """The agent seats, and the players who are people (asked through ``read``)."""
    seats = dict(agents or {})
    return seats, [p for p in range(len(game.players)) if p not in seats]


def play_gridlock(
    game: Gridlock,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> Gridlock:
    """Play ``game`` to its end in a terminal with the seed's dialogue (GL-6).

    Args:
        game: the game to play on (it may already hold moves).
        read: the prompt function (``input`` by default).
        out: where to print (``sys.stdout`` by default).

    Returns:
        The same game, over. Ends early, leaving the game as it is, on end
        of input or when ``quit`` is typed.
    """
    _, say = _console(out)

    say(str(game))
    while not game.is_over:
        p = game.current_player
        assert p is not None
        prompt = f"Player {p + 1} ({game.players[p]}), it's your turn. Enter your move (row and column): "
        try:
            text = read(prompt)
        except EOFError:
            say()
            say("Goodbye.")
            return game
        if text.strip().lower() in {"q", "quit", "exit"}:
            say("Goodbye.")
            return game
        try:
            move = game.play(text)
        except IllegalMoveError as exc:
            say(_invalid(game, exc))
            continue
        r, c = move.cell
        say(f"You placed an '{game.players[p]}' at position ({r + 1},{c + 1}).")
        say(str(game))
    loser = game.player_to_move
    say(f"Player {loser + 1} ({game.players[loser]}), it's your turn. Enter your move (row and column):")
    say(game.status())
    return game


def _invalid(game: Gridlock, exc: IllegalMoveError) -> str:
    if exc.rule == "GL-3":
        return OCCUPIED if "not empty" in str(exc) else ADJACENT
    if exc.rule == "C-1":
        return (
            f"Invalid move. Rows must be 1 to {game.rows} and columns 1 to {game.cols}. "
            "Please choose a different cell."
        )
    return "Invalid input. Enter the row and column as two numbers, for example: 2 2"


# ----------------------------------------------------------------------
# GridMaster4
# ----------------------------------------------------------------------
QUIT = {"q", "quit", "exit"}
HELP = {"?", "h", "help"}
UNDO = {"u", "undo"}

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
    _, say = _console(out)
    seats, people = _seating(game, agents)

    def show() -> None:
        say()
        say(gridmaster_board(game))
        say("Upper case: active tile, lower case: inactive (GM-5); + a legal cell (GM-4); . open.")
        for line in _player_lines(game, seats):
            say(line)

    title = f"GridMaster4, {game.size}x{game.size}, {len(game.players)} player" + (
        "s" if len(game.players) != 1 else ""
    )
    title += f", tiles 1-{game.tiles_per_player}, deactivate={game.deactivate!r}"
    say(title)
    for p, agent in seats.items():
        say(f"{game.players[p]} is played by {agent.name}.")
    if people:
        say("Type a cell: K10 (column letter, row number) or 10 11 (row, column); ? help, u undo, q quit.")
    if not people:
        show()
    while not game.is_over:
        p = game.current_player
        assert p is not None
        if p in seats:
            move = game.play(seats[p].choose(game.copy()), player=p)
            for line in _moved(game, p, move, by=seats[p].name):
                say(line)
            continue
        show()
        legal = game.legal_moves()
        if game.turn_kind() == "normal":
            say(f"Legal moves ({len(legal)}): " + " ".join(str(m) for m in legal))
        else:
            say(f"Any open cell ({len(legal)}).")
        while True:
            try:
                text = read(_prompt(game))
            except EOFError:
                say()
                say("Goodbye.")
                return game
            word = text.strip().lower()
            if word in QUIT:
                say("Goodbye.")
                return game
            if word in HELP:
                say("Type a cell: K10 (column letter, row number) or 10 11 (row, column).")
                say("u undoes the last move (and the agents' moves since), q quits.")
                if game.turn_kind() == "normal":
                    say("Legal now: " + " ".join(str(m) for m in legal))
                else:
                    say("Any open cell is legal now.")
                continue
            if not word:
                continue
            if word in UNDO:
                n = _undo_to_person(game, people)
                if not n:
                    say("Nothing to undo.")
                    continue
                say(f"Undone: {n} move{'s' if n != 1 else ''} taken back.")
                break
            try:
                move = game.play(text, player=p)
            except IllegalMoveError as exc:
                say(f"Illegal move: {exc}")
                continue
            for line in _moved(game, p, move):
                say(line)
            break
    show()
    say(game.status())
    return game


def _undo_to_person(game: GridMaster4, people: Sequence[int]) -> int:
    """Undo one move, then on past agent moves to a person's turn (as the
    widget's Undo does); return how many moves were taken back."""
    n = 0
    with game.batch():
        while game.history:
            game.undo()
            n += 1
            if game.current_player in people:
                break
    return n


# ----------------------------------------------------------------------
# Block Four
# ----------------------------------------------------------------------
#: ANSI: cursor home, clear the screen and the scrollback (hot seat, BF-5)
CLEAR = "\x1b[H\x1b[2J\x1b[3J"
#: how many placements ``?`` shows (there can be hundreds)
SOME = 8
_DIGITS = {str(NUMBERS[s]): s for s in NUMBERS}


def _cards(cards: Sequence[str]) -> str:
    """Cards with their numbers (BF-2): ``I(1) T(4)``; ``-`` for none."""
    return " ".join(f"{c}({NUMBERS[c]})" for c in cards) or "-"


def blockfour_board(game: BlockFour) -> str:
    """The board as text with the fields drawn apart (:meth:`BlockFour.board_text`)."""
    return game.board_text()


def _blockfour_lines(game: BlockFour, agents: Mapping[int, Any]) -> list[str]:
    """Per player: hand and table with the card numbers (BF-2, BF-10), fields
    and spaces; then the control line (BF-9) and the stall count (BF-11)."""
    out = []
    fields, spaces = game.fields_controlled(), game.spaces()
    hand_w = max(len(_cards(h)) for h in game.hands)
    for p, name in enumerate(game.players):
        state = ""
        if game.is_over and p in game.winners:
            state = "  wins" if len(game.winners) == 1 else "  draws"
        elif game.phase == "bid" and game.pending_bids[p]:
            state = "  has bid"
        elif p == game.current_player:
            state = "  to bid" if game.phase == "bid" else "  to place"
        seat = f"  [{agents[p].name}]" if p in agents else ""
        out.append(
            f"  {name}  hand {_cards(game.hands[p]):<{hand_w}}  table {_cards(game.tables[p])}{state}{seat}"
        )
    out.append(
        f"  Control (BF-9): X {fields[0]} field{'s' if fields[0] != 1 else ''}, "
        f"O {fields[1]} field{'s' if fields[1] != 1 else ''}; 5 fields win. "
        f"Spaces: X {spaces[0]}, O {spaces[1]}."
    )
    if game.stall and not game.is_over:
        out.append(f"  No space filled for {game.stall} turn{'s' if game.stall != 1 else ''} in a row "
                   f"(10 end the game, BF-11).")
    return out


def _order_line(game: BlockFour) -> str:
    """This turn's placements and where we are: ``X I done, O L now, O O, X T`` (BF-6)."""
    parts = []
    for item in game.turn_placements:
        text = f"{game.players[item['player']]} {item['shape']}"
        if item["status"] != "next":
            text += f" {item['status']}"
        parts.append(text)
    return "This turn: " + ", ".join(parts) + "."


def _reveal_lines(game: BlockFour) -> list[str]:
    """The reveal (BF-5, BF-6): both bids, the matches and the placement order."""
    assert game.revealed is not None
    x, o = game.revealed
    n = len(set(x.cards) & set(o.cards))
    order = describe_order(placement_order(x, o), game.players)
    return [
        f"Bids revealed: X {x}, O {o}: {n} card{' matches' if n == 1 else 's match'} (BF-6).",
        f"Placements in order: {order}.",
    ]


def _bid_text(text: str) -> str:
    """``it``, ``I T``, ``I,T`` and card numbers ``1 4`` / ``14`` all read as ``IT``."""
    squeezed = "".join(ch for ch in text if ch not in " ,").upper()
    squeezed = "".join(_DIGITS.get(ch, ch) for ch in squeezed)
    return squeezed if len(squeezed) == 2 and squeezed.isalpha() else text


def _placement_text(text: str, shape: str) -> str:
    """Four cells ``B2 C2 D2 C3`` (or ``B2,C2,D2,C3``) get the shape in front: ``T:B2,C2,D2,C3``."""
    if ":" in text:
        return text
    cells = [c for c in re.split(r"[\s,]+", text.strip()) if c]
    return f"{shape}:" + ",".join(cells) if len(cells) == 4 else text


def _some_placements(legal: Sequence[Any], k: int = SOME) -> list[Any]:
    """``k`` placements spread over the list (it is in row order, so the first few all sit at the top)."""
    if len(legal) <= k:
        return list(legal)
    return [legal[round(i * (len(legal) - 1) / (k - 1))] for i in range(k)]


def _bf_prompt(game: BlockFour, example: Any) -> str:
    p = game.current_player
    assert p is not None
    name = game.players[p]
    if game.phase == "bid":
        hand = " ".join(game.hands[p])
        return f"{name}, choose two cards of your hand {hand} (e.g. {example}): "
    shape = game.to_place[1]  # type: ignore[index]
    cells = " ".join(str(example).split(":")[1].split(","))
    return f"{name}, place {shape}: four empty spaces (e.g. {cells}): "


def _bf_moved(game: BlockFour, player: int, move: Any, by: str = "") -> list[str]:
    """What a move did: a bid is announced without its cards until the reveal
    (BF-5); a placement names its spaces; then the events (reveal, skips BF-7,
    gap fills BF-8, the end BF-9/BF-11)."""
    name = game.players[player]
    who = f"{name} ({by})" if by else name
    events = game.events
    if str(move).find(":") < 0:  # a bid
        lines = [f"{who} has bid."]
        if game.revealed is not None and events and events[0].startswith("Bids:"):
            lines += _reveal_lines(game)
            events = events[1:]
        else:
            events = []  # "X has bid": said already
    else:
        cells = " ".join(str(move).split(":")[1].split(","))
        lines = [f"{who} placed {move.shape} on {cells}."]
    lines += [f"  * {e}" for e in events]
    return lines


def _undo_blockfour(game: BlockFour, people: Sequence[int]) -> tuple[int, bool]:
    """Undo to a person's turn (as the widget's Undo does). Returns how many
    moves were taken back and whether a hidden bid was withdrawn (BF-5). Nothing
    is undone when no person has a move to take back."""
    hidden_person = game.phase == "bid" and any(game.pending_bids[q] for q in people)
    played = any(getattr(m, "player", None) in people and getattr(m, "cells", 0) is not None for m in game.history)
    if not (hidden_person or played):
        return 0, False
    n, withdrawn = 0, False
    with game.batch():
        while True:
            try:
                undone = game.undo()
            except IndexError:
                break
            n += 1
            withdrawn = withdrawn or undone is None
            if game.current_player in people:
                break
    return n, withdrawn


def play_blockfour(
    game: BlockFour,
    agents: Mapping[int, Any] | None = None,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
    clear: bool = True,
) -> BlockFour:
    """Play ``game`` to its end in a terminal (RULES BF-1..BF-13).

    Before each move of a person the board (:func:`blockfour_board`: the
    nine fields, the marks per field and who controls them), both players'
    hands and tables with the card numbers, the control line and this turn's
    placement order are printed, and the prompt says what to do.

    - A bid is two cards of the hand: ``IT``, ``I T``, ``it`` or the card
      numbers ``1 4`` (BF-5, BF-12).
    - A placement is ``T:B2,C2,D2,C3`` or just the four spaces ``B2 C2 D2 C3``
      (the shape to place is put in front) (BF-7, BF-12).
    - ``?`` lists the legal bids, or how many placements fit and a few of
      them; ``u`` undoes back to a person's move (a hidden bid is withdrawn,
      BF-5); ``q`` quits.

    An illegal input prints the :class:`IllegalMoveError` message (naming
    the rule) and asks again. After every move: the bid without its cards
    until both are in, then the reveal (both bids, the matches, the
    placements in order, BF-6), skips (BF-7), gap fills (BF-8) and the end.

    **Hot seat (BF-5).** When two people share the keyboard, after the
    first bid the screen is cleared (ANSI clear, with ``clear=True``) and
    the next bidder is asked to take the keyboard and press Enter, so the
    first bid is never on the screen. An agent seat bids from
    ``game.view_for(player)``: it never sees the other player's bid.

    Args:
        game: the game to play on (it may already hold moves).
        agents: ``{player: agent}`` seats played by agents; every other seat
            is asked through ``read``.
        read: the prompt function (``input`` by default).
        out: where to print (``sys.stdout`` by default).
        clear: clear the screen between the two bids of a hot seat.

    Returns:
        The same game, over, or as it was left on ``q`` or end of input.
    """
    stream, say = _console(out)
    seats, people = _seating(game, agents)

    def show() -> None:
        say()
        say(f"Turn {game.turn}." if not game.is_over else "The end.")
        say(blockfour_board(game))
        for line in _blockfour_lines(game, seats):
            say(line)
        if game.phase == "place":
            say(_order_line(game))

    say(f"Block Four. Setup (BF-4): X's table {_cards(game.x_table)}; X holds {_cards(game.hands[0])}, "
        "O holds all five." if game.turn == 1 and not game.history and not any(game.pending_bids)
        else "Block Four.")
    for p, agent in seats.items():
        say(f"{game.players[p]} is played by {agent.name}; it sees only what {game.players[p]} may know (BF-5).")
    if len(people) == 2:
        say("Hot seat: after X's bid the screen is cleared and O takes the keyboard (BF-5).")
    if people:
        say("Bid two cards: IT (or 1 4). Place: B2 C2 D2 C3 (or T:B2,C2,D2,C3). ? help, u undo, q quit.")
    else:
        show()
    while not game.is_over:
        p = game.current_player
        assert p is not None
        if p in seats:
            view = game.view_for(p)
            move = game.play(seats[p].choose(view), player=p)
            for line in _bf_moved(game, p, move, by=seats[p].name):
                say(line)
            continue
        show()
        legal = game.legal_moves(p)
        example = legal[0] if game.phase == "bid" else legal[len(legal) // 2]
        while True:
            try:
                text = read(_bf_prompt(game, example))
            except EOFError:
                say()
                say("Goodbye.")
                return game
            word = text.strip().lower()
            if word in QUIT:
                say("Goodbye.")
                return game
            if word in HELP:
                if game.phase == "bid":
                    say("A bid is two cards of your hand, by letter or number: IT, I T or 1 4 (BF-5).")
                    say(f"Your bids ({len(legal)}): " + " ".join(str(m) for m in legal))
                else:
                    shape = game.to_place[1]  # type: ignore[index]
                    some = _some_placements(legal)
                    say(f"Type the four spaces of the {shape}, e.g. B2 C2 D2 C3, or {shape}:B2,C2,D2,C3 "
                        "(any rotation or mirror image, BF-3).")
                    say(f"{len(legal)} placements of {shape} fit; some: " + "; ".join(
                        " ".join(str(m).split(":")[1].split(",")) for m in some))
                say("u undoes your last move (and the agents' since; a hidden bid is withdrawn), q quits.")
                continue
            if not word:
                continue
            if word in UNDO:
                n, withdrawn = _undo_blockfour(game, people)
                if not n:
                    say("Nothing to undo.")
                    continue
                msg = f"Undone: {n} move{'s' if n != 1 else ''} taken back"
                say(msg + (" (a hidden bid is withdrawn, BF-5)." if withdrawn else "."))
                break
            given = _bid_text(text) if game.phase == "bid" else _placement_text(text, game.to_place[1])  # type: ignore[index]
            try:
                move = game.play(given, player=p)
            except IllegalMoveError as exc:
                say(f"Illegal move: {exc}")
                continue
            for line in _bf_moved(game, p, move):
                say(line)
            nxt = game.current_player
            if game.phase == "bid" and nxt is not None and nxt != p and nxt in people and game.pending_bids[p]:
                # hot seat: hide this bid from the next bidder (BF-5)
                if clear:
                    stream.write(CLEAR)
                say(f"{game.players[p]} has bid. Pass the keyboard to {game.players[nxt]}, then press Enter.")
                try:
                    read(f"{game.players[nxt]}, press Enter: ")
                except EOFError:
                    say()
                    say("Goodbye.")
                    return game
            break
    show()
    say(game.status())
    return game


# ----------------------------------------------------------------------
# GridBloc
# ----------------------------------------------------------------------
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
        return "Setup (GB-10): Player One adds original walls (C4|D4), may move the start (start E5), then done."
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
    _, say = _console(out)
    seats, people = _seating(game, agents)

    def show() -> None:
        say()
        say(gridbloc_board(game))
        say(GB_LEGEND)
        say(_gb_round_line(game))
        for line in _gb_player_lines(game, seats):
            say(line)

    spec = game.board_preset()
    k, h = len(spec["walls"]), len(spec["holes"])
    title = f"GridBloc, {game.size}x{game.size}: {k} original wall{'s' if k != 1 else ''}"
    if h:
        title += f", {h} hole{'s' if h != 1 else ''}"
    say(title + f", start {spec['start']} (GB-1).")
    say(f"Two rounds: {game.players[0]} blocks in round 1 while {game.players[1]} runs; then they swap, "
        "and the walls go back to the original ones (GB-7).")
    for p, agent in seats.items():
        say(f"{game.players[p]} is played by {agent.name}.")
    if people:
        say(GB_INPUT + " ? help, u undo, q quit.")
    for e in game.events:  # a start tile sealed by the original walls ends round one at once (GB-6)
        say(f"  * {e}")
    if not people:
        show()
    while not game.is_over:
        p = game.current_player
        assert p is not None
        before = game.scores
        if p in seats:
            move = Done() if game.phase == "setup" else seats[p].choose(game.copy())
            move = game.play(move, player=p)
            for line in _gb_moved(game, p, move, before, by=seats[p].name):
                say(line)
            continue
        show()
        legal = game.legal_moves()
        if game.phase == "setup":
            say(_gb_round_line(game))
        elif game.to_act == "run":
            say(f"Steps ({len(legal)}): " + " ".join(str(m) for m in legal))
        else:
            say(f"Open edges: {len(legal)} (? shows the nearest).")
        while True:
            try:
                text = read(_gb_prompt(game))
            except EOFError:
                say()
                say("Goodbye.")
                return game
            word = text.strip().lower()
            if word in QUIT:
                say("Goodbye.")
                return game
            if word in HELP:
                for line in _gb_help(game, legal):
                    say(line)
                say("u undoes your last move (and the agent's since), q quits.")
                continue
            if not word:
                continue
            if word in UNDO:
                n = _undo_gridbloc(game, people)
                if not n:
                    say("Nothing to undo.")
                    continue
                say(f"Undone: {n} move{'s' if n != 1 else ''} taken back.")
                break
            try:
                move = game.play(text, player=p)
            except IllegalMoveError as exc:
                say(f"Illegal move: {exc}")
                continue
            for line in _gb_moved(game, p, move, before):
                say(line)
            break
    show()
    say(game.status())
    return game


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


def _seat_letter(text: str) -> int:
    """``--agent``: ``x`` or ``o`` (or the player id 0 or 1, C-3)."""
    t = text.strip().lower()
    if t in ("x", "0"):
        return 0
    if t in ("o", "1"):
        return 1
    raise argparse.ArgumentTypeError(f"{text!r} is not a Block Four seat: x or o (C-3)")


def _gb_seat(text: str) -> int:
    """``--agent`` for GridBloc: the player id 0 (Player One) or 1 (Player Two), C-3."""
    t = text.strip().lower()
    if t in ("0", "one", "player one"):
        return 0
    if t in ("1", "two", "player two"):
        return 1
    raise argparse.ArgumentTypeError(f"{text!r} is not a GridBloc seat: 0 (Player One) or 1 (Player Two) (C-3)")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m gridwidgets`` and the ``gridwidgets`` command."""
    parser = argparse.ArgumentParser(prog="python -m gridwidgets", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser(
        "play",
        help="play a game in the terminal",
        epilog="examples: python -m gridwidgets play gridmaster4 --agents 1,2,3 --seed 7; "
        "python -m gridwidgets play blockfour --agent o --seed 7; "
        "python -m gridwidgets play gridbloc --agent 1 --seed 7",
    )
    play.add_argument("game", choices=["gridlock", "gridmaster4", "blockfour", "gridbloc"], help="which game")
    play.add_argument("--rows", type=int, default=None, help="board rows (Gridlock, 1-26; default 4)")
    play.add_argument("--cols", type=int, default=None, help="board columns (Gridlock, 1-26; default 4)")
    play.add_argument(
        "--size", type=int, default=None,
        help="board size: GridMaster4 1-26 (default 20), GridBloc 2-26 (default 9)",
    )
    play.add_argument(
        "--seed", type=int, default=None,
        help="GridMaster4: seeds the agents (seat p gets seed + p); Block Four: seeds the setup (BF-4); "
        "GridBloc: seeds the agent",
    )
    play.add_argument("--agent", default=None, metavar="SEAT",
                      help="the seat played by a RandomAgent: Block Four x or o, GridBloc 0 or 1 "
                      "(default: two people, one keyboard)")
    play.add_argument("--agent-seed", type=int, default=None, metavar="N",
                      help="seeds the agent (Block Four; GridBloc: instead of --seed)")
    gm = play.add_argument_group("GridMaster4")
    gm.add_argument("--players", type=int, default=4, help="players, 1-4 (default 4)")
    gm.add_argument("--tiles", type=int, default=100, help="tiles per player (default 100)")
    gm.add_argument("--deactivate", choices=["own", "all"], default="own", help="GM-5 or its variant (default own)")
    gm.add_argument(
        "--agents", default="", metavar="SEATS",
        help="seats played by RandomAgent: player ids 0-3 or names, e.g. 1,2,3 or magenta,lime,aqua",
    )
    bf = play.add_argument_group("Block Four")
    bf.add_argument("--x-table", default=None, metavar="CARDS",
                    help="X's two table cards, e.g. LT (BF-4; default: drawn at random from --seed)")
    gb = play.add_argument_group("GridBloc")
    gb.add_argument("--preset", choices=["classic", "blank"], default=None,
                    help="the board (GB-1; default classic on 9x9, blank on other sizes)")
    gb.add_argument("--setup", action="store_true",
                    help="open in the setup phase: Player One places original walls and the start (GB-10)")
    room = sub.add_parser(
        "classroom",
        help="serve the classroom page (pick a game, play in the browser, no code) with Voila",
        description="Serve a page where a class picks a game and plays it in the browser, against each other "
        "or an agent, with no code visible (Voila; pip install 'gridwidgets[classroom]'). See docs/classroom.md.",
    )
    room.add_argument("--port", type=int, default=None, help="TCP port (default 8866 if free, else any free one)")
    room.add_argument("--no-browser", action="store_true", help="do not open a web browser, only print the link")
    room.add_argument("--ip", default="127.0.0.1", metavar="ADDRESS",
                      help="address to serve on (default 127.0.0.1: this machine only; 0.0.0.0 opens it to "
                      "the network, at your own risk: see docs/classroom.md)")
    room.add_argument("--theme", choices=("light", "dark"), default="light",
                      help="the page's colours (default light; dark suits a projector in a dark room)")
    args = parser.parse_args(argv)
    if args.command == "classroom":
        from .apps import serve_classroom

        return serve_classroom(port=args.port, ip=args.ip, open_browser=not args.no_browser, theme=args.theme)
    if args.game != "gridbloc" and (args.preset is not None or args.setup):
        parser.error("--preset and --setup are GridBloc options")
    if args.game not in ("blockfour", "gridbloc") and args.agent is not None:
        parser.error("--agent is for Block Four and GridBloc; GridMaster4 takes --agents")
    if args.game == "gridlock":
        try:
            game = Gridlock(rows=4 if args.rows is None else args.rows, cols=4 if args.cols is None else args.cols)
        except ValueError as exc:
            parser.error(str(exc))
        runner: Callable[[], Any] = lambda: play_gridlock(game)  # noqa: E731
    elif args.game == "blockfour":
        if args.rows is not None or args.cols is not None or args.size is not None:
            parser.error("Block Four is played on its 9x9 board of nine fields (BF-1)")
        try:
            bf_game = BlockFour(seed=args.seed, x_table=args.x_table)
            bf_seat = None if args.agent is None else _seat_letter(args.agent)
        except (ValueError, argparse.ArgumentTypeError) as exc:
            parser.error(str(exc))
        from .agents import RandomAgent

        bf_agents = {} if bf_seat is None else {bf_seat: RandomAgent(seed=args.agent_seed)}
        runner = lambda: play_blockfour(bf_game, agents=bf_agents)  # noqa: E731
    elif args.game == "gridbloc":
        if args.rows is not None or args.cols is not None:
            parser.error("GridBloc boards are square: use --size (GB-1)")
        try:
            gb_game = GridBloc(size=args.size, preset=args.preset, setup=args.setup)
            gb_seat = None if args.agent is None else _gb_seat(args.agent)
        except (ValueError, argparse.ArgumentTypeError) as exc:
            parser.error(str(exc))
        from .agents import RandomAgent

        seed = args.agent_seed if args.agent_seed is not None else args.seed
        gb_agents = {} if gb_seat is None else {gb_seat: RandomAgent(seed=seed)}
        runner = lambda: play_gridbloc(gb_game, agents=gb_agents)  # noqa: E731
    else:
        if args.rows is not None or args.cols is not None:
            parser.error("GridMaster4 boards are square: use --size (GM-1)")
        try:
            gm_game = GridMaster4(size=20 if args.size is None else args.size, players=args.players,
                                  tiles=args.tiles, deactivate=args.deactivate)
            seats = _seats(args.agents, gm_game)
        except ValueError as exc:
            parser.error(str(exc))
        from .agents import RandomAgent

        agents = {p: RandomAgent(seed=None if args.seed is None else args.seed + p) for p in seats}
        runner = lambda: play_gridmaster(gm_game, agents=agents)  # noqa: E731
    try:
        runner()
    except KeyboardInterrupt:
        print("\nGoodbye.")
        return 130
    return 0
