"""The documentation site: the strict build, the tutorials' boards, the API
pages, the rules pages' ids. The Python blocks of the pages are run apart:
``pytest --markdown-docs --markdown-docs-syntax=superfences README.md docs``."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from boards import boards_in_html, boards_in_notebook

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
RULES_PAGES = {"GL": "gridlock", "GM": "gridmaster4", "BF": "blockfour", "GB": "gridbloc"}

@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built once with ``mkdocs build --strict`` into a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")  # Material's end-of-life notice (printed, not a warning)
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stderr[-6000:]}"
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("WARNING")]
    assert not warnings, warnings
    return out


def test_strict_build_has_every_page(site: Path) -> None:
    for md in DOCS.rglob("*.md"):
        rel = md.relative_to(DOCS)
        if rel.parts[0] in ("hooks", "tutorials"):
            continue
        assert (site / rel.with_suffix(".html")).is_file(), f"{rel} was not built"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_tutorial_page_shows_every_board_as_svg(site: Path, notebook: Path) -> None:
    page = site / "tutorials" / f"{notebook.stem}.html"
    assert page.is_file(), f"no page for {notebook.name}"
    html = page.read_text(encoding="utf-8")
    images, inline, _live, _png = boards_in_notebook(notebook)
    assert images + inline > 0, f"{notebook.name} has no board output with a static picture"
    # each board output of the notebook is one SVG image on the page, not a kernel-less empty widget
    assert boards_in_html(html) == (images, inline)


def test_every_notebook_is_in_the_nav(site: Path) -> None:
    home = (site / "index.html").read_text(encoding="utf-8")
    for notebook in NOTEBOOKS:
        assert f'href="tutorials/{notebook.stem}.html"' in home, f"{notebook.name} is not in the nav"


def test_tutorial_links_point_at_pages(site: Path) -> None:
    # the notebooks link to ../docs/rules/*.md and to each other (*.ipynb) for JupyterLab;
    # on the site those links lead to pages, and only the download button leads to the notebook
    for notebook in NOTEBOOKS:
        html = (site / "tutorials" / f"{notebook.stem}.html").read_text(encoding="utf-8")
        tags = re.findall(r"<a\s[^>]*>", html)
        downloads = [t for t in tags if re.search(r"\sdownload[\s>]", t)]
        assert len(downloads) == 1 and f'href="{notebook.name}"' in downloads[0], downloads
        assert (site / "tutorials" / notebook.name).is_file()
        links = [t for t in tags if t not in downloads and re.search(r'href="[^"#:]+?\.(?:md|ipynb)[#"]', t)]
        assert not links, f"{notebook.name}: links not pointed at pages: {links}"


def test_api_pages_document_the_public_names(site: Path) -> None:
    import gridwidgets
    import gridwidgets.agents
    import gridwidgets.analysis
    import gridwidgets.core
    import gridwidgets.games
    import gridwidgets.widgets

    anchors: set[str] = set()
    for page in (site / "api").glob("*.html"):
        anchors |= set(re.findall(r'id="(gridwidgets(?:\.\w+)*)"', page.read_text(encoding="utf-8")))
    names = {anchor.rsplit(".", 1)[-1] for anchor in anchors}
    modules = (gridwidgets, gridwidgets.games, gridwidgets.widgets, gridwidgets.agents, gridwidgets.analysis,
               gridwidgets.core)
    for module in modules:
        for name in module.__all__:
            if name.startswith("__"):
                continue
            assert name in names, f"{module.__name__}.{name} has no entry in the API pages (docs/api/)"
    for key in ("gridwidgets.core.game.Game.play", "gridwidgets.core.game.Game.undo",
                "gridwidgets.core.game.Game.to_json", "gridwidgets.core.game.Game.from_json",
                "gridwidgets.core.errors.IllegalMoveError", "gridwidgets.agents"):
        assert key in anchors, key


def _defined_ids(page: str) -> list[str]:
    """The rule ids a rules page defines: the bold first cell of a row of its decisions table."""
    return re.findall(r"^\| \*\*((?:GL|GM|BF|GB)-\d+)\*\* \|", page, re.M)


@pytest.mark.parametrize("prefix", sorted(RULES_PAGES))
def test_rules_page_defines_a_contiguous_set_of_ids(prefix: str) -> None:
    page = (DOCS / "rules" / f"{RULES_PAGES[prefix]}.md").read_text(encoding="utf-8")
    ids = _defined_ids(page)
    numbers = sorted(int(i.split("-")[1]) for i in ids)
    assert ids and all(i.startswith(prefix) for i in ids)
    assert numbers == list(range(1, len(numbers) + 1)), f"{prefix}: ids missing or doubled in the table: {ids}"
    for common in ("C-1", "C-2", "C-3", "C-4", "C-5"):
        assert f"**{common}**" in page, f"{RULES_PAGES[prefix]}.md does not say how {common} applies"
    assert "**(ours)**" in page or "**ours**" in page


def test_every_rule_the_code_cites_is_on_its_rules_page() -> None:
    defined = set()
    for name in RULES_PAGES.values():
        defined |= set(_defined_ids((DOCS / "rules" / f"{name}.md").read_text(encoding="utf-8")))
    cited = set()
    for source in (ROOT / "gridwidgets").rglob("*.py"):
        cited |= set(re.findall(r"\b((?:GL|GM|BF|GB)-\d+)\b", source.read_text(encoding="utf-8")))
    assert cited, "the code cites no rule ids?"
    assert not cited - defined, f"cited in gridwidgets/ but not defined on a rules page: {sorted(cited - defined)}"


def test_python_fences_use_a_syntax_both_tools_read() -> None:
    # ```python continuation``` would be shown as a line of text by the site's Markdown (superfences);
    # options go in braces: ```{.python continuation}```, ```{.python notest}```
    for md in [ROOT / "README.md", *DOCS.rglob("*.md")]:
        for number, line in enumerate(md.read_text(encoding="utf-8").splitlines(), 1):
            assert not re.match(r"\s*```\s*(py|python|python3)\s+\S", line), f"{md.name}:{number}: {line.strip()}"


def test_make_runs_the_fences_in_the_syntax_of_the_pages() -> None:
    # without --markdown-docs-syntax=superfences, pytest-markdown-docs silently skips every
    # ```{.python continuation}``` fence instead of running it
    calls = [line for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines() if "--markdown-docs" in line]
    assert calls, "the Makefile does not run the Python blocks of the docs (pytest --markdown-docs)"
    for line in calls:
        assert "--markdown-docs-syntax=superfences" in line, line.strip()


def _load_hook(name: str):
    spec = importlib.util.spec_from_file_location(name, DOCS / "hooks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_nav_patterns_expand_to_the_notebooks_and_refuse_to_match_nothing() -> None:
    from mkdocs.exceptions import PluginError

    nav_glob = _load_hook("nav_glob")
    nav = nav_glob._expand([{"Home": "index.md"}, {"Tutorials": "tutorials/*.ipynb"}], DOCS)
    assert nav[1]["Tutorials"] == [f"tutorials/{p.name}" for p in NOTEBOOKS]
    with pytest.raises(PluginError):
        nav_glob._expand([{"Nothing": "tutorials/*.nothing"}], DOCS)
