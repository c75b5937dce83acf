"""The one renderer (gridwidgets.core.draw.render_svg) and the scene layers
(issue 11): every layer kind is drawn from generic data, colours come from the
one palette, and a mark never overflows its cell (C-2)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import gridwidgets as gw
from gridwidgets.core.draw import PLAYER_COLOURS, render_svg, svg_board
from gridwidgets.core.palette import colour, palette, role
from gridwidgets.core.scene import Edge, Piece, Region, Scene

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_every_layer_kind_is_drawn_in_palette_colours():
    scene = Scene(
        rows=3, cols=4, title="all layers", colours=("green", "amber"),
        holes=((2, 3),),
        regions=[Region(((0, 0), (0, 1)), 0, "tint"), Region(((1, 1),), -1, "shade"),
                 Region(((0, 0), (1, 1)), -1, "outline")],
        pieces=[Piece((0, 0), "mark", 0, "X"), Piece((0, 1), "tile", 1, "12", active=False),
                Piece((1, 0), "token", 1), Piece((1, 2), "star"), Piece((2, 0), "text", -1, "hi")],
        edges=[Edge((0, 2), (0, 3), 1, "wall"), Edge((2, 2), (3, 2), -1, "line")],
        last=((0, 0),), last_edges=(((0, 2), (0, 3)),), legal=((2, 1),), forbidden=((2, 2),),
    )
    svg = render_svg(scene, size=300)
    root = _parse(svg)
    assert root.find(f"{SVG}title").text == "all layers"
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert "D3" not in titles and "C3" in titles  # the hole is left out, other cells are named
    assert colour("green") in svg and colour("amber") in svg  # player colours by palette name
    assert role("visited") in svg and role("last-move") in svg
    assert len(root.findall(f"{SVG}polygon")) == 1  # the star
    assert len(root.findall(f"{SVG}circle")) == 2  # the token and the legal dot
    assert any(t.text == "12" for t in root.iter(f"{SVG}text")) and any(t.text == "hi" for t in root.iter(f"{SVG}text"))
    assert len(root.findall(f"{SVG}line")) == 3  # two edges and the last edge's mark


def test_a_long_player_name_is_drawn_as_a_mark_not_the_name():
    svg = svg_board(2, 2, {(0, 0): ("Yellow", 1), (1, 1): ("Red", 0)})
    texts = [t.text for t in _parse(svg).iter(f"{SVG}text") if t.text and not re.fullmatch(r"[A-B]|[12]", t.text)]
    assert texts and all(len(t) <= 2 for t in texts)


def test_player_colours_are_the_palettes_default_order():
    assert PLAYER_COLOURS == tuple(colour(n) for n in palette()["players"])


@pytest.mark.parametrize("name", gw.registry.names())
def test_every_registered_game_draws_through_its_scene(name):
    cls = gw.registry.get(name)
    g = cls.new_for_seed(dict(cls.small_options), 3)
    for _ in range(6):
        if g.is_over:
            break
        p = g.players_to_move[0]
        g.play(g.legal_moves(p)[0], player=p)
    scene = g.scene()
    assert scene.rows == g.rows and scene.cols == g.cols
    svg = g._repr_svg_()
    root = _parse(svg)
    assert root.tag == f"{SVG}svg" and g.game_type.long_name in root.find(f"{SVG}title").text
