"""A class's results, back to the class: the table of a room's games, the
standings, plots (win rates by seat, scores by board, and at a game's opening
simultaneous node the choices people made against the equilibrium mix of
:func:`gridwidgets.analysis.equilibrium`), how long the finished games took
(:func:`durations`, :func:`durations_summary`: to plan the next lesson), and
downloads (every game as its save file in one zip; the CSV files are
:mod:`gridwidgets.rooms.exports`').

Every function takes a list of rooms (one room, or every room of a game) and
reads their games under each game's lock. Figures are
:class:`matplotlib.figure.Figure` objects made without pyplot (safe from the
server's threads). Nothing here shows a hidden submission: a game still at a
simultaneous node is read through its public state only.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Sequence
from typing import Any

from . import openings
from .model import AGENT, Room

__all__ = ["MIN_BOX", "MIN_GAMES", "NEUTRAL", "choices_figure", "crosstable", "durations", "durations_summary",
           "results_table", "saves_zip", "scores_figure", "standings", "win_rates_figure"]

#: the finished games a chart needs before it means something (fewer: no chart, and the page says so)
MIN_GAMES = 3
#: the values a box of the scores chart needs (fewer: the games as dots only)
MIN_BOX = 5
#: the charts' colours: greys, none of them a player's (no seat's colour set against the others)
NEUTRAL = {"dark": "#1f2937", "mid": "#9ca3af", "light": "#e5e7eb", "edge": "#4b5563"}


def _rows(rooms: Sequence[Room]) -> list[dict[str, Any]]:
    rows = []
    for room in rooms:
        for rg in list(room.games):
            g = rg.game
            with g.lock:
                over, winners, scores = g.is_over, tuple(g.winners), tuple(g.scores)
                moves, players = len(g.history), list(g.players)
                returns = g.returns()
            row: dict[str, Any] = {"room": room.code, "round": rg.round, "game": rg.id, "board": room.board,
                                   "moves": moves, "over": over}
            for p in range(len(rg.players)):
                row[f"player {p + 1}"] = room.player_name(rg, p)
            row["winner"] = " and ".join(room.player_name(rg, w) for w in winners) if over else ""
            for p in range(len(players)):
                row[f"score {p + 1}"] = scores[p]
                row[f"return {p + 1}"] = returns[p] if over else None
            rows.append(row)
    return rows


def results_table(rooms: Sequence[Room]) -> Any:
    """One row per game of ``rooms``: room code, round, game id, board, moves,
    over, each player's display name (``player 1``, ...; the agent by its name),
    the winner's names (``and`` between the names of a shared win; empty while
    the game goes on; a seat the teacher handed to the agent is named
    ``"<name> (agent)"``), each player's score (what the game's ``scores`` count)
    and return (+1 win, 0 draw, -1 loss: :meth:`~gridwidgets.core.Game.returns`;
    empty while the game goes on).

    Returns:
        a :class:`pandas.DataFrame`, one row per game, oldest first.
    """
    import pandas as pd

    return pd.DataFrame(_rows(rooms))


def _seat_labels(room: Room) -> list[str]:
    """``Player 1 (X)``, ...: the seats of the room's game."""
    if room.games:
        g = room.games[0].game
    else:
        from ..menu import start_game

        g = start_game(room.game_name, room.board)
    return [g.player_label(p) for p in range(len(g.players))]


def _scores(room: Room, through_round: int | None) -> list[tuple[Any, list[float]]]:
    """The room's finished games (up to ``through_round``), each with every
    player's points in it (1 a win, 1/2 a draw or shared win, 0 a loss)."""
    out = []
    for rg in list(room.games):
        points = rg.points() if through_round is None or rg.round <= through_round else None
        if points is not None:
            out.append((rg, points))
    return out


