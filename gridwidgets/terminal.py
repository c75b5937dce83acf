"""Terminal play of any registered game: one play loop with hooks.

``python -m gridwidgets play NAME`` (:mod:`gridwidgets.cli`) plays any game
of the registry here, and :func:`play_game` does from Python. The
:class:`Dialogue` draws what the page draws, from the same
:meth:`~gridwidgets.core.Game.scene`: before each person's turn, the board
as text, its notes and the players' table (``Scene.panel``), then the legal
moves (all of them when they are few, else how many); moves are typed in
notation, ``?`` helps, ``u`` undoes back to a person's turn (the agents'
moves since too), ``q`` quits. After every move: who played what, then the
game's events. A hidden submission (C-5) is said without its content, and
when the next person at the keyboard is another one the screen is cleared
and the keyboard passed on (hot seat). Agent seats play from
``game.view_for(player)`` only.

A game with words of its own names a :class:`Dialogue` subclass in its
``terminal_dialogue`` hook (``"gridwidgets.games.<name>.terminal:Class"``)
that sets :attr:`Dialogue.legend` and :attr:`Dialogue.how_to_type` and
overrides the hooks it needs: :meth:`Dialogue.board`,
:meth:`Dialogue.move_line`, :meth:`Dialogue.parse`, ... (a rule book's own
dialogue is one such subclass). The options of ``play NAME`` are the game's constructor
keyword arguments (``--size 7``), with ``--agent SEAT`` and ``--seed N``.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TextIO

from .core.errors import IllegalMoveError

__all__ = ["CLEAR", "HELP", "QUIT", "UNDO", "Dialogue", "add_arguments", "ask", "console", "dialogue_for",
           "panel_lines", "play_game", "seats", "session"]

QUIT = frozenset({"q", "quit", "exit"})
HELP = frozenset({"?", "h", "help"})
UNDO = frozenset({"u", "undo"})
#: ANSI: cursor home, clear the screen and the scrollback (hot seat: hidden submissions, C-5)
CLEAR = "\x1b[H\x1b[2J\x1b[3J"
#: the marks of the players' table (``PanelRow.mark``)
ROW_MARKS = {"turn": ">", "winner": "*"}


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


def panel_lines(panel: Any, tags: Mapping[int, str] | None = None) -> list[str]:
    """A :class:`~gridwidgets.core.scene.Panel` as an aligned text table: a
    heading, then a row per player marked ``>`` (to move) or ``*`` (winner),
    numbers right-aligned, with ``tags[player]`` after the row (``[agent]``).
    ``None``: no lines."""
    if panel is None:
        return []
    rows = [("", *panel.columns)] + [(ROW_MARKS.get(r.mark, ""), *r.values) for r in panel.rows]
    width = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    numeric = [all(row[i].isdigit() for row in rows[1:]) for i in range(len(width))]
    out = []
    for k, row in enumerate(rows):
        cells = [(v.rjust(w) if num and k else v.ljust(w)) for v, w, num in zip(row, width, numeric, strict=True)]
        tag = (tags or {}).get(panel.rows[k - 1].player, "") if k else ""
        out.append((" " + "  ".join(cells) + (f"  [{tag}]" if tag else "")).rstrip())
    return out


class Dialogue:
    """One game played to its end in a terminal: the loop, and the hooks a
    game's own dialogue overrides (its words). As it is, the dialogue of any
    game (see the module docstring).

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
    skip_empty: ClassVar[bool] = True
    #: what a refused move raises (said by :meth:`invalid`, then asked again)
    refusals: ClassVar[tuple[type[Exception], ...]] = (IllegalMoveError, ValueError)
    #: the line under the board that explains its signs (``""``: none)
    legend: ClassVar[str] = ""
    #: how to type a move, said at the start and by ``?`` (``""``: in notation, as the legal moves are listed)
    how_to_type: ClassVar[str] = ""
    #: the legal moves are listed before a turn when there are at most this many (``?`` lists some of the rest)
    some: ClassVar[int] = 12

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
        #: the scores before the move being reported (for :meth:`move_line`)
        self.scores_before: tuple[Any, ...] = ()
        #: ``game.step_count`` before each move a person made here (what :meth:`undo` goes back to)
        self.marks: list[int] = []
        #: whether the move being reported was a submission at a simultaneous node (C-5)
        self.submitted = False

    # the loop -----------------------------------------------------------
    def run(self) -> Any:
        """Play to the end. Returns the same game, over, or as it was left
        on ``q`` or end of input."""
        game, say = self.game, self.say
        self.lines(self.intro())
        while not game.is_over:
            p = game.players_to_move[0]
            self.scores_before, self.submitted = game.scores, game.is_simultaneous_node()
            if p in self.seats:
                move = game.play(self.agent_move(p), player=p)
                self.lines(self.moved(p, move, self.seats[p]))
                continue
            legal = game.legal_moves(p) if self.submitted else game.legal_moves()
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
                mark = game.step_count
                try:
                    move = game.play(self.parse(text, p), player=p)
                except self.refusals as exc:
                    say(self.invalid(exc))
                    continue
                self.marks.append(mark)
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

    def who(self, player: int, agent: Any | None = None) -> str:
        """``Player 2 (O)``, with ``[agent name]`` for an agent seat."""
        label = self.game.player_label(player)
        return f"{label} [{agent.name}]" if agent is not None else label

    # the hooks ------------------------------------------------------------
    def board(self, game: Any) -> str:
        """The board as text. Default: ``str(game)``."""
        return str(game)

    def show(self, viewer: int | None = None) -> list[str]:
        """The board (:meth:`board`), :attr:`legend`, the scene's notes and the
        players' table, as ``viewer`` may see them (``None``: everything)."""
        game = self.game if viewer is None else self.game.view_for(viewer)
        scene = game.scene()
        tags = {p: agent.name for p, agent in self.seats.items()}
        return ["", self.board(game), *([self.legend] if self.legend else []), *scene.notes,
                *panel_lines(scene.panel, tags)]

    def intro(self) -> list[str]:
        """Said once at the start: the game and its plain options, who the agents
        play, how to type a move; the events of the game as given; the board
        when no person plays."""
        game = self.game
        options = ", ".join(f"{k}={v!r}" for k, v in game.options().items()
                            if isinstance(v, (int, float, str)) and not isinstance(v, bool))
        lines = [f"{game.game_type.long_name}" + (f" ({options})" if options else "") + "."]
        lines += [f"{self.who(p)} is played by {agent.name}, which sees only what {self.who(p)} may know."
                  for p, agent in self.seats.items()]
        if len(self.people) > 1 and not game.game_type.perfect_information:
            lines.append("Hot seat: after a hidden choice the screen is cleared and the keyboard passed on (C-5).")
        if self.people:
            lines.append(" ".join(filter(None, [self.how_to_type, "? help, u undo, q quit."])))
        lines += [f"  * {e}" for e in game.events]
        return lines if self.people else lines + self.show()

    def turn_lines(self, player: int, legal: Sequence[Any]) -> list[str]:
        """Said before a person's turn: :meth:`show` as they may see it, then
        the legal moves when they are few, else how many."""
        n = len(legal)
        listed = (f"Legal moves ({n}): " + " ".join(str(m) for m in legal) if n <= self.some
                  else f"{n} legal moves (? shows some).")
        return [*self.show(player), listed]

    def prompt(self, player: int, legal: Sequence[Any]) -> str:
        """The prompt of a person's turn. Default: the game's status."""
        return f"{self.game.status()} Your move: "

    def some_moves(self, legal: Sequence[Any]) -> list[Any]:
        """The legal moves ``?`` lists when there are more than :attr:`some`.
        Default: spread over the list (it runs in board order)."""
        k = self.some
        if len(legal) <= k:
            return list(legal)
        return [legal[round(i * (len(legal) - 1) / (k - 1))] for i in range(k)]

    def help_lines(self, player: int, legal: Sequence[Any]) -> list[str]:
        """Said for a word of :attr:`help_words`: the status, how to type a
        move, undo and quit, and the legal moves (:meth:`some_moves`)."""
        shown = self.some_moves(legal)
        some = "" if len(shown) == len(legal) else f", {len(shown)} of them"
        return [self.game.status(), *([self.how_to_type] if self.how_to_type else []),
                "u undoes your last move (and the agents' moves since), q quits.",
                f"Legal moves ({len(legal)}{some}): " + " ".join(str(m) for m in shown)]

    def parse(self, text: str, player: int) -> Any:
        """What ``game.play`` gets for the text typed. Default: the text."""
        return text

    def invalid(self, exc: Exception) -> str:
        """Said for a refused move (the error names the rule)."""
        return f"Illegal move: {exc}"

    def undo(self) -> list[str] | None:
        """For a word of :attr:`undo_words`: go back to before the last move a
        person made here (the agents' moves since are undone too, hidden
        submissions withdrawn) and say how many steps went; ``None`` when no
        person has moved here yet."""
        if not self.marks:
            return None
        game, mark = self.game, self.marks.pop()
        with game.batch():
            n = len(game.pending) + game.step_count - mark
            while game.pending:
                game.undo()
            game.goto(mark)
        return [f"Undone: {n} step{'s' if n != 1 else ''} taken back."]

    def agent_move(self, player: int) -> Any:
        """The move of an agent seat, chosen from what ``player`` may know."""
        return self.seats[player].choose(self.game.view_for(player))

    def move_line(self, who: str, player: int, move: Any) -> str:
        """The line that says a move: a submission at a simultaneous node
        without its content (C-5, the events reveal it), else ``who plays move``."""
        return f"{who} has chosen." if self.submitted else f"{who} plays {move}."

    def moved(self, player: int, move: Any, agent: Any | None) -> list[str]:
        """Said after a move of ``player`` (``agent``: the agent that chose it,
        or ``None`` for a person): :meth:`move_line`, then the game's events."""
        return [self.move_line(self.who(player, agent), player, move), *(f"  * {e}" for e in self.game.events)]

    def handoff(self, player: int) -> bool:
        """After a person's move: when it is a hidden submission and another
        person chooses next, clear the screen and wait for them to take the
        keyboard (C-5). ``False`` ends the dialogue (the person left)."""
        game = self.game
        nxt = [q for q in game.players_to_move if q in self.people and q != player]
        if not (game.pending and player in game.pending and nxt):
            return True
        if self.clear:
            self.stream.write(CLEAR)
        self.say(f"{self.who(player)} has chosen. Pass the keyboard to {self.who(nxt[0])}, then press Enter.")
        try:
            self.read(f"{self.who(nxt[0])}, press Enter: ")
        except EOFError:
            self.lines(["", "Goodbye."])
            return False
        return True

    def end(self) -> list[str]:
        """Said once the game is over: :meth:`show`, then its status."""
        return [*self.show(), self.game.status()]


