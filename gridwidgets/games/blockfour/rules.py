"""Block Four: blind bidding and tetrominoes (rules BF-1..BF-13).

The rules, with every decision of ours marked, are on the documentation's
page *Rules: Block Four* (``docs/rules/blockfour.md``); the ids (``BF-6``)
are cited below.

A turn has two phases. The bid phase is a simultaneous node of the game
protocol (:mod:`gridwidgets.core.game`): both players secretly choose two
cards from their hand (BF-5); a submitted bid stays hidden, out of
``history``, ``to_json()``, the displays and the widget, until both are in.
Then the joint action (X's bid, O's bid) is revealed and recorded as one
step, and the placements it earns are made (BF-6, BF-7), each followed by
the gap fill (BF-8) and the control check (BF-9).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any, ClassVar

import numpy as np

from ...core.errors import IllegalMoveError, InvalidMoveError, shorten
from ...core.game import Game
from ...core.gametype import Chance, Dynamics, GameType, Information, MoveKind
from ...core.notation import Cell, cell_name, count_of, parse_cell
from .knowledge import BlockFourKnowledge
from .picture import BlockFourPicture
from .view import BlockFourView

__all__ = ["HIDDEN", "SHAPES", "Bid", "BlockFour", "Placement", "orientations", "placement_order"]

#: BF-2: the five cards in order; their numbers are 1..5
SHAPES = ("I", "L", "O", "T", "Z")
NUMBERS = {s: k + 1 for k, s in enumerate(SHAPES)}
SIZE = 9
EMPTY = -1
#: the cards of a bid that is hidden from the viewer (BF-5; ``BlockFour.view_for``)
HIDDEN = ("?", "?")
#: BF-11: turns in a row without a filled space that end the game
STALL_TURNS = 10

_BASE = {
    "I": ((0, 0), (0, 1), (0, 2), (0, 3)),
    "L": ((0, 0), (1, 0), (2, 0), (2, 1)),
    "O": ((0, 0), (0, 1), (1, 0), (1, 1)),
    "T": ((0, 0), (0, 1), (0, 2), (1, 1)),
    "Z": ((0, 0), (0, 1), (1, 1), (1, 2)),
}


def _normal(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def quarter_turns(shape: str) -> tuple[list[tuple[Cell, ...]], list[tuple[Cell, ...]]]:
    """Four quarter turns of the card's shape, and four of its mirror image."""
    rot, mir = [], []
    cells = list(_BASE[shape])
    mirrored = [(r, -c) for r, c in cells]
    for _ in range(4):
        rot.append(_normal(cells))
        mir.append(_normal(mirrored))
        cells = [(c, -r) for r, c in cells]
        mirrored = [(c, -r) for r, c in mirrored]
    return rot, mir


@cache
def orientations(shape: str) -> tuple[tuple[Cell, ...], ...]:
    """The distinct fixed orientations of a card's shape, rotations and mirror
    images (BF-3): I 2, L 8 (L and J), O 1, T 4, Z 4 (Z and S); 19 in all.
    Each is a sorted tuple of ``(row, col)`` offsets from its top-left."""
    rot, mir = quarter_turns(shape)
    return tuple(sorted(set(rot) | set(mir)))


@dataclass(frozen=True)
class Bid:
    """A bid: two cards of ``player``'s hand (BF-5); ``str`` is ``"IT"`` (BF-12)."""

    player: int
    cards: tuple[str, str]

    def __str__(self) -> str:
        return "".join(self.cards)

    def __repr__(self) -> str:
        return f"Bid({str(self)!r}, player={self.player})"


@dataclass(frozen=True)
class Placement:
    """A shape filled by ``player`` on four spaces, or skipped (``cells=None``).

    ``str`` is ``"T:B2,C2,D2,C3"`` (the spaces in row order) or ``"T:-"`` (BF-12).
    """

    player: int
    shape: str
    cells: tuple[Cell, ...] | None

    def __str__(self) -> str:
        if self.cells is None:
            return f"{self.shape}:-"
        return f"{self.shape}:" + ",".join(cell_name(c) for c in self.cells)

    def __repr__(self) -> str:
        return f"Placement({str(self)!r}, player={self.player})"


@cache
def placements_of(shape: str) -> tuple[tuple[tuple[Cell, ...], int], ...]:
    """Every placement of ``shape`` on the 9x9 board: (cells in row order, bit mask)."""
    out = []
    for cells in orientations(shape):
        h = max(r for r, _ in cells) + 1
        w = max(c for _, c in cells) + 1
        for r in range(SIZE - h + 1):
            for c in range(SIZE - w + 1):
                placed = tuple(sorted((r + dr, c + dc) for dr, dc in cells))
                mask = 0
                for rr, cc in placed:
                    mask |= 1 << (rr * SIZE + cc)
                out.append((placed, mask))
    out.sort()
    return tuple(out)


#: the low 64 bits of a bit mask of the 81 spaces
_LOW64 = (1 << 64) - 1


@cache
def _placement_masks(shape: str) -> tuple[np.ndarray, np.ndarray]:
    """The bit masks of :func:`placements_of` ``(shape)`` as two ``uint64`` arrays
    (spaces 0..63 and 64..80), in the same order: for testing every placement
    against the occupied spaces at once."""
    masks = [mask for _, mask in placements_of(shape)]
    return (np.array([m & _LOW64 for m in masks], dtype=np.uint64),
            np.array([m >> 64 for m in masks], dtype=np.uint64))


