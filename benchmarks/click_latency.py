"""Click-to-board-updated latency of the Gridlock widget, against a bare echo widget.

Run from the repository root, with the venv::

    .venv/bin/python benchmarks/click_latency.py [--clicks 30] [--size 8]

One JupyterLab and one Chromium (the harness of ``tests/browser/lab_harness.py``),
one notebook holding both widgets, one kernel.  The clicks alternate between
the two widgets so both see the same conditions.  Timing is done inside the
page (``/work/shared/TESTING.md``, "Timing a click honestly"):

* start: ``performance.now()`` in a capture-phase ``click`` listener on
  ``window``;
* stop: the first DOM mutation under the widget's output that shows the new
  state: the root's ``data-version`` is the next version *and* (for the
  board) the clicked cell shows the mover's marker, (for the echo) the
  counter shows the new count.

Gridlock clicks follow a fixed sequence of legal moves (the first legal move
each turn, computed by the kernel on a copy of the game), so the run is
deterministic.  Prints median and p95 of both and the ratio ours/echo (goal:
at most 1.2).  Every wait is bounded.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _load_harness():
    spec = importlib.util.spec_from_file_location("gw_browser_harness", REPO / "tests" / "browser" / "lab_harness.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


J = _load_harness()

ECHO_ROOT = ".echo-widget"
BOARD_ROOT = '[data-game="gridlock"]'

# In-page instrumentation: one pending measurement at a time.
_INSTALL = r"""
() => {
  if (window.__lat) return true;
  const lat = window.__lat = { pending: null, results: [], failures: [] };
  // start: the click itself, capture phase, before any handler of the page
  window.addEventListener('click', () => {
    const p = lat.pending;
    if (p && p.t0 === null) p.t0 = performance.now();
  }, true);
  lat.check = (p) => {
    const root = document.querySelector(p.root);
    if (!root || root.dataset.version !== p.version) return false;
    if (p.cell) {
      const cell = root.querySelector(`[data-cell="${p.cell}"]`);
      if (!cell) return false;
      const label = cell.getAttribute('aria-label') || '';
      return (cell.textContent || '').includes(p.text) || label.endsWith(', ' + p.text);
    }
    if (p.count !== null) {
      const c = root.querySelector('[data-role="count"]');
      return !!c && c.textContent === p.count;
    }
    return true;
  };
  const observer = new MutationObserver(() => {
    const p = lat.pending;
    if (!p || p.t0 === null) return;
    if (lat.check(p)) {
      lat.results.push({ label: p.label, ms: performance.now() - p.t0 });
      lat.pending = null;
    }
  });
  lat.observe = (rootSelector) => {
    const root = document.querySelector(rootSelector);
    const target = root.closest('.jp-OutputArea') || root.parentElement;
    observer.observe(target, { subtree: true, childList: true, attributes: true, characterData: true });
  };
  lat.arm = (p) => {
    if (lat.pending) throw new Error('a measurement is still pending: ' + JSON.stringify(lat.pending));
    lat.pending = Object.assign({ t0: null, cell: null, text: null, count: null }, p);
    return lat.results.length;
  };
  return true;
}
"""

_NOTEBOOK_CELLS = [
    "from echo_widget import EchoWidget\necho = EchoWidget()\necho",
    "import gridwidgets as gw\ng = gw.Gridlock(rows={rows}, cols={cols})\nboard = g.widget()\nboard",
]

_SEQUENCE_CODE = """
import json as _json
_h = g.copy()
_seq = []
while len(_seq) < {n} and not _h.is_over:
    _p = _h.current_player
    _m = _h.legal_moves()[0]
    _h.play(_m)
    _seq.append([str(_m), _h.players[_p]])
