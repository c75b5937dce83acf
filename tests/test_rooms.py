"""Classroom rooms (gridwidgets.rooms): seats and tokens, pairings, the
teacher's actions, hidden submissions per seat, and a real SQLite file that
brings every room, seat and game back after a restart."""

from __future__ import annotations

import sqlite3

import pytest

from gridwidgets import IllegalMoveError
from gridwidgets.core import registry
from gridwidgets.rooms import AGENT, PAIRINGS, RoomError, Rooms, Store


@pytest.fixture
def db(tmp_path):
    return tmp_path / "class.sqlite"


def test_arrival_pairs_students_in_order_and_a_move_is_on_disk_before_play_returns(db):
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock")
    ann = room.join("Ann")
    assert room.waiting() == [ann]
    with pytest.raises(RoomError, match="no game yet"):
        room.play(ann.token, "B2")
    bob = room.join("  Bob  ")
    assert bob.name == "Bob" and room.waiting() == []
    rg, p = room.game_of(ann.token)
    assert (p, rg.player_of(bob.token)) == (0, 1)  # first to arrive moves first
    room.play(ann.token, "B2")
    # on disk already: another connection reads the move
    with sqlite3.connect(db) as other:
        (save,) = other.execute("SELECT save FROM games WHERE id = ?", (rg.id,)).fetchone()
    assert '"B2"' in save


def test_a_seat_plays_only_for_itself_and_only_in_turn(db):
    room = Rooms(Store(db)).create("gridlock")
    ann, bob = room.join("Ann"), room.join("Bob")
    g = room.game_of(ann.token)[0].game
    with pytest.raises(RoomError, match="not Player 2"):
        room.play(bob.token, "B2")  # X (Ann) is to move
    with pytest.raises(RoomError, match="no seat"):
        room.play("not-a-token", "B2")
    with pytest.raises(RoomError, match="no seat"):
        room.play(None, "B2")
    with pytest.raises(IllegalMoveError):
        room.play(ann.token, "Z9")
    assert g.history == []
    room.play(ann.token, "B2")
    room.play(bob.token, "D4")
    assert [str(m) for m in g.history] == ["B2", "D4"]


def test_the_teacher_pauses_with_the_teacher_token_only(db):
    room = Rooms(Store(db)).create("gridlock")
    ann, _bob = room.join("Ann"), room.join("Bob")
    with pytest.raises(RoomError, match="teacher"):
        room.set_paused(ann.token, True)
    room.set_paused(room.teacher_token, True)
    with pytest.raises(RoomError, match="paused"):
        room.play(ann.token, "B2")
    room.set_paused(room.teacher_token, False)
    room.play(ann.token, "B2")


def test_bf5_a_seat_sees_its_own_bid_and_never_the_other(db):
    room = Rooms(Store(db)).create("blockfour")
    x, o = room.join("X player"), room.join("O player")
    g = room.game_of(x.token)[0].game
    bid = g.legal_moves(0)[0]
    room.play(x.token, bid)
    assert room.view(x.token).hidden_submissions()[0] == bid
    other = room.view(o.token)
    assert other.pending == (0,)
    hidden = other.hidden_submissions()[0]  # a placeholder, not X's cards (BF-5)
    assert hidden != bid and not set(bid.cards) & set(getattr(hidden, "cards", ()))


def test_agent_pairing_seats_each_student_against_the_agent_which_moves(db):
    room = Rooms(Store(db)).create("gridlock", pairing="agent", agent="random")
    ann = room.join("Ann")
    rg, p = room.game_of(ann.token)
    assert p == 0 and rg.players == [ann.token, AGENT]
    assert room.step_agents() == 0  # X (Ann) is to move
    room.play(ann.token, "B2")
    assert room.step_agents() == 1 and len(rg.game.history) == 2


def test_round_robin_meets_everyone_once_over_the_rounds(db):
    room = Rooms(Store(db)).create("gridlock", pairing="round-robin")
    seats = [room.join(n) for n in "ABCD"]
    assert room.waiting() == seats  # nobody plays before the teacher starts a round
    met = set()
    for _ in range(3):
        games = room.next_round(room.teacher_token)
        assert sorted(t for g in games for t in g.players) == sorted(s.token for s in seats)
        met |= {frozenset(g.players) for g in games}
    assert len(met) == 6  # all pairs of four, once each
    odd = Rooms(Store(":memory:")).create("gridlock", pairing="round-robin")
    for n in "ABC":
        odd.join(n)
    games = odd.next_round(odd.teacher_token)
    assert sum(AGENT in g.players for g in games) == 1


def test_round_progress_counts_this_rounds_games_over_not_the_last_rounds(db):
    room = Rooms(Store(db)).create("gridlock", board="4x4", pairing="round-robin")
    for n in "ABCD":
        room.join(n)
    assert room.round_progress() == (0, 0)  # no round started yet
    first = room.next_round(room.teacher_token)
    assert room.round_progress() == (0, 2)
    _finish(room, first[:1], lambda rg: None)
    assert room.round_progress() == (1, 2)
    _finish(room, first[1:], lambda rg: None)
    assert room.round_progress() == (2, 2)
    room.next_round(room.teacher_token)  # the finished round's games no longer count
    assert room.round_progress() == (0, 2)


