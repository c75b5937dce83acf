"""Text as Gambit's file readers take it (the ``.nfg`` and ``.efg`` formats of
the Gambit project, https://gambitproject.readthedocs.io, "Game
representation formats"): the labels, strings and payoffs that
:mod:`gridwidgets.analysis.stage` and :mod:`gridwidgets.analysis.extensive`
write."""

from __future__ import annotations

import unicodedata

import numpy as np

__all__ = ["gambit_ascii", "gambit_label", "gambit_number", "gambit_quote"]

#: typographic characters Gambit files cannot hold, and their ASCII stand-ins
ASCII_STAND_INS = {"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2018": "'", "\u2019": "'", "\u201c": "'",
                   "\u201d": "'", "\u00b7": ".", "\u00d7": "x", "\u2192": "->", "\u2190": "<-"}


def gambit_ascii(text: str) -> str:
    """``text`` in printable ASCII: a backslash becomes ``/`` (Gambit's reader has
    no escape for it: ``\\\\`` reads as three), whitespace a space, a
    typographic dash or quote its ASCII form, an accented letter its letter,
    anything else ``?``."""
    out = []
    for ch in str(text):
        if ch == "\\":
            out.append("/")
        elif " " <= ch <= "~":
            out.append(ch)
        elif ch.isspace():
            out.append(" ")
        elif ch in ASCII_STAND_INS:
            out.append(ASCII_STAND_INS[ch])
        else:
            plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
            out.append("".join(c for c in plain if " " <= c <= "~") or "?")
    return "".join(out)


def gambit_label(text: str) -> str:
    """A label Gambit's reader accepts: printable ASCII, single spaces, none
    at either end, not empty (``_`` then)."""
    return " ".join(gambit_ascii(text).split()) or "_"


def gambit_quote(text: str) -> str:
    """A Gambit string: in double quotes, a ``"`` inside escaped as ``\\"``."""
    return '"' + text.replace('"', '\\"') + '"'


def gambit_number(x: float) -> str:
    """A payoff as Gambit reads it exactly: an integer, or the float's shortest
    decimal, positional, never an exponent (the shortest digits that read back
    the same float)."""
    v = float(x)
    if v.is_integer():
        return str(int(v))
    return np.format_float_positional(v, unique=True, trim="-")
