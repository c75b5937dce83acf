"""The layering of the game protocol: no module outside ``gridwidgets/games/``
names a particular game (issue 11). Generic layers read the metadata and the
hooks; what is particular to a game lives in its modules under ``games/``.

The check is textual and strict: a game's registry name, class name, long
name or engine module name, or one of its rule ids (``GL-3``), anywhere in a
generic module's code, strings, docstrings or comments, fails it. The
package's ``__init__`` exports the games by importing ``gridwidgets.games``,
not by naming them.
"""

from __future__ import annotations

import pathlib
import re

import pytest

import gridwidgets as gw

PACKAGE = pathlib.Path(gw.__file__).parent
#: built files (the front-end bundle is made from js/src, whose games/ folder is per game)
SKIP_DIRS = {"games", "static", "__pycache__"}
#: the rule-id prefixes of the package's games (RULES.md); C- ids are common to all games
RULE_PREFIXES = ("GL", "GM", "BF", "GB")


def _names() -> list[str]:
    names: set[str] = set()
    for cls in gw.registry.games().values():
        if not cls.__module__.startswith("gridwidgets.games."):
            continue
        gt = cls.game_type
        names |= {gt.short_name, cls.__name__, gt.long_name, gt.long_name.replace(" ", ""),
                  cls.__module__.split(".")[2]}  # the game's folder: gridwidgets.games.<folder>.rules
    return sorted(names, key=len, reverse=True)


def _generic_files() -> list[pathlib.Path]:
    out = []
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in SKIP_DIRS or path.suffix not in (".py", ".ipynb") or "__pycache__" in rel.parts:
            continue
        out.append(path)
    return out


NAMES = _names()
PATTERN = re.compile(
    "|".join(re.escape(n) for n in NAMES) + "|" + r"\b(?:" + "|".join(RULE_PREFIXES) + r")-\d+",
    re.IGNORECASE,
)


def test_the_names_to_look_for_are_the_package_games():
    assert len(NAMES) >= 8 and "gridwidgets" not in {n.lower() for n in NAMES}


@pytest.mark.parametrize("path", _generic_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_generic_module_names_a_game(path):
    text = path.read_text(encoding="utf-8")
    hits = [(n + 1, m.group(0)) for n, line in enumerate(text.splitlines()) for m in PATTERN.finditer(line)]
    assert not hits, f"{path.relative_to(PACKAGE)} names a game: " + ", ".join(f"line {n}: {w!r}" for n, w in hits[:8])


def test_the_check_would_see_a_game_name():
    # the test must be able to fail: a line naming a game is caught, a generic one is not
    assert PATTERN.search("return registry.get('gridlock')") and PATTERN.search("see BF-5")
    assert not PATTERN.search("for cls in registry.games().values():")
