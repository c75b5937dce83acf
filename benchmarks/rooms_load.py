"""A class's load on the rooms server: 30 games, 60 simulated students, for a
few minutes, while real Chromium pages measure how soon a move reaches the
opponent's screen.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/rooms_load.py [--seconds 180] [--students 60] [--board 6x6] [--poll-rounds 20]

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
* **A class poll** (after the load, ``--poll-rounds`` times, 0 to skip): the
  program opens a poll (:meth:`~gridwidgets.rooms.Room.open_poll`, with
  ``live_answers=True``: the heat map counts while it is open) in the
  load room on a fresh position (a game of the room as the load left it, a
  different one each time), waits until the teacher's page shows it, then
  the 60 seated students answer at once: one thread each, released together
  by a barrier, each :meth:`~gridwidgets.rooms.Room.answer_poll` with a legal
  move (spread over up to five moves). The time from the last
  ``answer_poll`` returning (``time.time()``) to the teacher's page showing
  all 60 answers on the poll's **heat map** (the counts drawn by the board's
  hint overlay, ``data-hint`` of its ``.gw-hint`` marks, summing to 60;
  a ``MutationObserver``, ``performance.timeOrigin + performance.now()``) is
  the **answer-to-heat-map latency**; the moment the count above it reads
  "60 of 60 answered" is printed too. The poll is ended before the next.
  **Answers lost**: every answer acknowledged must be in the poll's counts
  (:meth:`~gridwidgets.rooms.polls.Poll.counts`, ``Poll.answers``) and in
  the SQLite file (its ``poll_answers`` rows, read through a fresh
  connection: one per student and poll, the move sent).

Prints latency p50/p95/max during the load, the move rate, refusals, pages
dropped (the stalled one), threads and memory, and the check; then the poll's
latency p50/p95/max and the answers lost. The threads and memory are
measured at the end of the load, before the polls. Every wait is bounded.
"""

from __future__ import annotations

import argparse
import heapq
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
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


#: watches the teacher's page for the poll labelled ``label``: the first moment its heat map's counts (the
#: board's hint marks) add up to ``want``, and the first moment its count reads "``want`` of"
WATCH_POLL = """
([label, want]) => {
  window.__poll = {label, heat: null, count: null, most: 0};
  const look = () => {
    const s = window.__poll;
    if (s.label !== label) return;
    const panel = [...document.querySelectorAll('.gw-poll')].find(
      p => (p.querySelector('h2')?.textContent || '').trim() === 'Class poll: ' + label);
    if (!panel) return;
    const t = performance.timeOrigin + performance.now();
    let sum = 0;
    for (const g of panel.querySelectorAll('.gw-poll-board [data-game] .gw-hints-g[data-kind="poll"] .gw-hint'))
      sum += parseInt(g.getAttribute('data-hint') || '0', 10) || 0;
    s.most = Math.max(s.most, sum);
    if (s.heat === null && sum >= want) s.heat = t;
    const c = (panel.querySelector('.gw-poll-count')?.textContent || '').trim();
    if (s.count === null && c.startsWith(want + ' of')) s.count = t;
  };
  if (window.__pollObserver) window.__pollObserver.disconnect();
  window.__pollObserver = new MutationObserver(look);
  window.__pollObserver.observe(document.body, {subtree: true, childList: true, attributes: true,
                                                characterData: true});
  look();
}
"""
#: the poll labelled ``label`` on the teacher's page, its board drawn, its count read
POLL_SHOWN = """
([label, text]) => [...document.querySelectorAll('.gw-poll')].some(p =>
  (p.querySelector('h2')?.textContent || '').trim() === 'Class poll: ' + label
  && p.querySelector('.gw-poll-board [data-game]') !== null
  && (p.querySelector('.gw-poll-count')?.textContent || '').trim().startsWith(text))
"""
#: no poll labelled ``label`` on the teacher's page any more
POLL_GONE = """
(label) => ![...document.querySelectorAll('.gw-poll h2')].some(h => h.textContent.trim() === 'Class poll: ' + label)
"""