def _finish(room, games, winner_of):
    """Play each of ``games`` to its end so that ``winner_of(game)`` (0 or 1, or None: any) wins, with legal moves
    (random games from the start until one ends so)."""
    import random

    rnd = random.Random(0)
    for rg in games:
        g, want = rg.game, winner_of(rg)
        while True:
            while not g.is_over:
                g.play(rnd.choice(g.legal_moves()))
            if want is None or g.winners == (want,):
                break
            g.goto(0)


def test_swiss_pairs_equal_points_never_twice_balances_who_moves_first_and_rotates_the_agent(db):
    room = Rooms(Store(db)).create("gridlock", board="4x4", pairing="swiss")
    seats = [room.join(n) for n in ("Ann", "Bob", "Cy", "Dee", "Eve")]
    assert room.waiting() == seats  # nobody plays before the teacher starts a round
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for _ in range(3):
        games = room.next_round(room.teacher_token)
        assert sorted(t for g in games for t in g.players if t != AGENT) == sorted(s.token for s in seats)
        pairs = [g for g in games if AGENT not in g.players]
        byes += [t for g in games if AGENT in g.players for t in g.players if t != AGENT]
        for g in pairs:
            assert frozenset(g.players) not in met, "a rematch while a fresh opponent was free"
            met.add(frozenset(g.players))
        _finish(room, games, lambda rg: 0)
    assert len(set(byes)) == 3, "the agent's game goes to a new student each round"
    first = {s.token: sum(1 for g in room.games if g.players[0] == s.token) for s in seats}
    assert max(first.values()) - min(first.values()) <= 2


def test_swiss_puts_the_leaders_together(db):
    room = Rooms(Store(db)).create("gridlock", board="4x4", pairing="swiss")
    seats = [room.join(n) for n in ("Ann", "Bob", "Cy", "Dee")]
    first = room.next_round(room.teacher_token)
    _finish(room, first, lambda rg: 0)
    winners = {g.players[0] for g in first}
    second = room.next_round(room.teacher_token)
    assert frozenset(winners) in {frozenset(g.players) for g in second}, "the two winners meet in round 2"
    assert len(seats) == 4


def test_standings_after_each_round_with_chess_tie_breaks_and_a_cross_table_survive_a_restart(db):
    from gridwidgets.rooms import results

    room = Rooms(Store(db)).create("gridlock", pairing="round-robin")
    names = ["Ann", "Bob", "Cy", "Dee"]
    for n in names:
        room.join(n)
    rounds = []
    for _ in range(3):
        games = room.next_round(room.teacher_token)
        rounds.append(games[0].round)
        _finish(room, games, lambda rg: 0 if rg.id % 3 else 1)  # a mix of first and second movers winning
    name = {t: s.name for t, s in room.seats.items()}
    won = [(name[rg.players[rg.game.winner]], name[rg.players[1 - rg.game.winner]], rg.round) for rg in room.games]

    def expected(last):  # by hand: points, Buchholz, Sonneborn-Berger (no draws in Gridlock)
        games = [(w, lo) for w, lo, r in won if r <= last]
        pts = {n: sum(1 for w, _ in games if w == n) for n in names}
        buch = {n: sum(pts[lo if w == n else w] for w, lo in games if n in (w, lo)) for n in names}
        sb = {n: sum(pts[lo] for w, lo in games if w == n) for n in names}
        return {n: (pts[n], buch[n], sb[n]) for n in names}

    for last in (rounds[0], rounds[-1]):
        table = results.standings(room, through_round=last)
        got = {r["name"]: (r["points"], r["Buchholz"], r["Sonneborn-Berger"]) for _, r in table.iterrows()}
        assert got == expected(last)
        keys = list(zip(table["points"], table["Buchholz"], table["Sonneborn-Berger"], strict=True))
        assert keys == sorted(keys, reverse=True) and table["rank"].iloc[0] == 1
        assert all(table["rank"][i] == table["rank"][i - 1] for i in range(1, 4) if keys[i] == keys[i - 1])
    cross = results.crosstable(room)
    for w, lo, _r in won:
        assert "1" in cross.loc[w, lo].split() and "0" in cross.loc[lo, w].split()
    assert list(cross.index) == list(results.standings(room)["name"]) and "agent" not in cross.columns
    before = results.standings(room)
    room.store.close()
    again = Rooms(Store(db)).room(room.code)
    assert results.standings(again).equals(before)  # standings survive a restart


def test_a_restarted_server_finds_every_room_seat_and_game_as_it_was(db):
    store = Store(db)
    rooms = Rooms(store)
    first = rooms.create("gridlock")
    ann, bob = first.join("Ann"), first.join("Bob")
    first.play(ann.token, "B2")
    first.play(bob.token, "D4")
    bids = rooms.create("blockfour")
    x, _o = bids.join("X"), bids.join("O")
    bid = bids.game_of(x.token)[0].game.legal_moves(0)[-1]
    bids.play(x.token, bid)  # hidden, pending
    before = {r.code: [(g.players, g.game.to_json(), g.game.hidden_submissions()) for g in r.games]
              for r in rooms.rooms()}
    store.close()  # the server stops

    again = Rooms(Store(db))
    after = {r.code: [(g.players, g.game.to_json(), g.game.hidden_submissions()) for g in r.games]
             for r in again.rooms()}
    assert after == before
    room = again.room(first.code.lower())
    assert room.teacher_token == first.teacher_token and room.seat(ann.token).name == "Ann"
    room.play(ann.token, "A1")  # the game goes on, for the same seat tokens
    assert [str(m) for m in room.game_of(bob.token)[0].game.history] == ["B2", "D4", "A1"]


