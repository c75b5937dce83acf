"""The static pictures tell the whole position (Game.to_svg, Game.to_png):
the status line, the players panel, what each game shows beside its board,
legible sizes, and the same picture in any rasteriser.

Colour checks simulate colour-vision deficiency with the matrices of
Machado, Oliveira and Fernandes (2009), "A physiologically-based model for
simulation of color vision deficiency", severity 1.0, on linear RGB, and
measure differences as CIE76 distances in CIELAB.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import numpy as np
import pytest
from boards import advance
from PIL import Image

import gridwidgets as gw
from gridwidgets.core import registry
from gridwidgets.core.draw import muted, render_svg, to_png
from gridwidgets.core.palette import colour

ROOT = Path(__file__).resolve().parents[1]
PALETTE = json.loads((ROOT / "gridwidgets" / "core" / "palette.json").read_text())


def texts(svg: str) -> list[str]:
    return [unescape(t) for t in re.findall(r"<text\b[^>]*>([^<]*)</text>", svg)]


def font_sizes(svg: str) -> list[float]:
    return [float(v) for v in re.findall(r'<text\b[^>]*\bfont-size="([\d.]+)"', svg)]


def svg_size(svg: str) -> tuple[float, float]:
    head = svg[: svg.index(">")]
    return float(re.search(r'width="([\d.]+)"', head).group(1)), float(re.search(r'height="([\d.]+)"', head).group(1))


POSITIONS = [(name, n) for name in registry.names() for n in (0, 7, 400)]


@pytest.mark.parametrize(("name", "steps"), POSITIONS, ids=[f"{n}-{k}" for n, k in POSITIONS])
def test_every_picture_states_the_status_and_the_players_panel(name, steps):
    g = advance(registry.make(name), steps, seed=steps)
    svg = g.to_svg()
    shown = " ".join(texts(svg))
    # the status line (wrapped on words, so compare the words)
    assert " ".join(g.status().split()) in shown
    # one row per player, named the one way (Player 1 (X)), with the score
    for p in range(len(g.players)):
        assert g.player_label(p) in texts(svg)
    assert g.score_label in texts(svg)
    # whose turn (a triangle) or who won (a star)
    marks = svg.count("<title>to act</title>") + svg.count("<title>winner</title>")
    expected = len(g.winners) if g.is_over else len(g.players_to_move)
    assert marks == expected
    # no reliance on dominant-baseline, which plain rasterisers ignore
    assert "dominant-baseline" not in svg


def test_the_wording_of_players_is_one_across_the_games():
    for name in registry.names():
        g = registry.make(name)
        labels = [g.player_label(p) for p in range(len(g.players))]
        assert all(re.fullmatch(r"Player \d( \(.+\))?", label) for label in labels), labels
        assert labels[0].startswith("Player 1")
        # the status names the player that way too
        assert any(label in g.status() for label in labels), g.status()
    with pytest.raises(IndexError):
        gw.Gridlock().player_label(2)


def test_gl4_the_end_message_names_both_marks():
    g = gw.Gridlock(rows=2, cols=2)
    for move in ("A1", "B2"):
        g.play(move)
    assert g.is_over
    assert g.status() == "Player 1 (X) has no legal moves remaining. Player 2 (O) wins the game!"
    assert "Player 2 (O) has no legal moves remaining" not in g.to_svg()
    assert "Player 1 (X) has no legal moves" in " ".join(texts(g.to_svg()))


def test_gm10_the_players_panel_shows_score_tiles_left_and_blocked():
    g = advance(gw.GridMaster4(size=8, players=3, tiles=12), 200, seed=5)
    shown = texts(g.to_svg())
    for head in ("Highest tile", "Tiles left", "Active", "Owed", "Status"):
        assert head in shown
    for p in range(3):
        assert str(g.tiles_per_player - g.scores[p]) in shown
    assert shown.count("blocked (GM-6)") == sum(1 for p in range(3) if g.blocked[p] and p not in g.winners)
    # an inactive tile is drawn in a darker shade of its player's colour, with a dashed outline
    svg = g.to_svg()
    off = [p for p in range(3) if any(not on for on in _tiles_of(g, p))]
    assert off
    for p in off:
        c = colour(g.player_colours[p])
        assert f'fill="{muted(c)}" stroke="{c}" stroke-width="1.5" stroke-dasharray="3 2"' in svg


def _tiles_of(g, p):
    return [i in g._active[p] for i, q in enumerate(g._owner) if q == p]


def test_gm10_no_text_under_11px_on_the_20x20_board_at_the_default_size():
    g = advance(gw.GridMaster4(), 160, seed=1)
    sizes = font_sizes(g.to_svg())
    assert sizes and min(sizes) >= 11
    # a smaller picture on request: the board is as wide as asked
    small = g.to_svg(size=300, panel="below")
    assert min(font_sizes(small)) < 11
    assert svg_size(small)[1] < svg_size(g.to_svg(panel="below"))[1]


@pytest.mark.parametrize("size", [320, 600, 900])
def test_the_size_option_sets_the_width_of_the_board(size):
    g = gw.Gridlock()
    svg = g.to_svg(size=size, panel="below")
    width, _ = svg_size(svg)
    assert abs(width - (size + 16)) <= 1  # the board and the padding; the panel under it is narrower


@pytest.mark.parametrize("bad", [0, 59, 4001, 2.5, "big", True])
def test_a_bad_size_is_refused(bad):
    with pytest.raises(ValueError, match="size must be"):
        gw.Gridlock().to_svg(size=bad)
    with pytest.raises(ValueError, match="panel must be"):
        gw.Gridlock().to_svg(panel="left")


def test_bf5_bf10_the_picture_shows_hands_and_tables_never_a_hidden_bid():
    g = gw.BlockFour(seed=3)
    before = g.to_svg()
    one, other = g.copy(), g.copy()
    hand = g.hands[0]
    bids = [m for m in g.legal_moves(0)]
    one.play(bids[0], player=0)
    other.play(bids[-1], player=0)
    # the pictures after two different hidden bids are the same picture
    assert one.to_svg() == other.to_svg()
    assert one.to_svg() != before  # it does say that a bid is in
    shown = texts(one.to_svg())
    assert " ".join(hand) in shown and "X has bid" in shown
    assert "Hand" in shown and "Table" in shown and "Fields" in shown
    # after the reveal, the tables and the fields (BF-9) are there
    advance(one, 12, seed=2)
    shown = texts(one.to_svg())
    for p in range(2):
        assert (" ".join(one.tables[p]) or "none") in shown
        assert str(one.fields_controlled()[p]) in shown


def test_bf3_every_placed_shape_stays_visible_as_a_shape():
    g = advance(gw.BlockFour(seed=1), 9, seed=3)
    placed = [m for s in g.steps for m in s.moves if getattr(m, "cells", None)]
    assert placed
    svg = g.to_svg()
    assert svg.count('class="gw-group"') == len(placed)
    for m in placed:
        assert f"<title>{m.shape} of {g.players[m.player]}</title>" in svg


def test_gb5_gb7_the_picture_shows_the_round_points_and_a_legend_of_walls():
    g = advance(gw.GridBloc(), 6, seed=4)
    shown = texts(g.to_svg())
    assert f"Round {g.round} of 2 (GB-7)" in shown
    for item in ("original wall", "wall placed this round", "start", "runner", "last move"):
        assert item in shown
    assert "Points" in shown and "Round 1" in shown and "Round 2" in shown
    assert any(t.startswith("runs") for t in shown) and any(t.startswith("blocks") for t in shown)
    # placed walls in the blocker's colour, original ones in the frame's
    blocker = colour(g.player_colours[g.blocker_player]) if g.player_colours else None
    if g.placed_walls and blocker:
        assert f'stroke="{blocker}" stroke-width="4"' in g.to_svg()


def test_to_png_writes_a_png_of_the_picture(tmp_path):
    g = advance(gw.GridMaster4(size=10, players=2), 20)
    path = tmp_path / "board.png"
    data = g.to_png(path)
    assert path.read_bytes() == data
    width, height = svg_size(g.to_svg())
    with Image.open(io.BytesIO(data)) as im:
        assert im.size == (round(width * 2), round(height * 2))
    with pytest.raises(ValueError, match="scale"):
        g.to_png(scale=0)


#: the share of pixels two renderings of one picture may have far apart (a
#: channel more than half its range off): anti-aliasing leaves none (measured
#: 0 to 0.00003), one word of the status missing 0.0034 to 0.0073
CHANGED_TOLERANCE = 0.001


def _pixels(png: bytes, size: tuple[int, int]) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as im:
        return np.asarray(im.convert("RGB").resize(size), dtype=float)


def _changed(a: np.ndarray, b: np.ndarray) -> float:
    """The share of pixels of which a channel differs by more than 128 (of 255)."""
    return float((np.abs(a - b).max(axis=2) > 128).mean())


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="rsvg-convert missing (apt-get install librsvg2-bin)")
@pytest.mark.parametrize("name", registry.names())
def test_resvg_and_rsvg_convert_draw_the_same_picture(name):
    g = advance(registry.make(name), 12, seed=7)
    svg = g.to_svg()
    ours = to_png(svg, scale=1)
    theirs = subprocess.run(["rsvg-convert", "--background-color", "white"], input=svg.encode(),
                            capture_output=True, check=True, timeout=60).stdout
    w, h = svg_size(svg)
    size = (int(w), int(h))
    assert _changed(_pixels(ours, size), _pixels(theirs, size)) < CHANGED_TOLERANCE
    # the measure sees one word missing
    blank = svg.replace(">" + g.status().split()[0], ">", 1)
    assert _changed(_pixels(ours, size), _pixels(to_png(blank, scale=1), size)) > CHANGED_TOLERANCE


# -- colours ----------------------------------------------------------------------------
_MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "typical": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}


def _linear(hex_colour: str) -> list[float]:
    out = []
    for i in (1, 3, 5):
        c = int(hex_colour[i : i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return out


def _lab(rgb: list[float]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _seen(hex_colour: str, vision: str) -> tuple[float, float, float]:
    m = _MACHADO[vision]
    rgb = _linear(hex_colour)
    return _lab([min(1.0, max(0.0, sum(m[i][j] * rgb[j] for j in range(3)))) for i in range(3)])


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("vision", ["typical", "protanopia", "deuteranopia"])
def test_gm1_the_four_colours_stay_apart_for_colour_blind_viewers(theme, vision):
    names = gw.GridMaster4.player_colours
    assert len(names) == 4
    seen = {n: _seen(PALETTE["colours"][n][theme], vision) for n in names}
    closest = min((math.dist(seen[a], seen[b]), a, b) for a, b in itertools.combinations(names, 2))
    assert closest[0] >= 20, f"{closest[1]} and {closest[2]} are {closest[0]:.1f} apart for {vision} ({theme})"


def test_gm10_an_inactive_tile_keeps_its_players_hue():
    def hue(hex_colour: str) -> float:
        r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        return math.degrees(math.atan2(math.sqrt(3) * (g - b), 2 * r - g - b)) % 360

    for name in gw.GridMaster4.player_colours:
        c = colour(name)
        m = muted(c)
        assert abs((hue(c) - hue(m) + 180) % 360 - 180) < 8, name
        assert sum(_linear(m)) < sum(_linear(c))  # darker (GM-10)
        # and nearer its own colour than any other player's
        others = [colour(o) for o in gw.GridMaster4.player_colours if o != name]
        own = math.dist(_lab(_linear(m)), _lab(_linear(c)))
        assert all(own < math.dist(_lab(_linear(m)), _lab(_linear(o))) for o in others), name


def test_render_svg_refuses_an_unknown_panel_place():
    with pytest.raises(ValueError):
        render_svg(gw.Gridlock().scene(), panel="top")


# ----------------------------------------------------------------------
# Every widget has a picture (issue 27): the steppers, the strategy explorer,
# the exercise board and panel, side_by_side carry a static SVG and PNG of
# what they show beside their live view, for the docs site and HTML exports.
# ----------------------------------------------------------------------
def _bundle(widget):
    data, meta = widget._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data, "the live view comes first"
    assert data["image/svg+xml"].lstrip().startswith("<svg") and data["image/png"][:4] == b"\x89PNG"
    assert meta["image/png"]["width"] > 100 and meta["image/png"]["height"] > 100
    return data


def test_the_search_stepper_has_a_picture_of_its_step():
    from gridwidgets import teach

    stepper = teach.SearchStepper(teach.alphabeta_trace(gw.Gridlock(2, 3)))
    first = _bundle(stepper)["image/svg+xml"]
    stepper.step(5)
    fifth = _bundle(stepper)["image/svg+xml"]
    assert "Step 0 of" in first and "Step 5 of" in fifth and first != fifth
    assert "SearchStepper(alphabeta, step 5" in _bundle(stepper)["text/plain"]
    stepper.close()


def test_the_strategy_explorer_has_a_picture_of_its_sliders():
    from gridwidgets.analysis import stage_game

    box = stage_game(np.array([[1.0, -1.0], [-1.0, 1.0]])).explore(0)
    box.sliders[0].value, box.sliders[1].value = 0.25, 0.75
    svg = _bundle(box)["image/svg+xml"]
    assert "25.0%" in svg and "75.0%" in svg and "exploitability" in svg
    box.button.click()  # the equilibrium: one half each
    after = _bundle(box)["image/svg+xml"]
    assert after.count(">50.0%<") == 2 and "exploitability 0.000" in after
    box.close()


def test_the_exercise_board_and_panel_have_a_picture_with_the_prompt():
    ex = gw.exercises.generate("gridlock", kind="win-in", depth=1, n=2, seed=1, rows=3, cols=3)
    panel = ex.panel()
    svg = _bundle(panel)["image/svg+xml"]
    assert "Exercise 1 of 2" in svg and "wins in 1" in svg
    assert _bundle(panel.board)["image/svg+xml"] == svg
    panel.board.close()
    panel.close()


def test_side_by_side_has_a_picture_of_every_board():
    boards = gw.side_by_side(gw.Gridlock(), gw.GridBloc(size=3), titles=["one", "two"])
    svg = _bundle(boards)["image/svg+xml"]
    assert ">one<" in svg and ">two<" in svg
    boards.close()
