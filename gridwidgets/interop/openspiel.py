"""Every registered game as an OpenSpiel game, and back to the board.

OpenSpiel (M. Lanctot et al., "OpenSpiel: A Framework for Reinforcement
Learning in Games", 2019, arXiv:1908.09453) runs its algorithms (MCTS,
alpha-beta, CFR, exploitability, AlphaZero) on any ``pyspiel.Game``. This
module registers each of our games with ``pyspiel.register_game`` under
``"gridwidgets_<short_name>"``, its ``pyspiel.GameType`` read from our
:class:`~gridwidgets.core.gametype.GameType` and
:class:`~gridwidgets.core.gametype.GameInfo`:

=====================  =====================================================
ours                    OpenSpiel
=====================  =====================================================
sequential/simultaneous ``Dynamics.SEQUENTIAL`` / ``SIMULTANEOUS`` (a node where
                        several players choose is ``PlayerId.SIMULTANEOUS``;
                        its joint action goes in with ``apply_actions``)
perfect/imperfect       ``PERFECT_INFORMATION`` / ``IMPERFECT_INFORMATION``
seeded setup            a fixed parameter ``seed`` (``ChanceMode.DETERMINISTIC``)
zero/constant/general   ``Utility.ZERO_SUM`` / ``CONSTANT_SUM`` / ``GENERAL_SUM``
``all_moves(player)``   actions ``0 .. num_distinct_actions - 1``
``max_game_length()``   ``max_game_length``
``returns()``           ``returns()`` (terminal rewards)
=====================  =====================================================

Requires the ``open_spiel`` package (``pip install "gridwidgets[openspiel]"``;
OpenSpiel publishes wheels for CPython 3.11 and later on Linux and macOS).

Example::

    from gridwidgets.interop import openspiel
    game = openspiel.load(name, **options)          # a pyspiel.Game, for any registered name
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    openspiel.to_game(state).widget()                   # the live board
"""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core import registry
from ..core.actions import ActionSpace, action_space, observation_tensor
from ..core.errors import IllegalMoveError, shorten
from ..core.gametype import Chance, Information, Utility
from . import require

if TYPE_CHECKING:  # pragma: no cover
    from ..core.game import Game

pyspiel = require("pyspiel", "openspiel", "gridwidgets.interop.openspiel")

__all__ = ["PREFIX", "from_game", "from_position", "load", "params_of", "register", "spiel_name", "to_game"]

#: registered names are this prefix and our short name: ``"gridwidgets_<short_name>"``
PREFIX = "gridwidgets_"

_registered: dict[str, type] = {}
_lock = threading.Lock()
#: the action spaces of the games made, by game key: states hold the key, not the space
#: (OpenSpiel clones a Python state with ``copy.deepcopy``, which would copy the space too)
_SPACES: dict[str, ActionSpace] = {}
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)
#: characters OpenSpiel's game strings use (``name(a=1,b=2)``), escaped in option values
_ESCAPES = (("%", "%25"), (",", "%2C"), ("(", "%28"), (")", "%29"), ("=", "%3D"))


def _scalar(value: Any) -> bool:
    return isinstance(value, (bool, int, float, str)) and not isinstance(value, np.generic)


def _encode(value: Any) -> Any:
    """An option value as an OpenSpiel parameter: scalars as they are, anything else as escaped JSON."""
    if _scalar(value):
        return value
    text = json.dumps(value, separators=(",", ":"))
    for raw, esc in _ESCAPES:
        text = text.replace(raw, esc)
    return text


def _decode(text: str) -> Any:
    for raw, esc in reversed(_ESCAPES):
        text = text.replace(esc, raw)
    return json.loads(text)


def _spec(cls: type[Game]) -> tuple[dict[str, Any], frozenset[str]]:
    """The parameter specification (defaults) and the names of the JSON-encoded ones."""
    seeded = cls.game_type.chance is Chance.SEEDED_SETUP
    base = cls.new_for_seed({}, 0).options()
    spec: dict[str, Any] = {}
    encoded = set()
    for name, value in base.items():
        if _scalar(value):
            spec[name] = value
        else:
            encoded.add(name)
            spec[name] = "" if seeded else _encode(value)
    if seeded:
        spec["seed"] = 0
    return spec, frozenset(encoded)


