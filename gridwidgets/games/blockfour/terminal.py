"""Block Four in a terminal (BF-1..BF-13).

The book has no dialogue; ours shows the board with the nine fields drawn
apart and the marks per field beside it, both players' hands and tables with
the card numbers, the reveal of the bids (matches and placement order,
BF-6), skips and gap fills (``g.events``). Hot seat by default: after the
first person's bid the screen is cleared and the keyboard passed on, so the
second bidder never sees the first bid (BF-5); an agent seat bids from
``g.view_for(player)`` only."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from ...core.errors import IllegalMoveError
from ...terminal import CLEAR, Dialogue
from .bids import describe_order
from .rules import NUMBERS, BlockFour, placement_order

__all__ = ["CLEAR", "BlockFourDialogue", "blockfour_board", "play_blockfour"]

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


class BlockFourDialogue(Dialogue):
    """Block Four's words on the one play loop (BF-1..BF-13), with its hot seat (BF-5)."""

    skip_empty = True
    refusals = (IllegalMoveError,)

    def show(self) -> list[str]:
        game = self.game
        lines = ["", f"Turn {game.turn}." if not game.is_over else "The end.", blockfour_board(game),
                 *_blockfour_lines(game, self.seats)]
        return [*lines, _order_line(game)] if game.phase == "place" else lines

    def intro(self) -> list[str]:
        game = self.game
        fresh = game.turn == 1 and not game.history and not any(game.pending_bids)
        lines = [f"Block Four. Setup (BF-4): X's table {_cards(game.x_table)}; X holds {_cards(game.hands[0])}, "
                 "O holds all five." if fresh else "Block Four."]
        lines += [f"{game.players[p]} is played by {agent.name}; it sees only what {game.players[p]} may know "
                  "(BF-5)." for p, agent in self.seats.items()]
        if len(self.people) == 2:
            lines.append("Hot seat: after X's bid the screen is cleared and O takes the keyboard (BF-5).")
        if self.people:
            return [*lines, "Bid two cards: IT (or 1 4). Place: B2 C2 D2 C3 (or T:B2,C2,D2,C3). "
                            "? help, u undo, q quit."]
        return lines + self.show()

    def turn_lines(self, player: int, legal: Any) -> list[str]:
        game = self.game
        self.example = legal[0] if game.phase == "bid" else legal[len(legal) // 2]
        return self.show()

    def prompt(self, player: int, legal: Any) -> str:
        return _bf_prompt(self.game, self.example)

    def help_lines(self, player: int, legal: Any) -> list[str]:
        game = self.game
        if game.phase == "bid":
            lines = ["A bid is two cards of your hand, by letter or number: IT, I T or 1 4 (BF-5).",
                     f"Your bids ({len(legal)}): " + " ".join(str(m) for m in legal)]
        else:
            shape = game.to_place[1]
            lines = [f"Type the four spaces of the {shape}, e.g. B2 C2 D2 C3, or {shape}:B2,C2,D2,C3 "
                     "(any rotation or mirror image, BF-3).",
                     f"{len(legal)} placements of {shape} fit; some: " + "; ".join(
                         " ".join(str(m).split(":")[1].split(",")) for m in _some_placements(legal))]
        return [*lines, "u undoes your last move (and the agents' since; a hidden bid is withdrawn), q quits."]

    def undo(self) -> list[str] | None:
        n, withdrawn = _undo_blockfour(self.game, self.people)
        if not n:
            return None
        msg = f"Undone: {n} move{'s' if n != 1 else ''} taken back"
        return [msg + (" (a hidden bid is withdrawn, BF-5)." if withdrawn else ".")]

    def parse(self, text: str, player: int) -> Any:
        game = self.game
        return _bid_text(text) if game.phase == "bid" else _placement_text(text, game.to_place[1])

    def moved(self, player: int, move: Any, agent: Any) -> list[str]:
        return _bf_moved(self.game, player, move, by=agent.name if agent is not None else "")

    def handoff(self, player: int) -> bool:
        """After a bid, when the other bidder is a person: clear the screen and
        wait for them to take the keyboard, so they never see the bid (BF-5)."""
        game, nxt = self.game, self.game.current_player
        if not (game.phase == "bid" and nxt is not None and nxt != player and nxt in self.people
                and game.pending_bids[player]):
            return True
        if self.clear:
            self.stream.write(CLEAR)
        self.say(f"{game.players[player]} has bid. Pass the keyboard to {game.players[nxt]}, then press Enter.")
        try:
            self.read(f"{game.players[nxt]}, press Enter: ")
        except EOFError:
            self.lines(["", "Goodbye."])
            return False
        return True

    def agent_move(self, player: int) -> Any:
        return self.seats[player].choose(self.game.view_for(player))

    def end(self) -> list[str]:
        return [*self.show(), self.game.status()]


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
    return BlockFourDialogue(game, agents, read, out, clear).run()  # type: ignore[no-any-return]


def _seat_letter(text: str) -> int:
    """``--agent``: ``x`` or ``o`` (or the player id 0 or 1, C-3)."""
    t = text.strip().lower()
    if t in ("x", "0"):
        return 0
    if t in ("o", "1"):
        return 1
    raise argparse.ArgumentTypeError(f"{text!r} is not a Block Four seat: x or o (C-3)")



def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rows", "--cols", "--size", dest="rows", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=None, help="seeds the setup (BF-4)")
    parser.add_argument("--x-table", default=None, metavar="CARDS",
                        help="X's two table cards, e.g. LT (BF-4; default: drawn at random from --seed)")
    parser.add_argument("--agent", default=None, metavar="SEAT",
                        help="the seat played by a RandomAgent: x or o (default: two people, one keyboard)")
    parser.add_argument("--agent-seed", type=int, default=None, metavar="N", help="seeds the agent")


def session(args: argparse.Namespace) -> Callable[[], Any]:
    if args.rows is not None:
        raise ValueError("Block Four is played on its 9x9 board of nine fields (BF-1)")
    game = BlockFour(seed=args.seed, x_table=args.x_table)
    seat = None if args.agent is None else _seat_letter(args.agent)
    from ...agents import RandomAgent

    agents = {} if seat is None else {seat: RandomAgent(seed=args.agent_seed)}
    return lambda: play_blockfour(game, agents=agents)
