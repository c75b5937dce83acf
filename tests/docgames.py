"""The three games of ``docs/adding-a-game.md`` (tic-tac-toe, Dots and Boxes,
Claim), loaded from the page itself, so that tests run the very code the page
shows. ``load()`` returns ``{class name: class}``."""

from __future__ import annotations

import functools
import pathlib
import re
import sys
import types

PAGE = pathlib.Path(__file__).resolve().parent.parent / "docs" / "adding-a-game.md"
#: the page's game sections and the class each defines
SECTIONS = {"## 1. ": "TicTacToe", "## 2. ": "DotsAndBoxes", "## 3. ": "Claim"}


def source(name: str) -> str:
    """The python block of the page that defines ``name`` (a class of :data:`SECTIONS`)."""
    text = PAGE.read_text()
    heading = next(h for h, n in SECTIONS.items() if n == name)
    start = text.index(heading)
    block = re.search(r"^```python\n(.*?)^```", text[start:], re.S | re.M)
    assert block is not None, f"no python block under {heading!r} in {PAGE}"
    return block.group(1)


@functools.cache
def load() -> dict[str, type]:
    """Execute the first ``python`` block of each game section of the page in a module of its own."""
    text = PAGE.read_text()
    out: dict[str, type] = {}
    for heading, name in SECTIONS.items():
        start = text.index(heading)
        block = re.search(r"^```python\n(.*?)^```", text[start:], re.S | re.M)
        assert block is not None, f"no python block under {heading!r} in {PAGE}"
        module = types.ModuleType(f"gridwidgets_docgame_{name.lower()}")
        module.__file__ = str(PAGE)
        sys.modules[module.__name__] = module  # dataclasses look their module up
        exec(compile(block.group(1), f"{PAGE}:{name}", "exec"), module.__dict__)
        out[name] = module.__dict__[name]
    return out
