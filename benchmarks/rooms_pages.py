"""Pages let go: a student's page loaded and closed without its unload event
(a laptop that sleeps, a browser killed), again and again, against a real rooms
server (``python -m gridwidgets classroom --rooms``, a child process).

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/rooms_pages.py [--loads 200]

Each load makes a kernel, a board and a thread on the server; the server lets
a page go once its connection has been closed for
:data:`gridwidgets.rooms.server.CULL_TIMEOUT`. Prints the server's threads
(the operating system's count), its memory (RSS) and its kernels (Solara's
``/resourcez``) before the loads, every quarter of the way, and once the last
page is let go: flat means nothing is kept. Every wait is bounded.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import lab_harness as harness  # noqa: E402
from rooms_harness import RoomsServer  # noqa: E402

from gridwidgets.rooms import Rooms, Store  # noqa: E402


def kernels(server: RoomsServer) -> int:
    with urllib.request.urlopen(server.base + "/resourcez", timeout=10) as r:
        return int(json.loads(r.read())["kernels"]["total"])


def main() -> int:
    import psutil

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=200)
    args = ap.parse_args()
    db = Path(tempfile.mkdtemp(prefix="gw-rooms-pages-")) / "class.sqlite"
    rooms = Rooms(Store(db))
    room = rooms.create("gridlock", "4x4", pairing="agent", teacher_token=rooms.teacher_token)
    seat = room.join("Ann")
    rooms.store.close()
    rows = []
    with RoomsServer(db) as server, harness.Browser(viewport=(1280, 720)) as browser:
        process = psutil.Process(server.proc.pid)
        url = f"{server.base}/?room={room.code}&seat={seat.token}"

        def note(what: str) -> None:
            rows.append((what, process.num_threads(), process.memory_info().rss / 1e6, kernels(server)))
            print(f"{what:>34}: threads {rows[-1][1]:3d}, memory {rows[-1][2]:6.1f} MB, kernels {rows[-1][3]}",
                  flush=True)

        def let_go(what: str) -> None:
            t0 = time.monotonic()
            while kernels(server) and time.monotonic() - t0 < 120:
                time.sleep(1)
            note(f"{what} ({time.monotonic() - t0:.0f} s later)")

        note("server started")
        t0 = time.monotonic()
        for k in range(1, args.loads + 1):
            ctx = browser.browser.new_context(viewport={"width": 1280, "height": 720})
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_selector('[data-game="gridlock"][data-version="0"]', state="attached", timeout=30_000)
            page.close()  # no beforeunload: the server is not told
            ctx.close()
            if k == 10:
                let_go("10 pages, let go")
            if k % max(1, args.loads // 4) == 0:
                note(f"{k} pages loaded and closed")
        print(f"{args.loads} page loads in {time.monotonic() - t0:.0f} s")
        let_go("every page let go")
    first, last = rows[1], rows[-1]
    print(f"after the first 10 pages were let go -> after all {args.loads}: threads {first[1]} -> {last[1]}, "
          f"memory {first[2]:.0f} -> {last[2]:.0f} MB, kernels {first[3]} -> {last[3]}")
    return 0 if last[3] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