def standings(room: Room, through_round: int | None = None, *, ids: bool = False, public: bool = False) -> Any:
    """The students of ``room``, best first, ranked from 1: games ``played``
    (finished), ``won``, ``drawn``, ``lost`` and ``points`` (1 a win, 1/2 a
    draw or shared win); the tie-breaks chess uses, ``Buchholz`` (the sum of
    the opponents' points) and ``Sonneborn-Berger`` (the opponents' points
    weighted by the points scored against them: all of a beaten opponent's,
    half of a drawn one's; an agent counts 0); then ``played by agent`` and
    ``points by agent``: the games the agent finished in the student's seat
    (the teacher handed it over, :meth:`~gridwidgets.rooms.Room.hand_to_agent`,
    or removed the student mid-game) and the points the agent made there,
    which are the agent's, not the student's: they count in none of the
    columns before (an opponent whose seat the agent held at the end counts 0
    in the tie-breaks, as the agent); then per seat (``points as
    Player 1 (X)``, ...) the games played and the points made in that seat,
    since who moves first matters. Students level on points and both
    tie-breaks share a rank.

    Who finished a game decides: a seat handed to the agent and given back
    before the end is the student's again. Swiss pairing
    (:meth:`~gridwidgets.rooms.Room.points`) counts a seat's results either
    way (it pairs seats of like results), the standings do not.

    Args:
        room: the room.
        through_round: the standings after this round (``None``: now).
        ids: add the ``student id`` column after ``name`` (given at join,
            for grades; ``""`` for none): the teacher's CSV only
            (:func:`~gridwidgets.rooms.exports.standings_csv`), never a page.
        public: name each student as the projector does
            (:meth:`~gridwidgets.rooms.Room.public_name`: ``"Seat 3"`` unless
            the teacher chose names, :attr:`~gridwidgets.rooms.Room.projector_names`).

    Returns:
        a :class:`pandas.DataFrame` with the columns ``rank``, ``name``,
        (``student id``), ``played``, ``won``, ``drawn``, ``lost``, ``points``, ``Buchholz``,
        ``Sonneborn-Berger``, ``played by agent``, ``points by agent``, then
        ``played as <seat>`` and ``points as <seat>`` for each seat; one row
        per student (an agent's seat is not a student).
    """
    import pandas as pd

    seats = _seat_labels(room)
    by_seat = [c for label in seats for c in (f"played as {label}", f"points as {label}")]
    columns = ["name", "student id", "played", "won", "drawn", "lost", "points", "Buchholz", "Sonneborn-Berger",
               "played by agent", "points by agent", *by_seat]
    table = {t: dict.fromkeys(columns, 0) | {"name": room.public_name(t) if public else s.name,
                                             "student id": s.student_id} for t, s in room.seats.items()}
    for row in table.values():
        for column in ("points", "Buchholz", "Sonneborn-Berger", "points by agent",
                       *(f"points as {label}" for label in seats)):
            row[column] = 0.0
    games = _scores(room, through_round)
    for rg, points in games:
        for p, token in enumerate(rg.players):
            if token == AGENT or token not in table:
                continue
            row = table[token]
            if p in rg.handed:  # the agent finished it in the student's seat: the agent's result
                row["played by agent"] += 1
                row["points by agent"] += points[p]
                continue
            row["played"] += 1
            row[f"played as {seats[p]}"] += 1
            row["won" if points[p] == 1.0 else "drawn" if points[p] else "lost"] += 1
            row["points"] += points[p]
            row[f"points as {seats[p]}"] += points[p]
    for rg, points in games:  # the tie-breaks need every student's points first
        for p, token in enumerate(rg.players):
            if token not in table or p in rg.handed:
                continue
            others = sum(table[t]["points"] for q, t in enumerate(rg.players)
                         if q != p and t in table and q not in rg.handed)
            table[token]["Buchholz"] += others
            table[token]["Sonneborn-Berger"] += points[p] * others
    frame = pd.DataFrame(list(table.values()), columns=columns)
    keys = ["points", "Buchholz", "Sonneborn-Berger"]
    # level students in order of name, seats in order of number ("Seat 2" before "Seat 10")
    order = [room.seat_number(t) or 0 for t in table] if public and room.projector_names == "seat" else None
    frame["_order"] = order if order is not None else frame["name"]
    frame = frame.sort_values([*keys, "won", "_order"], ascending=[False, False, False, False, True],
                              ignore_index=True).drop(columns="_order")
    level = list(zip(*(frame[k] for k in keys), strict=True))
    frame.insert(0, "rank", [1 + level.index(v) for v in level])
    return frame if ids else frame.drop(columns="student id")


