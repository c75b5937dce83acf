"""Gridlock in a terminal: the seed's dialogue, word for word (GL-6).

The prompt ``Player 1 (X), it's your turn. Enter your move (row and
column):``, the confirmation ``You placed an 'X' at position (2,2).``, the
invalid-move message and the final line. Reached through the game's terminal
hooks (``python -m gridwidgets play gridlock``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TextIO

from ...cli import _console, ask
from ...core.errors import IllegalMoveError
from ..gridlock import Gridlock

__all__ = ["play_gridlock"]

ADJACENT = "Invalid move. You cannot place next to an opponent's marker. Please choose a different cell."
OCCUPIED = "Invalid move. That cell is already taken. Please choose a different cell."


def play_gridlock(
    game: Gridlock,
    read: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> Gridlock:
    """Play ``game`` to its end in a terminal with the seed's dialogue (GL-6).

    Args:
        game: the game to play on (it may already hold moves).
        read: the prompt function (``input`` by default).
        out: where to print (``sys.stdout`` by default).

    Returns:
        The same game, over. Ends early, leaving the game as it is, on end
        of input or when ``quit`` is typed.
    """
    _, say = _console(out)

    say(str(game))
    while not game.is_over:
        p = game.current_player
        assert p is not None
        prompt = f"Player {p + 1} ({game.players[p]}), it's your turn. Enter your move (row and column): "
        text = ask(read, prompt, say)
        if text is None:
            return game
        try:
            move = game.play(text)
        except IllegalMoveError as exc:
            say(_invalid(game, exc))
            continue
        r, c = move.cell
        say(f"You placed an '{game.players[p]}' at position ({r + 1},{c + 1}).")
        say(str(game))
    loser = game.player_to_move
    say(f"Player {loser + 1} ({game.players[loser]}), it's your turn. Enter your move (row and column):")
    # the seed's final line (GL-6), word for word; status() names both marks
    winner = 1 - loser
    say(f"Player {loser + 1} has no legal moves remaining. "
        f"Player {winner + 1} ({game.players[winner]}) wins the game!")
    return game


def _invalid(game: Gridlock, exc: IllegalMoveError) -> str:
    if exc.rule == "GL-3":
        return OCCUPIED if "not empty" in str(exc) else ADJACENT
    if exc.rule == "C-1":
        return (
            f"Invalid move. Rows must be 1 to {game.rows} and columns 1 to {game.cols}. "
            "Please choose a different cell."
        )
    return "Invalid input. Enter the row and column as two numbers, for example: 2 2"



def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rows", type=int, default=4, help="board rows, 1-26 (default 4)")
    parser.add_argument("--cols", type=int, default=4, help="board columns, 1-26 (default 4)")


def session(args: argparse.Namespace) -> Callable[[], Any]:
    game = Gridlock(rows=args.rows, cols=args.cols)
    return lambda: play_gridlock(game)
