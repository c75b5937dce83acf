"""What the OpenSpiel bridge costs: OpenSpiel's MCTS on our games against a game written for OpenSpiel.

Run from the repository root, with the venv (needs the ``openspiel`` extra)::

    .venv/bin/python benchmarks/interop_speed.py [--sims 400] [--repeat 3] [--playouts 300]

On Gridlock 4x4 and 5x5, in one run:

(a) OpenSpiel's Python ``MCTSBot`` (random rollouts) choosing the first move,
    simulations per second, on our game through
    ``gridwidgets.interop.openspiel`` and on ``HandGridlock``, the same rules
    (RULES GL-1 to GL-4) written here directly as a ``pyspiel.Game`` the way
    OpenSpiel's Python games are (bitmasks, no history of our own). The ratio
    hand/ours is the adapter's cost (goal: at most 1.5).
(b) our own ``MCTSAgent`` on the same position, simulations per second.
(c) random playouts per second: through the adapter (``legal_actions`` and
    ``apply_action`` on a pyspiel state) and through our ``play()``.

Each figure is the best of ``--repeat`` runs (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import gridwidgets as gw
from gridwidgets.agents import MCTSAgent
from gridwidgets.interop import openspiel

_HAND_PARAMS = {"rows": 4, "cols": 4}
_HAND_TYPE = pyspiel.GameType(
    short_name="bench_hand_gridlock",
    long_name="Gridlock written for OpenSpiel (benchmark)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification=_HAND_PARAMS,
)


class HandGridlock(pyspiel.Game):
    """Gridlock (GL-1..GL-4) written directly for OpenSpiel: bitmasks of each player's markers."""

    def __init__(self, params=None):
        params = {**_HAND_PARAMS, **(params or {})}
        self.rows, self.cols = int(params["rows"]), int(params["cols"])
        n = self.rows * self.cols
        super().__init__(_HAND_TYPE, pyspiel.GameInfo(
            num_distinct_actions=n, max_chance_outcomes=0, num_players=2, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0, max_game_length=n), params)
        self.near = []
        for i in range(n):
            r, c = divmod(i, self.cols)
            m = 0
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < self.rows and 0 <= cc < self.cols:
                    m |= 1 << (rr * self.cols + cc)
            self.near.append(m)
        self.n = n

    def new_initial_state(self):
        return HandState(self)


#: per board size, (cells, neighbour masks): states hold the size, not the game (OpenSpiel deep-copies states)
_GEOMETRY: dict[tuple[int, int], tuple[int, list[int]]] = {}


class HandState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.size = (game.rows, game.cols)
        _GEOMETRY.setdefault(self.size, (game.n, game.near))
        self.bits = [0, 0]
        self.to_move = 0
        self.legal = self._compute()

    def _compute(self):
        n, near = _GEOMETRY[self.size]
        mine, theirs = self.bits[self.to_move], self.bits[1 - self.to_move]
        taken = mine | theirs
        return [i for i in range(n) if not (taken >> i) & 1 and not (near[i] & theirs)]

    def current_player(self):
        return pyspiel.PlayerId.TERMINAL if not self.legal else self.to_move

    def _legal_actions(self, player):
        return list(self.legal) if player == self.to_move else []

    def _apply_action(self, action):
        self.bits[self.to_move] |= 1 << action
        self.to_move = 1 - self.to_move
        self.legal = self._compute()

    def _action_to_string(self, player, action):
        return str(action)

    def is_terminal(self):
        return not self.legal

    def returns(self):
        if self.legal:
            return [0.0, 0.0]
        loser = self.to_move  # GL-4: the player who cannot move loses
        return [-1.0, 1.0] if loser == 0 else [1.0, -1.0]

    def __str__(self):
        return f"{self.bits}"


pyspiel.register_game(_HAND_TYPE, HandGridlock)


def best(fn, repeat):
    return min(fn() for _ in range(repeat))


def spiel_mcts(game, sims, repeat):
    def once():
        bot = mcts.MCTSBot(game, 1.4, sims, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                           random_state=np.random.RandomState(0))
        state = game.new_initial_state()
        t = time.perf_counter()
        bot.step(state)
        return time.perf_counter() - t
    return sims / best(once, repeat)


def our_mcts(rows, cols, sims, repeat):
    def once():
        agent = MCTSAgent(simulations=sims, seed=0)
        g = gw.Gridlock(rows=rows, cols=cols)
        t = time.perf_counter()
        agent.choose(g)
        return time.perf_counter() - t
    return sims / best(once, repeat)


def spiel_playouts(game, n, repeat):
    def once():
        rng = random.Random(0)
        t = time.perf_counter()
        for _ in range(n):
            s = game.new_initial_state()
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
        return time.perf_counter() - t
    return n / best(once, repeat)


def our_playouts(rows, cols, n, repeat):
    def once():
        rng = random.Random(0)
        t = time.perf_counter()
        for _ in range(n):
            g = gw.Gridlock(rows=rows, cols=cols)
            while not g.is_over:
                legal = g.legal_moves()
                g.play(legal[rng.randrange(len(legal))])
        return time.perf_counter() - t
    return n / best(once, repeat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--playouts", type=int, default=300)
    args = ap.parse_args()
    print(f"gridwidgets {gw.__version__}; pyspiel {getattr(pyspiel, '__version__', '?')}; "
          f"load average {os.getloadavg()[0]:.2f}; best of {args.repeat}")
    ratios = []
    for rows, cols in ((4, 4), (5, 5)):
        ours_game = openspiel.load("gridlock", rows=rows, cols=cols)
        hand_game = pyspiel.load_game("bench_hand_gridlock", {"rows": rows, "cols": cols})
        a_ours = spiel_mcts(ours_game, args.sims, args.repeat)
        a_hand = spiel_mcts(hand_game, args.sims, args.repeat)
        b = our_mcts(rows, cols, args.sims, args.repeat)
        c_ours = spiel_playouts(ours_game, args.playouts, args.repeat)
        c_hand = spiel_playouts(hand_game, args.playouts, args.repeat)
        c_play = our_playouts(rows, cols, args.playouts, args.repeat)
        ratio = a_hand / a_ours
        ratios.append(ratio)
        print(f"\nGridlock {rows}x{cols}")
        print(f"  (a) OpenSpiel MCTSBot, sims/s: on our game {a_ours:9,.0f}   on the hand-written game "
              f"{a_hand:9,.0f}   adapter cost {ratio:.2f}x (goal <= 1.5x)")
        print(f"  (b) our MCTSAgent, sims/s:     {b:9,.0f}   ({b / a_ours:.1f}x OpenSpiel's MCTSBot on our game)")
        print(f"  (c) random playouts/s: adapter {c_ours:9,.0f}   hand-written {c_hand:9,.0f}   "
              f"our play() {c_play:9,.0f}")
    worst = max(ratios)
    print(f"\nadapter cost, worst of the two boards: {worst:.2f}x: {'goal met' if worst <= 1.5 else 'goal NOT met'}")


if __name__ == "__main__":
    main()
