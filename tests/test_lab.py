"""The rules lab (``gridwidgets.lab``): each measure against values
computed by hand on tiny games, the solver's column against ``solve``, the
same table for any ``n_jobs``, compiled or not, resumed from Parquet, a
variant defined as a subclass measured on its own rules, and a broken
variant refused."""

from __future__ import annotations

import json
import math
import pickle

import matplotlib
import numpy as np
import pandas as pd
import pytest

import gridwidgets as gw
from gridwidgets import fast, lab
from gridwidgets.agents import RandomAgent
from gridwidgets.analysis import solve, wilson_interval
from gridwidgets.core.hooks import fast_path_applies
from gridwidgets.sim import simulate

matplotlib.use("Agg")

TIMING = ["solve_seconds"]  # wall time: the one column that may differ between equal runs


class DiagonalGridlock(gw.Gridlock):
    """Gridlock where a diagonal neighbour of an opponent's marker is forbidden too."""

    def _mask_bits(self, player: int) -> int:
        opp = np.pad(self.board == 1 - player, 1)
        near = opp[:-2, :-2] | opp[:-2, 2:] | opp[2:, :-2] | opp[2:, 2:]
        return super()._mask_bits(player) & ~sum(1 << int(i) for i in np.flatnonzero(near))


class LegalEverywhere(gw.Gridlock):
    """Broken: lists every cell as legal, for both players, always."""

    def legal_moves(self, player=None):
        return list(self.all_moves(0)) if not self.is_over else []


def _first_move(record) -> str:
    return json.loads(record["moves"])[0][1]


# -- each measure, by hand ------------------------------------------------------------------
def test_gl3_gl4_a_1x3_board_measured_game_by_game_as_by_hand():
    """1x3 (GL-3, GL-4): X on B1 blocks both cells and wins in one move; X on A1
    or C1 leaves O the far cell, after which X has none and loses. So X wins a
    third of random games; per game: branching 3 (B1) or (3 + 1) / 2, decisions
    1 or 1/2, coverage 1/3 or 2/3, and the leader changes on every move
    (mobility: X ahead after X's move, then the result)."""
    t = lab.measure(gw.Gridlock, 600, rows=1, cols=3, trace_games=600, progress=False, seed=1)
    rec = t.attrs["records"]
    assert len(rec) == 600 and t.at[0, "traced_games"] == 600
    for _, r in rec.iterrows():
        if _first_move(r) == "B1":
            assert (r["winners"], r["length"], r["branching_factor"], r["decision_moves"]) == ((0,), 1, 3.0, 1.0)
            assert r["board_coverage"] == pytest.approx(1 / 3)
        else:
            assert (r["winners"], r["length"], r["branching_factor"], r["decision_moves"]) == ((1,), 2, 2.0, 0.5)
            assert r["board_coverage"] == pytest.approx(2 / 3)
        assert r["lead_change"] == 1.0
    row = t.iloc[0]
    x_wins = sum(1 for w in rec["winners"] if w == (0,))
    assert row["advantage"] == row["win_p1"] == x_wins / 600
    assert row["advantage_low"] < 1 / 3 < row["advantage_high"]  # the exact rate inside its 95% interval
    assert row["balance"] == pytest.approx(1 - abs(x_wins - (600 - x_wins)) / 600)
    assert (row["completion"], row["drawishness"], row["timeouts"]) == (1.0, 0.0, 0.0)
    assert row["duration_moves"] == pytest.approx(rec["length"].mean())
    assert row["duration_moves_low"] < 5 / 3 < row["duration_moves_high"]


def test_a_1x2_board_is_a_first_player_win_every_time_and_the_solver_agrees():
    t = lab.measure("gridlock", 50, rows=1, cols=2, progress=False)  # a class or its registry name
    row = t.iloc[0]
    assert (row["advantage"], row["win_p2"], row["balance"], row["duration_moves"]) == (1.0, 0.0, 0.0, 1.0)
    assert (row["branching_factor"], row["decision_moves"], row["board_coverage"]) == (2.0, 1.0, 0.5)
    assert row["advantage_low"] == pytest.approx(wilson_interval(50, 50)[0])
    assert (row["solver"], row["solver_winner"], row["winning_moves"]) == ("first player wins", 0, "A1, B1")


