"""Bridges to the field's frameworks, built once on the game protocol.

- :mod:`gridwidgets.interop.openspiel`: every registered game as a pyspiel
  game (``openspiel.load(name, **options)``), pyspiel states back
  to our games (``to_game``), OpenSpiel bots on a seat
  (:class:`gridwidgets.agents.OpenSpielAgent`).
- :mod:`gridwidgets.interop.pettingzoo`: PettingZoo AEC and Parallel
  environments with action masks (``pettingzoo.env(name, seed=3)``).
- :mod:`gridwidgets.interop.gymnasium`: a Gymnasium single-agent environment
  against a chosen opponent agent.
- :mod:`gridwidgets.interop.export`: histories as OpenSpiel action sequences
  and notation; batches of games as a DataFrame and a Parquet file.

The frameworks are optional extras (``pip install "gridwidgets[openspiel]"``,
``"gridwidgets[rl]"``): ``import gridwidgets`` imports none of them, and a
module here that needs a missing one raises :class:`ImportError` saying what
to install. Moves become integers through
:func:`gridwidgets.core.actions.action_space`, positions tensors through
:func:`gridwidgets.core.actions.observation_tensor`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require"]


def require(module: str, extra: str, what: str) -> ModuleType:
    """Import ``module`` or raise an ImportError naming the extra to install.

    Raises:
        ImportError: ``module`` is not installed.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"{what} needs the {module.split('.')[0]!r} package: pip install \"gridwidgets[{extra}]\" "
            f"(or pip install {module.split('.')[0].replace('pyspiel', 'open_spiel')})"
        ) from exc
