"""Does simultaneous-move MCTS converge? Its root mix's exploitability, measured
exactly, as the budget grows.

On positions the exact solver settles (``solve_simultaneous``, with the root's
whole matrix valued exactly), run :func:`gridwidgets.agents.smmcts.sm_mcts`
with several seeds and, after each budget of simulations, measure how much
each player's root mean strategy gives away against a best reply with the
subgames then played perfectly (``SimultaneousNode.exploitability``). The
figure is the sum over both players (a NashConv at the root: 0 exactly at an
equilibrium of the root's matrix game), in payoff units ((r0 - r1) / 2: +1 a
win), as the mean ± standard error over the seeds.

Rules compared (Lisý, Kovařík, Lanctot & Bošanský, NeurIPS 2013):

- ``rm``: regret matching, gamma 0.2, the mean strategy with the exploration
  taken out (the default of ``sm_mcts``);
- ``rm kept``: the same runs, the paper's mean strategy as it is (exploration kept);
- ``exp3``: Exp3, gamma 0.1, exploration taken out;
- ``duct``: decoupled UCT (what ``MCTSAgent`` uses at simultaneous nodes), the
  mix its visit frequencies: no convergence guarantee.

A budget is the state of one run after that many simulations (a run of
``n`` simulations is the first ``n`` of a longer one with the same seed), so
the columns of one seed come from one run.

Positions: Block Four's endgames ``MATCH_THREE`` (value -1/3, both mixes
uniform over three bids) and ``EVEN`` (value 0) of
``tests/test_blockfour_endgames.py``; the guide's *Claim* on a 2x3 grid
(``docs/adding-a-game.md``); the random stacked matrix game
``Stacked(seed=23, depth=4, hashes=8)`` of ``tests/stacked.py`` (value 0.6,
a mixed equilibrium on a 2x2 root: (0.8, 0.2) against (0.2, 0.8)).

    .venv/bin/python benchmarks/smmcts_convergence.py                      # about 8 minutes on one core
    .venv/bin/python benchmarks/smmcts_convergence.py --budgets 100 1000 --seeds 2 --no-plot
"""

from __future__ import annotations

import argparse
import math
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import gridwidgets as gw  # noqa: E402
from gridwidgets.agents.smmcts import sm_mcts  # noqa: E402
from gridwidgets.analysis import solve_simultaneous  # noqa: E402

PLOT = ROOT / "docs" / "images" / "smmcts_convergence.png"
#: (label, selection, which mean)
RULES = [("rm", "rm", "mean"), ("rm kept", "rm", "kept"), ("exp3", "exp3", "mean"), ("duct", "duct", "mean")]


def positions() -> dict[str, gw.Game]:
    """The positions, by name."""
    import docgames
    import stacked
    from test_blockfour_endgames import EVEN, MATCH_THREE

    claim = docgames.load()["Claim"]
    return {
        "MATCH_THREE": gw.BlockFour.from_position(MATCH_THREE),
        "EVEN": gw.BlockFour.from_position(EVEN),
        "Claim 2x3": claim(2, 3),
        "stacked 23": stacked.Stacked(seed=23, depth=4, hashes=8),
    }


def nashconv(node: object, result: object, which: str) -> float:
    """The sum of both players' exploitabilities of the result's root mix."""
    mixes = getattr(result, which)
    return sum(node.exploitability(mixes[p], p) for p in (0, 1))  # type: ignore[attr-defined]


def measure(game: gw.Game, budgets: list[int], seeds: int) -> tuple[object, dict[str, list[list[float]]], float]:
    """``(root node, {rule: [per budget: [per seed: NashConv]]}, seconds of search)``."""
    node = solve_simultaneous(game, root_matrix=True, progress=False, time_limit=120).root
    assert node is not None, "the position must be a simultaneous node"
    out = {label: [[] for _ in budgets] for label, _, _ in RULES}
    spent = 0.0
    for selection in ("rm", "exp3", "duct"):
        for seed in range(seeds):
            t = time.perf_counter()
            res = sm_mcts(game, max(budgets), selection=selection, seed=seed, record=budgets)
            spent += time.perf_counter() - t
            by_n = dict(res.details["history"])
            for label, sel, which in RULES:
                if sel != selection:
                    continue
                for k, n in enumerate(budgets):
                    out[label][k].append(nashconv(node, by_n[n], which))
    return node, out, spent


def mean_se(xs: list[float]) -> tuple[float, float]:
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.nan
    return m, se


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budgets", type=int, nargs="+", default=[100, 300, 1000, 3000, 10000])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--games", nargs="+", default=None, help="a subset of the positions, by name")
    ap.add_argument("--no-plot", action="store_true", help="print the table only")
    ap.add_argument("--plot", type=pathlib.Path, default=PLOT)
    args = ap.parse_args()
    budgets = sorted(set(args.budgets))
    games = positions()
    if args.games:
        games = {k: v for k, v in games.items() if k in args.games}
    results: dict[str, dict[str, list[list[float]]]] = {}
    head = f"{'position':<12} {'rule':<8} " + " ".join(f"{n:>13,}" for n in budgets)
    print(f"root NashConv (sum of both players' exploitability, payoff units) of SM-MCTS's root mix,"
          f" mean ± s.e. over {args.seeds} seeds")
    print(head)
    print("-" * len(head))
    for name, game in games.items():
        node, out, spent = measure(game, budgets, args.seeds)
        results[name] = out
        for label, _, _ in RULES:
            cells = []
            for xs in out[label]:
                m, se = mean_se(xs)
                cells.append(f"{m:6.3f} ± {se:5.3f}")
            print(f"{name:<12} {label:<8} " + " ".join(f"{c:>13}" for c in cells))
        print(f"{'':<12} (value {node.value:+.3f}; root {len(node.rows)}x{len(node.cols)};"  # type: ignore[attr-defined]
              f" {spent:.0f} s of search)")
    if not args.no_plot:
        plot(results, budgets, args.seeds, args.plot)
        print(f"plot: {args.plot}")


def plot(results: dict[str, dict[str, list[list[float]]]], budgets: list[int], seeds: int,
         path: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(3.2 * len(results), 3.2), sharey=True, squeeze=False)
    styles = {"rm": "o-", "rm kept": "o--", "exp3": "s-", "duct": "^:"}
    for ax, (name, out) in zip(axes[0], results.items(), strict=True):
        for label, _, _ in RULES:
            ms = [mean_se(xs) for xs in out[label]]
            ax.errorbar(budgets, [m for m, _ in ms], yerr=[se for _, se in ms], fmt=styles[label],
                        label=label, capsize=2, markersize=4)
        ax.set_xscale("log")
        ax.set_title(name, fontsize=10)
        ax.set_xlabel("simulations")
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("root NashConv (payoff units)")
    axes[0][0].set_ylim(bottom=0)
    axes[0][-1].legend(fontsize=8)
    fig.suptitle(f"SM-MCTS: exploitability of the root mix, mean ± s.e. over {seeds} seeds", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main()