def params_of(game: Game) -> dict[str, Any]:
    """The OpenSpiel parameters that make ``game``'s options (non-scalar options as escaped JSON)."""
    return {name: _encode(value) for name, value in game.options().items()}


def _make(cls: type[Game], params: dict[str, Any]) -> Game:
    spec, encoded = _spec(cls)
    unknown = set(params) - set(spec)
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)} of {cls.game_type.short_name}; "
                         f"it takes {sorted(spec)}")
    options: dict[str, Any] = {}
    for name, default in spec.items():
        if name == "seed" and cls.game_type.chance is Chance.SEEDED_SETUP:
            continue
        value = params.get(name, default)
        if name in encoded:
            if value == "":
                continue
            try:
                value = _decode(str(value))
            except ValueError as exc:
                raise ValueError(f"parameter {name}={shorten(value)} is not an encoded option: {exc}") from None
        options[name] = value
    if cls.game_type.chance is Chance.SEEDED_SETUP:
        return cls.new_for_seed(options, int(params.get("seed", 0)))
    return cls(**options)


def spiel_name(name: str) -> str:
    """The OpenSpiel name of a registered game: ``"gridwidgets_" + name``."""
    return PREFIX + registry.get(name).game_type.short_name


def _spiel_type(cls: type[Game], spec: dict[str, Any]) -> Any:
    gt = cls.game_type
    GT = pyspiel.GameType
    return GT(
        short_name=PREFIX + gt.short_name,
        long_name=f"{gt.long_name} (gridwidgets)",
        dynamics=GT.Dynamics.SIMULTANEOUS if gt.simultaneous else GT.Dynamics.SEQUENTIAL,
        chance_mode=GT.ChanceMode.DETERMINISTIC,
        information=(GT.Information.PERFECT_INFORMATION if gt.information is Information.PERFECT
                     else GT.Information.IMPERFECT_INFORMATION),
        utility={Utility.ZERO_SUM: GT.Utility.ZERO_SUM, Utility.CONSTANT_SUM: GT.Utility.CONSTANT_SUM,
                 Utility.GENERAL_SUM: GT.Utility.GENERAL_SUM}[gt.utility],
        reward_model=GT.RewardModel.TERMINAL,
        max_num_players=gt.max_players,
        min_num_players=gt.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


class _Game(pyspiel.Game):  # type: ignore[misc, name-defined]
    """A registered game as a ``pyspiel.Game``; ``gw_game`` is its initial position."""

    _cls: type[Game]
    _type: Any

    def __init__(self, params: dict[str, Any] | None = None, start: Game | None = None) -> None:
        params = dict(params or {})
        if start is None:
            start = _make(self._cls, params)
        info = start.game_info
        if info.max_game_length is None:
            raise ValueError(f"{self._cls.game_type.long_name} with these options has no bound on its length "
                             "(a setup phase?): OpenSpiel needs one")
        space = action_space(start)
        obs_len = int(observation_tensor(start, 0).shape[0])
        super().__init__(self._type, pyspiel.GameInfo(
            num_distinct_actions=space.num_actions,
            max_chance_outcomes=0,
            num_players=info.num_players,
            min_utility=info.min_utility,
            max_utility=info.max_utility,
            utility_sum=info.utility_sum,
            max_game_length=info.max_game_length,
        ), params)
        self.gw_game = start
        self.actions: ActionSpace = space
        self.obs_len = obs_len
        self.space_key = f"{self._cls.game_type.short_name}:{json.dumps(params, sort_keys=True, default=str)}"
        _SPACES.setdefault(self.space_key, space)

    def new_initial_state(self) -> _State:
        # the start position is shared until the state's first move (copy on write): OpenSpiel
        # clones a Python state by making a new initial state and deep-copying the old one's
        # attributes over it, so an eager copy here would be thrown away at every clone
        return _State(self, self.gw_game, shared=True)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported, got {shorten(params)}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self, recall)


