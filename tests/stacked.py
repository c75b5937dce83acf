"""A random two-player zero-sum game with simultaneous and sequential nodes
(a "stacked matrix game", Saffidine, Finnsson & Buro 2012), built from a seed,
and a reference solver that knows nothing of the package's: plain backward
induction over the tree of histories, each simultaneous node's matrix game
solved by nashpy's own linear program. Used to check
:func:`gridwidgets.analysis.solve_simultaneous` and the simultaneous-move MCTS.

The game's state is ``(depth, h)``, a number ``h`` in ``0..hashes-1`` mixed
from the moves: the future depends on the state only, so different histories
lead to the same position (transpositions), which the game's
``position_key`` says, as the solver's table needs.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from gridwidgets.core import CellMove, Dynamics, Game, GameType, IllegalMoveError, Information


class Stacked(Game):
    """A seeded random stacked matrix game (tests only)."""

    game_type = GameType(short_name="stacked_test", long_name="Stacked test game",
                         dynamics=Dynamics.SIMULTANEOUS, information=Information.IMPERFECT)
    players = ("A", "B")
    rows = 1
    cols = 4

    def __init__(self, seed: int = 0, depth: int = 4, hashes: int = 6, payoffs: str = "grid") -> None:
        super().__init__()
        self.seed, self.depth, self.hashes, self.payoffs = seed, depth, hashes, payoffs
        self._state = (0, 0)

    def options(self) -> dict[str, Any]:
        return {"seed": self.seed, "depth": self.depth, "hashes": self.hashes, "payoffs": self.payoffs}

    # what each state is
    def _kind(self) -> tuple[str, int, int]:
        d, h = self._state
        rng = random.Random(f"{self.seed}|{d}|{h}")
        if d >= self.depth:
            return ("end", 0, 0)
        if rng.random() < 0.55:
            return ("joint", rng.randint(1, 3), rng.randint(1, 3))
        return ("seq", rng.randint(0, 1), rng.randint(1, 3))

    def utility(self) -> float:
        _d, h = self._state
        rng = random.Random(f"{self.seed}|end|{h}")
        if self.payoffs == "grid":
            return rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0])
        return rng.choice([-1.0, 0.0, 1.0])

    def _step(self, k: int, p: int) -> None:
        d, h = self._state
        self._state = (d + 1, (h * 7 + k * 3 + p + 1) % self.hashes)

    def parse_move(self, value: Any, player: int | None = None) -> CellMove:
        if isinstance(value, CellMove):
            return value
        if isinstance(value, str) and len(value) == 2 and value[0] in "ABCD" and value[1] == "1":
            return CellMove((0, "ABCD".index(value[0])))
        raise IllegalMoveError(f"not a move: {str(value)[:20]}", rule="T-1", move=value)

    def _simultaneous(self) -> tuple[int, ...]:
        return (0, 1) if self._kind()[0] == "joint" else ()

    def legal_moves(self, player: int | None = None) -> list[CellMove]:
        kind, a, b = self._kind()
        if player is None:
            player = self.current_player
        if kind == "end" or player is None:
            return []
        if kind == "joint":
            if player in self.pending:
                return []
            return [CellMove((0, k)) for k in range(a if player == 0 else b)]
        return [CellMove((0, k)) for k in range(b)] if player == a else []

    def _check(self, move: CellMove) -> None:
        kind, _a, _b = self._kind()
        p = self.current_player
        if move not in self.legal_moves(p if kind != "joint" else None):
            raise IllegalMoveError(f"{move} is not legal", rule="T-1", move=move)

    def _check_submission(self, move: CellMove, player: int) -> None:
        if move not in self.legal_moves(player):
            raise IllegalMoveError(f"{move} is not legal", rule="T-1", move=move)

    def _apply(self, move: CellMove) -> None:
        self._step(move.cell[1], self.current_player or 0)

    def _apply_joint(self, moves: tuple[Any, ...]) -> None:
        a, b = (m.cell[1] for m in moves)
        self._step(a * 3 + b, 2)

    def _snapshot(self) -> Any:
        return self._state

    def _restore(self, snapshot: Any) -> None:
        self._state = snapshot

    @property
    def current_player(self) -> int | None:
        kind, a, _ = self._kind()
        if kind == "end":
            return None
        if kind == "joint":
            return self._first_to_submit()
        return a

    @property
    def winners(self) -> tuple[int, ...]:
        if self._kind()[0] != "end":
            return ()
        u = self.utility()
        return (0,) if u > 0 else (1,) if u < 0 else (0, 1)

    def returns(self) -> tuple[float, ...]:
        if self._kind()[0] != "end":
            return (0.0, 0.0)
        u = self.utility()
        return (u, -u)

    @property
    def scores(self) -> tuple[int, ...]:
        return (0, 0)

    @property
    def board(self) -> np.ndarray:
        out = np.full((1, 4), -1, dtype=np.int8)
        out.flags.writeable = False
        return out

    def position_key(self, symmetry: Any = None) -> Any:
        return (self._state, tuple(sorted(self.pending)))


def reference_value(game: Game) -> tuple[float, np.ndarray | None]:
    """Backward induction over the tree of histories (no table, no pruning):
    ``(value for player 0, the root's matrix of joint-action values or None)``.
    Each matrix game is solved by nashpy's ``linear_program`` (the LP of the
    minimax theorem, in nashpy's own code)."""
    import nashpy

    def value(g: Game) -> tuple[float, np.ndarray | None]:
        if g.current_player is None:
            r = g.returns()
            return (r[0] - r[1]) / 2, None
        if g.is_simultaneous_node() and not g.pending:
            rows, cols = g.legal_moves(0), g.legal_moves(1)
            mat = np.zeros((len(rows), len(cols)))
            for i, a in enumerate(rows):
                for j, b in enumerate(cols):
                    c = g.copy()
                    c.play(a, player=0)
                    c.play(b, player=1)
                    mat[i, j] = value(c)[0]
            x, y = nashpy.Game(mat).linear_program()
            return float(np.asarray(x) @ mat @ np.asarray(y)), mat
        p = g.current_player
        vals = []
        for m in g.legal_moves():
            c = g.copy()
            c.play(m)
            vals.append(value(c)[0])
        return (max(vals) if p == 0 else min(vals)), None

    return value(game)