def dialogue_for(game: Any) -> type[Dialogue]:
    """The game's own :class:`Dialogue` (its ``terminal_dialogue`` hook,
    ``"module:Class"``), else :class:`Dialogue`."""
    name = getattr(game, "terminal_dialogue", None)
    if not name:
        return Dialogue
    module, _, attr = name.partition(":")
    return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]


def play_game(game: Any, agents: Mapping[int, Any] | None = None, read: Callable[[str], str] = input,
              out: TextIO | None = None, clear: bool = True) -> Any:
    """Play ``game`` to its end in a terminal with its dialogue (:func:`dialogue_for`).

    Args:
        game: the game to play on (it may already hold moves).
        agents: ``{player id: agent}`` seats played by agents; every other
            seat is a person, asked through ``read``.
        read: the prompt function (``input`` by default).
        out: where to print (``sys.stdout`` by default).
        clear: clear the screen between the hidden choices of a hot seat (C-5).

    Returns:
        The same game, over, or as it was left on ``q`` or end of input.
    """
    return dialogue_for(game)(game, agents, read, out, clear).run()


# ----------------------------------------------------------------------
# python -m gridwidgets play NAME
# ----------------------------------------------------------------------
def _options(cls: Any) -> dict[str, inspect.Parameter]:
    """The constructor's keyword options with a plain default (a number, text,
    a flag or ``None``); ``seed`` is ``--seed``'s."""
    params = inspect.signature(cls.__init__).parameters
    return {name: p for name, p in params.items() if name not in ("self", "seed")
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
            and (p.default is None or isinstance(p.default, (bool, int, float, str)))}