print(_json.dumps(_seq))
"""


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    s = sorted(values)
    return s[max(0, math.ceil(q / 100 * len(s)) - 1)]


def click_and_time(nb, selector: str, pending: dict, timeout: float) -> float:
    """Arm a measurement, click ``selector``, wait for the observer; return ms."""
    page = nb.page
    n = page.evaluate("(p) => window.__lat.arm(p)", pending)
    page.click(selector, timeout=timeout * 1000)
    try:
        page.wait_for_function("(n) => window.__lat.results.length > n", arg=n, timeout=timeout * 1000)
    except Exception as exc:
        state = page.evaluate(
            "([p, r]) => { const root = document.querySelector(r);"
            " const m = root && root.querySelector('[data-role=\"message\"]');"
            " return {pending: window.__lat.pending, version: root && root.dataset.version,"
            " message: m && m.textContent}; }",
            [pending, pending["root"]],
        )
        raise RuntimeError(f"no update after clicking {selector}: {state}") from exc
    return page.evaluate("(n) => window.__lat.results[n].ms", n)


def version_of(nb, root: str) -> int:
    return int(nb.page.get_attribute(root, "data-version"))


def run(clicks: int = 30, size: int = 8, warmup: int = 2, timeout: float = 10.0, verbose: bool = True) -> dict:
    if not J.chromium_available():
        raise SystemExit(f"{J.CHROMIUM} is missing (apt-get install -y chromium)")
    t_start = time.monotonic()
    root = Path(tempfile.mkdtemp(prefix="gw-bench-"))
    try:
        shutil.copy(HERE / "echo_widget.py", root / "echo_widget.py")
        cells = [c.replace("{rows}", str(size)).replace("{cols}", str(size)) for c in _NOTEBOOK_CELLS]
        J.write_notebook(root / "bench.ipynb", cells)
        with J.JupyterLab(root) as lab, J.Browser(timeout=max(timeout, 30)) as browser:
            nb = browser.open_notebook(lab, "bench.ipynb")
            nb.run_all()
            nb.page.wait_for_selector(f"{ECHO_ROOT}[data-version]")
            nb.page.wait_for_selector(f"{BOARD_ROOT}[data-version]")
            total = warmup + clicks
            seq = json.loads(nb.run_code(_SEQUENCE_CODE.format(n=total)))
            if len(seq) < total:
                raise SystemExit(
                    f"a {size}x{size} game gives only {len(seq)} moves in this sequence;"
                    f" need {total}: use a bigger --size"
                )
            nb.page.evaluate(J._PAGE_HELPERS)
            nb.page.evaluate(_INSTALL)
            nb.page.evaluate("(r) => window.__lat.observe(r)", ECHO_ROOT)
            nb.page.evaluate("(r) => window.__lat.observe(r)", BOARD_ROOT)
            echo_ms: list[float] = []
            ours_ms: list[float] = []
            for i, (move, marker) in enumerate(seq):
                v = version_of(nb, ECHO_ROOT)
                e = click_and_time(
                    nb,
                    f"{ECHO_ROOT} [data-action=echo]",
                    {"label": "echo", "root": ECHO_ROOT, "version": str(v + 1), "count": str(v + 1)},
                    timeout,
                )
                v = version_of(nb, BOARD_ROOT)
                o = click_and_time(
                    nb,
                    f'{BOARD_ROOT} [data-cell="{move}"]',
                    {"label": move, "root": BOARD_ROOT, "version": str(v + 1), "cell": move, "text": marker},
                    timeout,
                )
                if i >= warmup:
                    echo_ms.append(e)
                    ours_ms.append(o)
            # the kernel agrees with what was clicked
            history = json.loads(nb.run_code("import json; print(json.dumps([str(m) for m in g.history]))"))
            echo_count = int(nb.run_code("print(echo.count)"))
            if history != [m for m, _ in seq] or echo_count != total:
                raise RuntimeError(f"kernel disagrees: history={history} echo.count={echo_count}")
            nb.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)

    res = {
        "clicks": clicks,
        "board": f"{size}x{size}",
        "echo_median_ms": statistics.median(echo_ms),
        "echo_p95_ms": percentile(echo_ms, 95),
        "ours_median_ms": statistics.median(ours_ms),
        "ours_p95_ms": percentile(ours_ms, 95),
        "echo_min_ms": min(echo_ms),
        "ours_min_ms": min(ours_ms),
        "wall_s": time.monotonic() - t_start,
    }
    res["ratio_median"] = res["ours_median_ms"] / res["echo_median_ms"]
    res["ratio_p95"] = res["ours_p95_ms"] / res["echo_p95_ms"]
    res["echo_ms"] = [round(x, 2) for x in echo_ms]
    res["ours_ms"] = [round(x, 2) for x in ours_ms]
    if verbose:
        print(
            f"click-to-board-updated latency, {clicks} clicks each (after {warmup} warm-up), "
            f"JupyterLab + Chromium, in-page timing"
        )
        print(f"  {'':28}{'median':>10}{'p95':>10}{'min':>10}")
        for name, k in (("echo anywidget (baseline)", "echo"), (f"Gridlock {res['board']} (ours)", "ours")):
            print(f"  {name:28}{res[k + '_median_ms']:>8.1f}ms{res[k + '_p95_ms']:>8.1f}ms{res[k + '_min_ms']:>8.1f}ms")
        print(f"  ratio ours/echo: median {res['ratio_median']:.2f}, p95 {res['ratio_p95']:.2f}  (goal <= 1.2)")
        print(f"  echo ms: {res['echo_ms']}")
        print(f"  ours ms: {res['ours_ms']}")
        print(f"  wall time {res['wall_s']:.1f}s")
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clicks", type=int, default=30, help="measured clicks per widget (default 30)")
    ap.add_argument("--size", type=int, default=8, help="Gridlock board size (default 8: 40 moves)")
    ap.add_argument("--warmup", type=int, default=2, help="unmeasured clicks first (default 2)")
    ap.add_argument("--timeout", type=float, default=10.0, help="bound on each click's update, s")
    ap.add_argument("--json", action="store_true", help="print the result as JSON only")
    ap.add_argument(
        "--max-ratio", type=float, default=None, help="exit 1 if the median ratio ours/echo is above this (e.g. 1.2)"
    )
    a = ap.parse_args(argv)
    res = run(a.clicks, a.size, a.warmup, a.timeout, verbose=not a.json)
    if a.json:
        print(json.dumps(res))
    if a.max_ratio is not None and res["ratio_median"] > a.max_ratio:
        print(f"FAIL: median ratio {res['ratio_median']:.2f} > {a.max_ratio}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
