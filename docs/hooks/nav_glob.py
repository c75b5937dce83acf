"""MkDocs hook: the tutorials on the site, and nav entries with a ``*``.

The notebooks live in ``notebooks/`` (where JupyterLab opens them); this hook
mounts each of them as a page ``tutorials/<name>.ipynb`` of the site (a file
of the site backed by the notebook itself, rendered by mkdocs-jupyter from
its stored outputs), so nothing is copied and no symlink is needed.

``- Tutorials: tutorials/*.ipynb`` in ``mkdocs.yml`` becomes one nav entry
per notebook, in file-name order, each titled by its first heading. A new
notebook in ``notebooks/`` is on the site without an edit to ``mkdocs.yml``.
A pattern that matches nothing is an error, not an empty section.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
#: folders outside docs/ shown as folders of the site
MOUNTS = {"tutorials": ROOT / "notebooks"}


def _glob(pattern: str, docs: Path) -> list[str]:
    head, _, rest = pattern.partition("/")
    if head in MOUNTS and rest:
        folder = MOUNTS[head]
        return sorted(f"{head}/{p.relative_to(folder).as_posix()}" for p in folder.glob(rest) if p.is_file())
    return sorted(p.relative_to(docs).as_posix() for p in docs.glob(pattern) if p.is_file())


def _expand(entry: Any, docs: Path) -> Any:
    if isinstance(entry, list):
        out: list[Any] = []
        for item in entry:
            value = _expand(item, docs)
            # a bare pattern in a list: splice its pages in
            out.extend(value if isinstance(item, str) and "*" in item else [value])
        return out
    if isinstance(entry, dict):
        return {title: _expand(value, docs) for title, value in entry.items()}
    if isinstance(entry, str) and "*" in entry:
        pages = _glob(entry, docs)
        if not pages:
            raise PluginError(f"nav pattern {entry!r} matches no file in {docs} or the mounted folders")
        return pages
    return entry


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    if config.nav:
        config.nav = _expand(config.nav, Path(config.docs_dir))
    return config


@event_priority(100)  # before mkdocs-jupyter looks for notebooks among the files
def on_files(files: Files, config: MkDocsConfig) -> Files:
    for mount, folder in MOUNTS.items():
        for path in sorted(folder.glob("*.ipynb")):
            files.append(File.generated(config, f"{mount}/{path.name}", abs_src_path=str(path)))
    return files


def on_nav(nav: Any, config: MkDocsConfig, files: Files) -> Any:
    # mkdocs-jupyter wraps each notebook in its own File that works out the
    # source path from a docs folder, which a mounted notebook has not: give
    # the wrapper the notebook's real path
    for f in files:
        inner = f.__dict__.get("file")
        if isinstance(inner, File) and inner.generated_by and inner.abs_src_path:
            f.__dict__["abs_src_path"] = inner.abs_src_path
    return nav
