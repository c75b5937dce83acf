"""A myopic bidder for Block Four: it bids by the equilibrium of the one-turn bid matrix.

The bid of a Block Four turn is a simultaneous zero-sum matrix game (RULES
BF-5, BF-6). What a pair of bids is worth depends on the rest of the game;
:func:`gridwidgets.analysis.bid_matrix` by default values only *this turn*:
X's field lead after the turn's placements made at random, averaged over
rollouts. :class:`MyopicBidder` randomises by the minimax strategy of that
one-turn matrix (von Neumann 1928): a myopic rule of thumb, not an equilibrium
of Block Four (it ignores every later turn, and early in a game the matrix's
entries are mostly within their standard errors of each other). The
subgame-perfect bidder, where the exact solver settles the position, is
:class:`gridwidgets.analysis.SubgamePerfectAgent`.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

from ...agents.base import Agent, RandomAgent
from ...core.game import Game

__all__ = ["EquilibriumAgent", "MyopicBidder"]


class MyopicBidder(Agent):
    """Block Four: bids by sampling the minimax mix of the one-turn bid matrix (a myopic bidder).

    In the bid phase the agent builds :func:`~gridwidgets.analysis.bid_matrix`
    of the position (``rollouts`` rollouts per pair of bids, seeded with
    ``matrix_seed``), solves it with :func:`~gridwidgets.analysis.equilibrium`
    (the minimax LP: the matrix is zero-sum) and draws its bid from its own
    side's equilibrium strategy (X's row mix or O's column mix).

    It is meant to be given ``game.view_for(player)``: when the other player
    has already bid, their bid is hidden (``HIDDEN``) in the view. That does
    not change the matrix: a bid changes nothing until both are in (BF-5),
    so the game the agent solves is the turn's game before either bid, the
    same whether the other bid is in, hidden, or not made yet, and the same
    for both players (each solves the same matrix, X using its rows, O its
    columns). Given the real game (not a view) with the other bid in, the
    agent does not look at that bid either.

    In the placement phase it delegates to ``placement_agent`` (default: a
    :class:`RandomAgent` with the same seed).

    Args:
        rollouts: rollouts per pair of bids for ``bid_matrix`` (at least 1).
        seed: seeds the bid draw: the bid is a function of the seed, the
            player and the public history of the game (like a seeded
            :class:`RandomAgent`), so the same seed in the same position
            always gives the same bid, also after an undo. ``None``: bids
            from one unseeded stream.
        placement_agent: who places the shapes; default ``RandomAgent(seed=seed)``.
        matrix_seed: seeds the rollouts of ``bid_matrix`` (default: ``seed``).
            :meth:`reseed` (used by tournaments) leaves it unchanged, so the
            equilibria computed are the same in every game and are cached.
        rollout_agent: who makes the placements inside the rollouts of
            ``bid_matrix`` (its ``agent`` option; default random).

    Attributes:
        last_equilibrium: the :class:`~gridwidgets.analysis.Equilibrium` of
            the last bid chosen (``None`` before the first).

    Raises (from :meth:`choose`):
        ValueError: for a game other than Block Four, or a game that is over.
    """

    def __init__(
        self,
        rollouts: int = 20,
        seed: int | None = 0,
        placement_agent: Agent | None = None,
        matrix_seed: int | None = None,
        rollout_agent: Any = None,
    ) -> None:
        if not isinstance(rollouts, int) or isinstance(rollouts, bool) or rollouts < 1:
            raise ValueError(f"rollouts must be an int of at least 1, got {rollouts!r}")
        self.rollouts = rollouts
        self.seed = seed
        self.matrix_seed = seed if matrix_seed is None else matrix_seed
        self.rollout_agent = rollout_agent
        self._own_placer = placement_agent is None
        self.placement_agent: Agent = RandomAgent(seed=seed) if placement_agent is None else placement_agent
        self.last_equilibrium: Any = None
        self._cache: dict[tuple[Any, ...], Any] = {}
        self._rng = random.Random(seed)

    @property
    def name(self) -> str:
        return f"MyopicBidder(rollouts={self.rollouts}, seed={self.seed})"

    def reseed(self, seed: int | None) -> None:
        """Draw bids from a new seed (a tournament gives each game its own);
        the default placement agent is reseeded too, a given one if it has
        ``reseed`` or a ``seed`` attribute. The matrix seed stays."""
        self.seed = seed
        self._rng = random.Random(seed)
        if self._own_placer:
            self.placement_agent = RandomAgent(seed=seed)
        elif callable(getattr(self.placement_agent, "reseed", None)):
            self.placement_agent.reseed(seed)  # type: ignore[attr-defined]
        elif hasattr(self.placement_agent, "seed"):
            self.placement_agent.seed = seed  # type: ignore[attr-defined]
            self.placement_agent.reset()

    def reset(self) -> None:
        """A new game: resets the placement agent (cached equilibria are kept:
        they depend on the position only)."""
        self.placement_agent.reset()

    def equilibrium_for(self, game: Any) -> Any:
        """The :class:`~gridwidgets.analysis.Equilibrium` of the bid of ``game``'s
        turn (cached per position), from the position before either bid."""
        from ...analysis.equilibrium import before_submissions, equilibrium

        base = before_submissions(game)
        key = (
            tuple(game.x_table),
            tuple(str(m) for m in base.history),
            self.rollouts,
            self.matrix_seed,
        )
        eq = self._cache.get(key)
        if eq is None:
            eq = equilibrium(base, rollouts=self.rollouts, seed=self.matrix_seed, agent=self.rollout_agent)
            self._cache[key] = eq
        return eq

    def choose(self, game: Game, player: int | None = None) -> Any:
        """A bid drawn from the equilibrium (bid phase) or the placement agent's move.

        Args:
            game: a Block Four game or ``view_for(player)`` of one.
            player: who bids (default: ``game.current_player``); in the bid
                phase either player may be asked (the bids are simultaneous).

        Raises:
            ValueError: for another game, a game that is over, or a player
                who has already bid.
        """
        from .rules import BlockFour

        if not isinstance(game, BlockFour):
            raise ValueError(f"MyopicBidder plays Block Four only, not {type(game).__name__}")
        if game.is_over:
            raise ValueError("the game is over: there is no move to choose")
        if game.phase != "bid":
            return self.placement_agent.choose(game)
        p = game.current_player if player is None else player
        assert p is not None
        legal = {str(b): b for b in game.legal_moves(p)}
        if not legal:
            raise ValueError(f"{game.players[p]} has already bid this turn (BF-13)")
        eq = self.equilibrium_for(game)
        self.last_equilibrium = eq
        mix = eq.strategy(p)
        labels = [b for b in mix if mix[b] > 0]
        weights = [mix[b] for b in labels]
        position = " ".join(str(m) for m in game.history)  # public: a lone hidden bid is not in it
        rng = self._rng if self.seed is None else random.Random(f"{self.seed}|blockfour-equilibrium|{p}|{position}")
        bid = rng.choices(labels, weights=weights)[0]
        return legal[bid]


class EquilibriumAgent(MyopicBidder):
    """The old name of :class:`MyopicBidder` (deprecated since 0.20: it bids by
    the equilibrium of the one-turn matrix, which is not an equilibrium of
    Block Four). Use ``MyopicBidder``, or
    :class:`gridwidgets.analysis.SubgamePerfectAgent` for the game's own
    equilibrium where it can be solved."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        warnings.warn("EquilibriumAgent is now MyopicBidder: it bids by the equilibrium of the one-turn bid "
                      "matrix, a myopic rule and not an equilibrium of Block Four; for the subgame-perfect "
                      "bidder see gridwidgets.analysis.SubgamePerfectAgent", DeprecationWarning, stacklevel=2)
        super().__init__(*args, **kwargs)