def _doc(cls: Any, name: str) -> str:
    """What the class docstring's ``Args:`` says of ``name`` (its whole entry), else a plain line."""
    lines = (cls.__doc__ or "").splitlines()
    for k, line in enumerate(lines):
        if line.strip().startswith(name + ":"):
            indent = len(line) - len(line.lstrip())
            entry = [line.strip()[len(name) + 1:]]
            for more in lines[k + 1:]:
                if not more.strip() or len(more) - len(more.lstrip()) <= indent:
                    break
                entry.append(more.strip())
            return " ".join(" ".join(entry).replace("``", "").split())
    return f"an option of {cls.game_type.long_name}"


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def add_arguments(cls: Any, parser: argparse.ArgumentParser) -> None:
    """Add the options of ``play NAME`` for the game class ``cls`` to
    ``parser``: one per constructor keyword (``--size N``, a flag for a
    ``False`` default, values read as JSON or else as text), ``--seed N``
    (the setup, if drawn by chance, and the agents: seat p gets N + p) and
    ``--agent SEAT`` (repeatable, or comma separated: a player id, C-3, or a
    player's name or its first letter; played by a
    :class:`~gridwidgets.agents.RandomAgent`)."""
    for name, p in _options(cls).items():
        flag = "--" + name.replace("_", "-")
        if isinstance(p.default, bool):
            parser.add_argument(flag, dest=name, action="store_true", default=p.default, help=_doc(cls, name))
        else:
            kind = _value if p.default is None or isinstance(p.default, str) else type(p.default)
            text = _doc(cls, name)
            if "default" not in text and p.default is not None:
                text += f" (default {p.default})"
            parser.add_argument(flag, dest=name, type=kind, default=p.default, metavar=name.upper(), help=text)
    parser.add_argument("--seed", type=int, default=None,
                        help="seeds the game's setup (if drawn by chance) and the agents (seat p: seed + p)")
    parser.add_argument("--agent", action="append", default=[], metavar="SEAT",
                        help="a seat played by a RandomAgent: a player id from 0, or a player's name or "
                        "initial (repeatable, or comma separated)")


