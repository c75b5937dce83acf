"""Every registered game as a PettingZoo environment (AEC and Parallel), with action masks.

PettingZoo (J. K. Terry et al., "PettingZoo: Gym for Multi-Agent
Reinforcement Learning", NeurIPS 2021, arXiv:2009.14471) is the multi-agent
API of Gymnasium. :func:`env` gives the *AEC* form (agents act one at a
time, as in our ``play``); :func:`parallel_env` the *Parallel* form, where
every player of a simultaneous node (a round of secret bids) acts in the same
``step``.

- Agents are ``"player_0"``, ``"player_1"``, ... (player ids; ``infos``
  carry the books' names).
- Actions are :func:`~gridwidgets.core.actions.action_space` ids
  (``Discrete(num_actions)``); an observation is a dict of
  ``"observation"`` (:func:`~gridwidgets.core.actions.observation_tensor` of
  the agent's view: a hidden bid never shows) and ``"action_mask"``
  (``int8``, 1 where legal; all 0 for an agent not to act).
- Rewards are the game's ``returns()``, given when it ends.
- Render modes: ``"human"``, ``"ansi"`` (the text board), ``"svg"`` and
  ``"rgb_array"`` (the static picture).
- An illegal action raises :class:`~gridwidgets.core.errors.IllegalMoveError`
  naming the rule, nothing changed (``illegal="raise"``, the default); with
  ``illegal="lose"`` the episode ends instead, the offending agent's reward
  the game's lowest return and the others' 0 (``infos[agent]["illegal_move"]``
  says why), as PettingZoo's ``TerminateIllegalWrapper`` does.

Requires ``pettingzoo`` and ``gymnasium`` (``pip install "gridwidgets[rl]"``).

Example::

    from gridwidgets.interop import pettingzoo
    env = pettingzoo.env(name, seed=3)   # any registered name
    env.reset()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core import registry
from ..core.actions import ActionSpace, action_space, observation_tensor
from ..core.errors import IllegalMoveError
from ..core.game import Game
from . import require
from .render import RENDER_MODES, render

require("pettingzoo", "rl", "gridwidgets.interop.pettingzoo")
gymnasium = require("gymnasium", "rl", "gridwidgets.interop.pettingzoo")
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv, ParallelEnv  # noqa: E402

__all__ = ["GameAECEnv", "GameParallelEnv", "env", "parallel_env"]


class _Base:
    """What the AEC and Parallel forms share: the game, spaces, observations."""

    metadata: dict[str, Any]

    def _setup(self, name: str, render_mode: str | None, seed: int | None, illegal: str,
               options: dict[str, Any]) -> None:
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', got {illegal!r}")
        self.illegal = illegal
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}")
        self.game_class: type[Game] = registry.get(name)
        self.render_mode = render_mode
        self._options = dict(options)
        self._seed = seed
        self.game: Game = self._new_game(seed)
        self.space: ActionSpace = action_space(self.game)
        n = self.game.num_players
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._player = {a: p for p, a in enumerate(self.possible_agents)}
        obs_len = int(observation_tensor(self.game, 0).shape[0])
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (obs_len,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.space.num_actions,), np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.space.num_actions) for a in self.possible_agents}
        self.metadata = {"render_modes": list(RENDER_MODES), "name": f"gridwidgets_{name}_v0",
                         "is_parallelizable": False}

    def _new_game(self, seed: int | None) -> Game:
        if seed is None:
            seed = self._seed
        if seed is not None:
            return self.game_class.new_for_seed(self._options, int(seed))
        return self.game_class(**self._options)

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation: its view's tensor and its action mask."""
        p = self._player[agent]
        return {"observation": observation_tensor(self.game, p),
                "action_mask": self.space.mask(self.game, p) if p in self.game.players_to_move
                else np.zeros(self.space.num_actions, dtype=np.int8)}

    def _info(self, agent: str) -> dict[str, Any]:
        p = self._player[agent]
        return {"player": self.game.players[p]}

    def render(self) -> Any:
        """The game in ``render_mode`` (see :data:`~gridwidgets.interop.render.RENDER_MODES`)."""
        return render(self.game, self.render_mode)

    def state(self) -> np.ndarray:
        """The whole position as a tensor, seen by nobody (hidden submissions hidden)."""
        return observation_tensor(self.game, None)

    def close(self) -> None:
        pass


