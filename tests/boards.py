"""Counting board pictures: in a notebook's stored outputs and in an HTML page
made from it (nbconvert, the docs site). Shared by tests/test_static_export.py
and tests/test_docs.py."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import NamedTuple

#: the root of every static board picture (gridwidgets/core/draw.py)
STATIC = 'class="gw-static"'
SVG_IMG = re.compile(r'<img\b[^>]*\bsrc="data:image/svg\+xml;base64,([^"]+)"')
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


class Boards(NamedTuple):
    images: int  # boards in image/svg+xml outputs (gw.side_by_side's holds several)
    inline: int  # boards inlined in text/html outputs (an untrusted notebook strips them)
    live: int  # of the above, those in an output that is also a live widget view
    png: int  # outputs with a board SVG that carry the same picture as image/png


def _text(value: str | list[str]) -> str:
    return "".join(value) if isinstance(value, list) else value  # nbformat may store a list of lines


def boards_in_notebook(path: Path) -> Boards:
    images = inline = live = png = 0
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            n_image = _text(data.get("image/svg+xml", "")).count(STATIC)
            n_inline = _text(data.get("text/html", "")).count(STATIC)
            images += n_image
            inline += n_inline
            if n_image and _text(data.get("image/png", "")).startswith("iVBORw0KGgo"):  # a PNG's signature
                png += 1
            if WIDGET_VIEW in data:
                live += n_image + n_inline
    return Boards(images, inline, live, png)


def board_outputs(path: Path) -> int:
    """Outputs of a notebook holding a board picture as SVG."""
    return sum(
        STATIC in _text(output.get("data", {}).get("image/svg+xml", ""))
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
        for output in cell.get("outputs", [])
    )


def boards_in_html(page: str) -> tuple[int, int]:
    """(board pictures as <img> data URLs, boards inlined as <svg>) in a page."""
    images = sum(base64.b64decode(b64).decode("utf-8").count(STATIC) for b64 in SVG_IMG.findall(page))
    return images, page.count(STATIC)


def advance(g, n: int, seed: int = 0):
    """``g`` after ``n`` random steps (every player to act at a simultaneous
    node chooses), or fewer if it ends; a fixed seed gives the same position."""
    import random

    rng = random.Random(seed)
    for _ in range(n):
        if g.is_over:
            break
        for p in g.players_to_move:
            g.play(rng.choice(g.legal_moves(p)), player=p)
    return g