def wait_page(page, script: str, arg, seconds: float, what: str):
    """``page.wait_for_function``, bounded, failing with what was awaited."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        return page.wait_for_function(script, arg=arg, timeout=seconds * 1000).json_value()
    except PlaywrightTimeout:
        raise RuntimeError(f"the teacher's page did not {what} within {seconds:g} s") from None


def poll_source(room, board: str, rnd: random.Random, k: int):
    """A fresh position for poll ``k``: a game of ``room`` as the load left it (not over, five
    legal moves or more; a different one each poll), else a new game after a few random moves."""
    games = room.games
    for i in range(len(games)):
        rg = games[(k + i) % len(games)]
        g = rg.game
        with g.lock:
            if not g.is_over and len(g.legal_moves(g.players_to_move[0])) >= 5:
                return g.copy(), f"game {rg.id}, step {g.step_count}"
    from gridwidgets.menu import start_game

    g = start_game(room.game_name, board)
    for _ in range(rnd.randint(0, 6)):
        legal = g.legal_moves(g.players_to_move[0])
        if g.is_over or len(legal) < 6:
            break
        g.play(rnd.choice(legal), player=g.players_to_move[0])
    return g, f"a new game, step {g.step_count}"


def answer_at_once(room, moves: dict[str, str]) -> tuple[dict[str, float], dict[str, str], dict[str, str]]:
    """Every seat of ``moves`` answers the room's poll with its move, one thread each, released
    together by a barrier. Returns when each ``answer_poll`` returned (``time.time()``, ms), what
    it returned, and the refusals, per seat token (the threads still running after 60 s in none)."""
    barrier = threading.Barrier(len(moves))
    returned: dict[str, float] = {}
    answered: dict[str, str] = {}
    errors: dict[str, str] = {}

    def answer(token: str) -> None:
        try:
            barrier.wait(timeout=30)
            text = room.answer_poll(token, moves[token])
            returned[token] = time.time() * 1000
            answered[token] = text
        except Exception as exc:  # refused or broken: counted, never silent
            errors[token] = f"{type(exc).__name__}: {exc}"

    threads = [threading.Thread(target=answer, args=(t,), name=f"poll-student-{i}", daemon=True)
               for i, t in enumerate(moves)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 60
    for t in threads:
        t.join(timeout=max(0.0, deadline - time.monotonic()))
    return dict(returned), dict(answered), dict(errors)


def poll_rounds(teacher, room, teacher_token: str, rounds: int, board: str, folder: Path) -> dict:
    """The class poll phase (see the module's text): ``rounds`` polls in ``room``, every seated
    student answering each at once. Returns the latencies (ms) and what was sent per poll."""
    rnd = random.Random(2)
    seats = list(room.seats)
    n = len(seats)
    heat: list[float] = []
    count: list[float] = []
    sent_by_poll: dict[int, dict[str, str]] = {}
    refused: list[str] = []
    lost_memory = 0
    spans: list[float] = []
    for k in range(rounds):
        source, where = poll_source(room, board, rnd, k)
        label = f"poll {k + 1} of {rounds} ({where})"
        # live: the heat map counts while the poll is open (off by default, where it waits for Close)
        poll = room.open_poll(teacher_token, source, label=label, live_answers=True)
        wait_page(teacher, POLL_SHOWN, [label, f"0 of {n}"], 30, f"show poll {k + 1} (0 of {n} answered)")
        teacher.evaluate(WATCH_POLL, [label, n])
        legal = [str(m) for m in poll.game.legal_moves(poll.player)]
        options = rnd.sample(legal, min(5, len(legal)))
        weights = [16, 8, 4, 2, 1][:len(options)]
        moves = {token: rnd.choices(options, weights)[0] for token in seats}
        returned, answered, errors = answer_at_once(room, moves)
        if len(returned) + len(errors) < n:
            raise RuntimeError(f"poll {k + 1}: {n - len(returned) - len(errors)} students' answers did not "
                               "return within 60 s")
        refused += [f"poll {k + 1}: {e}" for e in errors.values()]
        if not returned:
            raise RuntimeError(f"poll {k + 1}: no answer was taken ({next(iter(errors.values()), '')})")
        last = max(returned.values())
        spans.append(last - min(returned.values()))
        want = len(returned)
        if want == n:
            got = wait_page(teacher, "() => window.__poll.heat !== null && window.__poll.count !== null "
                            "? [window.__poll.heat, window.__poll.count] : null", None, 30,
                            f"show all {n} answers of poll {k + 1} on its heat map")
            heat.append(got[0] - last)
            count.append(got[1] - last)
        sent_by_poll[poll.id] = {t: moves[t] for t in returned}
        # in memory: every acknowledged answer is its seat's answer (Poll.answers), and each move's count
        # (Poll.counts) is at least the answers sent for it
        counts, sent_counts = poll.counts(), Counter(moves[t] for t in returned)
        lost_memory += max(sum(1 for t in returned if poll.mine(t) != moves[t] or answered[t] != moves[t]),
                           sum(max(0, c - counts.get(m, 0)) for m, c in sent_counts.items()))
        if k == rounds - 1:
            teacher.screenshot(path=str(folder / "teacher_poll.png"))
        room.end_poll(teacher_token)
        wait_page(teacher, POLL_GONE, label, 30, f"take poll {k + 1} off after it ended")
    return {"heat": heat, "count": count, "sent": sent_by_poll, "refused": refused, "lost_memory": lost_memory,
            "spans": spans, "students": n}


def stored_answers(db: Path, sent_by_poll: dict[int, dict[str, str]]) -> tuple[int, int]:
    """Through a fresh read-only connection to the SQLite file: the answers sent that are not stored
    as sent (the last row of each seat counts), and the polls without exactly one row per answer sent."""
    con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        lost = bad_polls = 0
        for poll_id, sent in sent_by_poll.items():
            rows = con.execute("SELECT token, move FROM poll_answers WHERE poll = ? ORDER BY id",
                               (poll_id,)).fetchall()
            stored = dict(rows)
            lost += sum(1 for t, m in sent.items() if stored.get(t) != m)
            bad_polls += len(rows) != len(sent)
        return lost, bad_polls
    finally:
        con.close()


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
    ap.add_argument("--poll-rounds", type=int, default=20,
                    help="class polls after the load, every student answering at once (0: none)")
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

        def timed_save(game_id, save, pending, **kw):  # the moment the move is on disk, before any page hears
            save_game(game_id, save, pending, **kw)
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
        polls, poll_error = None, ""
        if args.poll_rounds > 0:
            try:
                polls = poll_rounds(teacher, load, rooms.teacher_token, args.poll_rounds, args.board, folder)
            except RuntimeError as exc:
                poll_error = str(exc)
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
    polls_ok = True
    if poll_error:
        print(f"class polls FAILED: {poll_error}")
        polls_ok = False
    elif polls is not None:
        heat, count, sent = polls["heat"], polls["count"], polls["sent"]
        answers = sum(len(s) for s in sent.values())
        lost_db, bad_polls = stored_answers(db, sent)
        expected = polls["students"] * args.poll_rounds
        print(f"class polls: {len(sent)} polls, {polls['students']} students answering each at once (the last "
              f"answer {statistics.median(polls['spans']):.0f} ms after the first, median)")
        if heat:
            print(f"last answer -> all {polls['students']} on the teacher's heat map ({len(heat)} polls): p50 "
                  f"{statistics.median(heat):.1f} ms, p95 {pct(heat, 0.95):.1f} ms, max {max(heat):.1f} ms")
            print(f"last answer -> \"{polls['students']} of {polls['students']} answered\" on the teacher's page: "
                  f"p50 {statistics.median(count):.1f} ms, p95 {pct(count, 0.95):.1f} ms, max {max(count):.1f} ms")
        refused = polls["refused"]
        print(f"poll answers: {answers} of {expected} taken ({len(refused)} refused"
              f"{': ' + refused[0] if refused else ''}); lost: {polls['lost_memory']} from the polls' counts, "
              f"{lost_db} from the SQLite file ({bad_polls} polls without one row per answer)")
        print(f"teacher's page with the last poll: {folder / 'teacher_poll.png'}")
        polls_ok = (answers == expected and not refused and polls["lost_memory"] == 0 and lost_db == 0
                    and bad_polls == 0 and len(heat) == args.poll_rounds)
    return 0 if lost == 0 and same and polls_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
