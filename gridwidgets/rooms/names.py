"""Display names in a room, by Unicode's rules rather than ASCII's.

A name is NFKC-normalised (Unicode's compatibility normalisation: full-width
letters, ligatures and the like become their plain forms) and its spaces
collapsed. Letters of every script are accepted, with their combining marks
(at most :data:`MAX_MARKS` on one character, so a name cannot spill over the
page), emoji and their sequences (joiners, skin tones, flags), the zero-width
non-joiner of Persian and other scripts, and the soft hyphen. Refused:
control characters, invisible direction overrides (they can make a name read
as another), private-use and unassigned code points, and more than
:data:`MAX_NAME` characters.

In one room no two names may look alike: the same letters in another case,
or confusable per Unicode's confusables table (UTS #39, from the
``confusables`` package: a Cyrillic ``Аnn`` is Latin ``Ann``), so a student
cannot pose as another.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

__all__ = ["MAX_MARKS", "MAX_NAME", "clean_name", "look_alike"]

#: the longest display name, in characters (an emoji sequence counts as one)
MAX_NAME = 30
#: the most combining marks on one character
MAX_MARKS = 4
#: the most code points in a name (emoji sequences included)
_MAX_CODE_POINTS = 120
#: format characters a name may hold: the zero-width non-joiner and joiner, the soft hyphen
_FORMAT_OK = frozenset({"\u200c", "\u200d", "\u00ad"})
#: emoji tag characters (subdivision flags) and their cancel tag
_TAGS = range(0xE0020, 0xE0080)
#: parts of a character that do not count as one of their own
_JOINING = frozenset({"\u200c", "\u200d", "\u00ad", "\ufe0e", "\ufe0f"})
_SKIN_TONES = range(0x1F3FB, 0x1F400)


def _counted(ch: str) -> bool:
    """Whether ``ch`` counts as a character of its own (not a mark, joiner, tag or modifier)."""
    if ch in _JOINING or ord(ch) in _TAGS or ord(ch) in _SKIN_TONES:
        return False
    return not unicodedata.category(ch).startswith("M")


def clean_name(name: Any) -> str:
    """``name`` as a room shows it: NFKC, single spaces, checked.

    Returns:
        the name to keep.

    Raises:
        ValueError: not text; empty; longer than :data:`MAX_NAME` characters;
            a control, direction, private-use or unassigned character; a
            character with more than :data:`MAX_MARKS` combining marks; or no
            letter, digit or symbol at all. The message quotes nothing of the
            name but its length.
    """
    if not isinstance(name, str):
        raise ValueError("a display name must be text")
    if len(name) > 4 * _MAX_CODE_POINTS:
        raise ValueError(f"a display name has at most {MAX_NAME} characters")
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    if not name:
        raise ValueError("a display name must not be empty")
    marks = 0
    for i, ch in enumerate(name):
        cat = unicodedata.category(ch)
        if cat.startswith("M"):
            marks += 1
            if i == 0 or name[i - 1] == " ":
                raise ValueError("a display name cannot start a word with a combining mark")
            if marks > MAX_MARKS:
                raise ValueError(f"a display name has at most {MAX_MARKS} accents or marks on one letter")
            continue
        marks = 0
        if cat == "Cf":
            if ch in _FORMAT_OK or ord(ch) in _TAGS:
                continue
            raise ValueError("a display name must not hold invisible formatting or direction characters")
        if cat in ("Cc", "Cs", "Co", "Cn"):
            raise ValueError("a display name must not hold control, private-use or unassigned characters")
        if cat in ("Zl", "Zp"):  # pragma: no cover - split() removed them
            raise ValueError("a display name is one line")
    counted = sum(1 for ch in name if _counted(ch))
    if counted > MAX_NAME or len(name) > _MAX_CODE_POINTS:
        raise ValueError(f"a display name has at most {MAX_NAME} characters, got {counted}")
    if not any(unicodedata.category(ch)[0] in "LNS" for ch in name):
        raise ValueError("a display name needs a letter, a digit or a symbol")
    return name


def _key(name: str) -> str:
    """What two names are compared by: case folded, without invisible characters."""
    folded = unicodedata.normalize("NFKC", name.casefold())
    return "".join(ch for ch in folded if ch not in _JOINING and ord(ch) not in _TAGS)


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` could be taken for (the same in
    another case, or confusable per Unicode's confusables table), or ``None``.

    Raises:
        ImportError: without the ``rooms`` extra (the ``confusables`` package).
    """
    try:
        from confusables import is_confusable
    except ImportError:
        raise ImportError("room names are checked with the confusables package: "
                          "pip install 'gridwidgets[rooms]'") from None
    key = _key(name)
    for other in others:
        other_key = _key(other)
        if other_key == key or is_confusable(key, other_key):
            return other
    return None
