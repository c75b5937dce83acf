"""The command line: terminal play of every registered game, and the classroom app.

``python -m gridwidgets play NAME`` plays any game of the registry in a
terminal (``python -m gridwidgets play --help`` lists them); a game from
another package appears once it registers through the ``gridwidgets.games``
entry point. ``python -m gridwidgets classroom`` serves the classroom app
(Voila, see ``docs/classroom.md``). ``python -m gridwidgets gradebook --db
CLASS.sqlite`` writes one gradebook row per student of a class (CSV, for
Moodle or Canvas too: :mod:`gridwidgets.rooms.gradebook`).

The play loop, and each game's own words through its ``terminal_dialogue``
hook, are in :mod:`gridwidgets.terminal`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import terminal
from .core import registry

__all__ = ["main"]

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
        terminal.add_arguments(cls, parsers[name])
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
    rooms.add_argument("--pairing", default="arrival", choices=("arrival", "round-robin", "swiss", "agent"),
                       help="how that room pairs its students (default: in arrival order)")
    rooms.add_argument("--agent", default="random", help="who plays a seat without a student: random, greedy, "
                       "mcts-quick or mcts-strong (default random)")
    rooms.add_argument("--new-teacher-token", action="store_true",
                       help="issue a new teacher token: the old teacher address (and every page it opened) stops "
                       "working")
    rooms.add_argument("--reopen", action="store_true", help="serve a class that was ended (its rooms open again, "
                       "with a new teacher token)")
    rooms.add_argument("--hub", action="store_true",
                       help="serve the rooms as a JupyterHub service, behind the hub's login (address, port and "
                       "tokens from the environment the hub gives a service; pip install 'gridwidgets[hub]'). "
                       "See docs/jupyterhub.md#the-rooms-on-jupyterhub")
    rooms.add_argument("--teacher-group", default="teachers", metavar="GROUP",
                       help="with --hub: the hub group whose members are teachers (hub admins are too; default "
                       "teachers)")
    rooms.add_argument("--students-group", default=None, metavar="GROUP",
                       help="with --hub: only this hub group's members may join (default: any hub user)")
    rooms.add_argument("--roster", default=None, metavar="FILE",
                       help="load the class list from FILE (a CSV: Moodle's user or participants export, Canvas's "
                       "gradebook export, or name,id): students then pick their name when joining, and their seat "
                       "takes the id from the list; it replaces the list the database had")
    rooms.add_argument("--backup", default=None, metavar="FILE",
                       help="write one consistent copy of the rooms' database (--db) to FILE and stop (SQLite's "
                       "online backup: safe while the server runs)")
    book = sub.add_parser(
        "gradebook", help="one gradebook row per student of a class (CSV; plain, Moodle or Canvas)",
        description="Write one row per student of a class, over every room of its database: games played and "
        "points (the agent's in a student's seat apart), polls answered, exercises solved (at the first try and "
        "in all), and nbgrader assignments' points. The database is read from a copy, never changed. See "
        "docs/jupyterhub.md#the-gradebook-one-row-per-student.")
    book.add_argument("--db", required=True, metavar="CLASS.sqlite", help="the rooms' SQLite file of the class")
    book.add_argument("--nbgrader-db", default=None, metavar="FILE",
                      help="nbgrader's gradebook (gradebook.db in the course folder, or a database URL); "
                      "pip install 'gridwidgets[nbgrader]'")
    book.add_argument("--assignment", action="append", default=None, metavar="NAME",
                      help="an nbgrader assignment to add as a column (again for more; default: every assignment "
                      "of --nbgrader-db)")
    book.add_argument("--answers", nargs=2, action="append", default=None, metavar=("SET.json", "PATTERN"),
                      help="students' answers files of an exercise set, re-judged: the set's file and the files' "
                      "path with {student} where the student id is, e.g. course/source/week3/week3.json "
                      "'course/submitted/{student}/week3/week3.answers.jsonl' (again for more sets)")
    book.add_argument("--format", default="plain", choices=("plain", "moodle", "canvas"),
                      help="plain: every column, units in the header; moodle: Moodle's Import grades (CSV file); "
                      "canvas: Canvas's Import grades (default plain)")
    book.add_argument("--id-kind", default="login", choices=("login", "sis"),
                      help="what the student ids are, for the LMS files: login (hub user names: Moodle's username, "
                      "Canvas's SIS Login ID) or sis (class-list ids: Moodle's ID number, Canvas's SIS User ID); "
                      "default login")
    book.add_argument("-o", "--output", default=None, metavar="FILE", help="write to FILE (default: print it)")
    args = parser.parse_args(argv)
    if args.command == "gradebook":
        return _gradebook(args, book)
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
    if args.command == "classroom" and args.hub and not args.rooms:
        print("gridwidgets classroom: --hub serves the rooms: add --rooms", file=sys.stderr)
        return 2
    if args.command == "classroom" and args.rooms:
        from .rooms.server import DEFAULT_DB, serve_rooms

        try:
            hub = None
            if args.hub:
                from .rooms.hub import HubSettings, need_jupyterhub

                need_jupyterhub()
                hub = HubSettings.from_env(teacher_group=args.teacher_group, students_group=args.students_group)
            return serve_rooms(args.db or DEFAULT_DB, host=args.ip, port=args.port or 8765, game=args.game,
                               board=args.board, pairing=args.pairing, agent=args.agent,
                               open_browser=not args.no_browser, theme=args.theme, lan=args.lan,
                               new_teacher_token=args.new_teacher_token, reopen=args.reopen, hub=hub,
                               roster=args.roster)
        except (ImportError, ValueError, OSError) as exc:
            print(f"gridwidgets classroom: {exc}", file=sys.stderr)
            return 2
    if args.command == "classroom":
        from .apps import serve_classroom

        return serve_classroom(port=args.port, ip=args.ip, open_browser=not args.no_browser, theme=args.theme)
    cls = games[args.game]
    try:
        runner = terminal.session(cls, args)
    except (ValueError, argparse.ArgumentTypeError) as exc:
        parsers[args.game].error(str(exc))
    try:
        runner()
    except KeyboardInterrupt:
        print("\nGoodbye.")
        return 130
    return 0


def _gradebook(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``python -m gridwidgets gradebook``: the class's database and nbgrader's, read, never changed."""
    from .rooms import gradebook
    from .rooms.store import StoreError

    if args.assignment and not args.nbgrader_db:
        parser.error("--assignment needs --nbgrader-db (nbgrader's gradebook.db)")
    try:
        rooms = gradebook.read_class(args.db)
        scores = gradebook.nbgrader_scores(args.nbgrader_db, args.assignment) if args.nbgrader_db else []
        answers: dict[str, list[object]] = {}
        for set_file, pattern in args.answers or ():
            from .exercises import ExerciseSet

            for sid, report in gradebook.answers_reports(ExerciseSet.load(set_file), pattern).items():
                answers.setdefault(sid, []).append(report)
        made = gradebook.class_gradebook(rooms, assignments=scores, answers=answers)
        text = gradebook.gradebook_csv(made, args.format, id_kind=args.id_kind)
        if args.output:
            with open(args.output, "w", encoding="utf-8", newline="") as out:
                out.write(text)
        else:
            sys.stdout.write(text)
    except (StoreError, ImportError, ValueError, OSError) as exc:
        print(f"gridwidgets gradebook: {exc}", file=sys.stderr)
        return 2
    if args.output:
        rows = made.students if args.format == "plain" else made.importable()
        left = len(made.students) - len(rows)
        print(f"{args.output}: {len(rows)} students ({args.format})"
              + (f"; {left} left out (no student id, or an id that begins like a formula: see the plain file)"
                 if left else ""), file=sys.stderr)
    return 0