class _State(pyspiel.State):  # type: ignore[misc, name-defined]
    """One of our game objects behind OpenSpiel's state interface."""

    def __init__(self, game: _Game, gw: Game, shared: bool = False) -> None:
        super().__init__(game)
        #: our game object of this state (read it; play through apply_action)
        self.gw = gw
        self._shared = shared
        self._key: str = game.space_key
        self._seen = -1  # the game version current_player was last computed for
        self._player = 0

    @property
    def _space(self) -> ActionSpace:
        return _SPACES[self._key]

    def current_player(self) -> int:
        g = self.gw
        if self._seen == g._version:  # searches ask again and again: answered once per position
            return self._player
        p = g.current_player
        if p is None:
            p = _TERMINAL
        elif g._has_joint and g._simultaneous():
            p = _SIMULTANEOUS
        self._seen, self._player = g._version, p
        return p

    def _legal_actions(self, player: int) -> list[int]:
        if player < 0 or self.gw.is_over:
            return []
        return self._space.legal_actions(self.gw, player)

    def _own(self) -> Game:
        if self._shared:
            self.gw = self.gw.copy()
            self._shared = False
        return self.gw

    def _apply_action(self, action: int) -> None:
        g = self._own()
        p = g.current_player
        if p is None:
            raise IllegalMoveError("the game is over", rule=g.end_rule)
        g.play(self._space.move(action, p), player=p)

    def _apply_actions(self, actions: list[int]) -> None:
        g = self._own()
        space = self._space
        g.play_joint({p: space.move(actions[p], p) for p in g.players_to_move})

    def _action_to_string(self, player: int, action: int) -> str:
        if 0 <= player < len(self._space.names):
            return self._space.names[player][action]
        return self._space.names[0][action]

    def is_terminal(self) -> bool:
        return self.current_player() == _TERMINAL

    def returns(self) -> list[float]:
        return list(self.gw.returns())

    def __str__(self) -> str:
        return str(self.gw)


class _Observer:
    """OpenSpiel's PyObserver interface: ``tensor``, ``dict``, ``set_from``, ``string_from``.

    The observation is :func:`~gridwidgets.core.actions.observation_tensor`
    of the player's view. The information state (perfect recall) adds the
    decisions so far: entry ``k`` is ``(action + 1) / num_distinct_actions``
    of the ``k``-th action applied (0 after the end of the history).
    """

    def __init__(self, game: _Game, recall: bool) -> None:
        self.recall = recall
        self._obs_len = game.obs_len
        self._num = game.actions.num_actions
        length = game.obs_len + (game.max_game_length() if recall else 0)
        self.tensor = np.zeros(length, dtype=np.float32)
        self.dict = {"observation": self.tensor[: game.obs_len]}
        if recall:
            self.dict["history"] = self.tensor[game.obs_len:]

    def set_from(self, state: _State, player: int) -> None:
        self.tensor[: self._obs_len] = observation_tensor(state.gw, player)
        if self.recall:
            hist = self.tensor[self._obs_len:]
            hist[:] = 0
            actions = np.asarray(state.history(), dtype=np.float32)
            hist[: len(actions)] = (actions + 1) / self._num

    def string_from(self, state: _State, player: int) -> str:
        g = state.gw
        if self.recall:
            return f"{g.players[player]}: " + " ".join(str(s.decision) for s in g.steps)
        return f"{g.status()}\n{g.view_for(player) if g.pending else g}"


def register(name: str) -> str:
    """Register the registered game ``name`` with OpenSpiel (once); return its OpenSpiel name.

    A game of your own registered with :func:`gridwidgets.core.registry.register`
    crosses the same way, if it lists its moves (:meth:`Game.all_moves`).

    Raises:
        ValueError: an unknown name.
    """
    cls = registry.get(name)
    key = PREFIX + cls.game_type.short_name
    with _lock:
        if key in _registered and _registered[key]._cls is cls:
            return key
        spec, _ = _spec(cls)
        kind = type(f"{cls.__name__}SpielGame", (_Game,), {"_cls": cls, "_type": _spiel_type(cls, spec)})
        if key not in _registered:
            pyspiel.register_game(kind._type, kind)
        else:  # the name now holds another class: OpenSpiel's factory stays, so the class is swapped in place
            _registered[key]._cls = cls
            _registered[key]._type = kind._type
            kind = _registered[key]
        _registered[key] = kind
    return key


