"""The hooks of :class:`~gridwidgets.core.Game`: what a game knows beyond its
rules, declared once here with their defaults, in four groups as a game's
folder holds them (``games/<name>/knowledge.py``, ``picture.py``,
``terminal.py``, ``view.py``).

:class:`~gridwidgets.core.Game` inherits all four; a game overrides what it
knows. Every generic layer (agents, the solver, ``simulate``, the terminal,
the widget, the rooms) reads these hooks and never asks which game it is.
The defaults read only the protocol (``legal_moves``, ``board``,
``players``, ...), which :class:`~gridwidgets.core.Game` provides.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .notation import Cell

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

__all__ = ["KnowledgeHooks", "PictureHooks", "TerminalHooks", "ViewHooks", "fast_path_applies"]


def fast_path_applies(cls: type, name: str) -> bool:
    """True when the fast path ``name`` a game brings (``compiled_module``,
    ``exact_solver``, an engine's own ``_rollout``) was written for ``cls``
    itself: the class, or a mixin of it that is not a game, supplies it.

    Such paths replicate one engine's rules outside its ``legal_moves`` and
    ``play``. A subclass that changes a rule (a variant defined in a notebook
    cell) inherits them but not their rules, so it gets the generic paths,
    which call its own methods, unless it declares ``name`` again itself.
    """
    from .game import Game

    for k in cls.__mro__:
        if k is not cls and issubclass(k, Game):
            return False
        if name in vars(k):
            return True
    return False


class KnowledgeHooks:
    """What agents, the solver, ``simulate`` and the exercises know of a game
    beyond its rules (``games/<name>/knowledge.py``)."""

    #: the module of the game's compiled kernels (:mod:`gridwidgets.fast`, numba),
    #: used by ``simulate`` and ``MCTSAgent`` when numba is installed; ``None``: none
    compiled_module: ClassVar[str | None] = None

    #: options of a small game of this kind, quick to play out: golden playthroughs,
    #: conformance checks and demos use them (default: the default options)
    small_options: ClassVar[dict[str, Any]] = {}

    def evaluate(self, player: int) -> float | None:
        """A heuristic value of this position for ``player`` (higher is
        better), for greedy play and alpha-beta at its depth limit; ``None``
        (the default) means the game offers none. It may read anything of
        the game; it must not change it."""
        return None

    def move_value(self, move: Any, player: int) -> tuple[float, ...] | None:
        """How good playing ``move`` looks to ``player`` one move ahead, as a
        tuple compared lexicographically (higher is better), for one-ply
        search (:class:`~gridwidgets.agents.GreedyAgent`); ``None`` (the
        default) means: play it, then :meth:`evaluate`. A game whose
        position value depends on what the move ended (a round) gives its
        own. It must leave the game as it found it."""
        return None

    def search_moves(self) -> list[Any]:
        """The moves a search considers here (default :meth:`legal_moves`).
        A game may leave out moves that only lengthen the search without
        changing the contest (a setup phase whose only move that matters
        is the one that ends it)."""
        return self.legal_moves()

    def symmetries(self) -> list[tuple[int, ...]]:
        """Permutations of the cells (row-major indices) that map the rules
        onto themselves, identity excluded, for solvers (default: none)."""
        return []

    def position_key(self, symmetry: Sequence[int] | None = None) -> Hashable:
        """A hashable key equal for two positions with the same future
        (transposition tables); under ``symmetry`` (one of
        :meth:`symmetries`) the key of the mapped position. The default is
        the history itself: always right, never merges transpositions."""
        return (tuple(str(m) for m in self._history), tuple(sorted(self._pending)))

    # actions and observations (gridwidgets.core.actions)
    def all_moves(self, player: int) -> list[Any]:
        """Every move ``player`` could ever make under these options, in a
        fixed order: a move's index is its *action id* in OpenSpiel,
        PettingZoo and Gymnasium (:mod:`gridwidgets.core.actions`). Every
        player's list has the same length, and every legal move of any
        position is in it (``check_game`` checks both).

        The default serves games whose moves are single cells
        (``MoveKind.CELL`` only): the board's cells row by row, action
        ``row * cols + col``.

        Raises:
            NotImplementedError: a game with other kinds of moves that does not list them.
        """
        from .actions import all_cells
        from .gametype import MoveKind

        if tuple(self.game_type.move_kinds) != (MoveKind.CELL,):
            raise NotImplementedError(
                f"{type(self).__name__} has moves that are not single cells: define all_moves(player) "
                "to number them for OpenSpiel, PettingZoo and Gymnasium")
        return list(all_cells(self))

    def observation_features(self, player: int | None) -> np.ndarray:
        """What a player sees that :attr:`board` does not show (tile numbers,
        walls, hands, a round), as a flat float array of a length the options
        fix; appended to the board planes of
        :func:`~gridwidgets.core.actions.observation_tensor`. Called on the
        player's view, so hidden submissions are already hidden. Default:
        nothing (the board tells the whole position)."""
        return np.zeros(0, dtype=np.float32)

    #: analysis functions particular to this game, ``{name: function or "module:attribute"}``,
    #: served as ``gridwidgets.analysis.<name>`` (a game's own tables or plots); none by
    #: default.
    analysis_tools: ClassVar[dict[str, Any]] = {}
    def stage_matrix(self, **options: Any) -> Any:
        """The matrix game of this two-player simultaneous node (its normal
        form): a table with ``rows``, ``cols`` (the two players' choices),
        ``values`` (the first player's payoffs, zero-sum) and ``numeric``,
        which :func:`gridwidgets.analysis.equilibrium` and
        :func:`gridwidgets.analysis.stage_game` solve. Called on the node
        before any submission. ``None`` (the default): the game offers none.

        Args:
            **options: the game's own (e.g. ``rollouts``, ``seed``, ``agent``).
        """
        return None

    #: exercise kinds particular to this game, ``{kind: object or "module:attribute"}``
    #: (``gridwidgets.exercises``): each object has ``applies(game) -> bool``,
    #: ``generate(cls, options, depth, n, rng, progress) -> list[Exercise]`` and
    #: ``judge(exercise) -> Judge``; none by default (the generic kinds need none)
    exercise_kinds: ClassVar[dict[str, Any]] = {}
    #: agents particular to this game, ``{name: class or "module:attribute"}``, served as
    #: ``gridwidgets.agents.<name>``; none by default
    agents: ClassVar[dict[str, Any]] = {}
    #: a fast exact solver for this game, ``f(game, *, time_limit, max_nodes,
    #: progress) -> Solution``, used by ``analysis.solve`` instead of its generic search
    exact_solver: ClassVar[Callable[..., Any] | None] = None


class PictureHooks:
    """How a game shows itself: the static picture (its
    :class:`~gridwidgets.core.scene.Scene`, drawn by one renderer for Python and
    the page), the status line and the players' labels (``games/<name>/picture.py``)."""

    #: what :attr:`scores` counts, as a column heading of the pictures' players panel
    score_label: ClassVar[str] = "Score"

    def player_label(self, player: int) -> str:
        """How people are told who a player is, one wording in every game:
        ``Player 1 (X)`` (the seat from 1, then the player's name or mark);
        ``Player 1`` alone when the name already says it.

        Raises:
            IndexError: if ``player`` is not a player of this game.
        """
        if not 0 <= player < len(self.players):
            raise IndexError(f"no player {player!r} in a {len(self.players)}-player game")
        name = self.players[player]
        if name.lower().startswith("player"):
            return f"Player {player + 1}"
        return f"Player {player + 1} ({name})"

    def status(self) -> str:
        """One line for people: whose turn it is, or the result."""
        if self.is_over:
            if self.winner is not None:
                return f"{self.player_label(self.winner)} wins."
            return "Draw between " + ", ".join(self.player_label(p) for p in self.winners) + "."
        if self._pending:
            done = ", ".join(self.player_label(p) for p in self._pending)
            waiting = ", ".join(self.player_label(p) for p in self._simultaneous() if p not in self._pending)
            return f"{waiting} to choose ({done} has chosen)."
        assert self.current_player is not None
        return f"{self.player_label(self.current_player)} to move."

    def forbidden_cells(self) -> list[Cell]:
        """Empty cells the mover may not use, for display (none by default)."""
        return []

    forbidden_rule: ClassVar[str] = ""

    #: the players' colours, as names of the palette (:mod:`gridwidgets.core.palette`);
    #: empty: the palette's default order (blue, red, green, teal, ...)
    player_colours: ClassVar[tuple[str, ...]] = ()

    def cell_text(self, cell: Cell) -> str:
        """The text drawn in a cell: the owner's initial by default, ``""`` if empty."""
        owner = int(self.board[cell])
        return self.players[owner][:1] if 0 <= owner < len(self.players) else ""

    def to_svg(
        self,
        size: int | None = None,
        show_forbidden: bool = False,
        show_legal: bool = False,
        marks: Iterable[Cell] = (),
        panel: str = "auto",
    ) -> str:
        """A static SVG picture of the position (no JavaScript needed): the
        status line, the board (:meth:`scene`), the players' panel and the
        legend, drawn by :func:`~gridwidgets.core.draw.render_svg`.

        Args:
            size: width of the board in CSS pixels (the panel beside it adds
                to it); ``None``: 320, or wider for a big board so that no
                text is under 11 px.
            show_forbidden: mark the cells the mover may not use.
            show_legal: mark the legal cells of the player to act with dots.
            marks: more cells to mark with dots.
            panel: the players' panel ``"beside"`` the board, ``"below"`` it,
                or ``"auto"`` (beside a board up to 480 px wide).

        Raises:
            ValueError: if ``size`` is not a whole number from 60 to 4,000,
                or ``panel`` is none of those.
        """
        from .draw import render_svg

        if size is not None and (isinstance(size, bool) or not isinstance(size, int) or not 60 <= size <= 4000):
            raise ValueError(f"size must be a whole number of pixels from 60 to 4000, got {str(size)[:30]!r}")
        with self._lock:  # the scene of one position; drawing it needs no lock
            scene = self.scene(show_forbidden=show_forbidden, show_legal=show_legal)
        if marks:
            scene = replace(scene, legal=(*(tuple(c) for c in marks), *scene.legal))
        return render_svg(scene, size=size, panel=panel)

    def to_png(self, path: str | os.PathLike[str] | None = None, *, size: int | None = None,
               scale: float = 2.0) -> bytes:
        """The static picture (:meth:`to_svg`) as a PNG, for slides: rasterised
        by resvg (:func:`~gridwidgets.core.draw.to_png`).

        Args:
            path: a file to write; ``None``: only return the bytes.
            size: as for :meth:`to_svg`.
            scale: pixels per CSS pixel (2 by default: sharp when projected).

        Returns:
            The PNG's bytes.

        Raises:
            ValueError: for a bad ``size`` or ``scale``.
        """
        from .draw import to_png

        return to_png(self.to_svg(size=size), path, scale=scale)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def _repr_png_(self) -> tuple[bytes, dict[str, int]]:
        # beside the SVG: what a notebook shows before it is trusted (JupyterLab
        # draws no SVG output of an untrusted notebook) and what GitHub shows
        from .draw import png_with_size

        return png_with_size(self.to_svg())

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> tuple[dict[str, Any], dict[str, Any]]:
        # the SVG and its PNG from one drawing of the position (IPython skips
        # _repr_svg_ and _repr_png_ for what this bundle already holds)
        from .draw import png_with_size

        svg = self.to_svg()
        png, size = png_with_size(svg)
        return {"image/svg+xml": svg, "image/png": png}, {"image/png": size}

    def picture(self, **options: Any) -> Any:
        """The static picture with options (those of :meth:`to_svg`, e.g.
        ``show_forbidden=True``) as a :class:`~gridwidgets.core.draw.Picture`,
        which a notebook shows as SVG and PNG.

        Raises:
            ValueError: for a bad option value, as :meth:`to_svg`.
        """
        from .draw import Picture

        return Picture(self.to_svg(**options))

    def scene(self, *, show_legal: bool = False, show_forbidden: bool = False) -> Any:
        """The picture of this position as generic layers (a
        :class:`~gridwidgets.core.scene.Scene`: pieces, edges, regions,
        overlays), which one renderer draws for every game. The default
        draws each cell's text in its owner's colour and outlines the last
        step; games override it to draw more.

        Args:
            show_legal: mark the legal cells of the player to act.
            show_forbidden: mark the cells a rule forbids the mover (:meth:`forbidden_cells`).
        """
        from .scene import default_scene

        return default_scene(self, show_legal=show_legal, show_forbidden=show_forbidden)


class TerminalHooks:
    """How a game is played in a terminal (``gridwidgets.terminal``;
    ``games/<name>/terminal.py``)."""

    #: this game's own terminal dialogue, ``"module:Class"`` (a :class:`gridwidgets.terminal.Dialogue`
    #: subclass: its words); ``None`` (the default): the generic dialogue. The options of
    #: ``python -m gridwidgets play NAME`` are the constructor's keyword arguments
    terminal_dialogue: ClassVar[str | None] = None

    @property
    def events(self) -> list[str]:
        """What the last move caused, in words for people, each naming its rule
        (``"Player 2 is blocked (R-6): ..."``): the dialogue says them
        after the move. Default: none."""
        return []


class ViewHooks:
    """What the board in the browser needs beyond the generic state
    (``gridwidgets.widgets`` reads them; ``games/<name>/view.py``)."""

    #: the front-end layer that draws this game (``js/src/games/<name>.ts``); ``""``: the
    #: generic view, which draws :meth:`~gridwidgets.core.hooks.PictureHooks.scene` and
    #: handles cell, edge, multi-cell and choice moves
    frontend_layer: ClassVar[str] = ""
    #: the largest side of the board in the page, CSS px (cells are at most 60 px);
    #: a board of many cells asks for more room (a 20x20 board: 540)
    board_px: ClassVar[int] = 480
    #: default values of the widget's options for this game (``{"show_legal": True}``)
    widget_defaults: ClassVar[dict[str, Any]] = {}
    #: extra synced options of this game's widget, ``{name: default}`` (bool, int, float or str)
    widget_options: ClassVar[dict[str, Any]] = {}

    def frontend_state(self) -> dict[str, Any]:
        """What this game's front-end layer needs beyond the generic state, as
        JSON-able values (the widget's ``state["extra"]``); public information only."""
        return {}

    def board_spec(self) -> dict[str, Any] | None:
        """The board as a design (a dict a constructor option takes back), for games
        with a board editor; ``None`` (the default): the game has no editor."""
        return None

    #: the edits :meth:`edit_board` knows (``action`` names), for games with a board editor
    edit_actions: ClassVar[tuple[str, ...]] = ()

    def edit_board(self, action: str, target: str) -> Game:
        """A new game on the board changed by one edit (the widget's editor); the
        actions are :attr:`edit_actions`.

        Raises:
            ValueError: if the game has no editor, the edit is unknown or makes the board invalid.
        """
        raise ValueError(f"{self.game_type.long_name} has no board editor")