def seats(text: Sequence[str], players: Sequence[str]) -> list[int]:
    """The seats of ``--agent`` values: player ids (0-based, C-3), names or
    initials, comma separated.

    Raises:
        ValueError: for a seat that is no player of the game.
    """
    names = [n.lower() for n in players]
    out: list[int] = []
    for part in (t.strip().lower() for item in text for t in item.split(",")):
        if not part:
            continue
        if part.isascii() and part.isdigit() and len(part) < 6 and int(part) < len(players):
            seat = int(part)
        elif part in names:
            seat = names.index(part)
        elif len(part) == 1 and [n[0] for n in names].count(part) == 1:
            seat = [n[0] for n in names].index(part)
        else:
            raise ValueError(f"--agent: {part[:40]!r} is not a player of this game: 0..{len(players) - 1} "
                             f"or {', '.join(players)} (C-3)")
        if seat not in out:
            out.append(seat)
    return out


def session(cls: Any, args: argparse.Namespace) -> Callable[[], Any]:
    """From the parsed arguments, a function that plays one game of ``cls``
    (:func:`play_game`).

    Raises:
        ValueError: for an option the game refuses, or a seat that is no player.
    """
    options = {name: getattr(args, name) for name in _options(cls) if getattr(args, name) is not None}
    game = cls.new_for_seed(options, args.seed) if args.seed is not None else cls(**options)
    from .agents import RandomAgent

    agents = {p: RandomAgent(seed=None if args.seed is None else args.seed + p)
              for p in seats(args.agent, game.players)}
    return lambda: play_game(game, agents=agents)