def load(name: str, **options: Any) -> Any:
    """A registered game as a ``pyspiel.Game``, made with our constructor options.

    Args:
        name: a registered name (``gridwidgets.registry.names()``: the package's games, yours).
        **options: the game's constructor options (``rows=5``, ``seed=3``, ``size=5``).

    Returns:
        ``pyspiel.Game`` registered as ``"gridwidgets_<name>"``; its parameters
        are the game's options (non-scalars as escaped JSON), so
        ``pyspiel.load_game(str(game))`` makes the same game.

    Raises:
        ValueError: an unknown name, bad options, or a game without a bound on its length.
    """
    key = register(name)
    game = registry.make(name, **options)
    return pyspiel.load_game(key, params_of(game))


def to_game(state: Any) -> Game:
    """Our game object for a pyspiel state of one of our games (a copy: the state is not changed).

    Show it with ``.widget()``; play on from there with ``play()``.

    Raises:
        ValueError: the state is not of a gridwidgets game.
    """
    gw = getattr(state, "gw", None)
    if gw is not None:
        return gw.copy()  # type: ignore[no-any-return]
    game = state.get_game()
    kind = _registered.get(game.get_type().short_name)
    if kind is None:
        raise ValueError(f"{shorten(game.get_type().short_name)} is not a gridwidgets game")
    fresh = game.new_initial_state()
    for entry in state.full_history():
        p, a = entry.player, entry.action
        if p < 0:
            raise ValueError("a chance or simultaneous entry cannot be replayed")
        fresh._own().play(fresh._space.move(a, p), player=p)
    return fresh.gw.copy()  # type: ignore[no-any-return]


def from_game(game: Game, spiel_game: Any = None) -> Any:
    """A pyspiel state of ``game``'s position: its decisions replayed as actions.

    Hidden submissions of an unfinished simultaneous node are left out (the
    state is at that node, as before anyone chose).

    Args:
        game: one of our games (any registered class).
        spiel_game: the ``pyspiel.Game`` to use (default: :func:`load` of ``game``'s options).

    Raises:
        ValueError: the game's class is not registered.
    """
    if spiel_game is None:
        key = register(game.game_type.short_name)
        spiel_game = pyspiel.load_game(key, params_of(game))
    state = spiel_game.new_initial_state()
    space = spiel_game.actions
    for step in game.steps:
        if step.players is None:
            p = state.current_player()
            state.apply_action(space.action(step.decision, p, state.gw))
        else:
            joint = [0] * spiel_game.num_players()
            for p, m in zip(step.players, step.moves[: len(step.players)], strict=True):
                joint[p] = space.action(m, p, state.gw)
            state.apply_actions(joint)
    return state


def from_position(game: Game) -> Any:
    """A ``pyspiel.Game`` whose initial state is ``game``'s position: the rest
    of the game from there, for OpenSpiel's algorithms on an endgame (CFR,
    sequence-form LP, exploitability...).

    Unlike :func:`from_game`, which replays a history from the game's first
    position, this starts from the position itself, so it takes a game made by
    ``from_position(text)`` (no history) as well. The game's type, parameters
    and action space are those of ``game``'s class and options; its string
    names those options only, so ``pyspiel.load_game(str(...))`` makes the
    game's first position, not this one. The class need not be registered.

    Args:
        game: one of our games (not changed: the pyspiel game holds a copy);
            a hidden submission at a simultaneous node is left out.

    Raises:
        ValueError: a game without a bound on its length.
    """
    cls = type(game)
    start = game.copy()
    while start.pending:  # the node as before anyone chose
        start.undo()
    spec, _ = _spec(cls)
    kind = type(f"{cls.__name__}PositionGame", (_Game,), {"_cls": cls, "_type": _spiel_type(cls, spec)})
    params = {k: v for k, v in params_of(start).items() if k in spec}
    return kind(params, start=start)