@pytest.mark.parametrize("name", ["", "   ", "x" * 31, "bell\x07", 42, None])
def test_a_bad_display_name_is_refused_and_seats_nobody(name, db):
    room = Rooms(Store(db)).create("gridlock")
    with pytest.raises(ValueError):
        room.join(name)
    assert room.seats == {}


def test_a_full_room_seats_nobody_more(db, monkeypatch):
    from gridwidgets.rooms import model

    monkeypatch.setattr(model, "MAX_SEATS", 3)
    room = Rooms(Store(db)).create("gridlock")
    for n in "ABC":
        room.join(n)
    with pytest.raises(RoomError, match="full"):
        room.join("D")
    assert len(room.seats) == 3


def test_bad_room_choices_and_codes_are_refused(db):
    rooms = Rooms(Store(db))
    with pytest.raises(ValueError, match="pairing"):
        rooms.create("gridlock", pairing="random")
    with pytest.raises(ValueError, match="agent"):
        rooms.create("gridlock", agent="oracle")
    with pytest.raises(ValueError, match="unknown game"):
        rooms.create("chess")
    with pytest.raises(RoomError, match="no room"):
        rooms.room("Q" * 10_000)
    assert set(PAIRINGS) == {"arrival", "round-robin", "swiss", "agent"}
    assert all(name in registry.names() for name in {r.game_name for r in rooms.rooms()})


# -- every registered game, played to the end from seats; results and downloads ----------------
def _play_out(room, seats, seed=0):
    """Random legal moves from the seats until every game of the round is over."""
    import random

    rnd = random.Random(seed)
    for rg in room.games:
        g = rg.game
        while not g.is_over:
            for p in g.players_to_move:
                room.play(rg.players[p], rnd.choice(g.legal_moves(p)))


@pytest.mark.parametrize("name", registry.names())
def test_every_game_plays_to_the_end_from_seats_and_its_results_and_saves_come_back(name, db):
    import io
    import zipfile

    from gridwidgets.rooms import exports, results

    room = Rooms(Store(db)).create(name)
    n = room.players_per_game
    names = [f"Student {k}" for k in range(2 * n)]
    seats = [room.join(name) for name in names]
    assert len(room.games) == 2 and room.waiting() == []  # seated as they arrived, n a game
    _play_out(room, seats)
    table = results.results_table([room])
    for p in range(n):
        assert list(table[f"player {p + 1}"]) == [names[p], names[n + p]]
    for (_, row), rg in zip(table.iterrows(), room.games, strict=True):
        assert row["over"] and row["moves"] == len(rg.game.history)
        assert row["winner"] == " and ".join(room.name_of(rg.players[w]) for w in rg.game.winners)
        assert [row[f"return {p + 1}"] for p in range(n)] == list(rg.game.returns())
    csv = exports.results_csv([room]).splitlines()
    assert csv[0].startswith("room,round,game,board,moves,over,player 1,player 2,") and len(csv) == 3
    standings = results.standings(room)
    assert standings["played"].tolist() == [1] * (2 * n)
    won = sum(1 for rg in room.games if len(rg.game.winners) == 1)
    assert standings["won"].sum() == won
    assert standings["rank"].iloc[0] == 1 and standings["rank"].is_monotonic_increasing
    labels = [room.games[0].game.player_label(p) for p in range(n)]
    assert [standings[f"played as {label}"].sum() for label in labels] == [2] * n  # each seat, both games
    assert standings["points"].tolist() == [sum(standings[f"points as {label}"].iloc[k] for label in labels)
                                           for k in range(2 * n)]
    assert exports.standings_csv(room).splitlines()[0].startswith("rank,name,student id,played,won,drawn,lost,points,")
    with zipfile.ZipFile(io.BytesIO(results.saves_zip([room]))) as archive:
        names = [n for n in archive.namelist() if n != "games.json"]
        assert len(names) == 2
        for file, rg in zip(names, room.games, strict=True):
            again = registry.get(name).from_json(archive.read(file).decode())
            assert again.to_json() == rg.game.to_json()
    # two games: too few for a chart to mean anything
    assert results.win_rates_figure([room]) is None and results.scores_figure([room]) is None


def test_standings_rank_from_one_level_students_share_a_rank_and_names_are_safe_in_the_csv(db):
    from gridwidgets.rooms import exports, results

    room = Rooms(Store(db)).create("gridlock")
    ids = {"=SUM(A1)": "s-1", "Bea": "s-2", "Cy": "", "Dee": "@s3"}
    for name, student_id in ids.items():
        room.join(name, student_id=student_id)
    _play_out(room, None, seed=2)
    table = results.standings(room)
    assert table["rank"].tolist()[0] == 1 and set(table["rank"]) <= {1, 2, 3, 4}
    for points in set(table["points"]):
        level = table[table["points"] == points]
        assert level["rank"].nunique() == level["won"].nunique()  # level on points and wins: one rank
    csv = exports.standings_csv(room)
    assert "'=SUM(A1)" in csv and ",=SUM" not in csv
    assert "student id" not in table.columns  # what a page draws carries no id
    with_ids = results.standings(room, ids=True)
    assert dict(zip(with_ids["name"], with_ids["student id"], strict=True)) == ids
    assert "'@s3" in csv  # a student id is a text cell too: no formula


