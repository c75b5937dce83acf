"""The command line: terminal play of every registered game, and the classroom app.

``python -m gridwidgets play NAME`` plays any game of the registry in a
terminal (``python -m gridwidgets play --help`` lists them); a game from
another package appears once it registers through the ``gridwidgets.games``
entry point. ``python -m gridwidgets classroom`` serves the classroom app
(Voila, see ``docs/classroom.md``).

Each game brings its options and, if it has one, its own dialogue through
its terminal hooks (:meth:`~gridwidgets.core.Game.terminal_arguments`,
:meth:`~gridwidgets.core.Game.terminal_session`). A game without them is
played by :func:`play_game`, the generic loop: the text board
(``str(game)``), moves typed in notation, ``?`` for help and the legal
moves, ``u`` to undo, ``q`` to quit; at a simultaneous node each person
types a hidden submission in turn, with the screen cleared between people
(hot seat, C-5), and agent seats play from ``game.view_for(player)`` only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from .core import registry
from .core.errors import IllegalMoveError

__all__ = ["CLEAR", "generic_arguments", "generic_session", "main", "play_game"]

QUIT = {"q", "quit", "exit"}
HELP = {"?", "h", "help"}
UNDO = {"u", "undo"}
#: ANSI: cursor home, clear the screen and the scrollback (hot seat: hidden submissions, C-5)
CLEAR = "\x1b[H\x1b[2J\x1b[3J"
#: how many legal moves ``?`` lists
SOME = 12


def _console(out: TextIO | None) -> tuple[TextIO, Callable[..., None]]:
    """The stream to print to (``sys.stdout`` by default) and a ``say(text="")``
    that prints a line to it at once."""
    stream = out if out is not None else sys.stdout

    def say(text: str = "") -> None:
        print(text, file=stream, flush=True)

    return stream, say


def _seating(game: Any, agents: Mapping[int, Any] | None) -> tuple[dict[int, Any], list[int]]:
    """The agent seats, and the players who are people (asked through ``read``)."""
    seats = dict(agents or {})
    return seats, [p for p in range(len(game.players)) if p not in seats]


def ask(read: Callable[[str], str], prompt: str, say: Callable[..., None]) -> str | None:
    """One line from a person: the text typed, or ``None`` once they leave
    (end of input, or a word of ``QUIT``), with ``Goodbye.`` said."""
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


def play_game(
    game: Any,
    agents: Mapping[int, Any] | None = None,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> Any:
    """Play ``game`` to its end in a terminal: the generic loop for any game.

    Args:
        game: the game to play on (it may already hold moves).
        agents: ``{player id: agent}`` for the seats agents play; the others
            are people at one keyboard.
        read: the prompt function (``input`` by default).
        out: where to print (``sys.stdout`` by default).

    Returns:
        The same game, over, or as it was left on ``q`` or end of input.
    """
    _, say = _console(out)
    seats, people = _seating(game, agents)
    hot_seat = len(people) > 1
    say(str(game))
    while not game.is_over:
        to_move = game.players_to_move
        p = to_move[0]
        if p in seats:
            move = seats[p].choose(game.view_for(p))
            game.play(move, player=p)
            if not game.is_simultaneous_node() or not game.pending:
                say(f"{game.players[p]} ({seats[p].name}) plays {move}." if not game.pending
                    else f"{game.players[p]} ({seats[p].name}) has chosen.")
                say(str(game))
            continue
        secret = game.is_simultaneous_node()
        if secret and hot_seat and game.pending:
            say(CLEAR + f"{game.players[p]}: your turn to choose; nobody else should look (C-5).")
        legal = game.legal_moves(p) if secret else game.legal_moves()
        example = str(legal[0]) if legal else ""
        text = ask(read, f"{game.players[p]}, your move (e.g. {example}; ? help, u undo, q quit): ", say)
        if text is None:
            return game
        word = text.strip().lower()
        if word in HELP:
            say(game.status())
            if game.how_to_play:
                say(game.how_to_play)
            shown = ", ".join(str(m) for m in legal[:SOME])
            say(f"Legal moves ({len(legal)}): {shown}" + (", ..." if len(legal) > SOME else ""))
            continue
        if word in UNDO:
            try:
                game.undo_until(people)
            except IndexError:
                say("Nothing to undo.")
                continue
            say(str(game))
            continue
        try:
            game.play(text, player=p)
        except (IllegalMoveError, ValueError) as exc:
            say(f"Illegal move: {exc}")
            continue
        if secret and game.pending:
            say(CLEAR + f"{game.players[p]} has chosen." if hot_seat else f"{game.players[p]} has chosen.")
            continue
        say(str(game))
    say(game.status())
    return game


def _option_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def generic_arguments(cls: type, parser: argparse.ArgumentParser) -> None:
    """The options of ``play NAME`` for a game without its own (see
    :meth:`~gridwidgets.core.Game.terminal_arguments`)."""
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


def generic_session(cls: Any, args: argparse.Namespace) -> Callable[[], Any]:
    """Make the game from the parsed options and return a function playing it
    with :func:`play_game` (see :meth:`~gridwidgets.core.Game.terminal_session`).

    Raises:
        ValueError: for a malformed option, an option the game refuses, or a seat that is no player.
    """
    options: dict[str, Any] = {}
    preset = getattr(args, "preset", None)
    if preset is not None:
        options.update(cls.presets[preset][1])
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ValueError(f"--option takes KEY=VALUE, got {item[:40]!r}")
        options[key.strip()] = _option_value(value)
    if args.seed is not None:
        game = cls.new_for_seed(options, args.seed)
    else:
        game = cls(**options)
    seats: dict[int, Any] = {}
    from .agents import RandomAgent

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


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m gridwidgets`` and the ``gridwidgets`` command."""
    games = registry.games()
    parser = argparse.ArgumentParser(prog="python -m gridwidgets", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a game in the terminal",
                          description="Play a game in the terminal. Games: " + ", ".join(games))
    which = play.add_subparsers(dest="game", required=True, metavar="NAME", title="games")
    parsers = {}
    for name, cls in games.items():
        gt = cls.game_type
        parsers[name] = which.add_parser(name, help=str(gt), description=cls.how_to_play or None)
        cls.terminal_arguments(parsers[name])
    room = sub.add_parser(
        "classroom",
        help="serve the classroom page (pick a game, play in the browser, no code) with Voila",
        description="Serve a page where a class picks a game and plays it in the browser, against each other "
        "or an agent, with no code visible (Voila; pip install 'gridwidgets[classroom]'). See docs/classroom.md.",
    )
    room.add_argument("--port", type=int, default=None,
                      help="TCP port (the app: 8866 if free, else any free one; with --rooms: 8765)")
    room.add_argument("--no-browser", action="store_true", help="do not open a web browser, only print the link")
    room.add_argument("--ip", default="127.0.0.1", metavar="ADDRESS",
                      help="address to serve on (default 127.0.0.1: this machine only; 0.0.0.0 opens it to "
                      "the network, at your own risk: see docs/classroom.md)")
    room.add_argument("--theme", choices=("light", "dark"), default="light",
                      help="the page's colours (default light; dark suits a projector in a dark room)")
    rooms = room.add_argument_group(
        "rooms", "--rooms serves a class on several devices instead (Solara; pip install 'gridwidgets[rooms]'): "
        "students join a room with its code and play each other from their own seats; the teacher's page "
        "watches every game. See docs/classroom.md.")
    rooms.add_argument("--rooms", action="store_true", help="serve rooms for a class on several devices")
    rooms.add_argument("--lan", action="store_true",
                       help="class mode: serve on this computer's address on its local network (instead of --ip) "
                       "and print the students' address large, with a QR code")
    rooms.add_argument("--db", default=None, metavar="FILE",
                       help="the rooms' SQLite file (default gridwidgets-rooms.sqlite here; one file per lesson); "
                       "a restart finds every room, seat and game in it")
    rooms.add_argument("--game", default=None, help="open a room of this game at start (default: the first game, "
                       "if the file has no room yet); the same choices again reopen that room")
    rooms.add_argument("--board", default=None, help="that room's board (a key of the game's presets)")
    rooms.add_argument("--pairing", default="arrival", choices=("arrival", "round-robin", "agent"),
                       help="how that room pairs its students (default: in arrival order)")
    rooms.add_argument("--agent", default="random", help="who plays a seat without a student: random, greedy, "
                       "mcts-quick or mcts-strong (default random)")
    rooms.add_argument("--new-teacher-token", action="store_true",
                       help="issue a new teacher token: the old teacher address (and every page it opened) stops "
                       "working")
    rooms.add_argument("--reopen", action="store_true", help="serve a class that was ended (its rooms open again, "
                       "with a new teacher token)")
    rooms.add_argument("--backup", default=None, metavar="FILE",
                       help="write one consistent copy of the rooms' database (--db) to FILE and stop (SQLite's "
                       "online backup: safe while the server runs)")
    args = parser.parse_args(argv)
    if args.command == "classroom" and args.backup:
        from .rooms.server import DEFAULT_DB
        from .rooms.store import StoreError, backup

        try:
            written = backup(args.db or DEFAULT_DB, args.backup)
        except StoreError as exc:
            print(f"gridwidgets classroom: {exc}", file=sys.stderr)
            return 2
        print(f"The class in {args.db or DEFAULT_DB} is backed up to {written}: one file, everything in it.")
        return 0
    if args.command == "classroom" and args.rooms:
        from .rooms.server import DEFAULT_DB, serve_rooms

        try:
            return serve_rooms(args.db or DEFAULT_DB, host=args.ip, port=args.port or 8765, game=args.game,
                               board=args.board, pairing=args.pairing, agent=args.agent,
                               open_browser=not args.no_browser, theme=args.theme, lan=args.lan,
                               new_teacher_token=args.new_teacher_token, reopen=args.reopen)
        except (ImportError, ValueError, OSError) as exc:
            print(f"gridwidgets classroom: {exc}", file=sys.stderr)
            return 2
    if args.command == "classroom":
        from .apps import serve_classroom

        return serve_classroom(port=args.port, ip=args.ip, open_browser=not args.no_browser, theme=args.theme)
    cls = games[args.game]
    try:
        runner = cls.terminal_session(args)
    except (ValueError, argparse.ArgumentTypeError) as exc:
        parsers[args.game].error(str(exc))
    try:
        runner()
    except KeyboardInterrupt:
        print("\nGoodbye.")
        return 130
    return 0


def __getattr__(name: str) -> Any:
    """A game's own terminal functions, by the names of earlier versions (its ``terminal_names`` hook)."""
    try:
        return registry.resolve("terminal_names", name)
    except AttributeError:
        raise AttributeError(f"module 'gridwidgets.cli' has no attribute {name!r}") from None
