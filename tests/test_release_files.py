"""The files a user and a packager read (issue 26): install lines that install
what exists, the version named alike everywhere, the changelog, the paths
CONTRIBUTING names, and the `all` extra holding what the tutorials import."""

import json
import re
import sys
from pathlib import Path

import pytest

import gridwidgets

ROOT = Path(__file__).resolve().parents[1]
def _docs() -> dict[str, str]:
    """README, CONTRIBUTING, CHANGELOG, every docs page and every tutorial cell, by name."""
    texts = {p.name: p.read_text() for p in (ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md")}
    texts.update({str(p.relative_to(ROOT)): p.read_text() for p in (ROOT / "docs").rglob("*.md")})
    for p in (ROOT / "notebooks").glob("*.ipynb"):
        nb = json.loads(p.read_text())
        texts[p.name] = "\n".join("".join(c["source"]) for c in nb["cells"])
    return texts


def test_every_install_line_installs_what_exists():
    """Nothing is on PyPI: no page says `pip install gridwidgets` (or with extras) by name; a clone
    (`pip install -e ".[rooms]"`) or the wheel `make dist` builds is what exists."""
    bad = []
    for name, text in _docs().items():
        for line in text.splitlines():
            if "pip install" not in line:
                continue
            for token in line.split("pip install", 1)[1].split("#", 1)[0].split():
                word = token.strip("`'\"(),;")
                if re.fullmatch(r"gridwidgets(\[[\w,]+\])?", word):
                    bad.append(f"{name}: {line.strip()[:100]}")
    assert not bad, "\n".join(bad)


def test_the_wheel_named_in_the_docs_is_this_version():
    named = {(name, v) for name, text in _docs().items() for v in re.findall(r"gridwidgets-(\d[\w.]*)-py3", text)}
    assert named and all(v == gridwidgets.__version__ for _, v in named), sorted(named)


def test_the_changelog_starts_with_this_version():
    first = re.search(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert first and first.group(1) == gridwidgets.__version__
    assert json.loads((ROOT / "package.json").read_text())["version"] == gridwidgets.__version__


def test_every_path_contributing_names_exists():
    text = (ROOT / "CONTRIBUTING.md").read_text()
    paths = set(re.findall(r"`((?:gridwidgets|tests|js|notebooks|docs|benchmarks)/[\w./-]*)`", text))
    assert len(paths) > 10
    assert not [p for p in sorted(paths) if not (ROOT / p).exists()]


def _requirements(extra: str | None) -> set[str]:
    """The distributions the project asks for directly, and through the extra ``extra`` (expanded)."""
    tomllib = pytest.importorskip("tomllib")
    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    out, todo, seen = set(), [None, extra], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for spec in project["dependencies"] if name is None else project["optional-dependencies"][name]:
            req = Requirement(spec)
            if req.name == "gridwidgets":
                todo.extend(req.extras)
            else:
                out.add(req.name.lower().replace("_", "-"))
    return out


def _closure(names: set[str]) -> set[str]:
    """``names`` and every distribution they require, read from what is installed here."""
    from importlib import metadata

    from packaging.requirements import Requirement

    out, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in out:
            continue
        out.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for spec in requires:
            req = Requirement(spec)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name.lower().replace("_", "-"))
    return out


def test_the_all_extra_holds_everything_the_tutorials_import():
    """`pip install "gridwidgets[all]"` gives everything the tutorials use: every module a tutorial
    imports comes with the package, the `all` extra, or what those require."""
    import ast
    from importlib import metadata

    provided = _closure(_requirements("all"))
    owners = metadata.packages_distributions()
    missing = set()
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] != "code":
                continue
            source = "\n".join(line for line in "".join(cell["source"]).splitlines() if not line.startswith(("%", "!")))
            for node in ast.walk(ast.parse(source)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                    [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else [])
                for module in names:
                    top = module.split(".")[0]
                    if top in sys.stdlib_module_names or top == "gridwidgets":
                        continue
                    dists = {d.lower().replace("_", "-") for d in owners.get(top, [top])}
                    if not dists & provided:
                        missing.add(f"{path.name}: {module} ({', '.join(sorted(dists))})")
    assert not missing, "\n".join(sorted(missing))
    assert "jupyterlab" not in provided and {"numba", "open-spiel", "pettingzoo", "pyarrow"} <= provided


def test_make_lab_installs_what_the_tutorials_use_and_no_test_tool():
    """`make lab` installs the lab extra: the tutorials' extras and JupyterLab, none of what only the
    tests, the clusters or the classroom servers use (pygambit builds from source for minutes)."""
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^lab: setup-lab$", makefile, re.M)
    assert re.search(r"^setup-lab: \$\(VENV\)/\.lab ", makefile, re.M)
    recipe = makefile.split("$(VENV)/.lab:", 1)[1].split("\n\n", 1)[0]
    assert 'install --quiet -e ".[lab]"' in recipe and "[dev]" not in recipe
    lab = _requirements("lab")
    assert {"jupyterlab", "numba", "open-spiel", "pettingzoo", "pyarrow", "matplotlib"} <= lab
    assert not lab & {"pytest", "pygambit", "ray", "dask", "solara", "voila", "playwright", "hypothesis", "marimo"}
    assert lab < _requirements("dev")