def test_timeouts_are_games_cut_at_max_moves():
    """1x3 capped at one move: the B1 games end (X wins), the others are cut."""
    t = lab.measure(gw.Gridlock, 300, rows=1, cols=3, max_moves=1, progress=False, seed=2)
    rec = t.attrs["records"]
    cut = [_first_move(r) != "B1" for _, r in rec.iterrows()]
    assert list(rec["timeout"]) == cut
    row = t.iloc[0]
    assert row["timeouts"] == sum(cut) / 300 and row["completion"] == 1 - sum(cut) / 300
    assert row["drawishness"] == 0.0  # a timeout is not a draw
    assert row["timeouts_low"] < 2 / 3 < row["timeouts_high"]


def test_c4_draws_shared_wins_and_balance_from_records():
    """Three seats, six games: sole wins 0, 0, 1, a win shared by 0 and 2 and a
    draw by all (C-4: no sole winner), and a timeout."""
    records = [
        {"winners": (0,), "length": 4, "timeout": False},
        {"winners": (0,), "length": 6, "timeout": False},
        {"winners": (1,), "length": 8, "timeout": False},
        {"winners": (0, 2), "length": 10, "timeout": False},
        {"winners": (0, 1, 2), "length": 12, "timeout": False},
        {"winners": (), "length": 20, "timeout": True},
    ]
    m = lab.measures(records, 3)
    assert (m["games"], m["win_p1"], m["win_p2"], m["win_p3"]) == (6, 2 / 6, 1 / 6, 0.0)
    assert m["advantage"] == m["win_p1"]
    assert m["balance"] == pytest.approx(1 - 2 / 6)
    assert (m["completion"], m["drawishness"], m["timeouts"]) == (3 / 6, 2 / 6, 1 / 6)
    assert m["duration_moves"] == 10.0
    assert m["duration_moves_sd"] == pytest.approx(float(np.std([4, 6, 8, 10, 12, 20], ddof=1)))
    assert math.isnan(m["branching_factor"]) and m["traced_games"] == 0  # no trace given
    lo, hi = m["completion_low"], m["completion_high"]
    assert (lo, hi) == wilson_interval(3, 6)


# -- the solver's column ----------------------------------------------------------------------
def test_the_solver_column_agrees_with_solve_on_every_small_board():
    t = lab.measure(gw.Gridlock, 20, rows=[2, 3], cols=[2, 3, 4], progress=False, check=0)
    for _, row in t.iterrows():
        sol = solve(gw.Gridlock(int(row["rows"]), int(row["cols"])), progress=False)
        assert row["solver_winner"] == sol.winner
        assert row["solver"] == ("first player wins" if sol.winner == 0 else "second player wins")
        assert row["winning_moves"] == (", ".join(sol.best_moves) if sol.value > 0 else "")
        assert row["solve_seconds"] >= 0 and row["solver_note"] == ""


def test_the_solver_column_says_why_it_did_not_settle_a_variant():
    t = lab.measure(gw.GridMaster4, 10, size=6, players=[2, 3], tiles=5, progress=False, check=0)
    assert list(t["solver"]) == ["not solved", "not solved"]
    assert list(t["solver_note"]) == ["the game is declared general-sum", "the game has 3 players"]
    # the declaration is the class's: two-player games of it are zero-sum all the same (C-4: 0 and 0 shared)
    assert gw.GridMaster4.game_type.utility.value == "general-sum"
    bf = lab.measure(gw.BlockFour, 4, progress=False, check=0)
    assert bf.at[0, "solver_note"] == "the game has simultaneous moves"
    big = lab.measure(gw.Gridlock, 4, rows=8, cols=8, solve_seconds=0.2, progress=False, check=0)
    assert big.at[0, "solver"] == "not solved" and big.at[0, "solver_note"].startswith("too large")


