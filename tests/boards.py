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
    images: int  # outputs whose image/svg+xml is a board
    inline: int  # boards inlined in text/html outputs (gw.side_by_side, galleries)
    live: int  # of the above, those in an output that is also a live widget view


def _text(value: str | list[str]) -> str:
    return "".join(value) if isinstance(value, list) else value  # nbformat may store a list of lines


def boards_in_notebook(path: Path) -> Boards:
    images = inline = live = 0
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            n_image = int(STATIC in _text(data.get("image/svg+xml", "")))
            n_inline = _text(data.get("text/html", "")).count(STATIC)
            images += n_image
            inline += n_inline
            if WIDGET_VIEW in data:
                live += n_image + n_inline
    return Boards(images, inline, live)


def boards_in_html(page: str) -> tuple[int, int]:
    """(board pictures as <img> data URLs, boards inlined as <svg>) in a page."""
    images = sum(STATIC in base64.b64decode(b64).decode("utf-8") for b64 in SVG_IMG.findall(page))
    return images, page.count(STATIC)
