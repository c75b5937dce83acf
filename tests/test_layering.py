"""The layering of the package: no module outside ``gridwidgets/games/``
names a particular game (issue 11), and imports only look down (issue 27). Generic layers read the metadata and the
hooks; what is particular to a game lives in its modules under ``games/``.

The check is textual and strict: a game's registry name, class name, long
name or engine module name, or one of its rule ids (``GL-3``), anywhere in a
generic module's code, strings, docstrings or comments, fails it. The
package's ``__init__`` exports the games by importing ``gridwidgets.games``,
not by naming them.
"""

from __future__ import annotations

import ast
import os
import pathlib
import re
import shutil
import subprocess
import sys

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


# ----------------------------------------------------------------------
# Import direction (issue 27): floors only look down, checked by import-linter
# (the "floors" layers contract in pyproject.toml), and no module takes another
# module's private names. The contract is proved able to fail on a copy of the
# package with one upward import added.
# ----------------------------------------------------------------------
ROOT = PACKAGE.parent
LINT_IMPORTS = pathlib.Path(sys.executable).parent / "lint-imports"


def _lint_imports(cwd: pathlib.Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env=env)


def test_the_floors_contract_is_kept():
    run = _lint_imports(ROOT)
    assert run.returncode == 0, (f"import-linter: a floor imports from above it\n"
                                 f"{run.stdout[-3000:]}{run.stderr[-2000:]}")
    assert "Contracts: 1 kept, 0 broken." in run.stdout, run.stdout[-2000:]


def test_the_floors_contract_can_fail(tmp_path):
    # a copy of the package whose core imports the widgets (an upward import):
    # import-linter must report the contract broken, naming the import
    copy = tmp_path / "gridwidgets"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "static", "*.ipynb"))
    notation = copy / "core" / "notation.py"
    notation.write_text(notation.read_text(encoding="utf-8") + "\n\nfrom ..widgets import base  # noqa\n",
                        encoding="utf-8")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    run = _lint_imports(tmp_path, env)
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]
    assert "BROKEN" in run.stdout and "gridwidgets.core.notation -> gridwidgets.widgets" in run.stdout


def _private_imports(source: str) -> list[tuple[int, str]]:
    """``(line, name)`` of every ``from <package module> import _name`` (relative,
    or from ``gridwidgets``): a module's private name used by another module."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.level > 0 or (node.module or "").startswith("gridwidgets")):
            found += [(node.lineno, a.name) for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")]
    return found


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_a_private_name_of_another(path):
    hits = _private_imports(path.read_text(encoding="utf-8"))
    assert not hits, f"{path.relative_to(PACKAGE)} imports private names: {hits}"


def test_the_private_name_check_can_fail():
    assert _private_imports("from ..cli import _console, ask\n") == [(1, "_console")]
    assert _private_imports("from .rules import Bid\nfrom os import _exit\n") == []


def test_the_largest_import_circle_is_a_handful_of_modules():
    # strongly connected components of the import graph (grimp, import-linter's
    # graph; networkx): without the core's two declared facades, a circle stays
    # within one floor's few modules (39 modules were one circle before issue 27)
    import grimp
    import networkx as nx

    graph = grimp.build_graph("gridwidgets")
    facades = {("gridwidgets.core.game", "gridwidgets.widgets"), ("gridwidgets.core.game", "gridwidgets.sim")}
    g = nx.DiGraph((m, i) for m in graph.modules for i in graph.find_modules_directly_imported_by(m)
                   if (m, i) not in facades)
    largest = max(nx.strongly_connected_components(g), key=len)
    assert len(largest) <= 8, f"an import circle of {len(largest)} modules: {sorted(largest)}"
    floors = {m.split(".")[1] for m in largest}
    assert len(floors) == 1, f"an import circle across floors {sorted(floors)}: {sorted(largest)}"
