"""The one palette: colours by name, the players' default order and the
board's roles, for light and dark themes (``palette.json``, beside this
module, is the single source; the front end's CSS is generated from it).

A game names its players' colours with :attr:`Game.player_colours
<gridwidgets.core.Game.player_colours>` (names of this palette); an empty
tuple takes the palette's default order.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["THEMES", "colour", "palette", "player_colours", "role"]

#: the themes every colour has a value for
THEMES = ("light", "dark")


@cache
def palette() -> dict[str, Any]:
    """The palette file as a dict (``colours``, ``players``, ``roles``); read once."""
    return json.loads(resources.files("gridwidgets.core").joinpath("palette.json").read_text())  # type: ignore[no-any-return]


def _check_theme(theme: str) -> None:
    if theme not in THEMES:
        raise ValueError(f"theme must be one of {THEMES}, got {theme!r}")


def colour(name: str, theme: str = "light") -> str:
    """The ``#rrggbb`` value of a named colour (``"blue"``) in a theme.

    Raises:
        ValueError: for an unknown name or theme.
    """
    _check_theme(theme)
    try:
        return palette()["colours"][name][theme]  # type: ignore[no-any-return]
    except KeyError:
        raise ValueError(f"unknown colour {name!r}: one of {', '.join(palette()['colours'])}") from None


def role(name: str, theme: str = "light") -> str:
    """The ``#rrggbb`` value of a board role (``"board"``, ``"grid"``, ``"last-move"``...).

    Raises:
        ValueError: for an unknown role or theme.
    """
    _check_theme(theme)
    try:
        return palette()["roles"][name][theme]  # type: ignore[no-any-return]
    except KeyError:
        raise ValueError(f"unknown role {name!r}: one of {', '.join(palette()['roles'])}") from None


def player_colours(names: tuple[str, ...] | list[str], n_players: int, theme: str = "light") -> list[str]:
    """The colour of each of ``n_players`` players: the given palette names
    first, then the palette's default order (skipping names already used).

    Raises:
        ValueError: for an unknown name or theme.
    """
    order = list(names) + [c for c in palette()["players"] if c not in names]
    if n_players > len(order):
        order += order * (n_players // len(order) + 1)
    return [colour(name, theme) for name in order[:n_players]]
