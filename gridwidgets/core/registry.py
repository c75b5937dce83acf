"""The registry of games: how every generic layer finds a game by name.

Agents, ``analysis.solve``, hints, ``simulate``, ``tournament``, the
terminal (``python -m gridwidgets play NAME``), the widgets and the
classroom menu look games up here; none of them names a game.

Each game of the package registers itself when its folder is imported
(``gridwidgets.games.<name>``; ``import gridwidgets`` imports
them), as OpenSpiel's games do: the registry never imports a game.
Another package adds its games through an entry point in the group
``gridwidgets.games``, pointing at a :class:`~gridwidgets.core.Game`
subclass (or a function that registers games), e.g. in its
``pyproject.toml``::

    [project.entry-points."gridwidgets.games"]
    tictactoe = "mypackage.tictactoe:TicTacToe"

A game defined in a notebook registers with :func:`register`.
"""

from __future__ import annotations

import threading
import warnings
from importlib import metadata
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = ["ENTRY_POINT_GROUP", "contributed", "games", "get", "lookup_id", "make", "names", "register", "resolve"]
__all__ += ["unregister"]

#: the entry-point group other packages register their games in
ENTRY_POINT_GROUP = "gridwidgets.games"

G = TypeVar("G", bound="type[Game]")

_GAMES: dict[str, type[Game]] = {}
_lock = threading.RLock()
_loaded = False


def register(cls: G, *, replace: bool = False) -> G:
    """Register a game class under ``cls.game_type.short_name`` (usable as a decorator).

    Args:
        cls: a :class:`~gridwidgets.core.Game` subclass with a ``game_type``.
        replace: allow replacing another class registered under the same name.

    Returns:
        ``cls``, unchanged.

    Raises:
        TypeError: if ``cls`` is not a game class with a ``game_type``.
        ValueError: if another class holds the name and ``replace`` is false.
    """
    from .game import Game

    if not (isinstance(cls, type) and issubclass(cls, Game)) or getattr(cls, "game_type", None) is None:
        raise TypeError(f"register() takes a Game subclass with a game_type, got {cls!r}")
    name = cls.game_type.short_name
    with _lock:
        old = _GAMES.get(name)
        if old is not None and old is not cls and not replace:
            raise ValueError(
                f"a game is already registered as {name!r} ({old.__module__}.{old.__qualname__}); "
                "pass replace=True to replace it"
            )
        _GAMES[name] = cls
    return cls


def unregister(name: str) -> None:
    """Remove a registered game (no error if it is not there)."""
    with _lock:
        _GAMES.pop(name, None)


def _load_entry_points() -> None:
    """Import the games other packages declare (once; a broken one warns and is skipped)."""
    global _loaded
    with _lock:
        if _loaded:
            return
        _loaded = True
        try:
            eps = metadata.entry_points(group=ENTRY_POINT_GROUP)
        except Exception as exc:  # pragma: no cover - a broken environment
            warnings.warn(f"cannot read the {ENTRY_POINT_GROUP} entry points: {exc!r}", RuntimeWarning, stacklevel=2)
            return
        from .game import Game

        for ep in eps:
            try:
                obj = ep.load()
                if isinstance(obj, type) and issubclass(obj, Game):
                    if obj.game_type.short_name not in _GAMES:
                        register(obj)
                elif callable(obj):
                    obj()
            except Exception as exc:
                warnings.warn(
                    f"the game {ep.name!r} of entry point {ep.value!r} could not be loaded: {exc!r}",
                    RuntimeWarning,
                    stacklevel=2,
                )


def games() -> dict[str, type[Game]]:
    """Every registered game, ``{name: class}``: the package's own first, then
    those of entry points, then those registered by hand."""
    _load_entry_points()
    with _lock:
        return dict(_GAMES)


def names() -> list[str]:
    """The names of the registered games, the package's own first."""
    return list(games())


def get(name: str) -> type[Game]:
    """The game class registered as ``name`` (its short name, or its long
    name, in any case, spaces and dashes ignored: ``"tic-tac-toe"`` finds a game whose long name is
    ``"Tic-tac-toe"``).

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    known = games()
    if isinstance(name, str):
        if name in known:
            return known[name]
        key = name.strip().lower().replace(" ", "").replace("-", "").replace("_", "")
        for cls in known.values():
            for alias in (cls.game_type.short_name, cls.game_type.long_name, cls.__name__):
                if alias.lower().replace(" ", "").replace("-", "").replace("_", "") == key:
                    return cls
    shown = repr(name)[:40]
    raise ValueError(f"unknown game {shown}: known games are {', '.join(known)}")


def make(name: str, **options: Any) -> Game:
    """A new game of the registered ``name`` with ``options``.

    Raises:
        ValueError: for an unknown name or bad options.
    """
    return get(name)(**options)


def lookup_id(game_id: str) -> type[Game] | None:
    """The class for a save file's ``"game"`` id: a registered game, else any
    loaded subclass of :class:`~gridwidgets.core.Game` that declares that id
    (a game defined in a notebook and not registered); ``None`` if there is none."""
    from .game import Game

    found = games().get(game_id)
    if found is not None:
        return found
    seen: set[type] = set()
    todo = list(Game.__subclasses__())
    while todo:  # a loop, not recursion: any depth of subclassing
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        if cls.__dict__.get("game_id") == game_id and "game_type" in cls.__dict__:
            return cls
        todo.extend(cls.__subclasses__())
    return None


def contributed(hook: str) -> dict[str, Any]:
    """What the registered games contribute to a generic namespace, by name.

    Args:
        hook: ``"analysis_tools"`` (served as ``gridwidgets.analysis.<name>``)
            or ``"agents"`` (served as ``gridwidgets.agents.<name>``): the game
            class attribute of that name, ``{name: object or "module:attribute"}``.
            A string is imported on first use, so a game's tools may import
            the game's own module without a cycle.

    Returns:
        ``{name: (game class, object or import path)}`` over every registered game.
    """
    out: dict[str, Any] = {}
    for cls in games().values():
        for name, obj in (getattr(cls, hook, None) or {}).items():
            out.setdefault(name, (cls, obj))
    return out


def resolve(hook: str, name: str) -> Any:
    """The object a registered game contributes as ``name`` to ``hook`` (see
    :func:`contributed`), imported if given as ``"module:attribute"``.

    Raises:
        AttributeError: if no registered game contributes ``name``.
    """
    entry = contributed(hook).get(name)
    if entry is None:
        raise AttributeError(name)
    obj = entry[1]
    if isinstance(obj, str):
        import importlib

        module, _, attr = obj.partition(":")
        obj = getattr(importlib.import_module(module), attr)
    return obj
