"""A class run by its teacher (gridwidgets.rooms): names by Unicode's rules,
seats renamed, removed and handed to the agent mid-game, the teacher's
sessions and the end of the class, colours across rounds, join limits, and
exports safe to open in a spreadsheet."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest

from gridwidgets.core import registry
from gridwidgets.rooms import AGENT, RoomError, Rooms, Store
from gridwidgets.rooms import model as room_model
from gridwidgets.rooms.names import MAX_MARKS, MAX_NAME, MAX_STUDENT_ID, clean_name, clean_student_id, look_alike


@pytest.fixture
def rooms(tmp_path):
    return Rooms(Store(tmp_path / "class.sqlite"))


# -- names --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [
    "Ann", "José", "Zoë", "Ngọc Ánh", "Łukasz", "Ærøskøbing", "Мария", "Ελένη", "李小龙", "さくら", "김민지",
    "محمد", "שרה", "राम", "ทองดี", "ትዕግሥት",
    "مه\u200cلقا",          # Persian, with the zero-width non-joiner
    "Anna-\u00adLena",      # a soft hyphen
    "👩\u200d💻 Dev",       # an emoji ZWJ sequence
    "👍🏽", "🇬🇭 Kofi",       # a skin tone, a flag
    "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F",  # a subdivision flag (tags)
    "O'Brien", "Jean-Luc", "Ann (2)",
])
def test_names_of_every_script_and_emoji_sequences_are_accepted(name):
    assert clean_name(name) == " ".join(name.split())


@pytest.mark.parametrize(("name", "kept"), [
    ("ＡＮＮ", "ANN"),            # full-width letters: NFKC
    ("  Ann   Lee ", "Ann Lee"),  # spaces collapsed
    ("ﬁona", "fiona"),            # a ligature
    ("Ann\u00a0Lee", "Ann Lee"),  # a no-break space
])
def test_names_are_nfkc_normalised_with_single_spaces(name, kept):
    assert clean_name(name) == kept


@pytest.mark.parametrize(("name", "why"), [
    ("", "empty"), ("   ", "empty"), (42, "text"), (None, "text"),
    ("bell\x07", "control"), ("tab\tin", None), ("a\x00b", "control"),
    ("evil\u202egnp.exe", "direction"), ("\u2066Ann\u2069", "direction"),  # direction overrides
    ("Ann\u200b", "invisible"),       # a zero-width space
    ("\ue000Ann", "private"),        # private use
    ("x" * (MAX_NAME + 1), "at most"), ("👍" * (MAX_NAME + 1), "at most"),
    ("Z" + "\u0336" * (MAX_MARKS + 1), "marks"),  # stacked combining marks (Zalgo)
    ("\u0301Ann", "combining mark"), ("...", "letter"),
])
def test_names_that_break_the_rules_are_refused_with_a_clear_reason(name, why):
    if why is None:  # a tab is a space: collapsed, not refused
        assert clean_name(name) == "tab in"
        return
    with pytest.raises(ValueError, match=why):
        clean_name(name)


def test_a_name_of_any_size_is_refused_quickly_without_echoing_it():
    import time

    huge = "\u0301" * 1_000_000
    t0 = time.perf_counter()
    with pytest.raises(ValueError) as err:
        clean_name("A" + huge)
    assert time.perf_counter() - t0 < 1.0 and len(str(err.value)) < 120


@pytest.mark.parametrize(("name", "other"), [
    ("Ann", "Ann"), ("ann", "ANN"), ("\u0410nn", "Ann"),  # Cyrillic А
    ("Ann\u200d", "Ann"), ("Аnn", "ann"), ("0liver", "Oliver"), ("Ian", "lan"), ("ＡＮＮ", "ann"),
])
def test_look_alike_names_are_found_by_unicodes_confusables(name, other):
    assert look_alike(name, ["Bob", other]) == other


def test_different_names_do_not_look_alike():
    assert look_alike("Anna", ["Ann", "Hanna", "Bob"]) is None
    assert look_alike("李小龙", ["李小虎"]) is None
    assert look_alike("Zoë", ["Zoe"]) is None  # an accent makes another name


def test_a_room_refuses_a_duplicate_or_look_alike_name_and_seats_nobody(rooms):
    room = rooms.create("gridlock")
    room.join("Ann")
    for name in ("Ann", "ann", "\u0410nn", " ANN "):
        with pytest.raises(ValueError, match="already called 'Ann'"):
            room.join(name)
    assert [s.name for s in room.seats.values()] == ["Ann"]
    other = rooms.create("gridlock")
    other.join("Ann")  # another room: another class group


# -- the teacher manages the seats -----------------------------------------------------------------
def test_the_teacher_renames_a_seat_with_the_same_rules(rooms):
    room = rooms.create("gridlock")
    ann, bob = room.join("Ann"), room.join("Bob")
    with pytest.raises(RoomError, match="teacher"):
        room.rename_seat(ann.token, bob.token, "Robert")
    with pytest.raises(ValueError, match="already called"):
        room.rename_seat(room.teacher_token, bob.token, "ANN")
    room.rename_seat(room.teacher_token, bob.token, "  Robert ")
    assert room.seat(bob.token).name == "Robert"
    again = Rooms(Store(rooms.store.path))
    assert again.room(room.code).seat(bob.token).name == "Robert"


def test_a_removed_students_game_goes_on_with_the_agent_and_keeps_their_name(rooms):
    room = rooms.create("gridlock")
    ann, bob = room.join("Ann"), room.join("Bob")
    rg, _ = room.game_of(ann.token)
    room.play(ann.token, "B2")
    room.remove_seat(room.teacher_token, bob.token)
    assert bob.token not in room.seats and room.name_of(bob.token) == "Bob"
    with pytest.raises(RoomError, match="no seat"):
        room.play(bob.token, "D4")
    assert rg.handed == {1} and room.step_agents() == 1  # the agent plays Bob's O now
    assert len(rg.game.history) == 2
    assert room.player_name(rg, 1) == "Bob (agent)"
    with pytest.raises(RoomError, match="removed"):
        room.give_back(room.teacher_token, rg.id, 1)
    room.next_round(room.teacher_token)
    assert all(bob.token not in g.players for g in room.games if g.round == 2)
    again = Rooms(Store(rooms.store.path)).room(room.code)  # after a restart: the same
    assert bob.token in again.former and again.game(rg.id).handed == {1}


def test_the_teacher_hands_a_seat_to_the_agent_mid_game_and_gives_it_back(rooms):
    room = rooms.create("gridlock")
    ann, bob = room.join("Ann"), room.join("Bob")
    rg, _ = room.game_of(ann.token)
    assert rg.agent is None
    room.hand_to_agent(room.teacher_token, rg.id, 0)  # Ann's laptop died, X to move
    with pytest.raises(RoomError, match="agent plays this seat"):
        room.play(ann.token, "B2")
    with pytest.raises(RoomError, match="already"):
        room.hand_to_agent(room.teacher_token, rg.id, 0)
    assert room.step_agents() == 1 and len(rg.game.history) == 1
    room.play(bob.token, str(rg.game.legal_moves()[0]))
    room.give_back(room.teacher_token, rg.id, 0)
    assert room.step_agents() == 0 and rg.students() == {0, 1}
    room.play(ann.token, str(rg.game.legal_moves()[0]))
    assert len(rg.game.history) == 3


def test_a_students_page_is_refused_once_its_seat_is_the_agents(rooms):
    from gridwidgets.rooms.board import fanout, room_board

    room = rooms.create("gridlock")
    ann, _bob = room.join("Ann"), room.join("Bob")
    rg, _ = room.game_of(ann.token)
    board = room_board(room, rg, 0)
    room.hand_to_agent(room.teacher_token, rg.id, 0)
    assert board.handle_intent({"type": "play", "move": "B2", "player": 0}) is False
    board.resync()
    assert fanout.wait_idle(10)
    assert "agent plays this seat" in board.status[0] and rg.game.history == []
    assert board.state["people"] == []  # the page offers no move of its own
    board.close()


# -- the teacher's sessions, a new token, the end of the class ---------------------------------------
def test_the_teacher_token_is_exchanged_for_a_session_and_a_new_token_ends_both(rooms):
    token = rooms.teacher_token
    session = rooms.open_session(token)
    assert session != token and rooms.teacher_key(session) == token
    for bad in ("guess", "é" * 30, None, 7, "x" * 10_000):
        with pytest.raises(RoomError):
            rooms.open_session(bad)
        with pytest.raises(RoomError):
            rooms.teacher_key(bad)
    room = rooms.create("gridlock", teacher_token=token)
    new = rooms.new_teacher_token()
    assert new != token and room.teacher_token == new
    with pytest.raises(RoomError):
        rooms.teacher_key(session)  # the session opened with the old token ends too
    with pytest.raises(RoomError):
        rooms.open_session(token)
    again = Rooms(Store(rooms.store.path))
    assert again.teacher_token == new and again.room(room.code).teacher_token == new


def test_sessions_live_in_the_database_as_digests(rooms):
    session = rooms.open_session(rooms.teacher_token)
    again = Rooms(Store(rooms.store.path))
    assert again.teacher_key(session) == rooms.teacher_token  # a restart keeps the teacher's page
    raw = open(rooms.store.path, "rb").read() + open(rooms.store.path + "-wal", "rb").read()
    assert session.encode() not in raw


def test_ending_the_class_closes_every_room_and_retires_the_token_and_sessions(rooms):
    token = rooms.teacher_token
    session = rooms.open_session(token)
    room = rooms.create("gridlock", teacher_token=token)
    ann, bob = room.join("Ann"), room.join("Bob")
    room.play(ann.token, "B2")
    with pytest.raises(RoomError, match="teacher"):
        rooms.end_class(ann.token)
    rooms.end_class(token)
    assert room.closed and rooms.ended is not None
    for attempt in (lambda: room.play(bob.token, "D4"), lambda: room.join("Cat"),
                    lambda: room.next_round(room.teacher_token), lambda: rooms.teacher_key(session),
                    lambda: rooms.open_session(token), lambda: rooms.create("gridlock")):
        with pytest.raises(RoomError):
            attempt()
    assert room.agent_turns() == []
    from gridwidgets.rooms import results

    assert len(results.results_table([room])) == 1  # the results stay
    again = Rooms(Store(rooms.store.path))
    assert again.ended is not None and again.room(room.code).closed
    new = again.reopen()
    assert not again.room(room.code).closed and again.ended is None and new != token
    again.room(room.code).play(bob.token, "D4")


# -- rounds ------------------------------------------------------------------------------------------
def test_next_round_in_arrival_order_swaps_the_colours_of_a_pair_that_meets_again(rooms):
    room = rooms.create("gridlock")
    seats = [room.join(n) for n in "ABCD"]
    first = {tuple(g.players) for g in room.games}
    assert first == {(seats[0].token, seats[1].token), (seats[2].token, seats[3].token)}
    second = {tuple(g.players) for g in room.next_round(room.teacher_token)}
    assert second == {(b, a) for a, b in first}  # the same pairs, colours swapped
    third = {tuple(g.players) for g in room.next_round(room.teacher_token)}
    assert third == first  # each way once: back to the first


def test_round_robin_never_repeats_a_pairings_colours_when_it_can_swap(rooms):
    room = rooms.create("gridlock", pairing="round-robin")
    for n in "ABCD":
        room.join(n)
    seen: dict[frozenset, list[tuple]] = {}
    for _ in range(6):  # two full cycles: every pair meets twice
        for g in room.next_round(room.teacher_token):
            seen.setdefault(frozenset(g.players), []).append(tuple(g.players))
    assert len(seen) == 6
    for meetings in seen.values():
        assert len(meetings) == 2 and meetings[0] == meetings[1][::-1]


def test_groups_of_more_players_turn_their_seats_when_they_meet_again(rooms):
    big = next(n for n in registry.names() if len(registry.get(n)().players) > 2)
    room = rooms.create(big)
    n = room.players_per_game
    seats = [room.join(f"S{k}") for k in range(n)]
    orders = [tuple(room.games[0].players)] + [tuple(room.next_round(room.teacher_token)[0].players)
                                               for _ in range(n - 1)]
    assert len(set(orders)) == n  # every player in every seat once
    assert {o[0] for o in orders} == {s.token for s in seats}


# -- joins are limited ------------------------------------------------------------------------------
def test_joins_are_rate_limited_per_device_and_per_room(rooms, monkeypatch):
    monkeypatch.setitem(room_model.JOIN_LIMITS, "address", (3, 3600.0))
    monkeypatch.setitem(room_model.JOIN_LIMITS, "room", (5, 3600.0))
    rooms = Rooms(Store(rooms.store.path))
    room = rooms.create("gridlock")
    for k in range(3):
        room.join(f"A{k}", address="10.0.0.9", limiter=rooms.join_allowed)
    with pytest.raises(RoomError, match="this device"):
        room.join("A3", address="10.0.0.9", limiter=rooms.join_allowed)
    room.join("B0", address="10.0.0.10", limiter=rooms.join_allowed)  # another device
    room.join("C0")
    with pytest.raises(RoomError, match="at once"):
        room.join("C1")  # the room's own limit: five in a burst
    assert len(room.seats) == 5
    assert rooms.create("gridlock").join("D0")  # another room has its own


# -- a restart reopens the room it made ---------------------------------------------------------------
def test_find_gives_the_open_room_of_the_same_choices(rooms):
    room = rooms.create("gridlock", "4x4", pairing="round-robin", agent="greedy")
    assert rooms.find("gridlock", "4x4", pairing="round-robin", agent="greedy") is room
    assert rooms.find("gridlock", None, pairing="round-robin", agent="greedy") is room  # 4x4 is the first board
    assert rooms.find("gridlock", "5x5", pairing="round-robin", agent="greedy") is None
    assert rooms.find("gridlock", "4x4") is None
    assert rooms.find("chess") is None


# -- exports ------------------------------------------------------------------------------------------
FORMULAS = ['=HYPERLINK("http://ev.il","A")', "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rCR"]


def test_results_csv_neutralises_formulas_and_the_zip_keeps_the_names_as_given(rooms):
    from gridwidgets.rooms import exports, results

    room = rooms.create("gridlock", pairing="agent")
    names = [f[:30] for f in FORMULAS if clean_name(f)]
    seats = [room.join(n) for n in names]
    for seat in seats:
        rg, _ = room.game_of(seat.token)
        while not rg.game.is_over:
            if rg.game.current_player == 0:
                room.play(seat.token, str(rg.game.legal_moves()[0]))
            else:
                room.step_agents()
    rows = list(csv.DictReader(io.StringIO(exports.results_csv([room]))))
    def number(v):
        try:
            float(v)
        except ValueError:
            return False
        return True

    texts = [v for row in rows for v in row.values() if v and not number(v)]
    assert texts and not any(v.startswith(("=", "+", "-", "@", "\t", "\r")) for v in texts)
    from gridwidgets.rooms.exports import safe_cell

    assert [row["player 1"] for row in rows] == [safe_cell(clean_name(n)) for n in names]
    assert [row["player 1"] for row in rows][:4] == ["'" + clean_name(n) for n in names[:4]]
    assert all(row["return 1"] in ("1", "-1", "0", "1.0", "-1.0", "0.0") for row in rows)  # numbers stay numbers
    with zipfile.ZipFile(io.BytesIO(results.saves_zip([room]))) as archive:
        index = json.loads(archive.read("games.json"))
        assert [e["players"] for e in index] == [[clean_name(n), "Random agent"] for n in names]
        for entry in index:
            game = registry.get(entry["name"]).from_json(archive.read(entry["file"]).decode())
            assert game.to_json() == room.game(entry["game"]).game.to_json()
            assert entry["agent_players"] == [1]


def test_safe_cell_leaves_plain_text_and_numbers_alone():
    from gridwidgets.rooms.exports import safe_cell

    assert safe_cell("Ann") == "Ann" and safe_cell(-1) == -1 and safe_cell(None) is None
    assert safe_cell("=1") == "'=1" and safe_cell("") == ""


def test_agent_constant_is_not_a_seat_name(rooms):
    room = rooms.create("gridlock", pairing="agent")
    ann = room.join("Ann")
    rg, _ = room.game_of(ann.token)
    assert rg.players == [ann.token, AGENT] and rg.agent_players() == {1}


@pytest.mark.parametrize(("given", "kept"), [("", ""), ("  s-1234 ", "s-1234"),
                                             ("ann.lee@school.edu", "ann.lee@school.edu"), ("２０２６/07", "2026/07")])
def test_a_student_id_is_kept_as_given_without_spaces(given, kept):
    assert clean_student_id(given) == kept


@pytest.mark.parametrize("given", ["=SUM(A1)", "a b", "x" * (MAX_STUDENT_ID + 1), "\x00", "x" * 10_000, 7])
def test_a_student_id_with_other_characters_or_too_long_is_refused_quoting_nothing(given):
    with pytest.raises(ValueError, match="student id") as err:
        clean_student_id(given)
    assert "SUM" not in str(err.value) and len(str(err.value)) < 80
