"""Histories in plain interchange forms: OpenSpiel action sequences, notation, tables, Parquet.

- :func:`actions_of`: a game's decisions as OpenSpiel's ``full_history``
  (``(player, action)`` pairs; a joint action as one pair per player, in
  player order); :func:`replay` plays such a list back into a new game.
- :func:`history_frame`: one row per step of a game (player, notation,
  action ids, the moves the rules then made by themselves).
- :func:`games_frame`: a batch of seeded random games (the same games as
  ``simulate`` for the same seed), with their moves and actions, as a
  DataFrame; :func:`write_parquet` stores it (pyarrow).

Action ids are :func:`~gridwidgets.core.actions.action_space`'s: the same
numbers as :mod:`gridwidgets.interop.openspiel` and the PettingZoo and
Gymnasium environments. Nothing here needs OpenSpiel.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import registry
from ..core.actions import action_space
from ..core.game import Game
from ..sim import RandomGames, game_seeds, run_chunks
from . import require

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["actions_of", "games_frame", "history_frame", "read_parquet", "replay", "write_parquet"]


def actions_of(game: Game) -> list[tuple[int, int]]:
    """``game``'s decisions as ``(player, action)`` pairs (OpenSpiel's ``full_history``).

    Moves the rules made by themselves are left out (OpenSpiel makes them
    inside ``apply_action``), and so are hidden submissions not yet revealed.
    """
    space = action_space(game)
    out: list[tuple[int, int]] = []
    probe = type(game)(**game.options())
    for step in game.steps:
        if step.players is None:
            p = probe.current_player
            assert p is not None
            out.append((p, space.action(step.decision, p, probe)))
            probe.play(step.decision, player=p)
        else:
            for p, m in zip(step.players, step.moves[: len(step.players)], strict=True):
                out.append((p, space.action(m, p, probe)))
                probe.play(m, player=p)
    return out


def replay(name: str, actions: list[tuple[int, int]] | list[list[int]], **options: Any) -> Game:
    """A new game of the registered ``name`` with ``(player, action)`` pairs played in order.

    Raises:
        IllegalMoveError: an action that is not legal where it comes (naming the rule).
    """
    game = registry.make(name, **options)
    space = action_space(game)
    for p, a in actions:
        game.play(space.move(a, int(p)), player=int(p))
    return game


def history_frame(game: Game) -> pd.DataFrame:
    """One row per step: ``step`` (from 1), ``players`` (tuple), ``move``
    (notation of the decision), ``actions`` (their ids, in player order),
    ``automatic`` (notation of the moves the rules then made)."""
    import pandas as pd

    pairs = iter(actions_of(game))
    rows = []
    for k, step in enumerate(game.steps, start=1):
        count = 1 if step.players is None else len(step.players)
        taken = [next(pairs) for _ in range(count)]
        rows.append({
            "step": k,
            "players": tuple(p for p, _ in taken),
            "move": str(step.decision),
            "actions": tuple(a for _, a in taken),
            "automatic": " ".join(str(m) for m in step.automatic),
        })
    return pd.DataFrame(rows, columns=["step", "players", "move", "actions", "automatic"])


class _Histories(RandomGames):
    """The work of :func:`games_frame` (picklable): simulate's games, with their histories."""

    def play(self, seed: int) -> Game:
        g = self.cls.new_for_seed(self.options, seed)
        # the protocol's rollout, through play(): the same random choices as a game's
        # own faster rollout (which may keep no history), with the history kept
        Game._rollout(g, random.Random(seed))
        return g

    def row(self, game: Game, seed: int) -> dict[str, Any]:
        row = game.result_row()
        pairs = actions_of(game)
        row["seed"] = seed
        row["options"] = json.dumps(game.options(), sort_keys=True)
        row["moves"] = [str(m) for m in game.history]
        row["actions"] = [a for _, a in pairs]
        row["action_players"] = [p for p, _ in pairs]
        return row


def games_frame(name: str, n_games: int, seed: int | None = None, n_jobs: int = 1, progress: bool = True,
                **options: Any) -> pd.DataFrame:
    """``n_games`` uniformly random games with their histories, one row per game.

    The games are those of ``simulate`` with the same seed (same seeds, same
    rollout). Columns: ``game``, ``simulate``'s columns (``length``,
    ``winners``, ``winner``, ``shared``, ``score_<player>``, ...), ``seed``,
    ``options`` (JSON), ``moves`` (list of notation, every history entry),
    ``actions`` and ``action_players`` (the decisions as OpenSpiel's
    ``full_history``: replay with :func:`replay`).

    Raises:
        ValueError: an unknown game, bad options or ``n_games``.
    """
    import pandas as pd

    cls = registry.get(name)
    if not isinstance(n_games, int) or isinstance(n_games, bool) or n_games < 0:
        raise ValueError(f"n_games must be a non-negative int, got {n_games!r}")
    cls(**options)
    rows = run_chunks(_Histories(cls, options), game_seeds(n_games, seed), n_jobs=n_jobs, progress=progress,
                      desc=f"{cls.game_type.long_name} games")
    frame = pd.DataFrame(rows)
    frame.insert(0, "game", range(n_games))
    return frame


def write_parquet(frame: pd.DataFrame, path: str | Path) -> Path:
    """Write ``frame`` (say, :func:`games_frame`) as a Parquet file (pyarrow); return the path.

    Tuple columns (``winners``) are stored as lists; :func:`read_parquet` reads them back.

    Raises:
        ImportError: pyarrow is not installed (``pip install "gridwidgets[rl]"``).
    """
    require("pyarrow", "rl", "Parquet files")
    path = Path(path)
    out = frame.copy()
    for col in out.columns:
        if out[col].map(lambda v: isinstance(v, tuple)).any():
            out[col] = out[col].map(lambda v: list(v) if isinstance(v, tuple) else v)
    out.to_parquet(path, engine="pyarrow", index=False)
    return path


def read_parquet(path: str | Path) -> pd.DataFrame:
    """A frame written by :func:`write_parquet`, list columns as Python lists (``winners`` as tuples)."""
    require("pyarrow", "rl", "Parquet files")
    import pandas as pd

    frame = pd.read_parquet(path, engine="pyarrow")
    for col in frame.columns:
        if frame[col].map(lambda v: hasattr(v, "tolist") and not isinstance(v, str)).any():
            frame[col] = frame[col].map(lambda v: v.tolist() if hasattr(v, "tolist") else v)
    if "winners" in frame.columns:
        frame["winners"] = frame["winners"].map(tuple)
    return frame
