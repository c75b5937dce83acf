"""A registered game as a Gymnasium single-agent environment, against a chosen opponent.

Gymnasium (M. Towers et al., "Gymnasium: A Standard Interface for
Reinforcement Learning Environments", 2024, arXiv:2407.17032) trains one
agent. Here it holds one seat; every other seat is played by an agent of
ours (or :class:`~gridwidgets.agents.OpenSpielAgent`), which moves inside
``step`` until the learner is to act again.

- Observation: :func:`~gridwidgets.core.actions.observation_tensor` of the
  learner's view (``Box(0, 1)``, ``float32``); ``info["action_mask"]`` and
  :meth:`GameEnv.action_masks` (the name sb3-contrib's ``MaskablePPO`` calls)
  say which actions are legal.
- Action: an action id (``Discrete(num_actions)``).
- Reward: the learner's return when the game ends (``returns()``), 0 before.
- An illegal action ends the episode with the game's lowest return
  (``illegal="lose"``, the default: random exploration and Gymnasium's
  ``check_env`` send any action) or raises ``IllegalMoveError``
  (``illegal="raise"``).

Requires ``gymnasium`` (``pip install "gridwidgets[rl]"``).

Example::

    import gridwidgets as gw
    from gridwidgets.agents import RandomAgent
    from gridwidgets.interop import gymnasium as gw_gym
    name = gw.registry.names()[0]           # any registered game
    env = gw_gym.env(name, opponent=RandomAgent(seed=1), seat=0)
    obs, info = env.reset(seed=0)
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core import registry
from ..core.actions import ActionSpace, action_space, observation_tensor
from ..core.errors import IllegalMoveError
from ..core.game import Game
from . import require
from .render import RENDER_MODES, render

gymnasium = require("gymnasium", "rl", "gridwidgets.interop.gymnasium")
from gymnasium import spaces  # noqa: E402

__all__ = ["GameEnv", "env"]


class GameEnv(gymnasium.Env):  # type: ignore[misc]
    """One seat of a registered game as a Gymnasium environment (see the module's notes).

    Args:
        name: a registered game.
        opponent: the agent for every other seat (``choose(view)``), or a
            dict ``{seat: agent}``; default a
            :class:`~gridwidgets.agents.RandomAgent` seeded by ``reset``.
        seat: the learner's player id.
        render_mode: ``"human"``, ``"ansi"``, ``"svg"``, ``"rgb_array"`` or ``None``.
        illegal: ``"lose"`` (end the episode, lowest return) or ``"raise"``.
        **options: the game's constructor options.

    ``env.game`` is the live game: show it with ``env.game.widget()``.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES)}

    def __init__(self, name: str, opponent: Any = None, seat: int = 0, render_mode: str | None = None,
                 illegal: str = "lose", **options: Any) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}")
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', got {illegal!r}")
        self.game_class: type[Game] = registry.get(name)
        self._options = dict(options)
        self.game: Game = self.game_class.new_for_seed(self._options, 0)
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be a player id 0..{n - 1}, got {seat!r}")
        self.seat = seat
        self.render_mode = render_mode
        self.illegal = illegal
        self._given = opponent
        self.opponents = self._opponents(opponent, 0)
        self._done = False
        self.space: ActionSpace = action_space(self.game)
        obs_len = int(observation_tensor(self.game, seat).shape[0])
        self.observation_space = spaces.Box(0.0, 1.0, (obs_len,), np.float32)
        self.action_space = spaces.Discrete(self.space.num_actions)

    def _opponents(self, opponent: Any, seed: int) -> dict[int, Any]:
        from ..agents import RandomAgent

        others = [p for p in range(self.game.num_players) if p != self.seat]
        if opponent is None:
            return {p: RandomAgent(seed=seed * 1000 + p) for p in others}
        if isinstance(opponent, dict):
            missing = [p for p in others if p not in opponent]
            if missing:
                raise ValueError(f"no opponent for seat(s) {missing}")
            return dict(opponent)
        return dict.fromkeys(others, opponent)

    def action_masks(self) -> np.ndarray:
        """``bool`` array ``(num_actions,)``: the learner's legal actions now."""
        return self.space.mask(self.game, self.seat).astype(bool)

    def _obs(self) -> np.ndarray:
        return observation_tensor(self.game, self.seat)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.space.mask(self.game, self.seat), "player": self.game.players[self.seat],
                **extra}

    def _others_move(self) -> None:
        g = self.game
        while not g.is_over and self.seat not in g.players_to_move:
            p = g.players_to_move[0]
            g.play(self.opponents[p].choose(g.view_for(p)), player=p)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31)) if seed is None else seed
        self.game = self.game_class.new_for_seed(self._options, game_seed)
        if self._given is None:
            self.opponents = self._opponents(None, game_seed)
        for agent in self.opponents.values():
            if callable(getattr(agent, "reset", None)):
                agent.reset()
        self._done = False
        self._others_move()
        self._done = self.game.is_over
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        g = self.game
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        try:
            g.play(self.space.move(action, self.seat), player=self.seat)
        except IllegalMoveError as exc:
            if self.illegal == "raise":
                raise
            self._done = True
            return self._obs(), float(g.game_info.min_utility), True, False, self._info(illegal_move=str(exc))
        self._others_move()
        self._done = g.is_over
        reward = float(g.returns()[self.seat]) if g.is_over else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, g.is_over, False, self._info()

    def render(self) -> Any:
        return render(self.game, self.render_mode)


def env(name: str, opponent: Any = None, seat: int = 0, render_mode: str | None = None, illegal: str = "lose",
        **options: Any) -> GameEnv:
    """A registered game as a Gymnasium environment for ``seat`` against ``opponent`` (see :class:`GameEnv`).

    Raises:
        ValueError: an unknown game, bad options, seat, render mode or ``illegal``.
    """
    return GameEnv(name, opponent=opponent, seat=seat, render_mode=render_mode, illegal=illegal, **options)