def test_charts_need_enough_games_and_use_no_seats_colour(db):
    from matplotlib.colors import to_hex

    from gridwidgets.core.draw import PLAYER_COLOURS
    from gridwidgets.rooms import results

    room = Rooms(Store(db)).create("gridlock")
    for k in range(2 * results.MIN_GAMES):
        room.join(f"S{k}")
    _play_out(room, None, seed=4)
    rates, scores = results.win_rates_figure([room]), results.scores_figure([room])
    assert rates is not None and scores is not None
    bars = [to_hex(p.get_facecolor()) for p in rates.axes[0].patches]
    assert bars and set(bars) <= set(results.NEUTRAL.values())
    assert not {c.lower() for c in PLAYER_COLOURS} & set(bars)
    # fewer than MIN_BOX games per seat: the games as dots, no box
    assert results.MIN_GAMES < results.MIN_BOX and not scores.axes[0].patches


def test_an_opening_is_solved_once_whatever_was_played_after_it(db, monkeypatch):
    from gridwidgets import analysis
    from gridwidgets.rooms import openings

    name = next(n for n in registry.names() if registry.get(n).game_type.simultaneous)
    calls = []
    real = analysis.solve_simultaneous
    monkeypatch.setattr(analysis, "solve_simultaneous", lambda g, **kw: calls.append(1) or real(g, **kw))
    monkeypatch.setattr(openings, "OPENING_SECONDS", 0.2)
    openings.forget()
    a, b = registry.get(name).new_for_seed({}, 1), registry.get(name).new_for_seed({}, 1)
    assert openings.opens_with_a_choice(a) and openings.key(a) == openings.key(b)
    for g, seed in ((a, 1), (b, 2)):  # two games from the same opening, played differently
        import random

        rnd = random.Random(seed)
        for _ in range(4):
            for p in g.players_to_move:
                g.play(rnd.choice(g.legal_moves(p)), player=p)
    assert openings.key(a) == openings.key(b)
    first = openings.equilibrium(a)
    assert openings.equilibrium(b) is first and len(calls) == 1
    assert first is None  # a first bid depends on the whole game: not solved in 0.2 s, so no equilibrium


def test_after_two_openings_of_a_game_fail_the_others_are_not_tried(monkeypatch):
    from gridwidgets import analysis
    from gridwidgets.rooms import openings

    name = next(n for n in registry.names() if registry.get(n).game_type.simultaneous)
    calls = []
    real = analysis.solve_simultaneous
    monkeypatch.setattr(analysis, "solve_simultaneous", lambda g, **kw: calls.append(1) or real(g, **kw))
    monkeypatch.setattr(openings, "OPENING_SECONDS", 0.2)
    openings.forget()
    for seed in range(5):
        assert openings.equilibrium(registry.get(name).new_for_seed({}, seed)) is None
    assert len(calls) == openings.MAX_UNSOLVED


def test_a_room_solves_its_games_opening_as_it_starts_them(db, monkeypatch):
    import time

    from gridwidgets.rooms import openings

    monkeypatch.setattr(openings, "OPENING_SECONDS", 0.5)
    name = next(n for n in registry.names() if registry.get(n).game_type.simultaneous)
    openings.forget()
    room = Rooms(Store(db)).create(name)
    room.join("A"), room.join("B")
    k = openings.key(room.games[0].game)
    deadline = time.monotonic() + 60
    while k not in openings._solved and time.monotonic() < deadline:
        time.sleep(0.05)
    assert k in openings._solved, "the room's first game's opening was not tried ahead of time within 60 s"


def test_the_choices_figure_measures_the_class_mix_where_the_opening_is_solved_and_is_none_without_one(
        db, monkeypatch):
    import numpy as np

    from gridwidgets.analysis import SimultaneousNode
    from gridwidgets.rooms import openings, results

    monkeypatch.setattr(openings, "OPENING_SECONDS", 0.2)
    openings.forget()
    rooms = Rooms(Store(db))
    simultaneous = [n for n in registry.names() if registry.get(n).game_type.simultaneous]
    sequential = [n for n in registry.names() if not registry.get(n).game_type.simultaneous]
    plain = rooms.create(sequential[0])
    plain.join("A"), plain.join("B")
    _play_out(plain, None)
    assert results.choices_figure([plain]) is None
    room = rooms.create(simultaneous[0])
    for n in ("A", "B", "C", "D"):
        room.join(n)
    _play_out(room, None, seed=3)
    # an opening far from the end: no equilibrium, the class's choices only
    fig = results.choices_figure([room])
    left = fig.axes[0]
    labels = [t.get_text() for t in left.get_xticklabels()]
    first_choices = [str(rg.game.steps[0].decision.moves[0]) for rg in room.games]
    (chosen,) = left.containers
    assert [b.get_height() for b in chosen] == [first_choices.count(label) / 2 for label in labels]
    assert "No exact equilibrium" in fig._suptitle.get_text() and not left.lines
    # an opening solved exactly (here a made-up matrix): what the class's mix gives away, in the title
    opening = room.games[0].game.copy()
    opening.goto(0)
    xs, os_ = [str(m) for m in opening.legal_moves(0)], [str(m) for m in opening.legal_moves(1)]
    values = np.ones((len(xs), len(os_)))
    values[:, 0] = -1.0  # O's first bid wins against every bid of X: value -1, X's any mix
    node = SimultaneousNode(rows=xs, cols=os_, value=-1.0, x=np.eye(len(xs))[0], y=np.eye(len(os_))[0],
                            lower=values, upper=values)
    monkeypatch.setattr(openings, "equilibrium", lambda g: node)
    fig = results.choices_figure([room])
    o_choices = [str(rg.game.steps[0].decision.moves[1]) for rg in room.games]
    share_first = o_choices.count(os_[0]) / len(o_choices)
    away = (1 - share_first) * 2  # = value of X's best reply (+1 - 2 * share) minus O's value (-1)
    assert f"gives away {away:.2f}" in fig.axes[1].get_title()
    assert "gives away 0.00" in fig.axes[0].get_title()  # X cannot do better than -1: any mix is optimal


