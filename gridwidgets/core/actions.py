"""Moves as integers and positions as tensors: what learning frameworks read.

OpenSpiel, PettingZoo and Gymnasium number a game's moves ``0 ..
num_distinct_actions - 1`` (the *actions*) and read a position as a fixed-
shape float tensor (the *observation*). Both come from the game protocol,
the same for every registered game:

- **Actions.** :meth:`Game.all_moves` lists every move a player could ever
  make under the game's options, in a fixed order; a move's action id is its
  index there (OpenSpiel's ``num_distinct_actions`` is the list's length).
  The default covers games whose moves are single cells (action ``row * cols
  + col``); a game with other kinds of moves lists them itself.
- **Observations.** :func:`observation_tensor`: one-hot planes of
  :attr:`Game.board` (empty, each player's, anything else), whose turn it
  is, who is looking, then :meth:`Game.observation_features` (what the
  board does not show: tile numbers, walls, hands). It is read from
  ``view_for(player)``, so a hidden submission never shows.

The action space of a game's options is built once and cached
(:func:`action_space`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import IllegalMoveError, shorten

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = ["ActionSpace", "action_space", "observation_shape", "observation_tensor"]


@dataclass(frozen=True, eq=False)
class ActionSpace:
    """The fixed numbering of a game's moves (the options fix it).

    Attributes:
        num_actions: how many distinct actions (OpenSpiel's ``num_distinct_actions``).
        moves: per player, the move object of each action id (``moves[p][a]``).
        names: per player, the notation of each action id.
    """

    num_actions: int
    moves: tuple[tuple[Any, ...], ...]
    names: tuple[tuple[str, ...], ...]
    _index: tuple[dict[Any, int], ...] = field(repr=False)

    def move(self, action: int, player: int) -> Any:
        """The move object of ``action`` for ``player``.

        Raises:
            IllegalMoveError: (C-2) ``action`` is not an int in ``0 .. num_actions - 1``.
        """
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not (
                0 <= action < self.num_actions):
            raise IllegalMoveError(f"action {shorten(action)} is not in 0..{self.num_actions - 1}", rule="C-2",
                                   move=action)
        return self.moves[player][int(action)]

    def action(self, move: Any, player: int, game: Game | None = None) -> int:
        """The action id of ``move`` (a move object or notation) for ``player``.

        ``game`` reads a move given another way (notation, a tuple, another
        spelling of the same bid) with its ``parse_move``.

        Raises:
            IllegalMoveError: (C-2) the move is not one of this game's moves.
        """
        index = self._index[player]
        try:
            return index[move]
        except (KeyError, TypeError):
            pass
        if game is not None:
            parsed = game.parse_move(move, player=player)
            try:
                return index[parsed]
            except (KeyError, TypeError):
                pass
            move = parsed
        try:
            return index[str(move)]
        except KeyError:
            raise IllegalMoveError(f"{shorten(move)} is none of this game's moves", rule="C-2", move=move) from None

    def legal_actions(self, game: Game, player: int | None = None) -> list[int]:
        """The legal moves of ``player`` (default: the player to act) as sorted action ids."""
        if player is None:
            player = game.current_player
            if player is None:
                return []
        moves = game.legal_moves(player)
        index = self._index[player]
        try:
            out = [index[m] for m in moves]  # the usual case: the game's own move objects
        except (KeyError, TypeError):
            out = [self.action(m, player, game) for m in moves]
        out.sort()
        return out

    def mask(self, game: Game, player: int | None = None) -> np.ndarray:
        """``int8`` array ``(num_actions,)``: 1 where the action is legal for ``player`` now."""
        out = np.zeros(self.num_actions, dtype=np.int8)
        legal = self.legal_actions(game, player)
        if legal:
            out[legal] = 1
        return out


def _key(game: Game) -> tuple[type, str]:
    return type(game), json.dumps(game.options(), sort_keys=True, default=str)


@lru_cache(maxsize=64)
def _space(cls: type, options: str) -> ActionSpace:
    game = cls(**json.loads(options))
    return _build(game)


def _build(game: Game) -> ActionSpace:
    per_player = [list(game.all_moves(p)) for p in range(game.num_players)]
    sizes = {len(m) for m in per_player}
    if len(sizes) != 1:
        raise ValueError(f"{type(game).__name__}.all_moves must list as many moves for every player, "
                         f"got {[len(m) for m in per_player]}")
    index: list[dict[Any, int]] = []
    names: list[tuple[str, ...]] = []
    for moves in per_player:
        d: dict[Any, int] = {}
        for a, m in enumerate(moves):
            if m in d:
                raise ValueError(f"{type(game).__name__}.all_moves lists {m!s} twice")
            d[m] = a
            d.setdefault(str(m), a)
        index.append(d)
        names.append(tuple(str(m) for m in moves))
    return ActionSpace(sizes.pop(), tuple(tuple(m) for m in per_player), tuple(names), tuple(index))


def action_space(game: Game) -> ActionSpace:
    """The action numbering of ``game``'s options (built once per class and options).

    Raises:
        NotImplementedError: the game does not list its moves (:meth:`Game.all_moves`).
    """
    cls, options = _key(game)
    try:
        return _space(cls, options)
    except TypeError:  # options that do not rebuild the game (a game made another way)
        return _build(game)


#: board values that get a plane of their own besides each player's
_EMPTY = -1


def observation_tensor(game: Game, player: int | None = None) -> np.ndarray:
    """The position as ``player`` sees it, as a flat ``float32`` array.

    Layout (``n`` players, board ``rows x cols``): ``n + 2`` planes of
    ``rows * cols`` (cells empty, each player's, anything else such as a
    hole), then ``n`` values (whose turn it is, one-hot; all 0 at the end),
    ``n`` values (who is looking; all 0 for ``player=None``), then
    :meth:`Game.observation_features` of the view. Hidden submissions of
    others never show (it reads ``game.view_for(player)``).

    Returns:
        ``float32`` array of shape :func:`observation_shape`.
    """
    with game.lock:
        view = game.view_for(player) if game.pending else game
        board = np.asarray(view.board)
        n = view.num_players
        planes = np.zeros((n + 2, board.size), dtype=np.float32)
        flat = board.ravel().astype(np.int64)
        planes[0] = flat == _EMPTY
        for p in range(n):
            planes[1 + p] = flat == p
        planes[n + 1] = (flat != _EMPTY) & ((flat < 0) | (flat >= n))
        turn = np.zeros(n, dtype=np.float32)
        if view.current_player is not None:
            turn[view.current_player] = 1
        me = np.zeros(n, dtype=np.float32)
        if player is not None:
            me[player] = 1
        extra = np.asarray(view.observation_features(player), dtype=np.float32).ravel()
    return np.concatenate([planes.ravel(), turn, me, extra])


def observation_shape(game: Game) -> tuple[int]:
    """The shape of :func:`observation_tensor` for ``game``'s options (one axis)."""
    return (int(observation_tensor(game, 0).shape[0]),)


def all_cells(game: Game) -> Sequence[Any]:
    """Every cell of the board as a :class:`~gridwidgets.core.game.CellMove`, row by row."""
    from .moves import CellMove

    rows, cols = np.asarray(game.board).shape
    return [CellMove((r, c)) for r in range(rows) for c in range(cols)]
