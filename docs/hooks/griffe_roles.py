"""Griffe extension: the package's Sphinx habits, read the mkdocstrings way.

Two things in the package's Google-style docstrings are Sphinx idioms that
mkdocstrings does not read by itself; this extension, run once the package is
loaded, translates them for the API pages (the package itself is unchanged).

**Doc-comments.** An attribute documented by ``#:`` comment lines right above
it (``#: player names, index = player id``) gets that text as its docstring,
as Sphinx's autodoc would give it.

**Roles.** Docstrings cite other objects the Sphinx way,
``:class:`~gridwidgets.core.Game``` or ``:meth:`undo```. mkdocstrings would
print those roles as they are; this extension rewrites each one, once the
package is loaded, into

- a cross-reference ``[`Game`][gridwidgets.core.game.Game]`` when the name
  resolves (in the scope of the object whose docstring it is, as Python
  would) to a public, documented object of the package: the strict build
  then fails if that object is missing from the API pages;
- plain code (```undo()```) otherwise: private helpers (``_snapshot``),
  undocumented attributes, attributes of another object (``current_player``
  of a game, written in an agent's docstring) and anything outside the
  package.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(class|meth|func|attr|mod|data|exc|obj|const):`(~?)([^`]+)`")
CALLABLE = {"meth", "func"}


def _final(obj: Any) -> Any:
    """The object an alias (an import) points to, or ``obj`` itself."""
    return obj.final_target if obj.is_alias else obj


def _resolve(obj: griffe.Object, target: str, package: griffe.Module, role: str) -> str | None:
    """The full path of ``target`` seen from ``obj``, if it is a public, documented object of the package."""
    head, _, rest = target.partition(".")
    if head == package.name:
        path = target
    else:
        try:
            path = obj.resolve(head)  # the object's scope, then its parents', as Python would
        except griffe.NameResolutionError:
            return None
        path = f"{path}.{rest}" if rest else path
    if not path.startswith(package.name + ".") or any(part.startswith("_") for part in path.split(".")):
        return None
    try:
        found = _final(package[path[len(package.name) + 1 :]])
        name = path.rsplit(".", 1)[-1]
        if role not in ("mod", "obj") and found.is_module and name in found.members:
            # ``from .solve import solve`` in a package: Python's name is the
            # function, griffe's the submodule; the role says which one is meant
            found = _final(found.members[name])
    except (KeyError, ValueError, griffe.AliasResolutionError):
        return None
    if found.docstring is None:  # not rendered (show_if_no_docstring is off): no anchor to link to
        return None
    return found.path


def _rewrite(obj: griffe.Object, text: str, package: griffe.Module) -> str:
    def repl(m: re.Match[str]) -> str:
        role, tilde, target = m.group(1), m.group(2), m.group(3).strip()
        shown = (target.rsplit(".", 1)[-1] if tilde else target) + ("()" if role in CALLABLE else "")
        path = _resolve(obj, target, package, role)
        return f"[`{shown}`][{path}]" if path else f"`{shown}`"

    return ROLE.sub(repl, text)


def _doc_comment(attr: griffe.Object) -> str | None:
    """The ``#:`` comment lines right above an attribute, without the ``#:``."""
    if not attr.lineno or attr.filepath not in attr.lines_collection:
        return None
    lines = attr.lines_collection[attr.filepath]
    found: list[str] = []
    i = attr.lineno - 2  # the line above the assignment (lineno is 1-based)
    while i >= 0 and lines[i].strip().startswith("#:"):
        found.insert(0, lines[i].strip()[2:].strip())
        i -= 1
    return "\n".join(found) or None


class SphinxHabits(griffe.Extension):
    """Doc-comments become docstrings; roles become links or code."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        objects: list[Any] = []
        seen: set[int] = set()
        stack: list[Any] = [pkg]
        while stack:
            obj = stack.pop()
            if obj.is_alias or id(obj) in seen:
                continue
            seen.add(id(obj))
            objects.append(obj)
            stack.extend(obj.members.values())
        # doc-comments first, so that roles may link to the attributes they document
        for obj in objects:
            if obj.is_attribute and obj.docstring is None:
                text = _doc_comment(obj)
                if text:
                    obj.docstring = griffe.Docstring(text, lineno=obj.lineno, parent=obj)
        for obj in objects:
            if obj.docstring is not None and ":`" in obj.docstring.value:
                obj.docstring.value = _rewrite(obj, obj.docstring.value, pkg)