class GameAECEnv(_Base, AECEnv):  # type: ignore[misc]
    """A registered game as a PettingZoo AEC environment (see the module's notes).

    ``env.game`` is the live game object: show it with ``env.game.widget()``.
    """

    def __init__(self, name: str, render_mode: str | None = None, seed: int | None = None,
                 illegal: str = "raise", **options: Any) -> None:
        super().__init__()
        self._setup(name, render_mode, seed, illegal, options)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game = self._new_game(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: self._info(a) for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player or 0]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        p = self._player[agent]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        g = self.game
        try:
            g.play(self.space.move(action, p), player=p)
        except IllegalMoveError as exc:
            if self.illegal == "raise":
                raise
            for a in self.agents:
                self.terminations[a] = True
            self.rewards[agent] = float(g.game_info.min_utility)
            self.infos[agent]["illegal_move"] = str(exc)
        if g.is_over:
            for a, r in zip(self.possible_agents, g.returns(), strict=True):
                if a in self.rewards:
                    self.rewards[a] = float(r)
                    self.terminations[a] = True
        if g.is_over or self.terminations[agent]:
            self.agent_selection = self.agents[(self.agents.index(agent) + 1) % len(self.agents)]
        else:
            self.agent_selection = self.possible_agents[g.current_player]  # type: ignore[index]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


class GameParallelEnv(_Base, ParallelEnv):  # type: ignore[misc]
    """A registered game as a PettingZoo Parallel environment.

    Each ``step`` takes an action from every live agent; those of the
    players to move (every player at a simultaneous node, one elsewhere) are played,
    the others' are ignored (their action mask is all 0).
    """

    def __init__(self, name: str, render_mode: str | None = None, seed: int | None = None,
                 illegal: str = "raise", **options: Any) -> None:
        self._setup(name, render_mode, seed, illegal, options)

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        self.game = self._new_game(seed)
        self.agents = self.possible_agents[:]
        return {a: self.observe(a) for a in self.agents}, {a: self._info(a) for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        g = self.game
        movers = [self.possible_agents[p] for p in g.players_to_move]
        missing = [a for a in movers if a not in actions]
        if missing:
            raise IllegalMoveError(f"no action for {', '.join(missing)}, who must act", rule=g.turn_rule)
        moves = {}
        try:
            for a in movers:
                p = self._player[a]
                moves[p] = self.space.move(actions[a], p)
            g.play_joint(moves)
        except IllegalMoveError as exc:
            if self.illegal == "raise":
                raise
            if len(moves) == len(movers):  # every action was a move: the first one refused offended
                a = next((b for b in movers if not g.is_legal(moves[self._player[b]], player=self._player[b])), a)
            return self._forfeit(a, exc)
        over = g.is_over
        returns = g.returns() if over else (0.0,) * g.num_players
        agents = self.agents
        obs = {a: self.observe(a) for a in agents}
        rewards = {a: float(returns[self._player[a]]) for a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        infos = {a: self._info(a) for a in agents}
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos

    def _forfeit(self, agent: str, exc: Exception) -> tuple[dict[str, Any], ...]:
        agents = self.agents
        obs = {a: self.observe(a) for a in agents}
        rewards = {a: float(self.game.game_info.min_utility) if a == agent else 0.0 for a in agents}
        infos = {a: self._info(a) for a in agents}
        infos[agent]["illegal_move"] = str(exc)
        self.agents = []
        return obs, rewards, dict.fromkeys(agents, True), dict.fromkeys(agents, False), infos


def env(name: str, render_mode: str | None = None, seed: int | None = None, illegal: str = "raise",
        **options: Any) -> GameAECEnv:
    """A registered game as a PettingZoo AEC environment.

    Args:
        name: a registered name (``gridwidgets.registry.names()``: the package's games, yours).
        render_mode: one of ``"human"``, ``"ansi"``, ``"svg"``, ``"rgb_array"``, or ``None``.
        seed: draws a seeded setup (``Chance.SEEDED_SETUP``) when
            ``reset`` is given none; a game without chance ignores it.
        illegal: ``"raise"`` an IllegalMoveError for an illegal action, or
            ``"lose"``: the episode ends, the offender's reward the lowest return.
        **options: the game's constructor options.

    Raises:
        ValueError: an unknown name, bad options or render mode.
        NotImplementedError: the game does not list its moves (``all_moves``).
    """
    return GameAECEnv(name, render_mode=render_mode, seed=seed, illegal=illegal, **options)


def parallel_env(name: str, render_mode: str | None = None, seed: int | None = None, illegal: str = "raise",
                 **options: Any) -> GameParallelEnv:
    """A registered game as a PettingZoo Parallel environment (arguments as :func:`env`)."""
    return GameParallelEnv(name, render_mode=render_mode, seed=seed, illegal=illegal, **options)
