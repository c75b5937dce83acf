"""The rooms' pages (Solara): ``/`` for a student (type the room code and a
name, then play from your own seat), ``/teacher?token=...`` for the teacher
(open rooms, watch every game, pause, next round, undo, replay, results).

Imported only by the server (:mod:`gridwidgets.rooms.server`), in the one
process that holds every game. A page never holds a game: it shows the
room's shared game through its own board (:func:`~gridwidgets.rooms.board.room_board`)
and redraws the rest when the room's ``version`` changes (checked a few
times a second by a thread of the page).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from html import escape
from typing import Any
from urllib.parse import parse_qs, quote

import solara

from ..classroom import AGENTS, games_menu
from .board import room_board
from .model import PAIRINGS, Room, RoomError, RoomGame, Rooms
from .server import current_rooms

#: the pairings as the teacher's menu says them
PAIRING_LABELS = {"arrival": "Pairs in arrival order", "round-robin": "Round robin (the teacher starts each round)",
                  "agent": "Each student against an agent"}
#: seconds between two looks at a room's version (a student's page, the teacher's)
STUDENT_POLL, TEACHER_POLL = 0.2, 0.5
#: the small boards of the teacher's page, drawn once per game and version
_PICTURES: OrderedDict[tuple[int, int], str] = OrderedDict()
_PICTURES_LOCK = threading.Lock()
_CSS = """
.gw-rooms { max-width: 1240px; margin: 0 auto; padding: 8px 16px; font-size: 16px; }
.gw-rooms h1 { font-size: 26px; margin: 4px 0 8px; }
.gw-room-code { font-family: "DejaVu Sans Mono", monospace; font-size: 28px; letter-spacing: 4px; font-weight: 700; }
.gw-room-games { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: 12px; }
.gw-room-game { border: 1px solid #d1d5db; border-radius: 8px; padding: 6px; }
.gw-room-game svg { width: 100%; height: auto; }
.gw-room-game .gw-caption { font-size: 14px; margin: 2px 0; }
.gw-room-game.gw-to-move { border-color: #2563eb; }
.gw-room-note { font-size: 15px; color: #4b5563; }
"""


def _p(inner_html: str, cls: str = "") -> None:
    """A paragraph of our own HTML (names in it escaped by the caller): no
    Markdown, whose renderer would fetch KaTeX from a CDN."""
    solara.HTML(tag="p", unsafe_innerHTML=inner_html, classes=[cls] if cls else [])


def _query(router: Any) -> dict[str, str]:
    raw = router.search or ""
    if len(raw) > 400:
        return {}
    return {k: v[0][:64] for k, v in parse_qs(raw).items() if v}


def use_version(get: Any, interval: float) -> Any:
    """Re-render when ``get()`` changes (compared with ``!=``): a thread of the
    page looks every ``interval`` seconds (and stops when the page goes)."""
    version, set_version = solara.use_state(get())

    def poll(cancel: threading.Event) -> None:
        last = get()
        while not cancel.wait(interval):
            now = get()
            if now != last:
                last = now
                set_version(now)

    solara.use_thread(poll, dependencies=[], intrusive_cancel=False)
    return version


def _rooms_version(rooms: Rooms) -> tuple[int, ...]:
    return tuple(r.version for r in rooms.rooms())


# -- the student's page ----------------------------------------------------------------------
@solara.component
def StudentPage() -> None:
    router = solara.use_router()
    query = _query(router)
    rooms = current_rooms()
    code, token = query.get("room", ""), query.get("seat", "")
    try:
        room = rooms.room(code) if code else None
    except RoomError:
        room = None
    solara.Style(_CSS)
    with solara.Column(classes=["gw-rooms"]):
        if room is not None and token in room.seats:
            SeatView(room, token)
        else:
            JoinForm(code, stale=bool(token))


@solara.component
def JoinForm(code: str, stale: bool) -> None:
    router = solara.use_router()
    rooms = current_rooms()
    room_code, set_room_code = solara.use_state(code)
    name, set_name = solara.use_state("")
    error, set_error = solara.use_state("")

    def join() -> None:
        try:
            room = rooms.room(room_code)
            seat = room.join(name)
        except (RoomError, ValueError) as exc:
            set_error(str(exc))
            return
        router.push(f"/?room={quote(room.code)}&seat={quote(seat.token)}")

    solara.Title("Join a room")
    solara.HTML(tag="h1", unsafe_innerHTML="Join your class's room")
    if stale:
        solara.Warning("This page's seat is not known in that room: join again with your name.")
    _p("Type the <b>room code</b> your teacher shows, and the name the class will see.")
    solara.InputText("Room code", value=room_code, on_value=set_room_code, continuous_update=True,
                     classes=["gw-join-code"])
    solara.InputText("Your name", value=name, on_value=set_name, continuous_update=True, classes=["gw-join-name"])
    solara.Button("Join", on_click=join, color="primary", classes=["gw-join"],
                  disabled=not (room_code.strip() and name.strip()))
    if error:
        solara.Error(error, classes=["gw-join-error"])


def _seat_key(room: Room, token: str) -> tuple[Any, ...]:
    """What a student's page shows besides its board (which follows its game by
    itself): a page redraws only when this changes, never for a move elsewhere
    in the room (a redraw would cost a half-picked choice)."""
    try:
        rg, _p = room.game_of(token)
    except RoomError:
        return (room.paused, room.round, None)
    return (room.paused, room.round, rg.id, rg.game.is_over, bool(rg.game.steps), tuple(room.undo_asked(rg.id)))


@solara.component
def SeatView(room: Room, token: str) -> None:
    key = use_version(lambda: _seat_key(room, token), STUDENT_POLL)
    seat = room.seats[token]
    try:
        rg, player = room.game_of(token)
    except RoomError:
        rg, player = None, -1
    solara.Title(f"{seat.name}, room {room.code}")
    with solara.Row(style={"align-items": "baseline", "gap": "16px", "flex-wrap": "wrap"}):
        solara.HTML(tag="h1", unsafe_innerHTML=f"Room <span class='gw-room-code'>{room.code}</span>")
        solara.Text(f"{seat.name} · round {room.round}", classes=["gw-seat-name"])
    if room.paused:
        solara.Warning("The teacher has paused the room: moves wait until it resumes.", classes=["gw-paused"])
    if rg is None:
        waiting = ("Waiting for the teacher to start the round." if room.pairing == "round-robin"
                   else "Waiting for an opponent to join…")
        solara.Info(waiting, classes=["gw-waiting"])
        return
    opponents = [room.name_of(t) for p, t in enumerate(rg.players) if p != player]
    _p(f"You play <b>{escape(rg.game.player_label(player))}</b> against <b>{escape(', '.join(opponents))}</b>.",
       "gw-you-play")
    SeatBoard(room, rg, player)
    UndoRow(room, rg, token, key)


@solara.component
def SeatBoard(room: Room, rg: RoomGame, player: int) -> None:
    board = solara.use_memo(lambda: room_board(room, rg, player, fit="screen"), [rg.id, player])

    def close() -> Any:
        return board.close

    solara.use_effect(close, [board])
    solara.display(board)


@solara.component
def UndoRow(room: Room, rg: RoomGame, token: str, key: Any) -> None:
    """Ask to undo; ``key`` (what the page shows, :func:`_seat_key`) redraws it
    (a component redraws only when its arguments change)."""
    message, set_message = solara.use_state("")
    asked = room.undo_asked(rg.id)

    def ask() -> None:
        try:
            done = room.ask_undo(token)
        except RoomError as exc:
            set_message(str(exc))
            return
        set_message("Undone." if done else "Asked: the move is taken back once your opponent asks too.")

    others = [room.name_of(t) for t in asked if t != token]
    with solara.Row(style={"align-items": "center", "gap": "12px"}):
        solara.Button("Ask to undo", on_click=ask, outlined=True, classes=["gw-ask-undo"],
                      disabled=rg.game.is_over or len(rg.game.steps) == 0)
        if others:
            solara.Text(f"{', '.join(others)} asks to undo the last move.", classes=["gw-undo-asked"])
        elif message:
            solara.Text(message, classes=["gw-undo-message"])
        elif len(rg.students()) > 1:
            solara.Text("Undo needs both players (or the teacher).", classes=["gw-room-note"])


# -- the teacher's page ------------------------------------------------------------------------
@solara.component
def TeacherPage() -> None:
    router = solara.use_router()
    query = _query(router)
    rooms = current_rooms()
    token = query.get("token", "")
    solara.Style(_CSS)
    with solara.Column(classes=["gw-rooms"]):
        try:
            rooms.check_teacher(token)
        except RoomError:
            solara.Title("Teacher")
            solara.Error("This page needs the teacher's address, with its token, as the server printed it.",
                         classes=["gw-not-teacher"])
            return
        TeacherView(rooms, token)


@solara.component
def TeacherView(rooms: Rooms, token: str) -> None:
    version = use_version(lambda: _rooms_version(rooms), TEACHER_POLL)
    all_rooms = rooms.rooms()
    selected, set_selected = solara.use_state(all_rooms[-1].code if all_rooms else "")
    solara.Title("Teacher: rooms")
    solara.HTML(tag="h1", unsafe_innerHTML="The class's rooms")
    OpenRoom(rooms, token, set_selected)
    if not all_rooms:
        solara.Info("No room yet: open one above.")
        return
    codes = [r.code for r in all_rooms]
    solara.ToggleButtonsSingle(value=selected if selected in codes else codes[-1], values=codes,
                               on_value=set_selected, classes=["gw-room-tabs"])
    room = rooms.room(selected if selected in codes else codes[-1])
    RoomPanel(room, token, rooms, version)


@solara.component
def OpenRoom(rooms: Rooms, token: str, on_open: Any) -> None:
    menu = games_menu()
    game, set_game = solara.use_state(next(iter(menu)))
    boards = list(menu[game].boards)
    board, set_board = solara.use_state(boards[0])
    pairing, set_pairing = solara.use_state(PAIRINGS[0])
    agent, set_agent = solara.use_state(next(iter(AGENTS)))
    error, set_error = solara.use_state("")

    def pick_game(value: str) -> None:
        set_game(value)
        set_board(next(iter(menu[value].boards)))

    def open_room() -> None:
        try:
            room = rooms.create(game, board if board in menu[game].boards else None, pairing=pairing, agent=agent,
                                teacher_token=token)
        except (ValueError, RoomError) as exc:
            set_error(str(exc))
            return
        set_error("")
        on_open(room.code)

    with solara.Card("Open a room", classes=["gw-open-room"]):
        with solara.Row(style={"flex-wrap": "wrap", "gap": "12px"}):
            solara.Select("Game", value=game, values=list(menu), on_value=pick_game)
            solara.Select("Board", value=board if board in boards else boards[0], values=boards, on_value=set_board)
            solara.Select("Pairing", value=pairing, values=list(PAIRINGS), on_value=set_pairing)
            solara.Select("Agent (odd one out, or every seat)", value=agent, values=list(AGENTS),
                          on_value=set_agent)
        solara.Text(f"{menu[game].label}: {menu[game].boards[board].label if board in menu[game].boards else ''}. "
                    f"{PAIRING_LABELS[pairing]}; agent: {AGENTS[agent].label}.", classes=["gw-room-note"])
        solara.Button("Open room", on_click=open_room, color="primary", classes=["gw-open"])
        if error:
            solara.Error(error)


def _picture(rg: RoomGame) -> str:
    g = rg.game
    with g.lock:
        key = (rg.id, g.version)
        with _PICTURES_LOCK:
            svg = _PICTURES.get(key)
        if svg is None:
            svg = g.to_svg(size=240, panel="below")
    with _PICTURES_LOCK:
        _PICTURES[key] = svg
        _PICTURES.move_to_end(key)
        while len(_PICTURES) > 400:
            _PICTURES.popitem(last=False)
    return svg


@solara.component
def RoomPanel(room: Room, token: str, rooms: Rooms, version: Any) -> None:
    """One room on the teacher's page; ``version`` (the rooms' versions) makes
    it redraw when anything in them changed."""
    replay, set_replay = solara.use_state(0)
    show_results, set_show_results = solara.use_state(False)
    menu = games_menu()
    games = [rg for rg in room.games if rg.round == room.round]
    with solara.Card(classes=["gw-room-panel"]):
        with solara.Row(style={"align-items": "center", "gap": "16px", "flex-wrap": "wrap"}):
            solara.HTML(tag="span", unsafe_innerHTML=room.code, classes=["gw-room-code"])
            solara.Text(f"{menu[room.game_name].label}, {room.board} · {PAIRING_LABELS[room.pairing]} · "
                        f"round {room.round}")
        _p(f"Students open the class's address and type <b>{room.code}</b>.")
        with solara.Row(style={"gap": "12px"}):
            solara.Button("Resume" if room.paused else "Pause",
                          on_click=lambda: room.set_paused(token, not room.paused),
                          color="warning" if not room.paused else "success", classes=["gw-pause"])
            solara.Button("Next round", on_click=lambda: room.next_round(token), classes=["gw-next-round"],
                          disabled=not room.seats)
            solara.Button("Start the waiting with agents", on_click=lambda: room.fill_with_agents(token),
                          classes=["gw-fill"], disabled=not room.waiting())
            solara.Button("Hide results" if show_results else "Results", on_click=lambda: set_show_results(
                not show_results), outlined=True, classes=["gw-show-results"])
        if room.paused:
            solara.Warning("Paused: the students' moves wait.")
        names = [s.name for s in room.seats.values()]
        waiting = [s.name for s in room.waiting()]
        solara.Text(f"{len(names)} student{'s' if len(names) != 1 else ''}: {', '.join(names) or 'none yet'}"
                    + (f" · waiting: {', '.join(waiting)}" if waiting else ""), classes=["gw-seated"])
        with solara.Div(classes=["gw-room-games"]):
            for rg in games:
                GameCard(room, rg, token, set_replay, rg.game.version)
        if replay:
            Replay(room, replay, set_replay)
        if show_results:
            Results(room, rooms, version)


@solara.component
def GameCard(room: Room, rg: RoomGame, token: str, on_replay: Any, version: int) -> None:
    g = rg.game
    with g.lock:
        over, to_move, status = g.is_over, g.players_to_move, g.status()
    names = " vs ".join(room.name_of(t) for t in rg.players)
    mover = (" · to move: " + ", ".join(room.name_of(rg.players[p]) for p in to_move)) if to_move else ""
    classes = ["gw-room-game"] + ([] if over else ["gw-to-move"])
    with solara.Div(classes=classes, attributes={"data-game-id": str(rg.id)}):
        solara.Text(names + mover, classes=["gw-caption"])
        solara.HTML(tag="div", unsafe_innerHTML=_picture(rg))
        solara.Text(status, classes=["gw-caption"])
        with solara.Row(style={"gap": "8px"}):
            solara.Button("Replay", on_click=lambda: on_replay(rg.id), small=True, text=True)

            def undo() -> None:
                try:
                    room.teacher_undo(token, rg.id)
                except RoomError:
                    pass

            solara.Button("Undo", on_click=undo, small=True, text=True, disabled=not g.steps)


@solara.component
def Replay(room: Room, game_id: int, on_close: Any) -> None:
    rg = room.game(game_id)

    def make() -> Any:
        with rg.game.lock:
            copy = rg.game.copy()
        return copy.widget(hidden_controls=["new", "toggle-edit", "export", "hints"])

    board = solara.use_memo(make, [game_id])
    solara.use_effect(lambda: board.close, [board])
    with solara.Card(f"Replay: {' vs '.join(room.name_of(t) for t in rg.players)} (a copy: the slider scrubs the "
                     "moves; the game itself is untouched)", classes=["gw-replay"]):
        solara.display(board)
        solara.Button("Close replay", on_click=lambda: on_close(0), outlined=True)


@solara.component
def Results(room: Room, rooms: Rooms, version: Any) -> None:
    from . import results

    same = [r for r in rooms.rooms() if r.game_name == room.game_name]
    scope, set_scope = solara.use_state("room")
    chosen = [room] if scope == "room" else same
    key = tuple(r.version for r in chosen)

    def figures() -> list[Any]:
        figs = [results.win_rates_figure(chosen), results.scores_figure(chosen)]
        choices = results.choices_figure(chosen)
        return figs + ([choices] if choices is not None else [])

    figs = solara.use_memo(figures, [key, scope])
    with solara.Card("Results", classes=["gw-results"]):
        solara.ToggleButtonsSingle(value=scope, values=["room", "every room of this game"], on_value=set_scope)
        _p("<b>Standings</b>")
        solara.DataFrame(results.standings(room), items_per_page=40)
        for fig in figs:
            solara.FigureMatplotlib(fig, format="svg")
        _p("<b>Every game</b>")
        solara.DataFrame(results.results_table(chosen), items_per_page=20)
        with solara.Row(style={"gap": "12px"}):
            solara.FileDownload(lambda: results.results_csv(chosen), filename=f"results-{room.code}.csv",
                                label="Download the results (CSV)", mime_type="text/csv")
            solara.FileDownload(lambda: results.saves_zip(chosen), filename=f"games-{room.code}.zip",
                                label="Download every game (save files, zip)", mime_type="application/zip")




@solara.component
def Layout(children: list[Any] | None = None) -> None:
    """The pages alone: no app bar, no links between them (a student's page
    does not point to the teacher's)."""
    solara.Column(children=children or [], style={"padding": "0"})


routes = [
    solara.Route(path="/", component=StudentPage, label="Join", layout=Layout),
    solara.Route(path="teacher", component=TeacherPage, label="Teacher"),
]
