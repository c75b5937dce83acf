"""Terminal play of any registered game: one play loop with hooks.

``python -m gridwidgets play NAME`` (:mod:`gridwidgets.cli`) plays any game
of the registry here. A game without words of its own is played by
:class:`Dialogue` as it is: the text board (``str(game)``), moves typed in
notation, ``?`` for help and the legal moves, ``u`` to undo, ``q`` to quit;
at a simultaneous node each person types a hidden submission in turn, with
the screen cleared between people (hot seat, C-5), and agent seats play
from ``game.view_for(player)`` only.

A game with words of its own names a module in its ``terminal_module``
hook (``gridwidgets.games.<name>.terminal``, e.g. the seed's own
dialogue): a :class:`Dialogue` subclass that overrides the hooks below, and the
module's ``add_arguments(parser)`` and ``session(args)``. The loop stays
here, once:

- :meth:`Dialogue.intro` once at the start;
- :meth:`Dialogue.turn_lines` before each person's turn, then
  :meth:`Dialogue.prompt`, and for what was typed: :attr:`Dialogue.help_words`
  (:meth:`Dialogue.help_lines`), :attr:`Dialogue.undo_words`
  (:meth:`Dialogue.undo`), else :meth:`Dialogue.parse` and ``game.play``
  (a refusal: :meth:`Dialogue.invalid`);
- :meth:`Dialogue.moved` after every move (a person's or an agent's), then
  :meth:`Dialogue.handoff` (pass the keyboard);
- :meth:`Dialogue.end` when the game is over.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TextIO

from .core.errors import IllegalMoveError

__all__ = ["CLEAR", "HELP", "QUIT", "UNDO", "Dialogue", "add_arguments", "ask", "console", "play_game",
           "session"]

QUIT = frozenset({"q", "quit", "exit"})
HELP = frozenset({"?", "h", "help"})
UNDO = frozenset({"u", "undo"})
#: ANSI: cursor home, clear the screen and the scrollback (hot seat: hidden submissions, C-5)
CLEAR = "\x1b[H\x1b[2J\x1b[3J"
#: how many legal moves ``?`` lists in the generic dialogue
SOME = 12


def console(out: TextIO | None) -> tuple[TextIO, Callable[..., None]]:
    """The stream to print to (``sys.stdout`` by default) and a ``say(text="")``
    that prints a line to it at once."""
    stream = out if out is not None else sys.stdout

    def say(text: str = "") -> None:
        print(text, file=stream, flush=True)

    return stream, say


def ask(read: Callable[[str], str], prompt: str, say: Callable[..., None]) -> str | None:
    """One line from a person: the text typed, or ``None`` once they leave
    (end of input, or a word of :data:`QUIT`), with ``Goodbye.`` said."""
    try:
        text = read(prompt)
    except EOFError:
        say()
        say("Goodbye.")
        return None
    if text.strip().lower() in QUIT:
        say("Goodbye.")
        return None
    return text


class Dialogue:
    """One game played to its end in a terminal: the loop, and the hooks a
    game's own dialogue overrides (its words). As it is, the generic dialogue
    of any game (see the module docstring).

    Args:
        game: the game to play on (it may already hold moves).
        agents: ``{player id: agent}`` for the seats agents play; the others
            are people at one keyboard, asked through ``read``.
        read: the prompt function (``input`` by default).
        out: where to print (``sys.stdout`` by default).
        clear: clear the screen when the keyboard passes between people
            who must not see each other's hidden choice (C-5).
    """

    #: words that ask for help (:meth:`help_lines`); empty: none
    help_words: ClassVar[frozenset[str]] = HELP
    #: words that undo (:meth:`undo`); empty: none
    undo_words: ClassVar[frozenset[str]] = UNDO
    #: an empty line asks again (else it is played, and refused)
    skip_empty: ClassVar[bool] = False
    #: what a refused move raises (said by :meth:`invalid`, then asked again)
    refusals: ClassVar[tuple[type[Exception], ...]] = (IllegalMoveError, ValueError)

    def __init__(self, game: Any, agents: Mapping[int, Any] | None = None,
                 read: Callable[[str], str] = input, out: TextIO | None = None, clear: bool = True) -> None:
        self.game = game
        self.read = read
        self.stream, self.say = console(out)
        self.clear = clear
        #: the agent seats
        self.seats: dict[int, Any] = dict(agents or {})
        #: the players who are people, in seat order
        self.people: list[int] = [p for p in range(len(game.players)) if p not in self.seats]
        #: the scores before the move being reported (for :meth:`moved`)
        self.scores_before: tuple[Any, ...] = ()

    # the loop -----------------------------------------------------------
    def run(self) -> Any:
        """Play to the end. Returns the same game, over, or as it was left
        on ``q`` or end of input."""
        game, say = self.game, self.say
        self.lines(self.intro())
        while not game.is_over:
            p = game.players_to_move[0]
            self.scores_before = game.scores
            if p in self.seats:
                move = game.play(self.agent_move(p), player=p)
                self.lines(self.moved(p, move, self.seats[p]))
                continue
            legal = game.legal_moves(p) if game.is_simultaneous_node() else game.legal_moves()
            self.lines(self.turn_lines(p, legal))
            while True:
                text = ask(self.read, self.prompt(p, legal), say)
                if text is None:
                    return game
                word = text.strip().lower()
                if word in self.help_words:
                    self.lines(self.help_lines(p, legal))
                    continue
                if not word and self.skip_empty:
                    continue
                if word in self.undo_words:
                    said = self.undo()
                    if said is None:
                        say("Nothing to undo.")
                        continue
                    self.lines(said)
                    break
                try:
                    move = game.play(self.parse(text, p), player=p)
                except self.refusals as exc:
                    say(self.invalid(exc))
                    continue
                self.lines(self.moved(p, move, None))
                if not self.handoff(p):
                    return game
                break
        self.lines(self.end())
        return game

    def lines(self, lines: Sequence[str]) -> None:
        """Say each of ``lines``."""
        for line in lines:
            self.say(line)

    # the hooks ------------------------------------------------------------
    def intro(self) -> list[str]:
        """Said once at the start. Default: the board."""
        return [str(self.game)]

    def turn_lines(self, player: int, legal: Sequence[Any]) -> list[str]:
        """Said before a person's turn. Default: at a hidden submission of a
        hot seat, a cleared screen and who is to choose (C-5)."""
        game = self.game
        if game.is_simultaneous_node() and len(self.people) > 1 and game.pending:
            return [CLEAR + f"{game.players[player]}: your turn to choose; nobody else should look (C-5)."]
        return []

    def prompt(self, player: int, legal: Sequence[Any]) -> str:
        """The prompt of a person's turn."""
        example = str(legal[0]) if legal else ""
        return f"{self.game.players[player]}, your move (e.g. {example}; ? help, u undo, q quit): "

    def help_lines(self, player: int, legal: Sequence[Any]) -> list[str]:
        """Said for a word of :attr:`help_words`. Default: the status, the
        game's ``how_to_play`` and some legal moves."""
        game = self.game
        lines = [game.status()]
        if game.how_to_play:
            lines.append(game.how_to_play)
        shown = ", ".join(str(m) for m in legal[:SOME])
        lines.append(f"Legal moves ({len(legal)}): {shown}" + (", ..." if len(legal) > SOME else ""))
        return lines

    def parse(self, text: str, player: int) -> Any:
        """What ``game.play`` gets for the text typed. Default: the text."""
        return text

    def invalid(self, exc: Exception) -> str:
        """Said for a refused move (the error names the rule)."""
        return f"Illegal move: {exc}"

    def undo(self) -> list[str] | None:
        """For a word of :attr:`undo_words`: take back to a person's previous
        turn and say what happened; ``None``: nothing to undo. Default: back
        to the people's last turn (the agents' moves since too), then the board."""
        try:
            self.undone = self.game.undo_until(self.people)
        except IndexError:
            return None
        return self.after_undo(self.undone)

    def after_undo(self, n: int) -> list[str]:
        """Said after :meth:`undo` took ``n`` moves back. Default: the board."""
        return [str(self.game)]

    def agent_move(self, player: int) -> Any:
        """The move of an agent seat, chosen from what ``player`` may know."""
        return self.seats[player].choose(self.game.view_for(player))

    def moved(self, player: int, move: Any, agent: Any | None) -> list[str]:
        """Said after a move of ``player`` (``agent``: the agent that chose it,
        or ``None`` for a person). Default: a hidden submission is said
        without its content; otherwise the move and the board."""
        game = self.game
        name = game.players[player]
        if game.is_simultaneous_node() and game.pending:
            if agent is None and len(self.people) > 1:
                return [CLEAR + f"{name} has chosen."]
            return [f"{name} ({agent.name}) has chosen." if agent is not None else f"{name} has chosen."]
        lines = [f"{name} ({agent.name}) plays {move}."] if agent is not None else []
        return [*lines, str(game)]

    def handoff(self, player: int) -> bool:
        """After a person's move: pass the keyboard if need be. ``False`` ends
        the dialogue (the person left). Default: nothing to do."""
        return True

    def end(self) -> list[str]:
        """Said once the game is over. Default: its status."""
        return [self.game.status()]


