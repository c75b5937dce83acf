"""A game's static picture in the render modes of Gymnasium and PettingZoo."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ..core.game import Game

__all__ = ["RENDER_MODES", "render", "rgb_array"]

#: ``"human"`` shows the picture (a notebook) or prints the text board; ``"ansi"``
#: the text board; ``"svg"`` the static SVG picture; ``"rgb_array"`` that picture
#: as pixels
RENDER_MODES = ("human", "ansi", "svg", "rgb_array")


def rgb_array(game: Game, size: int = 320) -> np.ndarray:
    """The static picture (``game.to_svg(size)``) as pixels on white.

    Rasterised with resvg (:func:`~gridwidgets.core.draw.to_png`).

    Returns:
        ``uint8`` array ``(height, width, 3)``.
    """
    from PIL import Image

    from ..core.draw import to_png

    png = to_png(game.to_svg(size), scale=1.0)
    with Image.open(io.BytesIO(bytes(png))) as im:
        return np.asarray(im.convert("RGB"), dtype=np.uint8)


def render(game: Game, mode: str | None, size: int = 320) -> Any:
    """``game`` in a render mode of :data:`RENDER_MODES` (``None``: nothing).

    Raises:
        ValueError: an unknown mode.
    """
    if mode is None:
        return None
    if mode == "ansi":
        return f"{game}\n{game.status()}\n"
    if mode == "svg":
        return game.to_svg(size)
    if mode == "rgb_array":
        return rgb_array(game, size)
    if mode == "human":
        try:
            from IPython import get_ipython
            from IPython.display import SVG, display

            if get_ipython() is not None:
                display(SVG(game.to_svg(size)))
                return None
        except ImportError:  # pragma: no cover - IPython comes with the widgets
            pass
        print(render(game, "ansi"))
        return None
    raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {mode!r}")