# -- undo: the teacher's, or both players' by agreement ---------------------------------------
def test_undo_needs_both_students_or_the_teacher(db):
    room = Rooms(Store(db)).create("gridlock")
    ann, bob = room.join("Ann"), room.join("Bob")
    rg, _ = room.game_of(ann.token)
    with pytest.raises(RoomError, match="nothing to undo"):
        room.ask_undo(ann.token)
    room.play(ann.token, "B2")
    room.play(bob.token, "D4")
    assert room.ask_undo(bob.token) is False and room.undo_asked(rg.id) == [bob.token]
    assert len(rg.game.history) == 2  # one ask undoes nothing
    room.play(ann.token, "A1")  # a move in between: the ask lapses
    assert room.undo_asked(rg.id) == []
    assert room.ask_undo(ann.token) is False
    assert room.ask_undo(bob.token) is True
    assert [str(m) for m in rg.game.history] == ["B2", "D4"]
    with pytest.raises(RoomError, match="teacher"):
        room.teacher_undo(ann.token, rg.id)
    room.teacher_undo(room.teacher_token, rg.id)
    assert [str(m) for m in rg.game.history] == ["B2"]
    with pytest.raises(RoomError, match="no game"):
        room.teacher_undo(room.teacher_token, 999)


def test_against_the_agent_a_students_undo_goes_back_to_their_own_turn(db):
    room = Rooms(Store(db)).create("gridlock", pairing="agent")
    ann = room.join("Ann")
    rg, _ = room.game_of(ann.token)
    room.play(ann.token, "B2")
    room.step_agents()
    assert len(rg.game.history) == 2
    assert room.ask_undo(ann.token) is True  # the agent agrees
    assert rg.game.history == [] and rg.game.current_player == 0


def test_games_of_more_players_fill_empty_seats_with_the_agent(db):
    big = next(n for n in registry.names() if len(registry.get(n)().players) > 2)
    room = Rooms(Store(db)).create(big)
    n = room.players_per_game
    first = [room.join(f"S{k}") for k in range(n + 1)]
    assert len(room.games) == 1 and room.waiting() == [first[-1]]
    with pytest.raises(RoomError, match="teacher"):
        room.fill_with_agents(first[-1].token)
    (rg,) = room.fill_with_agents(room.teacher_token)
    assert rg.players == [first[-1].token] + [AGENT] * (n - 1) and room.waiting() == []
    games = room.next_round(room.teacher_token)
    assert [len(g.players) for g in games] == [n, n] and games[-1].players.count(AGENT) == n - 1


def test_the_servers_teacher_token_is_kept_in_the_database(db):
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock", teacher_token=rooms.teacher_token)
    rooms.check_teacher(rooms.teacher_token)
    with pytest.raises(RoomError, match="teacher"):
        rooms.check_teacher("guess")
    token = rooms.teacher_token
    rooms.store.close()
    again = Rooms(Store(db))
    assert again.teacher_token == token == again.room(room.code).teacher_token


# -- a student's board: only its own seat's moves; a bad message changes nothing ---------------
def said(board):
    """The status the page of ``board`` was last sent (after the fan-out sent what was due)."""
    from gridwidgets.rooms.board import fanout

    assert fanout.wait_idle(10), "the fan-out did not send within 10 s"
    return board.status[0]


def shown(board):
    """The state the page of ``board`` was last sent."""
    from gridwidgets.rooms.board import fanout

    assert fanout.wait_idle(10), "the fan-out did not send within 10 s"
    return board.state


@pytest.fixture
def bids(db):
    from gridwidgets.rooms.board import room_board

    room = Rooms(Store(db)).create(next(n for n in registry.names() if registry.get(n).game_type.simultaneous))
    x, _o = room.join("Xavier"), room.join("Olga")
    rg, _ = room.game_of(x.token)
    return room, rg, room_board(room, rg, 0), room_board(room, rg, 1)


def test_each_students_board_speaks_to_its_own_seat(db):
    from gridwidgets.rooms.board import room_board

    room = Rooms(Store(db)).create("gridlock")
    ann, _bob = room.join("Ann"), room.join("Bob")
    rg, _ = room.game_of(ann.token)
    ba, bb = room_board(room, rg, 0), room_board(room, rg, 1)
    g = rg.game
    assert shown(ba)["status"] == f"Your move. {g.status()}"
    assert shown(bb)["status"] == "Ann (X) is to move: wait for Ann."
    assert "your turn" not in shown(bb)["status"]  # never the game's words for the other seat
    assert ba.handle_intent({"type": "play", "move": str(g.legal_moves()[0]), "player": 0, "version": g.version})
    assert shown(ba)["status"] == "Bob (O) is to move: wait for Bob."
    assert shown(bb)["status"].startswith("Your move.")