def play_game(game: Any, agents: Mapping[int, Any] | None = None, read: Callable[[str], str] = input,
              out: TextIO | None = None) -> Any:
    """Play ``game`` to its end with the generic :class:`Dialogue`.

    Returns:
        The same game, over, or as it was left on ``q`` or end of input.
    """
    return Dialogue(game, agents, read, out).run()


# ----------------------------------------------------------------------
# python -m gridwidgets play NAME
# ----------------------------------------------------------------------
def _own(cls: type) -> Any:
    """The module of the game's own dialogue (its ``terminal_module`` hook), or ``None``."""
    name = getattr(cls, "terminal_module", None)
    return importlib.import_module(name) if name else None


def add_arguments(cls: Any, parser: argparse.ArgumentParser) -> None:
    """Add the options of ``play NAME`` for the game class ``cls`` to ``parser``:
    its own dialogue's (``add_arguments(parser)`` of its ``terminal_module``),
    or the generic ones: ``--preset KEY`` (from ``presets``), ``--option
    KEY=VALUE`` (repeatable, values read as JSON or else as text), ``--seed N``
    and ``--agent SEAT`` (repeatable: a player id or name played by a
    :class:`~gridwidgets.agents.RandomAgent`)."""
    own = _own(cls)
    if own is not None:
        own.add_arguments(parser)
        return
    presets = getattr(cls, "presets", {}) or {}
    if presets:
        parser.add_argument("--preset", choices=list(presets), default=None,
                            help="a named setup: " + "; ".join(f"{k}: {v[0]}" for k, v in presets.items()))
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="an option of the game (repeatable), e.g. --option rows=5; values are read as JSON")
    parser.add_argument("--seed", type=int, default=None,
                        help="seeds the game's setup (if drawn by chance) and the agents")
    parser.add_argument("--agent", action="append", default=[], metavar="SEAT",
                        help="a seat played by a RandomAgent: a player id or name (repeatable)")


