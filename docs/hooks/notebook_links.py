"""MkDocs hook: the tutorials' links work on the site.

The notebooks live in ``notebooks/`` and link the way JupyterLab needs:
``01-gridlock.ipynb`` to a sibling, ``../docs/rules/gridlock.md`` to a page.
On the site they are pages under ``tutorials/`` (mounted by
``nav_glob.py``), so each relative link of a notebook page is
resolved from the notebook's real place and pointed at the page it means.
A relative link that leads to no page is a warning, which fails the strict
build, as it would in a Markdown page.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.hooks.notebook_links")

HREF = re.compile(r'(<a\s[^>]*?href=")([^"]*)(")')


def _page_for(link: str, page: Page, config: MkDocsConfig, files: Files) -> str | None:
    """The site URL (relative to ``page``) of a notebook's relative ``link``, or None."""
    src = Path(page.file.abs_src_path or "")
    real = src.resolve()  # the notebook itself, in notebooks/
    docs = Path(config.docs_dir).resolve()
    path, _, fragment = link.partition("#")
    target = (real.parent / path).resolve()
    if target.is_relative_to(docs):
        uri = target.relative_to(docs).as_posix()
    elif target.is_relative_to(real.parent):  # a sibling notebook: its page under tutorials/
        uri = (PurePosixPath(page.file.src_uri).parent / target.relative_to(real.parent).as_posix()).as_posix()
    else:
        return None
    file = files.get_file_from_path(uri)
    if file is None:
        return None
    return file.url_relative_to(page.file) + (f"#{fragment}" if fragment else "")


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    if not (page.file.src_uri.endswith(".ipynb")):
        return html

    def fix(m: re.Match[str]) -> str:
        link = m.group(2)
        parts = urlsplit(link)
        if not link or parts.scheme or parts.netloc or link.startswith(("#", "/")):
            return m.group(0)
        url = _page_for(link, page, config, files)
        if url is None:
            log.warning("Notebook '%s' links to '%s', which is not a page of the site", page.file.src_uri, link)
            return m.group(0)
        return f"{m.group(1)}{url}{m.group(3)}"

    return HREF.sub(fix, html)
