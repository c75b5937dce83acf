"""What kind of game a game is: the declaration every generic layer reads.

OpenSpiel's ``GameType`` and ``GameInfo`` are the model (M. Lanctot et al.,
"OpenSpiel: A Framework for Reinforcement Learning in Games", 2019,
arXiv:1908.09453, section 3): a game class declares, once, its dynamics,
information, chance, utility, number of players and the kinds of moves it
has (:class:`GameType`); a game object, whose options fix the board,
tells its number of players, the longest a game can last and the range of
its returns (:class:`GameInfo`). Agents, the solver, the CLI, the widgets
and the classroom read these instead of asking which game it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

__all__ = ["Chance", "Dynamics", "GameInfo", "GameType", "Information", "MoveKind", "Utility", "why_unsolvable"]


class Dynamics(str, Enum):
    """How players move (OpenSpiel's ``Dynamics``)."""

    #: one player acts at a time
    SEQUENTIAL = "sequential"
    #: some nodes collect one hidden submission from each of several players
    #: at once (a joint action); a game with any such node is simultaneous
    SIMULTANEOUS = "simultaneous"


class Information(str, Enum):
    """What players know (OpenSpiel's ``Information``)."""

    #: every player sees the whole state
    PERFECT = "perfect"
    #: something is hidden from some player (a submission not yet revealed)
    IMPERFECT = "imperfect"


class Chance(str, Enum):
    """Where chance enters (OpenSpiel's ``ChanceMode``, in our terms)."""

    #: no chance at all (OpenSpiel: deterministic)
    NONE = "none"
    #: only the setup is random, drawn from a seed given to the constructor
    #: (cards dealt, pieces placed); after it the game is deterministic
    SEEDED_SETUP = "seeded setup"


class Utility(str, Enum):
    """How the players' returns relate (OpenSpiel's ``Utility``)."""

    #: the returns of every finished game sum to 0
    ZERO_SUM = "zero-sum"
    #: the returns of every finished game sum to the same constant
    CONSTANT_SUM = "constant-sum"
    #: no such constraint
    GENERAL_SUM = "general-sum"


class MoveKind(str, Enum):
    """The kinds of moves a game has; the front end and the terminal handle each generically."""

    #: one cell of the board (a marker, a tile, a step): ``move.cell``
    CELL = "cell"
    #: one edge between two orthogonally adjacent cells (a wall, a line):
    #: ``move.edge``, a pair of cells; one may lie just off the board (a border edge)
    EDGE = "edge"
    #: several cells at once (a shape): ``move.cells``
    CELLS = "cells"
    #: a choice that is not on the board (a bid, "done"): shown as a button
    CHOICE = "choice"


@dataclass(frozen=True)
class GameType:
    """The static description of a game class (OpenSpiel's ``GameType``).

    Attributes:
        short_name: the registry name and save-file id (``"tictactoe"``).
        long_name: the name for people (``"Tic-tac-toe"``).
        dynamics: sequential, or simultaneous if any node collects joint actions.
        information: perfect, or imperfect if anything is ever hidden.
        chance: none, or a seeded setup.
        utility: zero-sum, constant-sum or general-sum returns.
        min_players, max_players: the player counts the options allow.
        move_kinds: the kinds of moves the game has, in the order a player meets them.
        rules: where the rules are written for people (a page of the docs).

    Example:
        >>> print(GameType("claim", "Claim", dynamics=Dynamics.SIMULTANEOUS, information=Information.IMPERFECT))
        Claim: simultaneous, imperfect information, chance: none, zero-sum, 2 players, moves: cell
    """

    short_name: str
    long_name: str
    dynamics: Dynamics = Dynamics.SEQUENTIAL
    information: Information = Information.PERFECT
    chance: Chance = Chance.NONE
    utility: Utility = Utility.ZERO_SUM
    min_players: int = 2
    max_players: int = 2
    move_kinds: tuple[MoveKind, ...] = (MoveKind.CELL,)
    rules: str = ""

    def __post_init__(self) -> None:
        if not self.short_name or not self.short_name.replace("_", "").replace("-", "").isalnum():
            raise ValueError(f"short_name must be a non-empty word, got {self.short_name!r}")
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"need 1 <= min_players <= max_players, got {self.min_players}, {self.max_players}")
        for name, kind in (("dynamics", Dynamics), ("information", Information), ("chance", Chance),
                           ("utility", Utility)):
            object.__setattr__(self, name, kind(getattr(self, name)))
        object.__setattr__(self, "move_kinds", tuple(MoveKind(k) for k in self.move_kinds))

    @property
    def simultaneous(self) -> bool:
        """True if some node collects a joint action."""
        return self.dynamics is Dynamics.SIMULTANEOUS

    @property
    def perfect_information(self) -> bool:
        return self.information is Information.PERFECT

    def as_dict(self) -> dict[str, object]:
        """The declaration as plain JSON-able values."""
        return {
            "short_name": self.short_name,
            "long_name": self.long_name,
            "dynamics": self.dynamics.value,
            "information": self.information.value,
            "chance": self.chance.value,
            "utility": self.utility.value,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "move_kinds": [k.value for k in self.move_kinds],
            "rules": self.rules,
        }

    def __str__(self) -> str:
        players = (str(self.min_players) if self.min_players == self.max_players
                   else f"{self.min_players}-{self.max_players}")
        kinds = ", ".join(k.value for k in self.move_kinds)
        return (f"{self.long_name}: {self.dynamics.value}, {self.information.value} information, "
                f"chance: {self.chance.value}, {self.utility.value}, {players} players, moves: {kinds}")


@dataclass(frozen=True)
class GameInfo:
    """What a game object's options fix (OpenSpiel's ``GameInfo``).

    Attributes:
        num_players: the number of players of this game.
        max_game_length: the most entries ``history`` can reach (every
            submission of a joint action and every move the rules make by
            themselves counts), or ``None`` if no bound exists (a setup phase
            that may go on as long as the player likes).
        min_utility, max_utility: the range of one player's return.
        utility_sum: what the returns of a finished game sum to, when the
            utility is zero-sum or constant-sum; ``None`` otherwise.
    """

    num_players: int
    max_game_length: int | None
    min_utility: float = -1.0
    max_utility: float = 1.0
    utility_sum: float | None = 0.0
    extra: dict[str, object] = field(default_factory=dict, compare=False)


def why_unsolvable(game: Any) -> str:
    """Why an exact two-player zero-sum search (negamax, alpha-beta:
    :func:`gridwidgets.analysis.solve`, :class:`~gridwidgets.agents.AlphaBetaAgent`)
    does not apply to ``game``, read from its :class:`GameType` and player
    count, or ``""`` when it does (Zermelo's setting: two players, moves in
    turn, perfect information, zero-sum).

    Returns:
        e.g. ``"has 4 players"``, ``"has simultaneous moves"``,
        ``"has hidden information"``, ``"is general-sum"``; ``""`` if solvable.
    """
    gt = type(game).game_type
    if len(game.players) != 2:
        return f"has {len(game.players)} players"
    if gt.dynamics is Dynamics.SIMULTANEOUS:
        return "has simultaneous moves"
    if gt.information is Information.IMPERFECT:
        return "has hidden information"
    if gt.utility is Utility.GENERAL_SUM:
        return "is general-sum"
    return ""