def _option_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def session(cls: Any, args: argparse.Namespace) -> Callable[[], Any]:
    """From the parsed arguments, a function that plays one game of ``cls``:
    its own dialogue's (``session(args)`` of its ``terminal_module``), or the
    game made from the generic options and played by :func:`play_game`.

    Raises:
        ValueError: for a malformed option, an option the game refuses, or a seat that is no player.
    """
    own = _own(cls)
    if own is not None:
        return own.session(args)  # type: ignore[no-any-return]
    options: dict[str, Any] = {}
    preset = getattr(args, "preset", None)
    if preset is not None:
        options.update(cls.presets[preset][1])
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ValueError(f"--option takes KEY=VALUE, got {item[:40]!r}")
        options[key.strip()] = _option_value(value)
    game = cls.new_for_seed(options, args.seed) if args.seed is not None else cls(**options)
    from .agents import RandomAgent

    seats: dict[int, Any] = {}
    for text in args.agent:
        t = text.strip()
        names = [n.lower() for n in game.players]
        if t.isdigit() and int(t) < len(game.players):
            seat = int(t)
        elif t.lower() in names:
            seat = names.index(t.lower())
        else:
            raise ValueError(f"--agent: {t[:40]!r} is not a player of this game: 0..{len(game.players) - 1} "
                             f"or {', '.join(game.players)} (C-3)")
        seats[seat] = RandomAgent(seed=None if args.seed is None else args.seed + seat)
    return lambda: play_game(game, agents=seats)