def crosstable(room: Room, through_round: int | None = None) -> Any | None:
    """Who beat whom: a row and a column per student, in the order of
    :func:`standings`; a cell holds the row student's results against the
    column student, oldest first (``1`` a win, ``½`` a draw, ``0`` a loss),
    an ``agent`` column the results against the agent (a seat the agent held
    at the game's end is the agent's: its row skips the game, and its
    opponent's result goes under ``agent``).

    Returns:
        a :class:`pandas.DataFrame` indexed by name, or ``None`` for a game of
        more than two players (a cross table is for pairs).
    """
    import pandas as pd

    if room.players_per_game != 2:
        return None
    order = standings(room, through_round)["name"].tolist()
    columns = [*order, "agent"]
    cells = {name: dict.fromkeys(columns, "") for name in order}
    mark = {1.0: "1", 0.5: "\u00bd", 0.0: "0"}
    name_of = {t: s.name for t, s in room.seats.items()}
    for rg, points in _scores(room, through_round):
        for p, token in enumerate(rg.players):
            if token not in name_of or p in rg.handed:
                continue
            other = rg.players[1 - p]
            column = "agent" if other == AGENT or 1 - p in rg.handed else name_of.get(other)
            if column is None:
                continue
            row = cells[name_of[token]]
            row[column] = (row[column] + " " + mark[points[p]]).strip()
    frame = pd.DataFrame([cells[name] for name in order], index=order, columns=columns)
    frame.index.name = "name"
    return frame if frame["agent"].astype(bool).any() else frame.drop(columns="agent")


#: the columns of :func:`durations` before the players' names
_DURATION_KEYS = ["room", "round", "game", "board"]
#: the columns of :func:`durations` after the players' names
_DURATION_VALUES = ["moves", "started", "ended", "seconds", "seconds per move"]


def durations(rooms: Sequence[Room]) -> Any:
    """How long each finished game of ``rooms`` took, as measured by the rooms:
    from the game's start (when its players were seated) to its last save
    (its last move), wall-clock time.

    A game still going on is left out, and so is a game whose start is not
    known (written by a gridwidgets before the rooms kept it: started 0).

    Returns:
        a :class:`pandas.DataFrame`, one row per such game, oldest first, with
        the columns ``room`` (code), ``round``, ``game`` (its id in the
        store), ``board``, ``player 1``, ... (display names, as in
        :func:`results_table`), ``moves`` (the game's history length),
        ``started`` and ``ended`` (seconds since the epoch), ``seconds``
        (ended minus started) and ``seconds per move`` (seconds over moves;
        ``NaN`` for a game of no moves). No finished game: no rows, the
        columns ``room`` to ``board`` and ``moves`` to ``seconds per move``.
    """
    import pandas as pd

    rows = []
    for room in rooms:
        for rg in list(room.games):
            with rg.game.lock:
                over, moves = rg.game.is_over, len(rg.game.history)
                started, ended = rg.started, rg.updated
            if not over or started <= 0:
                continue
            row: dict[str, Any] = {"room": room.code, "round": rg.round, "game": rg.id, "board": room.board}
            for p in range(len(rg.players)):
                row[f"player {p + 1}"] = room.player_name(rg, p)
            seconds = max(0.0, ended - started)
            row |= {"moves": moves, "started": started, "ended": ended, "seconds": seconds,
                    "seconds per move": seconds / moves if moves else float("nan")}
            rows.append(row)
    if not rows:
        return pd.DataFrame(columns=[*_DURATION_KEYS, *_DURATION_VALUES])
    frame = pd.DataFrame(rows)
    players = [c for c in frame.columns if c not in _DURATION_KEYS and c not in _DURATION_VALUES]
    return frame[[*_DURATION_KEYS, *players, *_DURATION_VALUES]]


def durations_summary(rooms: Sequence[Room]) -> Any:
    """:func:`durations` per room and board: how long a game takes there.

    Returns:
        a :class:`pandas.DataFrame`, one row per room and board with a
        finished game of known start, with the columns ``room``, ``board``,
        ``games`` (how many), ``median minutes`` and ``90th percentile
        minutes`` (of the games' durations, in minutes; the percentile by
        linear interpolation, :meth:`pandas.Series.quantile`) and ``median
        seconds per move``.
    """
    import pandas as pd

    table = durations(rooms)
    columns = ["room", "board", "games", "median minutes", "90th percentile minutes", "median seconds per move"]
    if table.empty:
        return pd.DataFrame(columns=columns)
    minutes = table["seconds"] / 60.0
    grouped = table.assign(minutes=minutes).groupby(["room", "board"], sort=False)
    out = grouped.agg(**{"games": ("game", "size"), "median minutes": ("minutes", "median"),
                         "90th percentile minutes": ("minutes", lambda m: m.quantile(0.9)),
                         "median seconds per move": ("seconds per move", "median")})
    return out.reset_index()[columns]


def _finished(rooms: Sequence[Room]) -> list[tuple[Room, Any]]:
    out = []
    for room in rooms:
        for rg in list(room.games):
            with rg.game.lock:
                if rg.game.is_over:
                    out.append((room, rg.game.copy()))
    return out