def test_at_a_simultaneous_node_each_seats_status_says_both_choose_at_once(bids):
    """Issue 41: during Block Four's bid, O's page said "Player 1 (X) to bid two cards" (the hot-seat order,
    BF-13) and its panel that O bids next; each page speaks to its own seat: both bid at the same time (BF-5)."""
    _room, rg, bx, bo = bids
    g = rg.game
    for board in (bx, bo):
        status = shown(board)["status"]
        assert status == "Your move. You and your opponent bid at the same time, in secret.", status
        panel = shown(board)["scene"]["panel"]
        assert [row["values"][-1] for row in panel["rows"]] == ["to bid", "to bid"]  # nobody bids "next"
    assert bo.handle_intent({"type": "play", "move": str(g.legal_moves(1)[0]), "player": 1})
    assert shown(bo)["status"] == ("Your bid is in. You and your opponent bid at the same time: wait for "
                                   "Xavier (X) to bid.")
    assert shown(bx)["status"] == "Your move. You and your opponent bid at the same time: Olga (O) has bid."
    for board in (bx, bo):  # never the game's hot-seat words, never a bid
        assert "Player 1" not in shown(board)["status"] and "to bid two cards" not in shown(board)["status"]
    assert bx.handle_intent({"type": "play", "move": str(g.legal_moves(0)[0]), "player": 0})
    assert not g.is_simultaneous_node() or g.pending == ()
    mover = g.players_to_move[0] if g.players_to_move else None
    if mover is not None and not g.is_simultaneous_node():  # the placements: one seat at a time again
        assert shown((bx, bo)[mover])["status"].startswith("Your move.")
        assert "wait for" in shown((bx, bo)[1 - mover])["status"]


def test_a_students_board_shows_its_own_secret_choice_and_no_message_holds_the_others(bids):
    import json

    room, rg, bx, bo = bids

    def seen_by_o():  # everything O's page is sent: its state (the browser test watches the wire too)
        state = dict(shown(bo))
        state.pop("version")
        return json.dumps(state, sort_keys=True)

    # each page offers its own seat's choices (the bid node is simultaneous: O need not wait for X)
    assert shown(bo)["legal"] == [str(m) for m in rg.game.legal_moves(1)]
    assert shown(bx)["legal"] == [str(m) for m in rg.game.legal_moves(0)]
    first, second = (str(m) for m in rg.game.legal_moves(0)[:2])
    assert bx.handle_intent({"type": "play", "move": first, "player": 0, "version": rg.game.version})
    assert first in shown(bx)["message"] and bx.state["message_kind"] == "info"  # X sees X's own choice
    assert rg.game.pending == (0,)
    with_first = seen_by_o()
    room.teacher_undo(room.teacher_token, rg.id)  # the choice withdrawn; X chooses the other one
    assert bx.handle_intent({"type": "play", "move": second, "player": 0})
    assert second in shown(bx)["message"]
    assert seen_by_o() == with_first  # O's page cannot tell which (the secrecy rule)
    answer = str(rg.game.legal_moves(1)[0])
    assert bo.handle_intent({"type": "play", "move": answer, "player": 1})
    assert second in json.dumps(shown(bo)["history"])  # revealed once both are in


@pytest.mark.parametrize(
    ("message", "refusal"),
    [
        ("not a dict", "must be an object"),
        ({"type": "play", "move": "x" * 10_000, "player": 1}, "is not a move"),
        ({"type": "play", "move": "IO", "player": 0}, "not played from this page"),  # the other seat
        ({"type": "play", "move": "IO", "player": 1, "version": 99}, "board changed"),  # stale
        ({"type": "undo"}, "not played from a room"),
        ({"type": "new"}, "not played from a room"),
        ({"type": "goto", "index": 0}, "not played from a room"),
        ({"type": "edit", "action": "wall", "target": "A1"}, "not played from a room"),
        ({"type": "launch"}, "unknown message type"),
    ],
)
def test_a_bad_message_from_a_students_page_is_refused_there_and_changes_nothing(bids, message, refusal):
    _room, rg, bx, bo = bids
    before = rg.game.to_json(), rg.game.hidden_submissions(), rg.game.version
    assert bo.handle_intent(message) is False
    assert refusal in said(bo)
    assert said(bx) == ""  # on that page only
    assert (rg.game.to_json(), rg.game.hidden_submissions(), rg.game.version) == before


def page_sends(board, content=None, *, update=None):
    """A message from the page of ``board``, as the widget's comm hands it over:
    an intent (``content``) or a trait update (``update``)."""
    data = {"method": "update", "state": update} if update is not None else {"method": "custom", "content": content}
    board._handle_msg({"content": {"data": data}, "buffers": []})


def test_a_flood_of_any_message_is_dropped_with_one_short_refusal_and_changes_nothing(bids):
    from gridwidgets.rooms.board import FLOOD_LIMIT

    _room, rg, _bx, bo = bids
    sent = []
    bo.send = lambda content, buffers=None: sent.append(content)  # what the page is sent, apart from its state
    before = shown(bo)
    for k in range(FLOOD_LIMIT):
        page_sends(bo, update={"show_legal": k % 2 == 0})  # trait updates count too
    legal = str(rg.game.legal_moves(1)[0])
    for _ in range(500):
        page_sends(bo, {"type": "play", "move": legal, "player": 1})
    assert "too many messages" in said(bo) and rg.game.pending == ()
    assert len(sent) == 1 and sent[0]["type"] == "status" and len(str(sent[0])) < 200  # once, short
    assert shown(bo) == before  # no state sent back for the flood


