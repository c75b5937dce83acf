"""Save files: every game's versioned JSON, written and read with every part checked.

A save file is a JSON object: ``format`` (``"gridwidgets"``), ``game`` (the
game's id, ``game_type.short_name``), ``version`` (the game's
``save_version``), ``options`` (the constructor's keyword arguments),
``history`` and ``future`` (moves in notation: played, and undone), and
``board`` (the text rows, for people and as a check); for a game started at a
position (``Game.from_position``), ``start``, that position's text, from
which the moves are replayed (files without it start from the options, as
before). A submission still
hidden is never saved. Reading replays every move through the rules, so a
file can only give a game that could have been played; anything wrong
raises ``ValueError`` saying what, never a half-loaded game, and input of
any size or nesting is refused in bounded time.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import IllegalMoveError, shorten

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = ["FORMAT", "MAX_JSON_DEPTH", "MAX_SAVE_CHARS", "check_depth", "dumps", "load", "to_dict"]

#: the ``"format"`` field of every save file
FORMAT = "gridwidgets"
#: save files nested deeper than this are refused (a ``ValueError``, never a ``RecursionError``)
MAX_JSON_DEPTH = 64
#: the longest save file :func:`load` reads by default, in characters (about 50 times the
#: longest game of the package's games); longer input is refused before it is parsed
MAX_SAVE_CHARS = 4_000_000
#: JSON strings (to their end, or to the end of the text) and runs of characters
#: that are neither quotes nor brackets: what is left is the brackets outside strings
_NOT_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*+(?:"|\Z)|[^"\[\]{}]+', re.DOTALL)


def to_dict(game: Game) -> dict[str, Any]:
    """The save file of ``game`` as a dict (see the module docstring)."""
    with game.lock:
        data = {
            "format": FORMAT,
            "game": game.game_id,
            "version": game.save_version,
            "options": game.options(),
            "history": [str(m) for m in game.history],
            "future": [str(m) for m in game.future],
            "board": game.text_rows(),
        }
        if game.start_position is not None:
            data["start"] = game.start_position
        return data


def dumps(game: Game, indent: int | None = 1) -> str:
    """The save file of ``game`` as JSON text (its ``to_dict()``, which a game may extend)."""
    return json.dumps(game.to_dict(), indent=indent)


def load(cls: type[Game], text: str | bytes | dict[str, Any]) -> Game:
    """The game a save file holds, checking every part.

    Args:
        cls: the game class the file must hold; ``Game`` itself: the
            registered game (or loaded subclass) of the file's ``"game"`` id.
        text: the JSON text (``str`` or UTF-8 ``bytes``), or the parsed dict.

    Raises:
        ValueError: saying what is wrong (not JSON, too long or too deeply
            nested, another game, an unknown version, bad options, an illegal
            or unreadable move, a board that does not match the moves). No
            game is returned half-loaded.
    """
    limit = cls.max_save_chars
    if isinstance(text, dict):
        data: Any = text
    else:
        if isinstance(text, (str, bytes, bytearray)) and len(text) > limit:
            raise ValueError(f"not a gridwidgets save file: {len(text):,} characters, more than a save file "
                             f"holds ({limit:,})")
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError:
                raise ValueError("not a gridwidgets save file: not UTF-8 text") from None
        if not isinstance(text, str):
            raise ValueError(f"not a gridwidgets save file: expected text, got {type(text).__name__}")
        check_depth(text)
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise ValueError(f"not a gridwidgets save file: not valid JSON ({shorten(str(exc), 80)})") from None
    if not isinstance(data, dict):
        raise ValueError("not a gridwidgets save file: the top level must be a JSON object")
    if data.get("format") != FORMAT:
        raise ValueError(
            f"not a gridwidgets save file: 'format' must be {FORMAT!r}, got {shorten(data.get('format'))}"
        )
    game_id = data.get("game")
    target = cls
    if not getattr(cls, "game_type", None):
        from .registry import lookup_id, names

        found = lookup_id(game_id) if isinstance(game_id, str) else None
        if found is None:
            raise ValueError(f"unknown game {shorten(game_id)}; known: {', '.join(names())}")
        target = found
    elif game_id != cls.game_id:
        raise ValueError(f"this file holds a {shorten(game_id)} game, not {cls.game_id!r}")
    version = data.get("version")
    if version != target.save_version:
        raise ValueError(
            f"unsupported save version {shorten(version)} (this gridwidgets reads version {target.save_version})"
        )
    options = data.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise ValueError("'options' must be a JSON object")
    start = data.get("start")
    if start is not None:
        if not isinstance(start, str):
            raise ValueError("'start' must be a position's text (Game.position())")
        try:
            game = target.from_position(start)
        except (ValueError, NotImplementedError) as exc:
            raise ValueError(f"bad start position {shorten(start)}: {shorten(str(exc), 200)}") from None
        if "options" in data and options != game.options():
            raise ValueError(f"the options {shorten(options, 80)} are not those of the start position")
    else:
        try:
            game = target(**options)
        except (TypeError, ValueError, IllegalMoveError) as exc:
            raise ValueError(f"bad options {shorten(options, 80)}: {shorten(str(exc), 200)}") from None
    lists = {}
    for key in ("history", "future"):
        moves = data.get(key, [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise ValueError(f"{key!r} must be a list of move strings")
        lists[key] = moves
    history, future = lists["history"], lists["future"]
    if len(history) + len(future) > limit // 3:  # a file of moves alone would be longer than that
        raise ValueError(f"the file holds {len(history) + len(future):,} moves, more than a save file holds")
    bound = game.max_game_length()
    if bound is not None and len(history) + len(future) > bound:
        raise ValueError(
            f"the file holds {len(history) + len(future):,} moves, more than a game of these options can "
            f"last ({bound:,})"
        )
    game._quiet += 1  # no observers can exist yet; skip notifications
    try:
        i = pos = 0  # i: entries of the file fed to play(); pos: entries the game has recorded
        while i < len(history):
            _load_move(game, history[i], i + 1)
            i += 1
            if len(game._history) > pos:
                # the step is recorded: the submissions of a joint action, then the
                # moves the rules made by themselves (skips), which stand in the file too
                made = [str(m) for m in game._history[pos:]]
                if made != history[pos : pos + len(made)]:
                    raise ValueError(
                        f"moves {pos + 1}.. of the history are {shorten(history[pos : pos + len(made)], 120)}, "
                        f"but the rules give {shorten(made, 120)}"
                    )
                pos = len(game._history)
                i = max(i, pos)
        if game._pending:
            raise ValueError("the history ends inside a joint action: a submission is missing")
        steps_before = len(game._step_records)
        for j, text_move in enumerate(future):
            _load_move(game, text_move, len(history) + j + 1)
        if game._pending:
            raise ValueError("the future ends inside a joint action: a submission is missing")
        for _ in range(len(game._step_records) - steps_before):
            game._pop_step()
    finally:
        game._quiet -= 1
        game._dirty = False
    board = data.get("board")
    if board is not None and board != game.text_rows():
        raise ValueError("the saved 'board' does not match the position reached by the moves")
    return game



def _load_move(game: Game, text: str, number: int) -> None:
    try:
        game.play(text)
    except IllegalMoveError as exc:
        raise ValueError(f"move {number} ({shorten(text)}) cannot be played: {exc}") from None


def check_depth(text: str, limit: int = MAX_JSON_DEPTH) -> None:
    """Refuse JSON nested deeper than ``limit`` before parsing it (linear time:
    a pattern that never backtracks keeps the brackets outside strings, numpy
    counts their depth)."""
    brackets = _NOT_BRACKETS.sub("", text)
    if not brackets:
        return
    codes = np.frombuffer(brackets.encode("ascii"), dtype=np.uint8)
    depth = np.cumsum(np.where((codes == ord("[")) | (codes == ord("{")), 1, -1))
    if int(depth.max()) > limit:
        raise ValueError(f"not a gridwidgets save file: nested more than {limit} deep")
