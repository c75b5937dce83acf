"""How soon a teacher's button answers, with a class of 60: click to
acknowledged (the button shows it was pressed) and click to every page
updated (the teacher's, the projector's and students' pages showing the
result), per action.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/rooms_buttons.py [--repeats 10] [--students 60] [--pages 3] [--board 6x6]

One process, as in class (as ``benchmarks/rooms_load.py``): the rooms server
(:func:`gridwidgets.rooms.server.make_server`, Solara on uvicorn, the room
agents' thread) runs in a thread of this program over a real SQLite file.

* **The class**: one round-robin Gridlock room; ``--students`` minus
  ``--pages`` students seated through the model (:meth:`~gridwidgets.rooms.Room.join`),
  and ``--pages`` students joined through real Chromium pages, so 60 seats
  and 30 games a round. While the buttons are measured, a thread plays every
  student's move 2 to 8 s after it becomes their turn (a class's pace),
  through :meth:`~gridwidgets.rooms.Room.play` (the path of a page's move).
* **The pages**: the teacher's page (1280x720), the projector's (1920x1080,
  in a browser context of its own, opened with the teacher's session), and
  the student pages (1280x720), each in its own context (a window).
* **The actions**, each ``--repeats`` times in turn: *Pause*, *Resume*,
  *Next round*, and a class poll: *Put it on every screen* (after *Ask the
  class…*, not timed), *Close answers*, *End the poll*.
* **Click to acknowledged**: from the click's ``pointerdown`` on the
  teacher's page (a capturing listener of ``window``, first to hear it;
  Playwright releases at once, and the page marks the button at the click,
  after the release: while a person holds it down, CSS ``:active`` shows it) to
  the first animation frame after the button carries the pressed state
  (class ``gw-pressed`` and ``aria-busy="true"``, seen by a
  ``MutationObserver``), ``performance.now()``.
* **Click to every page updated**: from the same ``pointerdown`` to the
  moment the last page's DOM shows the result (each page's own
  ``MutationObserver``, ``performance.timeOrigin + performance.now()``:
  one machine's clock): the "paused" banner there, or gone; the new round's
  number (the projector: every card a game of the new round); the poll on
  the screen, closed, gone. The slowest page per click is printed too.

Prints p50/p95/max per action. Every wait is bounded (30 s); a wait that
runs out stops the program with what was awaited.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import lab_harness as harness  # noqa: E402

from gridwidgets.core.errors import IllegalMoveError  # noqa: E402
from gridwidgets.rooms import RoomError, Rooms, Store  # noqa: E402
from gridwidgets.rooms.server import make_server  # noqa: E402

#: the teacher's page: the time of each pointerdown, and of the first frame after a button shows it was pressed
WATCH_CLICKS = """() => {
  window.__clicks = []; window.__acks = [];
  window.addEventListener("pointerdown", () => {
    window.__clicks.push(performance.timeOrigin + performance.now());
  }, true);
  new MutationObserver((records) => {
    for (const r of records) {
      const t = r.target;
      if (t.classList && t.classList.contains("gw-pressed") && t.getAttribute("aria-busy") === "true"
          && window.__acks.length < window.__clicks.length) {
        const i = window.__clicks.length - 1;
        window.__acks[i] = -1;
        requestAnimationFrame(() => { window.__acks[i] = performance.timeOrigin + performance.now(); });
      }
    }
  }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ["class", "aria-busy"]});
}"""
#: any page: the first moment the predicate ``pred`` (a JavaScript expression) holds, under ``name``
WATCH_FOR = """([name, pred]) => {
  const holds = new Function("return (" + pred + ");");
  window.__seen = window.__seen || {};
  window.__seen[name] = null;
  const look = () => {
    if (window.__seen[name] === null && holds()) {
      window.__seen[name] = performance.timeOrigin + performance.now();
      seen.disconnect();
    }
  };
  const seen = new MutationObserver(look);
  seen.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  look();
}"""
PAUSED = "!!document.querySelector('.gw-paused')"
TEACHER_PAUSED = "!!document.querySelector('.gw-room-panel .gw-paused')"


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


class Students(threading.Thread):
    """Every student's move 2 to 8 s after it becomes their turn (any seat: the page students' too)."""

    def __init__(self, room, seed: int = 0) -> None:
        super().__init__(name="simulated-students", daemon=True)
        self.room, self.rnd = room, random.Random(seed)
        self.stop_event = threading.Event()
        self.due: dict[tuple[int, int], float] = {}
        self.moves = 0

    def run(self) -> None:
        while not self.stop_event.wait(0.05):
            now = time.monotonic()
            for rg in [g for g in self.room.games if g.round == self.room.round]:
                g = rg.game
                with g.lock:
                    if g.is_over:
                        continue
                    movers = [p for p in g.players_to_move if p in rg.students()]
                    version = g.version
                for p in movers:
                    when = self.due.setdefault((rg.id, version), now + self.rnd.uniform(2, 8))
                    if now < when:
                        continue
                    try:
                        with g.lock:
                            legal = g.legal_moves(p) if g.version == version else []
                        if legal:
                            self.room.play(rg.players[p], str(self.rnd.choice(legal)))
                            self.moves += 1
                    except (RoomError, IllegalMoveError):
                        pass  # paused, or the game moved on meanwhile


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--students", type=int, default=60)
    ap.add_argument("--pages", type=int, default=3, help="students on real pages (of --students)")
    ap.add_argument("--board", default="6x6")
    args = ap.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="gw-rooms-buttons-"))
    rooms = Rooms(Store(folder / "class.sqlite"))
    room = rooms.create("gridlock", args.board, pairing="round-robin", teacher_token=rooms.teacher_token)
    for k in range(args.students - args.pages):
        room.join(f"Student {k + 1}")
    port = harness.free_port()
    server = make_server(rooms, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.1)
    base = f"http://127.0.0.1:{port}"
    acks: dict[str, list[float]] = defaultdict(list)
    alls: dict[str, list[float]] = defaultdict(list)
    slowest: dict[str, Counter] = defaultdict(Counter)

    with harness.Browser(viewport=(1280, 720)) as browser:
        ctx = browser.browser.new_context(viewport={"width": 1280, "height": 720})
        ctx.set_default_timeout(30_000)
        teacher = ctx.new_page()
        teacher.goto(f"{base}/teacher?token={rooms.teacher_token}")
        teacher.locator(".gw-room-panel").wait_for()
        # the projector: a window of its own (a page behind another gets no animation frames), the teacher's session
        projector = browser.browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        projector.set_default_timeout(30_000)
        projector.goto(f"{base}/teacher?token={rooms.teacher_token}")
        projector.locator(".gw-room-panel").wait_for()
        projector.goto(f"{base}/projector")
        projector.locator(".gw-big-code").wait_for()
        students = []
        for k in range(args.pages):
            page = browser.browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
            page.set_default_timeout(30_000)
            page.goto(f"{base}/?room={room.code}")
            page.locator(".gw-join-name input").fill(f"Page {k + 1}")
            page.locator(".gw-join").click()
            page.wait_for_function("location.search.includes('seat=')")
            page.locator(".gw-seat-name").wait_for()
            students.append(page)
        pages = {"teacher": teacher, "projector": projector} | {f"student {k + 1}": p for k, p in enumerate(students)}
        teacher.evaluate(WATCH_CLICKS)
        print(f"{len(room.seats)} students ({args.pages} on pages), round-robin Gridlock {args.board}, "
              f"{args.repeats} repeats; the teacher's page, the projector and {args.pages} student pages")

        def measure(action: str, click, preds: dict[str, str]) -> None:
            """Click (``click()``), then wait until each page's predicate holds; record the figures."""
            for name, page in pages.items():
                page.evaluate(WATCH_FOR, [action, preds[name.split()[0]]])
            n = teacher.evaluate("window.__clicks.length")
            click()
            teacher.wait_for_function(f"window.__clicks.length > {n} && window.__acks[{n}] > 0")
            clicked, ack = teacher.evaluate(f"[window.__clicks[{n}], window.__acks[{n}]]")
            seen = {}
            for name, page in pages.items():
                page.wait_for_function(f"window.__seen[{action!r}] !== null")
                seen[name] = page.evaluate(f"window.__seen[{action!r}]")
            last = max(seen, key=seen.get)
            acks[action].append(ack - clicked)
            alls[action].append(seen[last] - clicked)
            slowest[action][last] += 1

        def next_round_preds() -> dict[str, str]:
            want = room.round + 1
            top = max((g.id for g in room.games), default=0)
            return {"teacher": f"/round {want}\\b/.test(document.querySelector('.gw-round-progress')?.textContent)",
                    "student": f"/round {want}\\b/.test(document.querySelector('.gw-seat-name')?.textContent)",
                    "projector": "(() => { const c = [...document.querySelectorAll('.gw-room-game[data-game-id]')]; "
                                 f"return c.length > 0 && c.every((e) => +e.dataset.gameId > {top}); }})()"}

        mover = Students(room)
        mover.start()
        measure("Next round", lambda: teacher.locator(".gw-next-round").click(), next_round_preds())
        acks.clear(), alls.clear(), slowest.clear()  # the first round: not a repeat
        for _ in range(args.repeats):
            measure("Pause", lambda: teacher.locator(".gw-pause").click(),
                    {"teacher": TEACHER_PAUSED, "projector": PAUSED, "student": PAUSED})
            measure("Resume", lambda: teacher.locator(".gw-resume").click(),
                    {"teacher": "!" + TEACHER_PAUSED, "projector": "!" + PAUSED, "student": "!" + PAUSED})
            measure("Next round", lambda: teacher.locator(".gw-next-round").click(), next_round_preds())
            teacher.locator(".gw-ask-class").click()
            teacher.locator(".gw-open-poll").wait_for()
            measure("Open a poll", lambda: teacher.locator(".gw-open-poll").click(),
                    {"teacher": "!!document.querySelector('.gw-poll .gw-close-poll')",
                     "projector": "!!document.querySelector('.gw-poll')",
                     "student": "!!document.querySelector('.gw-poll-title')"})
            closed = "/closed/.test(document.querySelector('.gw-poll-state')?.textContent)"
            measure("Close the poll", lambda: teacher.locator(".gw-close-poll").click(),
                    {"teacher": closed, "projector": closed,
                     "student": "/closed/.test(document.querySelector('.gw-poll-ask')?.textContent)"})
            measure("End the poll", lambda: teacher.locator(".gw-end-poll").click(),
                    {"teacher": "!document.querySelector('.gw-poll')",
                     "projector": "!document.querySelector('.gw-poll')",
                     "student": "!document.querySelector('.gw-poll-title')"})
        mover.stop_event.set()
        mover.join(timeout=10)
        teacher.screenshot(path=str(folder / "teacher.png"))
    server.should_exit = True
    thread.join(timeout=10)
    server.agent_runner.stop()

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"simulated moves meanwhile: {mover.moves}; load average {load} on {os.cpu_count()} cores; "
          f"screenshots in {folder}")
    print(f"{'action':<16} {'n':>3}  {'click -> acknowledged (ms)':>30}  {'click -> every page updated (ms)':>34}"
          "  slowest page")
    for action in acks:
        a, u = acks[action], alls[action]
        print(f"{action:<16} {len(a):>3}  p50 {statistics.median(a):6.1f} p95 {pct(a, .95):6.1f} max {max(a):6.1f}"
              f"  p50 {statistics.median(u):6.0f} p95 {pct(u, .95):6.0f} max {max(u):6.0f}    "
              + ", ".join(f"{k} {v}" for k, v in slowest[action].most_common(2)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
