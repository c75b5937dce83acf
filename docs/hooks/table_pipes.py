"""MkDocs hook: ``\\|`` in a code span of a table row shows as ``|``.

GitHub needs a pipe inside a table cell escaped even in code (```C4\\|D4```),
and shows it without the backslash; Python-Markdown never splits a row at a
pipe inside a code span, and would show the backslash. The pages are written
for GitHub; this drops the backslash for the site.
"""

from __future__ import annotations

import re
from typing import Any

CODE = re.compile(r"`[^`\n]*`")


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    lines = markdown.split("\n")
    for i, line in enumerate(lines):
        if line.lstrip().startswith("|") and "\\|" in line:
            lines[i] = CODE.sub(lambda m: m.group(0).replace("\\|", "|"), line)
    return "\n".join(lines)
