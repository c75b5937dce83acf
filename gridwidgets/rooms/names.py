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
or the same letters up to look-alike characters per Unicode's confusables
table (UTS #39, as the ``confusable-homoglyphs`` package carries it: a
Cyrillic ``Аnn`` is Latin ``Ann``, ``0liver`` is ``Oliver``), so a student
cannot pose as another.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Iterable
from typing import Any

__all__ = ["MAX_MARKS", "MAX_NAME", "MAX_STUDENT_ID", "clean_name", "clean_student_id", "look_alike", "skeleton"]

#: the longest student id (for grades) a student may give when joining
MAX_STUDENT_ID = 32

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


def clean_student_id(text: Any) -> str:
    """A student id as given at join (optional: ``""`` for none): NFKC, no
    spaces around it, at most :data:`MAX_STUDENT_ID` letters, digits and
    ``-_.@/``, so it reads the same in any spreadsheet.

    Raises:
        ValueError: not text, too long, or another character (the message
            quotes nothing of it).
    """
    if not isinstance(text, str):
        raise ValueError("a student id must be text")
    if len(text) > 4 * MAX_STUDENT_ID:
        raise ValueError(f"a student id has at most {MAX_STUDENT_ID} characters")
    text = unicodedata.normalize("NFKC", text).strip()
    if len(text) > MAX_STUDENT_ID:
        raise ValueError(f"a student id has at most {MAX_STUDENT_ID} characters")
    if not all(ch.isalnum() or ch in "-_.@/" for ch in text):
        raise ValueError("a student id is letters, digits and - _ . @ / only")
    return text


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
    """A name without its invisible characters (joiners, soft hyphens, tags)."""
    return "".join(ch for ch in name if ch not in _JOINING and ord(ch) not in _TAGS)


_CLASSES: dict[str, str] | None = None
_CLASSES_LOCK = threading.Lock()


def _look_alikes() -> dict[str, str]:
    """Each character of Unicode's confusables table mapped to one member of its
    class of look-alikes (the table's pairs joined into classes, union-find; the
    smallest code point stands for the class). Built once."""
    global _CLASSES
    with _CLASSES_LOCK:
        if _CLASSES is not None:
            return _CLASSES
        try:
            from confusable_homoglyphs.confusables import confusables_data
        except ImportError:
            raise ImportError("room names are checked with Unicode's confusables table: "
                              "pip install 'gridwidgets[rooms]'") from None
        parent: dict[str, str] = {}

        def find(ch: str) -> str:
            root = ch
            while parent.get(root, root) != root:
                root = parent[root]
            while parent.get(ch, ch) != root:  # path compression
                parent[ch], ch = root, parent[ch]
            return root

        for ch, glyphs in confusables_data.items():
            for glyph in glyphs:
                other = glyph.get("c", "") if isinstance(glyph, dict) else ""
                if len(ch) == 1 and len(other) == 1:
                    a, b = find(ch), find(other)
                    if a != b:
                        parent[max(a, b)] = min(a, b)
        _CLASSES = {ch: find(ch) for ch in parent}
        return _CLASSES


def skeleton(name: str) -> str:
    """``name`` with each character replaced by its class of look-alikes
    (:func:`_look_alikes`), case folded and without invisible characters: two
    names with the same skeleton look the same.

    Raises:
        ImportError: without the ``rooms`` extra (``confusable-homoglyphs``).
    """
    classes = _look_alikes()
    folded = unicodedata.normalize("NFKC", _key(name).casefold())
    return "".join(classes.get(ch, ch) for ch in folded)


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` could be taken for: the same in
    another case, or the same up to look-alike characters per Unicode's
    confusables table (compared as written and case folded), or ``None``.

    Raises:
        ImportError: without the ``rooms`` extra (``confusable-homoglyphs``).
    """
    classes = _look_alikes()
    key = _key(name)
    forms = {skeleton(name), "".join(classes.get(ch, ch) for ch in key)}
    for other in others:
        other_key = _key(other)
        if other_key.casefold() == key.casefold() or forms & {skeleton(other),
                                                              "".join(classes.get(ch, ch) for ch in other_key)}:
            return other
    return None
