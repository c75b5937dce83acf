"""GridMaster4's own exercise kind (``gridwidgets.exercises``): the one-player
puzzle *The Grid Master* (GM-1), "reach tile N from here".

From a position of a one-player game, the target tile ``N`` is the tile
placed now plus ``depth``: each normal move (GM-4) places the next tile, so
the task is to make ``depth`` more moves without being blocked (GM-6). The
right moves are every legal move after which tile ``N`` can still be
reached, found by an exact depth-first search with a table of positions
seen. A wrong move's refutation is the longest the puzzle can go on from
there (short of ``N``), played move by move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ...core.game import Game
from ...exercises import Exercise, Judge, position_data

#: positions searched per reachability question before it is given up (bounded time)
MAX_NODES = 300_000


class _TooBig(Exception):
    pass


class _Reach:
    """How far the one player can still get: ``furthest(game, budget)`` is the
    highest tile reachable with at most ``budget`` more tiles."""

    def __init__(self, game: Game) -> None:
        self.g = game
        self.table: dict[Any, int] = {}
        self.nodes = 0

    def furthest(self, budget: int) -> int:
        g = self.g
        score = g.scores[0]
        if budget <= 0 or g.is_over:
            return score
        key = (g.position_key(), budget)
        hit = self.table.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _TooBig
        best = score
        for m in g.legal_moves():
            g.play(m)
            try:
                best = max(best, self.furthest(budget - 1))
            finally:
                g.undo()
            if best >= score + budget:
                break  # no move can do better
        self.table[key] = best
        return best

    def moves_reaching(self, target: int) -> list[str]:
        """The legal moves after which ``target`` can still be reached."""
        g = self.g
        need = target - g.scores[0]
        out = []
        for m in g.legal_moves():
            g.play(m)
            try:
                if self.furthest(need - 1) >= target:
                    out.append(str(m))
            finally:
                g.undo()
        return out


class _ReachJudge(Judge):
    def right_moves(self, game: Game, own_moves_made: int) -> list[str]:
        if own_moves_made == 0:
            return list(self.exercise.answers)
        assert self.exercise.goal is not None
        try:
            return _Reach(game.copy()).moves_reaching(self.exercise.goal)
        except _TooBig:
            return [str(m) for m in game.legal_moves()]

    def finished(self, game: Game, own_moves_made: int) -> bool:
        assert self.exercise.goal is not None
        return game.is_over or game.scores[0] >= self.exercise.goal

    def refutation_length(self, game: Game) -> int:
        assert self.exercise.goal is not None
        return max(0, self.exercise.goal - game.scores[0])

    def defend(self, game: Game) -> Any:
        """The move that goes furthest (the longest the puzzle lasts)."""
        assert self.exercise.goal is not None
        budget = max(1, self.exercise.goal - game.scores[0])
        g = game.copy()
        moves = g.legal_moves()
        best, best_v = moves[0], -1
        for m in moves:
            g.play(m)
            try:
                v = _Reach(g).furthest(budget - 1)
            except _TooBig:
                v = g.scores[0]
            finally:
                g.undo()
            if v > best_v:
                best, best_v = m, v
        return best


class ReachTile:
    """The kind ``"reach-tile"``: one player (GM-1), reach tile ``N`` from here."""

    name = "reach-tile"

    @staticmethod
    def applies(game: Game) -> bool:
        return len(game.players) == 1

    @staticmethod
    def generate(cls: type[Game], options: dict[str, Any], depth: int, n: int, rng: random.Random,
                 progress: Callable[[], None]) -> list[Exercise]:
        out: list[Exercise] = []
        seen: set[Any] = set()
        tries = 0
        while len(out) < n and tries < 400 * n:
            tries += 1
            g = cls(**options)
            for _ in range(rng.randrange(1, max(2, g.tiles_per_player // 3))):
                moves = g.legal_moves()
                if g.is_over or not moves:
                    break
                g.play(rng.choice(moves))
            if g.is_over or g.position_key() in seen:
                continue
            goal = g.scores[0] + depth
            if goal > g.tiles_per_player:
                continue
            try:
                right = _Reach(g.copy()).moves_reaching(goal)
            except _TooBig:
                continue
            if not right or len(right) == len(g.legal_moves()):
                continue  # impossible, or every move works: no exercise
            seen.add(g.position_key())
            out.append(Exercise(cls.game_type.short_name, position_data(g), "reach-tile", 0, tuple(right),
                                depth, f"Place tile {goal} (GM-4): which tile {g.scores[0] + 1} keeps the way open?",
                                goal))
            progress()
        return out

    @staticmethod
    def judge(exercise: Exercise) -> Judge:
        return _ReachJudge(exercise)


REACH_TILE = ReachTile()
