"""A class's load on the rooms server: 30 games, 60 simulated students, for a
few minutes, while real Chromium pages measure how soon a move reaches the
opponent's screen.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/rooms_load.py [--seconds 180] [--students 60] [--board 6x6]

One process, as in class: the rooms server (:func:`gridwidgets.rooms.server.make_server`,
Solara on uvicorn, the room agents' thread) runs in a thread of this program
over a real SQLite file, so the simulated students can act on the same rooms
the pages show.

* **Simulated students** (one scheduler thread): 60 seats of one Gridlock
  room, 30 games, each student moving 2 to 8 s after it becomes their turn
  (a class's pace), through :meth:`~gridwidgets.rooms.Room.play`, the path a
  page's move takes on the server (the game's lock, the SQLite write before
  anyone hears, every observer). Every 30 s a 5 s **burst**: answers within
  0.3 s, and each student also sends three moves out of turn or illegal (all
  refused). A finished game starts again with the same two students as soon
  as half the room is done (the teacher's *Next round*).
* **Real pages**: the teacher's page (every game of the load room live) and
  four student pages: two (two Chromium contexts) playing each other in a
  second room, and in a third room a page that **floods** the server (200
  widget updates every 3 s) against a page whose browser is **stalled**
  (a Chromium of its own, its processes stopped by SIGSTOP for the whole
  run, as a laptop lid closed). Student A clicks every 2 s; the time from the move being written on
  the server (the store's write returning, ``time.time()``) to the opponent's
  page showing it (a ``MutationObserver`` on the board's ``data-version``,
  ``performance.timeOrigin + performance.now()``; same machine clock) is the
  **move-to-update latency**; click-to-update is printed too.
* **Nothing lost**: every move the server acknowledged is in its game, and a
  fresh :class:`~gridwidgets.rooms.Rooms` read from the SQLite file has every
  game identical (``to_json``).
* **Resources**: this process's threads (the operating system's count) and
  memory (RSS) once every page is open, and again at the end of the load.

Prints latency p50/p95/max during the load, the move rate, refusals, pages
dropped (the stalled one), threads and memory, and the check. Every wait is
bounded.
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import lab_harness as harness  # noqa: E402
from rooms_harness import StoppableChromium  # noqa: E402

from gridwidgets.core.errors import IllegalMoveError  # noqa: E402
from gridwidgets.rooms import RoomError, Rooms, Store  # noqa: E402
from gridwidgets.rooms import server as rooms_server  # noqa: E402
from gridwidgets.rooms.server import make_server  # noqa: E402

FLOOD = """() => { const b = document.querySelector('[data-game] [data-action="toggle-legal"]');
                   for (let i = 0; i < 200; i++) b.click(); }"""


def resources() -> tuple[int, float]:
    """This process's threads (the operating system's count) and resident memory, MB."""
    import psutil

    me = psutil.Process()
    return me.num_threads(), me.memory_info().rss / 1e6

WATCH = """
() => {
  const el = document.querySelector('[data-game]');
  window.__seen = window.__seen || {};
  const note = () => {
    const v = el.dataset.version;
    if (!(v in window.__seen)) window.__seen[v] = performance.timeOrigin + performance.now();
  };
  note();
  new MutationObserver(note).observe(el, {attributes: true, attributeFilter: ['data-version']});
}
"""


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, round(q * (len(values) - 1))))
    return values[k]


class Students(threading.Thread):
    """The simulated students: one thread, a heap of (when, seat) to act."""

    def __init__(self, room, seconds: float, seed: int = 0) -> None:
        super().__init__(name="simulated-students", daemon=True)
        self.room, self.seconds, self.rnd = room, seconds, random.Random(seed)
        self.acknowledged: dict[int, int] = {}  # game id -> moves the server accepted
        self.refused = 0
        self.moves = 0
        self.restarts = 0
        self.stop_event = threading.Event()

    def burst(self, now: float) -> bool:
        return (now - self.t0) % 30.0 >= 25.0

    def run(self) -> None:
        self.t0 = time.monotonic()
        heap: list[tuple[float, int]] = []
        for rg in self.room.games:
            heapq.heappush(heap, (self.t0 + self.rnd.uniform(0, 4), rg.id))
        while heap and not self.stop_event.is_set():
            when, gid = heapq.heappop(heap)
            delay = when - time.monotonic()
            if delay > 0 and self.stop_event.wait(delay):
                break
            now = time.monotonic()
            if now - self.t0 > self.seconds:
                break
            rg = self.room.game(gid)
            g = rg.game
            if g.is_over:
                heapq.heappush(heap, (now + 1.0, gid))
                self.maybe_next_round()
                continue
            with g.lock:
                p = g.players_to_move[0]
                legal = g.legal_moves(p)
                token = rg.players[p]
                other = rg.players[1 - p]
            if self.burst(now):  # out of turn and illegal: refused, nothing changes
                for seat, move in ((other, str(legal[0])), (token, "Z99"), ("no-such-seat", str(legal[0]))):
                    try:
                        self.room.play(seat, move)
                    except (RoomError, IllegalMoveError, ValueError):
                        self.refused += 1
            try:
                self.room.play(token, self.rnd.choice(legal))
                self.acknowledged[gid] = self.acknowledged.get(gid, 0) + 1
                self.moves += 1
            except (RoomError, IllegalMoveError):
                self.refused += 1
            think = self.rnd.uniform(0.0, 0.3) if self.burst(now) else self.rnd.uniform(2.0, 8.0)
            heapq.heappush(heap, (time.monotonic() + think, gid))

    def maybe_next_round(self) -> None:
        games = [rg for rg in self.room.games if rg.round == self.room.round]
        if sum(rg.game.is_over for rg in games) * 2 >= len(games):
            for rg in games:
                with rg.game.lock:
                    if rg.game.is_over:
                        rg.game.reset()  # the same two students play again (a new game, same seats)
                        self.acknowledged[rg.id] = 0
                        self.restarts += 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=180.0)
    ap.add_argument("--students", type=int, default=60)
    ap.add_argument("--board", default="6x6")
    ap.add_argument("--click-every", type=float, default=2.0)
    args = ap.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="gw-rooms-load-"))
    db = folder / "class.sqlite"
    rooms = Rooms(Store(db))
    load = rooms.create("gridlock", args.board, teacher_token=rooms.teacher_token)
    for k in range(args.students):
        load.join(f"Student {k + 1}")
    pair = rooms.create("gridlock", args.board, teacher_token=rooms.teacher_token)
    rough = rooms.create("gridlock", args.board, teacher_token=rooms.teacher_token)  # the flooding and stalled pages
    port = harness.free_port()
    server = make_server(rooms, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.1)
    base = f"http://127.0.0.1:{port}"
    print(f"{len(load.games)} games, {args.students} simulated students, board {args.board}, {args.seconds:.0f} s")

    stored: dict[int, float] = {}  # version of the measured game -> time written on the server
    latencies: list[float] = []
    click_latencies: list[float] = []

    def join(browser, code: str, name: str):
        page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        page.goto(f"{base}/?room={code}")
        page.locator(".gw-join-name input").fill(name)
        page.locator(".gw-join").click()
        page.wait_for_function("location.search.includes('seat=')", timeout=30_000)
        return page

    with harness.Browser(viewport=(1280, 720)) as browser, StoppableChromium(browser._pw) as laptop:
        teacher = browser.browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        teacher.goto(f"{base}/teacher?token={rooms.teacher_token}")
        teacher.locator(".gw-room-panel").wait_for(timeout=60_000)
        teacher.locator(".gw-room-tabs button").first.click()  # the load room: 30 live cards
        pages = [join(browser.browser, pair.code, name) for name in ("Ann", "Bob")]
        flooder = join(browser.browser, rough.code, "Flo")
        stalled = join(laptop.browser, rough.code, "Sam")
        for page in (flooder, stalled):
            page.locator('[data-game="gridlock"]').wait_for(timeout=30_000)
        laptop.stop()  # Sam's laptop: stopped for the whole run
        rg = pair.games[0]
        save_game = rooms.store.save_game

        def timed_save(game_id, save, pending):  # the moment the move is on disk, before any page hears
            save_game(game_id, save, pending)
            if game_id == rg.id:
                stored.setdefault(rg.game.version, time.time() * 1000)

        rooms.store.save_game = timed_save  # type: ignore[method-assign]
        for page in pages:
            page.locator('[data-game="gridlock"]').wait_for(timeout=30_000)
            page.evaluate(WATCH)
        threads_before, memory_before = resources()
        closed_before = rooms_server.STATS.closed
        students = Students(load, args.seconds)
        students.start()
        t_end = time.monotonic() + args.seconds
        rnd = random.Random(1)
        next_flood = time.monotonic()
        floods = 0
        while time.monotonic() < t_end:
            if time.monotonic() >= next_flood:
                flooder.evaluate(FLOOD)
                floods += 1
                next_flood = time.monotonic() + 3.0
            g = rg.game
            if g.is_over:
                with g.lock:
                    g.reset()
                for page in pages:
                    page.wait_for_function("window.__seen && Object.keys(window.__seen).length > 0", timeout=10_000)
                time.sleep(0.5)
                continue
            p = g.current_player
            mover, other = pages[p], pages[1 - p]
            move = str(rnd.choice(g.legal_moves()))
            want = g.version + 1
            clicked = time.time() * 1000
            mover.locator(f'[data-game="gridlock"] [data-cell="{move}"]').click()
            seen = other.wait_for_function(f"window.__seen[{want}]", timeout=15_000).json_value()
            if want in stored:
                latencies.append(seen - stored[want])
                click_latencies.append(seen - clicked)
            time.sleep(args.click_every)
        students.stop_event.set()
        students.join(timeout=10)
        threads_after, memory_after = resources()
        closed_during = rooms_server.STATS.closed - closed_before
        teacher.screenshot(path=str(folder / "teacher_under_load.png"))
        laptop.resume()

    # nothing lost: every acknowledged move is in its game, and the file holds every game as it is
    lost = sum(max(0, n - len(load.game(gid).game.history)) for gid, n in students.acknowledged.items())
    again = Rooms(Store(db))
    same = all(a.game.to_json() == b.game.to_json() for r in rooms.rooms()
               for a, b in zip(r.games, again.room(r.code).games, strict=True))
    server.should_exit = True
    thread.join(timeout=10)
    server.agent_runner.stop()
    print(f"simulated moves: {students.moves} ({students.moves / args.seconds:.1f}/s), refused on purpose: "
          f"{students.refused}, games restarted: {students.restarts}")
    print(f"move-to-update on the opponent's page ({len(latencies)} moves): p50 {statistics.median(latencies):.1f} ms, "
          f"p95 {pct(latencies, 0.95):.1f} ms, max {max(latencies):.1f} ms")
    print(f"click-to-update: p50 {statistics.median(click_latencies):.1f} ms, p95 {pct(click_latencies, 0.95):.1f} ms")
    print(f"lost moves: {lost}; the SQLite file equals every game in memory: {same}")
    stats = rooms_server.STATS
    dropped = ", ".join(f"{n} ({cause})" for cause, n in stats.dropped.items()) or "none"
    print(f"the flooding page sent {floods * 200} widget updates in {floods} bursts; connections opened "
          f"{stats.opened}, closed {closed_during} during the load (the stalled page's, its pings unanswered); "
          f"dropped for not reading: {dropped}; largest queue to one page {stats.largest_queue / 1000:.0f} kB")
    print(f"threads (OS) {threads_before} -> {threads_after}; "
          f"memory (RSS) {memory_before:.0f} -> {memory_after:.0f} MB")
    print(f"teacher's page under load: {folder / 'teacher_under_load.png'}")
    return 0 if lost == 0 and same else 1


if __name__ == "__main__":
    raise SystemExit(main())