# -- the same table, however it is run ---------------------------------------------------------
def test_the_same_seed_gives_the_same_table_for_n_jobs_1_and_2():
    kw = dict(rows=[3, 4], cols=4, seed=9, progress=False, check=0)
    one = lab.measure(gw.Gridlock, 120, n_jobs=1, **kw)
    two = lab.measure(gw.Gridlock, 120, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(one.drop(columns=TIMING), two.drop(columns=TIMING))
    pd.testing.assert_frame_equal(one.attrs["records"], two.attrs["records"])


def test_the_same_seed_gives_the_same_table_with_an_agent_on_two_processes():
    kw = dict(agent=RandomAgent(), size=6, players=[2, 3], tiles=6, seed=3, progress=False, check=0)
    one = lab.measure(gw.GridMaster4, 30, n_jobs=1, **kw)
    two = lab.measure(gw.GridMaster4, 30, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(one.drop(columns=TIMING), two.drop(columns=TIMING))


@pytest.mark.parametrize("name", ["gridlock", "gridmaster4", "blockfour", "gridbloc"])
def test_random_games_are_simulates_games_and_the_same_compiled_or_not(name):
    cls = gw.registry.get(name)
    opts = dict(cls.small_options)
    t = lab.measure(cls, 60, trace_games=20, progress=False, check=0, solve_seconds=0, seed=4, **opts)
    rec = t.attrs["records"]
    ref = simulate(cls, 60, seed=lab._variant_seed(4, opts), progress=False, **opts)
    assert list(rec["winners"]) == list(ref["winners"]) and list(rec["length"]) == list(ref["length"])
    fast.set_enabled(False)
    try:
        py = lab.measure(cls, 60, trace_games=20, progress=False, check=0, solve_seconds=0, seed=4, **opts)
    finally:
        fast.set_enabled(True)
    compiled = fast.enabled() and fast.kernel(cls(**opts)) is not None
    measured = ["advantage", "balance", "completion", "drawishness", "duration_moves", "duration_moves_sd"]
    pd.testing.assert_frame_equal(t[measured], py[measured])
    assert t.at[0, "traced_games"] == (20 if compiled else 60) and py.at[0, "traced_games"] == 60
    first = py.attrs["records"].head(20)  # the traced games: the same measures on either path
    pd.testing.assert_frame_equal(rec.head(20), first)


def test_a_variant_resumes_from_parquet_and_reads_back_equal(tmp_path):
    kw = dict(rows=[2, 3], cols=[3, 4], seed=5, progress=False, check=0)
    ref = lab.measure(gw.Gridlock, 40, **kw)
    folder = tmp_path / "lab"
    first = lab.measure(gw.Gridlock, 40, parquet=folder, **kw)
    pd.testing.assert_frame_equal(first.drop(columns=TIMING), ref.drop(columns=TIMING))
    parts = sorted(folder.glob("variant-*.parquet"))
    assert len(parts) == 4
    parts[2].unlink()  # cut short while the third variant was played
    before = {p: p.stat().st_mtime_ns for p in parts if p.exists()}
    again = lab.measure(gw.Gridlock, 40, parquet=folder, **kw)
    pd.testing.assert_frame_equal(again, first.assign(solve_seconds=again["solve_seconds"]), check_exact=True)
    assert again.at[0, "solve_seconds"] == first.at[0, "solve_seconds"]  # read back, not solved again
    assert all(p.stat().st_mtime_ns == t for p, t in before.items())  # the others were not rewritten
    pd.testing.assert_frame_equal(again.attrs["records"], first.attrs["records"])
    with pytest.raises(ValueError, match="another lab run"):
        lab.measure(gw.Gridlock, 41, parquet=folder, **kw)


# -- variants as subclasses --------------------------------------------------------------------
def test_a_subclass_is_measured_on_its_own_rules_never_the_parents_fast_paths():
    assert not fast_path_applies(DiagonalGridlock, "compiled_module")
    assert not fast_path_applies(DiagonalGridlock, "exact_solver")
    assert fast.kernel(DiagonalGridlock()) is None
    t = lab.measure(DiagonalGridlock, 80, rows=[1, 3], cols=3, progress=False, seed=6)
    for _, r in t.attrs["records"].iterrows():
        g = DiagonalGridlock(*(int(t.at[r["variant"], k]) for k in ("rows", "cols")))
        for _, move in json.loads(r["moves"]):
            g.play(move)  # every move the lab played is legal under the variant's rules
        assert g.is_over and g.winners == r["winners"]
    row = t.set_index("rows").loc[3]
    sol = solve(DiagonalGridlock(3, 3), progress=False)  # the generic search: the variant's own rules
    assert row["solver_winner"] == sol.winner
    # 3x3: under the diagonal rule only X in the centre wins (it blocks every cell); under GL-3 the corners win too
    assert row["winning_moves"] == "B2" and sol.best_moves == ["B2"]
    assert "A1" in solve(gw.Gridlock(3, 3), progress=False).best_moves
    plain = simulate(gw.Gridlock, 5, seed=1, progress=False, rows=3, cols=3)
    diag = simulate(DiagonalGridlock, 5, seed=1, progress=False, rows=3, cols=3)
    assert list(diag["length"]) != list(plain["length"])  # simulate too plays the variant's rules


def test_a_subclass_of_an_engine_with_its_own_rollout_plays_the_generic_rollout_with_the_same_games():
    """GridMaster4 brings its own rollout and kernel; a subclass changing nothing
    gets neither, and the generic rollout (every move through ``play()``) gives
    the very games the compiled kernel plays."""

    class Plain(gw.GridMaster4):
        pass

    assert fast_path_applies(gw.GridMaster4, "_rollout") and not fast_path_applies(Plain, "_rollout")
    assert fast.kernel(Plain(size=8)) is None
    ref = simulate(gw.GridMaster4, 40, seed=3, progress=False, size=8, tiles=20)
    sub = simulate(Plain, 40, seed=3, progress=False, size=8, tiles=20)
    assert list(sub["winners"]) == list(ref["winners"]) and list(sub["length"]) == list(ref["length"])


def test_a_variant_that_fails_check_game_is_refused_saying_what_failed():
    with pytest.raises(ValueError, match=r"LegalEverywhere\(rows=3, cols=3\) fails check_game.*legal_moves"):
        lab.measure(LegalEverywhere, 10, rows=3, cols=3, progress=False)
    with pytest.raises(ValueError, match=r"Gridlock\(rows=0\) is refused: rows must be 1 to 26"):
        lab.measure(gw.Gridlock, 10, rows=[0, 3], progress=False)


def test_bad_arguments_are_refused_clearly():
    with pytest.raises(ValueError, match="games must be a positive int"):
        lab.measure(gw.Gridlock, 0, progress=False)
    with pytest.raises(ValueError, match="has no values"):
        lab.measure(gw.Gridlock, 5, rows=[], progress=False)
    with pytest.raises(ValueError, match="more than 10,000 variants"):
        lab.variants(rows=range(200), cols=range(200))
    with pytest.raises(TypeError, match="game class"):
        lab.measure(42, 5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="budgets must be"):
        lab.skill_trace(gw.Gridlock, [8, 8], progress=False)
    assert lab.variants(rows=[2, 3], cols=4) == [{"rows": 2, "cols": 4}, {"rows": 3, "cols": 4}]
    assert lab.variants(x_table=[("I", "L"), ("L", "T")], walls=("A1|B1",)) == [
        {"x_table": ("I", "L"), "walls": ("A1|B1",)}, {"x_table": ("L", "T"), "walls": ("A1|B1",)}]


# -- the skill trace --------------------------------------------------------------------------
def test_the_skill_trace_scores_the_stronger_search_per_step_and_fits_a_trend():
    trace = lab.skill_trace(gw.Gridlock, [1, 4, 64], games=8, rows=3, cols=[3, 4], progress=False)
    assert list(trace["step"]) == [1, 2, 1, 2] and list(trace["strong"]) == [4, 64, 4, 64]
    assert all(0 <= lo <= s <= hi <= 1 for lo, s, hi in zip(trace["score_low"], trace["score"], trace["score_high"],
                                                           strict=True))
    # 3x3 and 3x4 are first-player wins that 64 simulations find: the stronger agent wins its X games at least
    assert (trace[trace["strong"] == 64]["score"] >= 0.5).all()
    again = lab.skill_trace(gw.Gridlock, [1, 4, 64], games=8, rows=3, cols=[3, 4], progress=False, n_jobs=2)
    pd.testing.assert_frame_equal(trace, again)
    t = lab.measure(gw.Gridlock, 10, rows=3, cols=[3, 4], skill=[1, 4, 64], skill_games=8, progress=False, check=0)
    for k, cols in enumerate([3, 4]):
        scores = trace[trace["cols"] == cols]["score"].tolist()
        assert t.at[k, "skill_trend"] == pytest.approx(scores[1] - scores[0])  # two points: the slope between them
        assert t.at[k, "skill_score"] == pytest.approx(np.mean(scores))
    pd.testing.assert_frame_equal(t.attrs["skill_trace"], trace)


# -- pictures and replays ----------------------------------------------------------------------
def test_the_pictures_draw_what_the_table_holds():
    t = lab.measure(gw.Gridlock, 40, rows=[2, 3], cols=[2, 3], progress=False, check=0)
    ax = lab.heatmap(t, "advantage", x="cols", y="rows")
    labels = sorted(txt.get_text() for txt in ax.texts)
    expected = sorted(f"{r['advantage']:.2f}\n" + {"first player wins": "1st wins", "second player wins": "2nd wins"}
                      [r["solver"]] for _, r in t.iterrows())
    assert labels == expected
    bars = lab.seat_bars(t)
    assert len(bars.patches) == 2 * len(t)
    assert sorted(round(p.get_height(), 6) for p in bars.patches) == sorted(
        round(v, 6) for v in list(t["win_p1"]) + list(t["win_p2"]))
    hist = lab.durations(t, rows=[0])
    lengths = t.attrs["records"].query("variant == 0")["length"]
    (outline,) = hist.patches  # one filled step outline: its top is the commonest length's count
    assert outline.get_xy()[:, 1].max() == np.bincount(lengths).max()
    with pytest.raises(ValueError, match="no skill trace"):
        lab.skill_curve(t)
    with pytest.raises(ValueError, match="several rows share"):
        lab.heatmap(t, "advantage", x="cols", y="games")
    import matplotlib.pyplot as plt

    plt.close("all")


def test_a_typical_game_replays_on_the_live_board():
    t = lab.measure(gw.GridMaster4, 30, size=6, tiles=6, players=[2, 4], progress=False, check=0)
    for row in range(2):
        g = lab.typical_game(t, row)
        rec = t.attrs["records"]
        games = rec[rec["variant"] == row]
        assert g.is_over and len(g.history) in set(games["length"])
        assert g.winners == games["winners"].value_counts().index[0]  # the most common outcome
        assert g.options()["players"] == [2, 4][row]
        assert g.widget().game is g
    sub = t[["players", "advantage"]]  # pandas copies attrs on every operation: the games are shared, not copied
    assert sub.attrs["records"] is t.attrs["records"] and lab.typical_game(t.copy(), 1).winners
    back = pickle.loads(pickle.dumps(t))
    assert back.attrs["records"].equals(t.attrs["records"]) and type(back.attrs["records"][["game"]]) is pd.DataFrame
    flipped = t.sort_values("players", ascending=False)  # row 0 is now the 4-player variant
    assert lab.typical_game(flipped, 0).options()["players"] == 4
    with pytest.raises(IndexError):
        lab.typical_game(t, 2)
    with pytest.raises(ValueError, match="made by measure"):
        lab.typical_game(pd.DataFrame({"a": [1]}), 0)