def _field(cell: Cell) -> int:
    """0-based field of a space: fields 1..9 row by row from the top left (BF-1)."""
    return (cell[0] // 3) * 3 + cell[1] // 3


def placement_order(x: Bid, o: Bid) -> list[tuple[int, str]]:
    """The placements two revealed bids earn, in order, as ``(player, shape)`` (BF-6).

    No match: each of the four shapes by its chooser, in I, L, O, T, Z order.
    One match: two copies of each unmatched shape, the one first in I, L, O,
    T, Z order first (ours). Two matches: nothing.
    """
    common = set(x.cards) & set(o.cards)
    if not common:
        chooser = {c: 0 for c in x.cards} | {c: 1 for c in o.cards}
        return [(chooser[s], s) for s in SHAPES if s in chooser]
    if len(common) == 1:
        ux = next(c for c in x.cards if c not in common)
        uo = next(c for c in o.cards if c not in common)
        first, second = sorted([(NUMBERS[ux], 0, ux), (NUMBERS[uo], 1, uo)])
        return [(first[1], first[2])] * 2 + [(second[1], second[2])] * 2
    return []


#: per space, its orthogonal neighbours (BF-8)
_NEIGHBOURS4 = tuple(
    tuple((r + dr) * SIZE + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
          if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE)
    for r in range(SIZE)
    for c in range(SIZE)
)

_PLACE = re.compile(r"([ILOTZilotz]) ?: ?(.*)")
#: the longest move text read: a placement with generous spacing (longer input is refused at once)
_MAX_TEXT = 64


class BlockFour(BlockFourKnowledge, BlockFourPicture, BlockFourView, Game):
    """A game of Block Four (rules BF-1..BF-13, on the docs page *Rules: Block Four*).

    Args:
        seed: seeds the setup (BF-4): two of X's five cards are drawn at
            random and lie on X's table.
        x_table: the setup given explicitly instead: X's two table cards,
            e.g. ``("L", "T")``.

    Raises:
        ValueError: for a bad ``x_table``.

    Player 0 is X, player 1 is O (BF-1). ``phase`` is ``"bid"``, ``"place"``
    or ``"over"``. ``board`` is an ``int8`` array ``(9, 9)``: ``-1`` empty,
    else the mark's player. ``scores`` are the fields each player controls
    (BF-9).

    Example:
        >>> g = BlockFour(x_table=("L", "T"))
        >>> g.play("IO", player=0)      # X's bid: hidden (BF-5)
        Bid('IO', player=0)
        >>> g.pending_bids, g.history
        ((True, False), [])
        >>> g.play("IL", player=1)      # O's bid: both revealed, one step of the history
        Bid('IL', player=1)
        >>> [str(s) for s in g.steps], g.to_place
        (['IO + IL'], (1, 'L'))
        >>> g.undo()                    # undo takes the whole joint action back
        JointMove(players=(0, 1), moves=(Bid('IO', player=0), Bid('IL', player=1)))
        >>> g.redo() and g.phase
        'place'
    """

    game_type = GameType(
        short_name="blockfour",
        long_name="Block Four",
        dynamics=Dynamics.SIMULTANEOUS,
        information=Information.IMPERFECT,
        chance=Chance.SEEDED_SETUP,
        move_kinds=(MoveKind.CHOICE, MoveKind.CELLS),
        rules="rules/blockfour.md",
    )
    players = ("X", "O")
    end_rule = "BF-9"
    compiled_module = "gridwidgets.games.blockfour.kernel"
    #: its own words for ``python -m gridwidgets play`` (``gridwidgets.terminal``)
    terminal_dialogue = "gridwidgets.games.blockfour.terminal:BlockFourDialogue"
    turn_rule = "BF-6"
    final_rule = "BF-13"
    secrecy_rule = "BF-5"
    simultaneous_words = ("bid", "has bid", "bid")
    #: the bid as a matrix game (bids.py beside it), served as gridwidgets.analysis.<name>
    analysis_tools: ClassVar[dict[str, Any]] = {
        name: f"gridwidgets.games.blockfour.bids:{name}"
        for name in ("WIN_VALUE", "BidTable", "bid_matrix", "bid_table", "describe_order", "position_value")
    }
    #: bids by the equilibrium of the one-turn bid matrix (a myopic bidder), served as
    #: gridwidgets.agents.MyopicBidder (EquilibriumAgent: its old, deprecated name)
    agents: ClassVar[dict[str, Any]] = {
        "MyopicBidder": "gridwidgets.games.blockfour.agents:MyopicBidder",
        "EquilibriumAgent": "gridwidgets.games.blockfour.agents:EquilibriumAgent",
    }
    rows = cols = SIZE
    presets: ClassVar[dict[str, tuple[str, dict[str, Any]]]] = {"9x9": ("9×9, nine fields (the book)", {})}
    how_to_play = (
        "Each turn both players bid two cards in secret, then place the shapes (R rotates, F mirrors). "
        "Five spaces of a field control it; five fields win (BF-9)."
    )

    def __init__(self, seed: int | None = None, x_table: Sequence[str] | None = None) -> None:
        if x_table is None:
            x_table = random.Random(seed).sample(SHAPES, 2)
        if isinstance(x_table, str):
            x_table = list(x_table)
        cards = [str(c).upper() for c in x_table]
        if len(cards) != 2 or len(set(cards)) != 2 or not set(cards) <= set(SHAPES):
            raise ValueError(f"x_table must be two different cards of I, L, O, T, Z, got {x_table!r} (BF-4)")
        super().__init__()
        self.x_table = tuple(sorted(cards, key=NUMBERS.__getitem__))
        self._board = [EMPTY] * (SIZE * SIZE)
        self._hands: list[list[str]] = [[s for s in SHAPES if s not in self.x_table], list(SHAPES)]
        self._tables: list[list[str]] = [list(self.x_table), []]
        self._revealed: tuple[Bid, Bid] | None = None
        self._queue: list[tuple[int, str]] = []
        self._done: list[str] = []  # status of each placement of the turn: "done" / "skipped"
        self._phase = "bid"
        self._turn = 1
        self._stall = 0
        self._filled_this_turn = False
        self._winners: tuple[int, ...] = ()
        self._events: list[str] = []
        self._gaps: list[int] = []
        self._skipped: list[str] = []

    # ------------------------------------------------------------------
    # Options, parsing
    # ------------------------------------------------------------------
    def options(self) -> dict[str, Any]:
        return {"x_table": list(self.x_table)}

    def parse_move(self, value: Any, player: int | None = None) -> Bid | Placement:
        """Read a bid (``"IT"``, any order of the two letters) or a placement
        (``"T:B2,C2,D2,C3"``, spaces in any order; ``"T:-"``), or a move object.

        Args:
            player: whose move it is (default: the player to act).

        Raises:
            IllegalMoveError: (``BF-12``) if it cannot be read.
        """
        if isinstance(value, (Bid, Placement)):
            return self._valid_object(value)
        if player is None:
            player = self.current_player if self.current_player is not None else 0
        if not isinstance(value, str) or len(value) > _MAX_TEXT:
            raise InvalidMoveError(
                f"cannot read {shorten(value)} as a Block Four move: write a bid like 'IT' or a placement "
                "like 'T:B2,C2,D2,C3'",
                rule="BF-12",
                move=value,
            )
        text = " ".join(value.split()).upper()
        m = _PLACE.fullmatch(text)
        if m:
            shape, rest = m.group(1).upper(), m.group(2)
            if rest == "-":
                return Placement(player, shape, None)
            # four spaces, comma-separated ("B2,C2,D2,C3", also "2 2, 2 3, ...")
            # or, without commas, separated by spaces ("B2 C2 D2 C3")
            parts = [p for p in re.split(r"\s*,\s*" if "," in rest else r"\s+", rest) if p]
            if len(parts) != 4:
                raise InvalidMoveError(
                    f"a placement names four spaces, {shorten(value)} names {len(parts)}", rule="BF-12", move=value
                )
            cells = tuple(sorted(parse_cell(p, SIZE, SIZE) for p in parts))
            return Placement(player, shape, cells)
        if len(text) == 2 and set(text) <= set(SHAPES):
            if text[0] == text[1]:
                raise IllegalMoveError(f"a bid is two different cards, not {shorten(value)}", rule="BF-5", move=value)
            cards = tuple(sorted(text, key=NUMBERS.__getitem__))
            return Bid(player, (cards[0], cards[1]))
        raise InvalidMoveError(
            f"cannot read {shorten(value)}: a bid is two cards like 'IT', a placement like 'T:B2,C2,D2,C3'",
            rule="BF-12",
            move=value,
        )

    def _valid_object(self, move: Bid | Placement) -> Bid | Placement:
        """A move object made by hand is checked like text would be (BF-2, BF-12, C-1)."""
        if type(move.player) is not int or move.player not in (0, 1):
            raise IllegalMoveError(f"{shorten(move.player)} is not a player (0 is X, 1 is O)", rule="C-3", move=move)
        if isinstance(move, Bid):
            cards = move.cards
            if (not isinstance(cards, tuple) or len(cards) != 2
                    or not all(isinstance(c, str) and c in NUMBERS for c in cards) or cards[0] == cards[1]):
                raise IllegalMoveError("a bid is two different cards of I, L, O, T, Z", rule="BF-5", move=move)
            return move if NUMBERS[cards[0]] < NUMBERS[cards[1]] else Bid(move.player, (cards[1], cards[0]))
        if not isinstance(move.shape, str) or move.shape not in NUMBERS:
            raise IllegalMoveError("a placement is of a card's shape, I, L, O, T or Z", rule="BF-2", move=move)
        if move.cells is None:
            return move
        cells = move.cells
        if (not isinstance(cells, tuple) or len(cells) != 4
                or not all(isinstance(c, tuple) and len(c) == 2 and type(c[0]) is int and type(c[1]) is int
                           and 0 <= c[0] < SIZE and 0 <= c[1] < SIZE for c in cells)):
            raise IllegalMoveError("a placement names four spaces of the 9x9 board", rule="C-1", move=move)
        ordered = tuple(sorted(cells))
        return move if ordered == cells else Placement(move.player, move.shape, ordered)

    # ------------------------------------------------------------------
    # Playing: the bid phase is a simultaneous node (game protocol)
    # ------------------------------------------------------------------
    def _simultaneous(self) -> tuple[int, ...]:
        """Both players bid at once in the bid phase (BF-5)."""
        return (0, 1) if self._phase == "bid" else ()

    def _hidden_move(self, player: int) -> Bid:
        """A view shows another player's hidden bid as ``Bid(player, HIDDEN)`` (BF-5)."""
        return Bid(player, HIDDEN)

    def _end_rule(self) -> str:
        return "BF-11" if self._stall >= STALL_TURNS else self.end_rule

    def _check_submission(self, move: Bid | Placement, player: int) -> None:
        """A bid of ``player``'s, from their hand (BF-5); a placement now is refused (BF-5)."""
        if isinstance(move, Placement):
            raise IllegalMoveError(
                "it is the bid phase: both players choose two cards before anything is placed",
                rule="BF-5",
                move=move,
            )
        if move.player != player:
            raise IllegalMoveError(f"that bid belongs to {self.players[move.player]}", rule="BF-5", move=move)
        self._check(move)

    def _apply_joint(self, moves: tuple[Any, ...]) -> None:
        """Both bids are in: reveal them and resolve the turn (BF-6, BF-10)."""
        x, o = moves
        self._gaps = []
        self._skipped = []
        self._resolve(x, o)

    def _check(self, move: Bid | Placement) -> None:
        p = move.player
        if isinstance(move, Bid):
            if self._phase != "bid":
                raise IllegalMoveError(
                    "it is the placement phase: bids come at the start of the next turn", rule="BF-6", move=move
                )
            missing = [c for c in move.cards if c not in self._hands[p]]
            if missing:
                raise IllegalMoveError(
                    f"{self.players[p]} does not hold {', '.join(missing)} "
                    f"(hand: {''.join(self._hands[p])}): a bid is two cards from the hand",
                    rule="BF-5",
                    move=move,
                )
            return
        if self._phase != "place":
            raise IllegalMoveError("nothing is to be placed now: it is the bid phase", rule="BF-5", move=move)
        who, shape = self._queue[0]
        if p != who:
            raise IllegalMoveError(
                f"it is {self.players[who]}'s placement ({shape}), not {self.players[p]}'s", rule="BF-6", move=move
            )
        if move.shape != shape:
            raise IllegalMoveError(
                f"the placement now is {self.players[who]}'s {shape}, not {move.shape}",
                rule="BF-6",
                move=move,
            )
        if move.cells is None:
            if self._fits(shape):
                raise IllegalMoveError(
                    f"{shape} fits on the board, so it cannot be skipped", rule="BF-7", move=move
                )
            return
        if _normal(move.cells) not in orientations(shape):
            raise IllegalMoveError(
                f"{', '.join(cell_name(c) for c in move.cells)} do not form the {shape} shape "
                "(in any rotation or mirror image)",
                rule="BF-3",
                move=move,
            )
        taken = [cell_name(c) for c in move.cells if self._board[c[0] * SIZE + c[1]] != EMPTY]
        if taken:
            raise IllegalMoveError(
                f"{', '.join(taken)} {'is' if len(taken) == 1 else 'are'} not empty: a shape is filled on "
                "four empty spaces",
                rule="BF-7",
                move=move,
            )

    def _occupied(self) -> int:
        """The occupied spaces as a bit mask (bit ``i`` for space ``i``, row by row)."""
        filled = np.fromiter(self._board, dtype=np.int8, count=SIZE * SIZE) != EMPTY
        return int.from_bytes(np.packbits(filled, bitorder="little").tobytes(), "little")

    def _free_placements(self, shape: str) -> np.ndarray:
        """A ``bool`` array over :func:`placements_of` ``(shape)``: True where all four spaces are empty."""
        occ = self._occupied()
        low, high = _placement_masks(shape)
        return ((low & np.uint64(occ & _LOW64)) | (high & np.uint64(occ >> 64))) == 0

    def _fits(self, shape: str) -> bool:
        return bool(self._free_placements(shape).any())

    def legal_moves(self, player: int | None = None) -> list[Bid | Placement]:
        """The moves of ``player`` now (default: :attr:`current_player`, BF-13).

        In the bid phase: every pair of cards in the player's hand (3 or
        10), none once they have bid. In the placement phase: every
        placement of the shape to place (BF-3, BF-7), for the placing
        player only. ``[]`` once the game is over.
        """
        if player is None:
            player = self.current_player
        if player is None or self._phase == "over" or not isinstance(player, (int, np.integer)) or isinstance(
                player, bool) or player not in (0, 1):
            return []  # the game is over, or that is not a player
        player = int(player)
        if self._phase == "bid":
            if player in self._pending:
                return []
            hand = self._hands[player]
            return [Bid(player, (a, b)) for a, b in combinations(hand, 2)]
        who, shape = self._queue[0]
        if player != who:
            return []
        every = placements_of(shape)
        return [Placement(who, shape, every[k][0]) for k in np.flatnonzero(self._free_placements(shape))]

    # ------------------------------------------------------------------
    # Applying moves
    # ------------------------------------------------------------------
    def _apply(self, move: Placement) -> None:
        self._gaps = []
        self._skipped = []
        self._events = []
        self._place(move)
        self._advance()

    def _resolve(self, x: Bid, o: Bid) -> None:
        """Both bids are in: reveal, move the cards (BF-10), list the placements (BF-6)."""
        self._revealed = (x, o)
        for b in (x, o):
            for card in b.cards:
                self._hands[b.player].remove(card)
                self._tables[b.player].append(card)
                self._tables[b.player].sort(key=NUMBERS.__getitem__)
        self._queue = placement_order(x, o)
        kind = (
            "no match: four placements in the order I, L, O, T, Z (BF-6)",
            "one match: two copies of each unmatched shape (BF-6)",
            "two matches: nothing is placed (BF-6)",
        )[len(set(x.cards) & set(o.cards))]
        self._done = []
        self._events = [f"Bids: X {x}, O {o}; {kind}"]
        self._phase = "place"
        self._advance()

    def _advance(self) -> None:
        """Skip what fits nowhere (BF-7, recorded as moves of the rules), end
        the turn when nothing is left to place (BF-10, BF-11)."""
        while self._phase == "place" and self._queue:
            who, shape = self._queue[0]
            if self._fits(shape):
                return
            skip = Placement(who, shape, None)
            self._queue.pop(0)
            self._done.append("skipped")
            self._skipped.append(str(skip))
            self._auto.append(skip)
            self._events.append(f"{self.player_label(who)}'s {shape} fits nowhere: skipped (BF-7)")
        if self._phase == "place":
            self._end_turn()

    def _place(self, move: Placement) -> None:
        p = move.player
        assert move.cells is not None
        for r, c in move.cells:
            self._board[r * SIZE + c] = p
        self._queue.pop(0)
        self._done.append("done")
        self._filled_this_turn = True
        gaps = self._fill_gaps(1 - p)
        self._gaps = gaps
        if gaps:
            self._events.append(
                f"gap fill (BF-8): {', '.join(cell_name(divmod(i, SIZE)) for i in gaps)} to {self.player_label(1 - p)}"
            )
        fields = self.fields_controlled()
        for q in (p, 1 - p):
            if fields[q] >= 5:
                self._phase = "over"
                self._winners = (q,)
                self._events.append(f"{self.player_label(q)} controls {fields[q]} fields and wins (BF-9)")
                return

    def _fill_gaps(self, player: int) -> list[int]:
        """Fill every orthogonally connected empty region of 1 to 3 spaces (BF-8)."""
        board = self._board
        seen = [False] * (SIZE * SIZE)
        filled: list[int] = []
        for start in range(SIZE * SIZE):
            if board[start] != EMPTY or seen[start]:
                continue
            region = [start]
            seen[start] = True
            for i in region:  # grows while it is walked: a flood fill
                for j in _NEIGHBOURS4[i]:
                    if board[j] == EMPTY and not seen[j]:
                        seen[j] = True
                        region.append(j)
            if len(region) <= 3:
                for i in region:
                    board[i] = player
                filled.extend(region)
        return sorted(filled)

    def _end_turn(self) -> None:
        """BF-10: the player with one card left picks up their table; BF-11: stalls."""
        for p in (0, 1):
            if len(self._hands[p]) == 1:
                self._hands[p].extend(self._tables[p])
                self._hands[p].sort(key=NUMBERS.__getitem__)
                self._tables[p] = []
        self._stall = 0 if self._filled_this_turn else self._stall + 1
        self._filled_this_turn = False
        if self._stall >= STALL_TURNS:
            self._phase = "over"
            self._winners, why = self._stall_result()
            self._events.append(f"{STALL_TURNS} turns in a row with no space filled: the game ends, {why} (BF-11)")
            return
        self._phase = "bid"
        self._turn += 1

    def _stall_result(self) -> tuple[tuple[int, ...], str]:
        """Who wins a stalled game, and why (BF-11): more fields, then more spaces, else a draw."""
        f, s = self.fields_controlled(), self.spaces()
        if f[0] != f[1]:
            return ((0,) if f[0] > f[1] else (1,)), "more fields"
        if s[0] != s[1]:
            return ((0,) if s[0] > s[1] else (1,)), "as many fields, more spaces"
        return (0, 1), "as many fields and spaces: a draw"

    # ------------------------------------------------------------------
    # The position as text
    # ------------------------------------------------------------------
    def _write_position(self) -> str:
        """``BOARD X=HAND/TABLE O=HAND/TABLE turn=N stall=N PHASE``: the board
        row by row from the top, rows separated by ``/`` (``X``, ``O``, ``.``
        empty, BF-1), each player's hand and table (``-`` for none, BF-10),
        the turn, the turns in a row with no space filled (BF-11), and the
        phase: ``bid``, ``over``, or ``place:XB,OB`` with the revealed bids of
        X and of O (BF-6) and, after a ``:``, each placement of the turn made
        so far, ``+`` placed or ``-`` skipped (BF-7). A bid still hidden is
        never written (BF-5): the position is then the bid phase with no bid in."""
        marks = {EMPTY: ".", 0: self.players[0], 1: self.players[1]}
        rows = "/".join("".join(marks[q] for q in self._board[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))
        cards = " ".join(
            f"{self.players[p]}={''.join(self.hands[p]) or '-'}/{''.join(self._tables[p]) or '-'}" for p in (0, 1))
        phase = self._phase
        if phase == "place":
            assert self._revealed is not None
            phase = f"place:{self._revealed[0]},{self._revealed[1]}"
            if self._done:
                phase += ":" + "".join("+" if d == "done" else "-" for d in self._done)
        return f"{rows} {cards} turn={self._turn} stall={self._stall} {phase}"

    @classmethod
    def _read_position(cls, body: str) -> BlockFour:
        """A game at ``body`` (:meth:`position`'s fields). Refused with the
        rule: a board that is not 9 rows of 9 spaces (BF-1), cards that are
        not each of I, L, O, T, Z once per player (BF-2), hands of sizes the
        turn cannot have (BF-10), an empty region of 1 to 3 spaces (BF-8), a
        field count that would have ended the game, or an end without one
        (BF-9, BF-11), bids not on their tables (BF-10), placements the bids
        do not earn (BF-6), a skipped shape that fits or a shape to place that
        fits nowhere (BF-7). The text board of ``print(g)`` is refused: it
        lacks the hands, tables, turn and phase."""
        example = ("'" + "/".join(["........."] * 9) + " X=IOZ/LT O=ILOTZ/- turn=1 stall=0 bid'")
        if "\n" in body or "|" in body:
            raise ValueError("a Block Four text board (print(g)) shows the marks, not the hands, tables, turn "
                             "and phase: give g.position()'s text instead (BF-10)")
        parts = body.split()
        if len(parts) != 6:
            raise ValueError("a Block Four position is 'BOARD X=HAND/TABLE O=HAND/TABLE turn=N stall=N PHASE', "
                             "e.g. " + example[:60] + "... (BF-1)")
        rows_text, *card_texts, turn_text, stall_text, phase_text = parts
        rows = rows_text.split("/")
        if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
            raise ValueError("the board is 9 rows of 9 spaces, separated by '/' (BF-1)")
        marks = {".": EMPTY, cls.players[0]: 0, cls.players[1]: 1}
        board = []
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch not in marks:
                    raise ValueError(f"{cell_name((r, c))} holds {shorten(ch)}: a space is X, O or '.' (BF-1)")
                board.append(marks[ch])
        hands: list[list[str]] = []
        tables: list[list[str]] = []
        for p, text in enumerate(card_texts):
            name = cls.players[p]
            head, eq, cards = text.partition("=")
            hand, slash, table = cards.partition("/")
            if head != name or not eq or not slash:
                raise ValueError(f"{shorten(text)} is not {name}'s cards: write {name}=HAND/TABLE, e.g. "
                                 f"{name}=IOZ/LT, '-' for none (BF-10)")
            got = [[] if part == "-" else list(part) for part in (hand, table)]
            every = got[0] + got[1]
            if sorted(every, key=lambda x: (x not in NUMBERS, NUMBERS.get(x, 0), x)) != list(SHAPES):
                raise ValueError(f"{name}'s hand and table hold {shorten(hand + '/' + table)}: each of I, L, O, T, "
                                 "Z exactly once, in the hand or on the table (BF-2, BF-10)")
            hands.append(sorted(got[0], key=NUMBERS.__getitem__))
            tables.append(sorted(got[1], key=NUMBERS.__getitem__))
        numbers = []
        for text, key, top in ((turn_text, "turn", 10**6), (stall_text, "stall", STALL_TURNS)):
            head, eq, digits = text.partition("=")
            number = count_of(digits, 7)
            if head != key or not eq or number is None or number > top:
                raise ValueError(f"{shorten(text)} is not {key}=N with N up to {top} in the digits 0-9 (BF-11)")
            numbers.append(number)
        turn, stall = numbers
        if turn < 1:
            raise ValueError("turns are numbered from 1 (BF-10)")
        game = cls(x_table=tables[0] if turn == 1 and len(tables[0]) == 2 else ("I", "L"))
        game._board, game._hands, game._tables = board, hands, tables
        game._turn, game._stall = turn, stall
        phase, _, rest = phase_text.partition(":")
        if phase not in ("bid", "place", "over") or (phase != "place" and rest):
            raise ValueError(f"the phase is bid, place:XB,OB or over, not {shorten(phase_text)} (BF-6)")
        game._check_position(phase, rest)
        return game

    def _check_position(self, phase: str, rest: str) -> None:
        """Set the phase (and a placement phase's bids and placements) of a
        game read from a position, refusing a position no game reaches."""
        turn, stall, hands = self._turn, self._stall, self._hands
        fields = self.fields_controlled()
        if turn <= stall and not (phase == "over" and turn == stall):
            raise ValueError(f"stall={stall} in turn {turn}: only {turn - 1} turns have ended (BF-11)")
        if turn == 1 and phase == "bid" and any(q != EMPTY for q in self._board):
            raise ValueError("turn 1's bids come before any placement: the board is empty (BF-6)")
        three = 0 if turn % 2 else 1  # who holds three cards in this turn's bid phase (BF-4, BF-10)
        won = [q for q in (0, 1) if fields[q] >= 5]
        if phase != "over" and won:
            raise ValueError(f"{self.players[won[0]]} controls {fields[won[0]]} fields: the game is over here, "
                             "phase 'over' (BF-9)")
        if phase != "over" and stall >= STALL_TURNS:
            raise ValueError(f"{STALL_TURNS} turns in a row with no space filled: the game is over here, "
                             "phase 'over' (BF-11)")
        if phase == "over" and not won and stall < STALL_TURNS:
            raise ValueError("the game is over only when a player controls 5 fields (BF-9) or after 10 turns "
                             "with no space filled (BF-11)")
        if phase == "bid" or (phase == "over" and not won):
            want = {three: 3, 1 - three: 5} if phase == "bid" else {three: 5, 1 - three: 3}
        else:
            want = {three: 1, 1 - three: 3}
        if [len(hands[0]), len(hands[1])] != [want[0], want[1]]:
            raise ValueError(f"in turn {turn} ({phase}) X holds {len(hands[0])} cards and O {len(hands[1])}, "
                             f"not {want[0]} and {want[1]}: the hands go 3 and 5, then 5 and 3 (BF-10)")
        for r, c, size in self._small_regions():
            raise ValueError(f"the empty region at {cell_name((r, c))} has {size} space{'s' * (size > 1)}: every "
                             "region of 1 to 3 is filled after a placement (BF-8)")
        self._phase = phase
        if phase == "over":
            self._winners = (won[0],) if won else self._stall_result()[0]
            return
        if phase == "bid":
            return
        bids_text, _, flags = rest.partition(":")
        texts = bids_text.split(",")
        bids = []
        for p, text in enumerate(texts if len(texts) == 2 else []):
            if len(text) != 2 or not set(text) <= set(SHAPES) or text[0] == text[1]:
                break
            bid = Bid(p, tuple(sorted(text, key=NUMBERS.__getitem__)))  # type: ignore[arg-type]
            if not set(bid.cards) <= set(self._tables[p]):
                raise ValueError(f"{self.players[p]}'s bid {bid} is not on {self.players[p]}'s table: "
                                 "played cards go face up there (BF-10)")
            bids.append(bid)
        if len(bids) != 2:
            raise ValueError(f"a placement phase is place:XB,OB, the bids of X and O like place:IO,IL, not "
                             f"{shorten(bids_text)} (BF-12)")
        order = placement_order(bids[0], bids[1])
        if not set(flags) <= {"+", "-"} or len(flags) >= len(order):
            raise ValueError(f"bids {bids[0]} and {bids[1]} earn {len(order)} placement{'s' * (len(order) != 1)}: "
                             f"after 'place:{bids[0]},{bids[1]}:', one '+' (placed) or '-' (skipped) for each made "
                             "so far, and one at least still to come (BF-6)")
        for (who, shape), flag in zip(order, flags, strict=False):
            if flag == "-" and self._fits(shape):
                raise ValueError(f"{self.players[who]}'s {shape} was skipped, but it fits: a placement is skipped "
                                 "only when it fits nowhere (BF-7)")
        who, shape = order[len(flags)]
        if not self._fits(shape):
            raise ValueError(f"{self.players[who]}'s {shape} fits nowhere: the rules skip it, so it cannot be "
                             "the placement to make (BF-7)")
        self._revealed = (bids[0], bids[1])
        self._queue = order[len(flags):]
        self._done = ["done" if f == "+" else "skipped" for f in flags]
        self._filled_this_turn = "+" in flags

    def _small_regions(self) -> list[tuple[int, int, int]]:
        """Each orthogonally connected empty region of 1 to 3 spaces: its first
        space and its size (BF-8; none after any placement's gap fill)."""
        board = self._board
        seen = [False] * (SIZE * SIZE)
        out = []
        for start in range(SIZE * SIZE):
            if board[start] != EMPTY or seen[start]:
                continue
            region = [start]
            seen[start] = True
            for i in region:
                for j in _NEIGHBOURS4[i]:
                    if board[j] == EMPTY and not seen[j]:
                        seen[j] = True
                        region.append(j)
            if len(region) <= 3:
                out.append((*divmod(start, SIZE), len(region)))
        return out

    # ------------------------------------------------------------------
    # Undo: a full snapshot (a turn's resolution changes much)
    # ------------------------------------------------------------------
    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self._board[:], [h[:] for h in self._hands], [t[:] for t in self._tables],
            self._revealed, self._queue[:], self._done[:], self._phase, self._turn, self._stall,
            self._filled_this_turn, self._winners, self._events[:], self._gaps[:], self._skipped[:],
        )

    def _restore(self, snapshot: tuple[Any, ...]) -> None:
        (board, hands, tables, self._revealed, queue, done, self._phase, self._turn, self._stall,
         self._filled_this_turn, self._winners, events, gaps, skipped) = snapshot
        self._board = board[:]
        self._hands = [h[:] for h in hands]
        self._tables = [t[:] for t in tables]
        self._queue, self._done = queue[:], done[:]
        self._events, self._gaps, self._skipped = events[:], gaps[:], skipped[:]

    # ------------------------------------------------------------------
    # State
    # ------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"bid"``, ``"place"`` or ``"over"``."""
        return self._phase

    @property
    def turn(self) -> int:
        """The turn number, from 1."""
        return self._turn

    @property
    def current_player(self) -> int | None:
        """Bid phase: the lowest-numbered player who has not bid (BF-13);
        placement phase: the placing player (BF-6); ``None`` when over."""
        if self._phase == "bid":
            return 1 if 0 in self._pending else 0
        if self._phase == "place":
            return self._queue[0][0]
        return None

    @property
    def pending_bids(self) -> tuple[bool, bool]:
        """Per player: has bid this turn. Never what (BF-5)."""
        return (0 in self._pending, 1 in self._pending)

    @property
    def hands(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Per player, the cards in hand, in I, L, O, T, Z order (BF-10)."""
        return tuple(tuple(sorted(h, key=NUMBERS.__getitem__)) for h in self._hands)  # type: ignore[return-value]

    @property
    def tables(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Per player, the cards face up on the table (BF-10)."""
        return tuple(tuple(t) for t in self._tables)  # type: ignore[return-value]

    @property
    def revealed(self) -> tuple[Bid, Bid] | None:
        """This turn's bids once both are in (X's, O's); the last turn's until the next reveal."""
        return self._revealed

    @property
    def turn_placements(self) -> list[dict[str, Any]]:
        """The placements the revealed bids earn, in order (BF-6), each
        ``{"player", "shape", "status"}``, status ``"done"``, ``"skipped"``,
        ``"now"`` or ``"next"``; ``[]`` before the first reveal."""
        if self._revealed is None:
            return []
        out = []
        for k, (p, shape) in enumerate(placement_order(*self._revealed)):
            if k < len(self._done):
                status = self._done[k]
            elif k == len(self._done) and self._phase == "place":
                status = "now"
            else:
                status = "next"
            out.append({"player": p, "shape": shape, "status": status})
        return out

    @property
    def to_place(self) -> tuple[int, str] | None:
        """``(player, shape)`` of the next placement, in the placement phase."""
        return self._queue[0] if self._phase == "place" and self._queue else None

    @property
    def placements_left(self) -> list[tuple[int, str]]:
        """The placements of this turn still to come, in order (BF-6)."""
        return list(self._queue) if self._phase == "place" else []

    @property
    def stall(self) -> int:
        """Turns in a row with no space filled (BF-11)."""
        return self._stall

    @property
    def events(self) -> list[str]:
        """What the last move caused, for people (reveal, skips, gap fills, the end)."""
        return list(self._events)

    @property
    def last_gaps(self) -> list[Cell]:
        """Spaces the last placement's gap fill took (BF-8)."""
        return [divmod(i, SIZE) for i in self._gaps]  # type: ignore[misc]

    @property
    def last_skipped(self) -> list[str]:
        """Placements the last move skipped (``"T:-"``, BF-7)."""
        return list(self._skipped)

    def field_counts(self) -> list[tuple[int, int]]:
        """Per field 1..9 (index 0..8): marks of X and of O (BF-1)."""
        counts = [[0, 0] for _ in range(9)]
        for i, q in enumerate(self._board):
            if q != EMPTY:
                counts[_field(divmod(i, SIZE))][q] += 1  # type: ignore[arg-type]
        return [(x, o) for x, o in counts]

    def controllers(self) -> list[int]:
        """Per field 1..9: the player holding 5 or more of its 9 spaces, else -1 (BF-9)."""
        return [0 if x >= 5 else 1 if o >= 5 else -1 for x, o in self.field_counts()]

    def fields_controlled(self) -> tuple[int, int]:
        """Fields each player controls (BF-9)."""
        ctrl = self.controllers()
        return (ctrl.count(0), ctrl.count(1))

    def spaces(self) -> tuple[int, int]:
        """Marks on the board per player."""
        return (self._board.count(0), self._board.count(1))

    @property
    def winners(self) -> tuple[int, ...]:
        """``(winner,)`` (BF-9, BF-11) or ``(0, 1)`` for a stalled draw; ``()`` while ongoing."""
        return self._winners if self._phase == "over" else ()

    @property
    def scores(self) -> tuple[int, ...]:
        """Fields controlled by X and by O (BF-9)."""
        return self.fields_controlled()

    def all_moves(self, player: int) -> list[Bid | Placement]:
        """Every move of ``player`` (the action ids of the frameworks): the 10
        bids (BF-5, in I, L, O, T, Z order), then per shape its skip and every
        placement on the board (BF-3, BF-7); 1,083 in all."""
        bids: list[Bid | Placement] = [Bid(player, (a, b)) for a, b in combinations(SHAPES, 2)]
        places: list[Bid | Placement] = []
        for shape in SHAPES:
            places.append(Placement(player, shape, None))
            places.extend(Placement(player, shape, cells) for cells, _ in placements_of(shape))
        return bids + places

    def observation_features(self, player: int | None) -> np.ndarray:
        """Beyond the board: per player the cards in hand and on the table
        (5 + 5 each, BF-4, BF-10), who has bid this turn (never what, BF-5),
        the phase (bid, place), and the next placement's player and shape (BF-6)."""
        out = np.zeros(2 * 10 + 2 + 2 + 2 + 5, dtype=np.float32)
        for p in (0, 1):
            for c in self._hands[p]:
                out[10 * p + NUMBERS[c] - 1] = 1
            for c in self._tables[p]:
                out[10 * p + 5 + NUMBERS[c] - 1] = 1
        for p in self._pending:
            out[20 + p] = 1
        if self._phase == "bid":
            out[22] = 1
        elif self._phase == "place":
            out[23] = 1
            who, shape = self._queue[0]
            out[24 + who] = 1
            out[26 + NUMBERS[shape] - 1] = 1
        return out

    @property
    def board(self) -> np.ndarray:
        """Read-only ``int8`` array ``(9, 9)``: ``-1`` empty, ``0`` X, ``1`` O."""
        a = np.array(self._board, dtype=np.int8).reshape(SIZE, SIZE)
        a.flags.writeable = False
        return a

    def status(self) -> str:
        """Whose turn and what to do, or the result; never a hidden bid."""
        if self._phase == "over":
            f = self.fields_controlled()
            if len(self._winners) == 2:
                return f"Draw: {f[0]} fields each (BF-11)."
            w = self._winners[0]
            return f"{self.player_label(w)} wins with {f[w]} field{'s' if f[w] != 1 else ''}."
        if self._phase == "bid":
            done = [self.player_label(p) for p in (0, 1) if p in self._pending]
            p = self.current_player
            assert p is not None
            has = f" ({done[0]} has bid)" if done else ""
            return f"Turn {self._turn}: {self.player_label(p)} to bid two cards{has}."
        who, shape = self._queue[0]
        return f"Turn {self._turn}: {self.player_label(who)} to place {shape}."

    def with_bid(self, bid: Any, player: int) -> BlockFour:
        """A copy of this view with ``player``'s hidden bid (``HIDDEN``, from
        :meth:`view_for`) replaced by ``bid`` (a guess), e.g. for search over
        what the other player may have bid (:meth:`Game.with_submission`).

        Raises:
            IllegalMoveError: if ``player`` has no hidden bid here, or ``bid``
                is not a bid from their hand (BF-5).
        """
        return self.with_submission(bid, player)

    @classmethod
    def new_for_seed(cls, options: dict[str, Any], seed: int) -> BlockFour:
        """A game for one simulated game: the setup is drawn with the game's
        own seed unless the options fix it (BF-4)."""
        if "seed" not in options and "x_table" not in options:
            return cls(seed=seed, **options)
        return cls(**options)

    def max_game_length(self) -> int:
        """A turn holds two bids and at most four placements (BF-6); a turn
        that fills nothing counts toward the stall (BF-11), and a turn that
        fills fills at least four spaces, so at most ``(81 // 4 + 1) *
        10`` turns: 1,260 moves, a safe bound."""
        return (SIZE * SIZE // 4 + 1) * STALL_TURNS * 6

    def result_row(self) -> dict[str, Any]:
        """``simulate``'s row, plus ``turns``, ``stalled`` (ended by BF-11)
        and ``spaces_<name>`` per player."""
        row = super().result_row()
        row["turns"] = self._turn
        row["stalled"] = self._stall >= STALL_TURNS
        for p, name in enumerate(self.players):
            row[f"spaces_{name}"] = self.spaces()[p]
        return row