def test_a_pause_and_hints_are_refused_on_the_students_page(bids):
    room, rg, bx, _bo = bids
    room.set_paused(room.teacher_token, True)
    assert bx.handle_intent({"type": "play", "move": str(rg.game.legal_moves(0)[0]), "player": 0}) is False
    assert "paused" in said(bx) and rg.game.pending == ()
    bx.set_state({"hints": "mcts", "show_legal": True})
    assert bx.hints == "" and bx.show_legal is True and "hints" in said(bx)


def test_importing_the_rooms_imports_no_server_and_serving_without_solara_says_what_to_install(tmp_path):
    import subprocess
    import sys

    code = "import sys, gridwidgets, gridwidgets.rooms; print('solara' in sys.modules, 'uvicorn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
    code = ("import sys; sys.modules['solara'] = None\n"
            "from gridwidgets.rooms.server import serve_rooms\n"
            f"try:\n    serve_rooms({str(tmp_path / 'x.sqlite')!r})\n"
            "except ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "gridwidgets[rooms]" in out


# -- a student gets their seat back (issue 41) ---------------------------------------------------
def test_a_taken_name_points_to_the_seat_code_and_the_code_gives_the_same_seat_back(db):
    from gridwidgets.rooms import exports
    from gridwidgets.rooms.model import CODE_ALPHABET, RECLAIM_LENGTH

    rooms = Rooms(Store(db))
    room = rooms.create("gridlock", board="4x4")
    ann, bob = room.join("Ann", student_id="s1"), room.join("Bob")
    assert len(ann.reclaim) == RECLAIM_LENGTH and set(ann.reclaim) <= set(CODE_ALPHABET)
    assert ann.reclaim != bob.reclaim and ann.reclaim_text == f"{ann.reclaim[:3]}-{ann.reclaim[3:]}"
    room.play(ann.token, "B2")
    with pytest.raises(ValueError, match=r"That name is taken in this room.*If it is yours, use your seat code"):
        room.join("ann")  # the tab was closed: her own name is taken, by her own seat
    typed = f" {ann.reclaim_text.lower()} "  # any case, the dash and spaces ignored
    back = room.reclaim(typed, address="10.0.0.9", limiter=rooms.join_allowed)
    assert back == ann and back.token == ann.token  # the same seat: the same game, the same record
    rg, p = room.game_of(back.token)
    assert p == 0 and [str(m) for m in rg.game.history] == ["B2"]
    room.play(bob.token, "D4")
    room.play(back.token, "A1")
    assert len(room.seats) == 2 and len(room.games) == 1
    standings = exports.standings_csv(room)
    assert sum("Ann" in line for line in standings.splitlines()) == 1  # one row: the record stays one
    again = Rooms(Store(db)).room(room.code)  # the code survives a restart
    assert again.seat(ann.token).reclaim == ann.reclaim and again.reclaim(ann.reclaim) == ann


def test_a_seat_code_that_is_wrong_malformed_or_removed_gives_no_seat(db):
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock")
    ann, bob = room.join("Ann"), room.join("Bob")
    for bad in ("", "K7Q", "K7Q-4M-XY", "OOOOOO", "k7q 4l", None, 123456):
        with pytest.raises(ValueError, match="a seat code is 6 letters"):
            room.reclaim(bad)
    wrong = next(c * 6 for c in "ABC" if c * 6 not in (ann.reclaim, bob.reclaim))
    with pytest.raises(RoomError, match="no seat in this room has that code"):
        room.reclaim(wrong)
    room.remove_seat(room.teacher_token, bob.token)
    with pytest.raises(RoomError, match="took this seat out"):
        room.reclaim(bob.reclaim)
    other = rooms.create("gridlock")
    with pytest.raises(RoomError, match="no seat in this room"):
        other.reclaim(ann.reclaim)  # a code opens its own room's seat only
    rooms.end_class(rooms.teacher_token)
    with pytest.raises(RoomError, match="closed"):
        room.reclaim(ann.reclaim)


def test_guessing_seat_codes_is_refused_after_a_few_wrong_tries_even_the_right_one(db):
    from gridwidgets.rooms.model import RECLAIM_LIMITS

    rooms = Rooms(Store(db))
    room = rooms.create("gridlock")
    ann = room.join("Ann")
    guesses = (c * 6 for c in "ABCDEFGHJKMNPQRSTUVWXYZ" if c * 6 != ann.reclaim)
    burst = RECLAIM_LIMITS["address"][0]
    for _ in range(burst):
        with pytest.raises(RoomError, match="no seat in this room has that code"):
            room.reclaim(next(guesses), address="10.0.0.66", limiter=rooms.join_allowed)
    with pytest.raises(RoomError, match="too many wrong seat codes"):  # refused before any code is compared
        room.reclaim(ann.reclaim, address="10.0.0.66", limiter=rooms.join_allowed)
    assert room.reclaim(ann.reclaim, address="10.0.0.7", limiter=rooms.join_allowed) == ann  # another device
    for k in range(RECLAIM_LIMITS["room"][0] - burst):  # the room's own limit: from many addresses
        with pytest.raises(RoomError, match="no seat in this room has that code"):
            room.reclaim(next(guesses), address=f"10.1.0.{k}")
    with pytest.raises(RoomError, match="too many wrong seat codes"):
        room.reclaim(ann.reclaim, address="10.0.0.8")
    assert 31 ** 6 / (RECLAIM_LIMITS["room"][0] + 86_400 / RECLAIM_LIMITS["room"][1]) > 100_000  # days a seat


def test_a_seat_of_a_schema_5_store_gets_a_seat_code_on_loading(db):
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock")
    ann = room.join("Ann")
    rooms.store.close()
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE seats SET reclaim = ''")
    again = Rooms(Store(db)).room(room.code)
    code = again.seat(ann.token).reclaim
    assert len(code) == 6 and Rooms(Store(db)).room(room.code).seat(ann.token).reclaim == code  # written, kept


def test_the_first_round_a_teacher_starts_is_round_1_everywhere(db):
    from gridwidgets.rooms import exports, results

    room = Rooms(Store(db)).create("gridlock", board="4x4", pairing="round-robin")
    for n in "ABCD":
        room.join(n)
    assert room.round == 0 and room.round_progress() == (0, 0)
    first = room.next_round(room.teacher_token)
    assert room.round == 1 and {rg.round for rg in first} == {1}
    _finish(room, first, lambda rg: 0)
    assert set(results.results_table([room])["round"]) == {1}
    assert ",1," in exports.results_csv([room]).splitlines()[1]
    assert results.standings(room, through_round=1)["points"].sum() == 2
    room.next_round(room.teacher_token)
    assert Rooms(Store(db)).room(room.code).round == 2
    swiss = Rooms(Store(":memory:")).create("gridlock", pairing="swiss")
    swiss.join("A")
    assert swiss.round == 0 and {rg.round for rg in swiss.fill_with_agents(swiss.teacher_token)} == {1}
    assert swiss.round == 1
    arrival = Rooms(Store(":memory:")).create("gridlock")
    assert arrival.round == 1  # its games start as students arrive: round 1 from the start


def test_a_late_joiner_in_a_round_robin_room_meets_nobody_twice(db):
    room = Rooms(Store(db)).create("gridlock", board="4x4", pairing="round-robin")
    for n in "ABCD":
        room.join(n)
    met: set[frozenset[str]] = set()
    for r in range(1, 5):
        if r == 2:
            room.join("Eve")
        games = room.next_round(room.teacher_token)
        pairs = {frozenset(g.players) for g in games}
        assert not pairs & met, f"a rematch in round {r}"
        met |= pairs
        assert sorted(t for g in games for t in g.players if t != AGENT) == sorted(room.seats)
def test_the_teacher_sends_a_games_replay_to_the_projector_and_takes_it_off(db):
    room = Rooms(Store(db)).create("gridlock")
    ann, _bob, _cy, _dee = (room.join(n) for n in ("Ann", "Bob", "Cy", "Dee"))
    first, second = room.games
    assert room.projected_replay == 0
    before = room.version
    room.project_replay(room.teacher_token, second.id)
    assert room.projected_replay == second.id and room.version > before  # the projector's page redraws
    for token, game, refusal in ((ann.token, first.id, "teacher"), (room.teacher_token, 99, "no game"),
                                 (room.teacher_token, "1", "number"), (room.teacher_token, True, "number")):
        with pytest.raises(RoomError, match=refusal):
            room.project_replay(token, game)
        assert room.projected_replay == second.id  # a refusal changes nothing
    room.project_replay(room.teacher_token, 0)
    assert room.projected_replay == 0


def test_ask_the_class_names_each_game_by_its_round_and_players(db):
    from gridwidgets.rooms.activities import game_label, game_labels

    room = Rooms(Store(db)).create("gridlock", pairing="round-robin")
    for name in ("Ann", "Bob", "Cy", "Dee"):
        room.join(name)
    room.next_round(room.teacher_token)
    labels = game_labels(room, room.games)
    assert set(labels) == {str(rg.id) for rg in room.games}
    assert all(label.startswith(f"Round {room.round}: ") and " vs " in label for label in labels.values())
    assert game_label(room, room.games[0]) == "Round {}: {} vs {}".format(
        room.round, *(room.player_name(room.games[0], p) for p in (0, 1)))


def test_the_projectors_games_grid_holds_the_games_it_shows_in_at_most_three_rows():
    from gridwidgets.rooms.app import PROJECTED_GAMES, projector_grid

    for mode, cap in PROJECTED_GAMES.items():
        for n in range(0, 40):
            cols, rows = projector_grid(n, mode)
            assert cols * rows >= min(max(n, 1), cap) and rows <= 3 and cols <= 4, (mode, n, cols, rows)
            assert cols * rows < min(max(n, 1), cap) + cols  # no empty row
    assert projector_grid(4, "strip") == (4, 1) and projector_grid(30, "full") == (4, 3)


def test_a_projector_chart_has_no_text_under_18_points():
    """18 pt is 24 px where the projector shows the chart at its size (the browser test checks the size)."""
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    from gridwidgets.rooms.app import _big_text

    fig = Figure(figsize=(9, 3.4), layout="constrained")
    ax = fig.add_subplot()
    ax.bar(["IL", "IT"], [0.6, 0.3], label="chosen")
    ax.legend(fontsize="small")
    fig.suptitle("a long title " * 12)
    _big_text(fig)
    assert fig.get_size_inches()[0] == 8.0
    assert min(t.get_fontsize() for t in fig.findobj(Text) if t.get_text()) >= 18
    fig.savefig(__import__("io").BytesIO(), format="svg")  # its long title wraps, and it draws