def _axes() -> tuple[Any, Any]:
    """A figure of one panel for the results page."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.5, 3.2), layout="constrained")
    return fig, fig.add_subplot()


def win_rates_figure(rooms: Sequence[Room]) -> Any | None:
    """Win, draw and loss rates by seat (player id: who moves first matters)
    over the finished games of ``rooms``: one stacked bar per seat, in
    greys (:data:`NEUTRAL`: no seat's colour against the others).

    Returns:
        a :class:`matplotlib.figure.Figure` (its title says how many games),
        or ``None`` before :data:`MIN_GAMES` games are finished (a rate of one
        game means nothing).
    """
    games = [g for _room, g in _finished(rooms)]
    if len(games) < MIN_GAMES:
        return None
    fig, ax = _axes()
    n = len(games[0].players)
    labels = [games[0].player_label(p) for p in range(n)]
    won = [sum(1 for g in games if g.winners == (p,)) / len(games) for p in range(n)]
    drawn = [sum(1 for g in games if p in g.winners and len(g.winners) > 1) / len(games) for p in range(n)]
    lost = [1 - w - d for w, d in zip(won, drawn, strict=True)]
    edge = {"edgecolor": NEUTRAL["edge"], "linewidth": 0.8}
    ax.bar(labels, won, color=NEUTRAL["dark"], label="won", **edge)
    ax.bar(labels, drawn, bottom=won, color=NEUTRAL["mid"], label="drawn or shared", **edge)
    ax.bar(labels, lost, bottom=[w + d for w, d in zip(won, drawn, strict=True)], color=NEUTRAL["light"],
           label="lost", **edge)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games")
    ax.set_title(f"Results by seat, {len(games)} finished games")
    ax.legend(loc="upper right", fontsize="small")
    return fig


def scores_figure(rooms: Sequence[Room]) -> Any | None:
    """Each seat's final score (what the game's ``scores`` count, its
    ``score_label``) by board, over the finished games of ``rooms``: the
    games as dots, with a box per seat and board that has at least
    :data:`MIN_BOX` of them.

    Returns:
        a :class:`matplotlib.figure.Figure`, or ``None`` before
        :data:`MIN_GAMES` games are finished.
    """
    done = _finished(rooms)
    if len(done) < MIN_GAMES:
        return None
    fig, ax = _axes()
    first = done[0][1]
    n = len(first.players)
    boards = sorted({room.board for room, _g in done})
    data, labels = [], []
    for board in boards:
        for p in range(n):
            data.append([g.scores[p] for room, g in done if room.board == board])
            labels.append(f"{first.player_label(p)}\n{board}" if len(boards) > 1 else first.player_label(p))
    boxed = [i for i, values in enumerate(data, start=1) if len(values) >= MIN_BOX]
    if boxed:
        ax.boxplot([data[i - 1] for i in boxed], positions=boxed, widths=0.5,
                   medianprops={"color": NEUTRAL["dark"]}, boxprops={"color": NEUTRAL["edge"]})
    for i, values in enumerate(data, start=1):
        ax.plot([i] * len(values), values, "o", color=NEUTRAL["dark"], alpha=0.5, markersize=4)
    ax.set_xticks(range(1, len(data) + 1), labels)
    ax.set_xlim(0.5, len(data) + 0.5)
    ax.set_ylabel(type(first).score_label)
    ax.set_title(f"{type(first).score_label} by seat" + (" and board" if len(boards) > 1 else ""))
    return fig


def choices_figure(rooms: Sequence[Room]) -> Any | None:
    """At a game whose opening position is a simultaneous node of two players
    (both choose at once, in secret): the share of each choice people made
    there, and, where the opening is solved exactly
    (:func:`gridwidgets.rooms.openings.equilibrium`: the node's matrix of the
    exact values of the rest of the game), what the class's mix gives away
    against a best reply (its *exploitability* in that matrix, 0 for an
    equilibrium mix: the stable measure, where comparing mix with mix is not,
    a game having several equilibrium mixes), with one equilibrium mix drawn
    as dots for reference. An opening the solver does not settle (a game far
    from its end, such as the first bid of a long game) has no equilibrium: the panel
    says so and shows the choices only. Games from openings that differ (a
    setup drawn by chance) are measured opening by opening and the figures
    averaged, weighted by games. One panel per player; each opening is solved
    once per server, as soon as its room starts the game
    (:mod:`gridwidgets.rooms.openings`).

    Returns:
        a :class:`matplotlib.figure.Figure`, or ``None`` when no game of
        ``rooms`` opens with a simultaneous node of two players that was played.
    """
    import numpy as np
    from matplotlib.figure import Figure

    from ..core.moves import JointMove

    chosen: list[list[str]] = [[], []]
    by_opening: dict[str, dict[str, Any]] = {}  # opening key -> {"node", "choices": [[x's], [o's]]}
    label = None
    n = 0
    for room in rooms:
        for rg in list(room.games):
            with rg.game.lock:
                game = rg.game.copy()
            steps = game.steps
            if len(game.players) != 2 or not steps or not isinstance(steps[0].decision, JointMove):
                continue
            n += 1
            label = game.player_label
            k = openings.key(game)
            entry = by_opening.setdefault(k, {"game": game, "choices": [[], []]})
            for p, move in zip(steps[0].decision.players, steps[0].decision.moves, strict=True):
                chosen[p].append(str(move))
                entry["choices"][p].append(str(move))
    if n == 0 or label is None:
        return None
    given: list[list[tuple[float, int]]] = [[], []]  # per player: (exploitability, games) per solved opening
    mixes: list[dict[str, float]] = [{}, {}]
    solved_games = 0
    for entry in by_opening.values():
        node = openings.equilibrium(entry["game"])
        if node is None:
            continue
        games = len(entry["choices"][0])
        solved_games += games
        values = np.asarray(node.lower, dtype=float)
        for p, labels, eq in ((0, node.rows, node.x), (1, node.cols, node.y)):
            picks = entry["choices"][p]
            mix = np.array([picks.count(lab) / len(picks) for lab in labels])
            if p == 0:
                away = max(0.0, float(node.value) - float((mix @ values).min()))
            else:
                away = max(0.0, float((values @ mix).max()) - float(node.value))
            given[p].append((away, games))
            for lab, q in zip(labels, eq, strict=True):
                mixes[p][lab] = mixes[p].get(lab, 0.0) + float(q) * games
    fig = Figure(figsize=(9, 3.4), layout="constrained")
    for p in (0, 1):
        ax = fig.add_subplot(1, 2, p + 1)
        names = sorted(set(chosen[p]) | {lab for lab, q in mixes[p].items() if q > 0})
        shares = [chosen[p].count(name) / n for name in names]
        xs = range(len(names))
        ax.bar(list(xs), shares, width=0.6, color=NEUTRAL["dark"], edgecolor=NEUTRAL["edge"],
               label=f"chosen ({n} games)")
        if solved_games:
            eq = [mixes[p].get(name, 0.0) / solved_games for name in names]
            ax.plot(list(xs), eq, "o", color=NEUTRAL["edge"], markerfacecolor="white", markersize=7,
                    label="an equilibrium mix (exact)")
            away = sum(a * g for a, g in given[p]) / sum(g for _, g in given[p])
            part = "" if solved_games == n else f", {solved_games} of {n} games"
            title = f"{label(p)}: gives away {away:.2f}{part}"
        else:
            title = f"{label(p)}: first choice"
        ax.set_xticks(list(xs), names, rotation=45 if len(names) > 5 else 0)
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of games")
        ax.set_title(title, fontsize=10)
        ax.legend(fontsize="small")
    if solved_games:
        fig.suptitle("What people chose at the opening; 'gives away': the exploitability of the class's mix "
                     "(0 at an equilibrium)", fontsize=10)
    else:
        fig.suptitle("What people chose at the opening. No exact equilibrium: the opening is too far from the "
                     "end of the game to solve", fontsize=10)
    return fig


def saves_zip(rooms: Sequence[Room]) -> bytes:
    """Every game of ``rooms`` as its save file (:meth:`~gridwidgets.core.Game.to_json`;
    the game class's ``from_json`` reads each back), ``<room>-round<r>-game<id>.json``,
    in one zip archive; a hidden submission still pending is not in it. Beside
    them, ``games.json`` lists each file with its room, round, game id, game
    and the players' display names exactly as given (JSON: no spreadsheet reads it).

    Returns:
        the zip file's bytes.
    """
    buffer = io.BytesIO()
    index = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for room in rooms:
            for rg in list(room.games):
                with rg.game.lock:
                    text = rg.game.to_json()
                file = f"{room.code}-round{rg.round}-game{rg.id}.json"
                archive.writestr(file, text)
                index.append({"file": file, "room": room.code, "round": rg.round, "game": rg.id,
                              "name": room.game_name, "board": room.board,
                              "players": [room.name_of(t) for t in rg.players],
                              "agent_players": sorted(rg.agent_players())})
        archive.writestr("games.json", json.dumps(index, ensure_ascii=False, indent=1))
    return buffer.getvalue()
