"""The former home of ``EquilibriumAgent``: it now comes with its game (the
game's ``agents`` hook) and is served as ``gridwidgets.agents.EquilibriumAgent``.
``from gridwidgets.agents.equilibrium import EquilibriumAgent`` keeps working."""

from typing import Any


def __getattr__(name: str) -> Any:
    from . import __getattr__ as contributed

    return contributed(name)
