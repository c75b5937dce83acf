"""The GridMaster4 layer and the agents' controls in the browser
(docs/frontend.md, "Agents on seats" and "GridMaster4"), against the real
Python widgets where the rules matter and against hand-made states
(frontend_harness.StubWidget) where the exact drawing or the agents' clock is
tested.

Run: ``npm run build && pytest tests/frontend``.
"""

from __future__ import annotations

import itertools
import re
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import frontend_harness as fh  # noqa: E402  (tests/frontend/frontend_harness.py)

pytestmark = pytest.mark.browser

if not fh.CHROMIUM.exists():
    pytest.skip(f"{fh.CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)
if not (fh.STATIC / "widget.js").is_file() or not (fh.STATIC / "widget.css").is_file():
    pytest.skip("the front end is not built (npm run build)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

import gridwidgets as gw  # noqa: E402

#: a 6x6 two-player game of 10 tiles in which orange is blocked at the end
#: (GM-6) and magenta is owed a free placement (GM-7)
BLOCK_MOVES = ["F5", "F4", "D3", "D2", "F1", "D5", "C1", "F3", "C4", "C3", "A2", "A5"]


def cell(page, name):
    return page.locator(f'[data-cell="{name}"]')


def wait_version(page, version):
    page.wait_for_selector(f'.gw-root[data-version="{version}"]', state="attached", timeout=5_000)


def row(page, player):
    return page.locator(f'.gw-prow[data-player="{player}"]')


def col(page, player, name):
    return row(page, player).locator(f'[data-col="{name}"]')


def until(page, condition, timeout=5.0):
    """Wait until ``condition()`` holds in Python, letting the page's calls in."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(10)


def has_class(name):
    return re.compile(rf"(^|\s){re.escape(name)}(\s|$)")


def sent(page, kind):
    """The intents of one type the page sent, in order."""
    return page.evaluate("k => window.gw.log.filter(e => e.send && e.send.type === k).map(e => e.send)", kind)


@pytest.fixture
def gm4(page, server):
    """A new 20x20 four-player GridMaster4, its widget and the page showing it."""
    game = gw.GridMaster4()
    widget = game.widget(playing=False)
    bridge = fh.open_widget(page, server, widget)
    yield game, widget, bridge, page
    widget.close()


def open_game(page, server, game, **kwargs):
    kwargs.setdefault("playing", False)
    widget = game.widget(**kwargs)
    return widget, fh.open_widget(page, server, widget)


# -- hand-made states ------------------------------------------------------------


def gm4_state(
    tiles,
    *,
    version=5,
    current=0,
    size=20,
    players=None,
    deactivated=(),
    free=False,
    events=(),
    over=False,
    winners=(),
    seats=None,
    status="orange to move",
):
    """A GridMaster4 state as docs/frontend.md describes it; ``tiles`` maps
    a cell to ``(owner, number, active)``."""
    cols = [chr(65 + c) for c in range(size)]
    rows_ = [str(r + 1) for r in range(size)]
    n = size * size
    cells, owners, nums, act = [""] * n, [-1] * n, [0] * n, [False] * n
    for name, (owner, number, active) in tiles.items():
        i = (int(name[1:]) - 1) * size + cols.index(name[0])
        cells[i], owners[i], nums[i], act[i] = str(number), owner, number, active
    names = ["orange", "magenta", "lime", "aqua"]
    if players is None:
        players = [
            dict(
                name=p,
                colour="#888",
                score=0,
                remaining=100,
                active=0,
                owed=0,
                blocked=False,
                status="to move" if k == current else "waiting",
            )
            for k, p in enumerate(names)
        ]
    empty = [f"{cols[i % size]}{rows_[i // size]}" for i in range(n) if not cells[i]]
    # the picture, as a scene of the protocol (gridwidgets/core/scene.py): what the page draws
    from gridwidgets.core.scene import Panel, PanelRow, Piece, Region, Scene

    def at(name):
        return (int(name[1:]) - 1, cols.index(name[0]))

    pieces = [Piece(at(name), "tile", owner, str(number), active,
                    f"{names[owner]} {number}, {'active' if active else 'inactive'}")
              for name, (owner, number, active) in tiles.items()]
    rows_panel = []
    for k, p in enumerate(players):
        mark = ("winner" if k in winners else "") if over else ("turn" if k == current else "")
        rows_panel.append(PanelRow(k, (p["name"], str(p["score"]), str(p["remaining"]), str(p["active"]),
                                       str(p["owed"]) if p["owed"] else "\u2013", p["status"]), mark))
    scene = Scene(
        rows=size, cols=size, title="GridMaster4", colours=("orange", "magenta", "lime", "aqua")[: len(players)],
        pieces=pieces,
        regions=[Region(tuple(at(d) for d in deactivated), -1, "ring")] if deactivated else [],
        notes=("Free placement (GM-7): any open cell",) if free else (),
        panel=Panel(("Player", "Highest tile", "Tiles left", "Active", "Owed", "Status"), tuple(rows_panel)),
    ).to_dict()
    return {
        "scene": scene,
        "game": "gridmaster4",
        "version": version,
        "rows": size,
        "cols": size,
        "col_labels": cols,
        "row_labels": rows_,
        "players": names[: len(players)],
        "current_player": None if over else current,
        "cells": cells,
        "owners": owners,
        "legal": [] if over else (empty if free else empty[:3]),
        "forbidden": [],
        "forbidden_rule": "",
        "last_move": None,
        "history": [],
        "future": [],
        "is_over": over,
        "winners": list(winners),
        "status": status,
        "message": "",
        "message_kind": "",
        "seats": seats or [""] * len(players),
        "agent_to_move": False,
        "extra": {
            "tiles": nums,
            "active": act,
            "deactivated": list(deactivated),
            "free_placement": free,
            "tiles_per_player": 100,
            "players": players,
            "events": list(events),
        },
    }


def open_stub(page, server, state, on_intent=None, **traits):
    stub = fh.StubWidget(state, on_intent, **traits)
    return stub, fh.open_widget(page, server, stub)


# -- the board ---------------------------------------------------------------------


def test_gm4_board_fits_and_names_its_cells(gm4):
    _game, widget, _, page = gm4
    root = page.locator(".gw-root")
    expect(root).to_have_attribute("data-game", "gridmaster4")
    assert page.locator(".gw-board [data-cell]").count() == 400
    width = page.locator(".gw-svg").bounding_box()["width"]
    assert 440 <= width <= 560, width
    expect(cell(page, "K10")).to_have_attribute("aria-label", "K10, empty")
    expect(page.locator(".gw-board")).to_have_attribute("aria-label", "GridMaster4 board, 20 by 20")
    # the opening (GM-2): every open cell is legal, shown as a light tint and said in a note
    assert widget.show_legal is True
    expect(page.locator('[data-action="toggle-legal"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".gw-board")).to_have_class(has_class("gw-show-legal"))
    expect(page.locator(".gw-board")).to_have_class(has_class("gw-legal-open"))
    assert page.locator(".gw-cell.is-legal").count() == 400
    expect(page.locator('[data-role="note"]')).to_be_visible()
    expect(page.locator('[data-role="note"]')).to_contain_text("any open cell")
    # the panel: one row per player, orange to move
    expect(page.locator(".gw-prow")).to_have_count(4)
    expect(page.locator(".gw-prow .gw-pname")).to_have_text([f"Player {p + 1} ({n})" for p, n in enumerate(["orange", "magenta", "lime", "aqua"])])
    expect(row(page, 0)).to_have_attribute("aria-current", "true")
    expect(col(page, 0, "tiles-left")).to_have_text("100")
    # no agent seats: no agents group
    expect(page.locator('[data-role="agents"]')).to_be_hidden()


def test_gm4_clicks_play_and_the_panel_follows(gm4):
    game, _, bridge, page = gm4
    for v, name in enumerate(["K10", "B2", "S19", "B19"], start=1):
        cell(page, name).click()
        wait_version(page, v)
    assert [str(m) for m in game.history] == ["K10", "B2", "S19", "B19"]
    assert bridge.sent[0] == {"type": "play", "move": "K10", "version": 0, "player": 0}
    expect(cell(page, "K10")).to_have_attribute("aria-label", "K10, orange 1, active")
    expect(cell(page, "B19")).to_have_attribute("aria-label", "B19, aqua 1, active")
    expect(cell(page, "B19")).to_have_attribute("aria-description", "last move")
    expect(page.locator(".gw-last-rect")).to_have_count(1)
    for p in range(4):
        expect(col(page, p, "highest-tile")).to_have_text("1")
        expect(col(page, p, "tiles-left")).to_have_text("99")
        expect(col(page, p, "active")).to_have_text("1")
    # a normal move (GM-4): jump cells of K10 only, no longer every open cell
    expect(page.locator('[data-role="note"]')).to_be_hidden()
    expect(page.locator(".gw-board")).not_to_have_class(has_class("gw-legal-open"))
    legal = sorted(str(m) for m in game.legal_moves())
    shown = sorted(page.eval_on_selector_all(".gw-cell.is-legal", "els => els.map(e => e.dataset.cell)"))
    assert shown == legal and "K13" in legal
    expect(cell(page, "K13").locator(".gw-dot")).to_be_visible()
    cell(page, "K13").click()
    wait_version(page, 5)
    # GM-5: the tile built on is switched off, and marked as such for a moment
    expect(cell(page, "K13")).to_have_attribute("aria-label", "K13, orange 2, active")
    # (GM-5, said to screen readers too)
    expect(cell(page, "K10")).to_have_attribute("aria-label", "K10, orange 1, inactive, put out of play by the last move")
    expect(page.locator(".gw-region-ring")).to_have_count(1)
    expect(page.locator(".gw-region-ring")).to_have_attribute("data-changed", "K10")
    expect(page.locator('[data-cell="K10"]')).to_have_count(1)  # the ring is no cell
    expect(col(page, 0, "highest-tile")).to_have_text("2")
    expect(col(page, 0, "tiles-left")).to_have_text("98")
    assert page.locator(".gw-piece-tile.is-inactive").count() == 1
    # an illegal click is sent and refused by Python, naming the rule
    v = game.version
    cell(page, "A1").click()
    expect(page.locator('[data-role="message"]')).to_contain_text("GM-")
    assert game.version == v and bridge.sent[-1]["move"] == "A1"


def test_gm4_block_free_placement_and_events(page, server):
    game = gw.GridMaster4.from_moves(BLOCK_MOVES[:-1], size=6, players=2, tiles=10)
    widget, _bridge = open_game(page, server, game)
    cell(page, BLOCK_MOVES[-1]).click()
    wait_version(page, game.version)
    assert game.blocked == (True, False) and game.owed == (0, 1)
    events = page.locator('[data-role="events"] li')
    expect(events).to_have_text(game.events)
    expect(events.first).to_contain_text("GM-6")
    expect(col(page, 0, "status")).to_have_text("blocked (GM-6)")
    expect(row(page, 1)).to_have_class(has_class("is-current"))
    expect(col(page, 1, "status")).to_have_text("free placement (GM-7)")
    expect(col(page, 1, "owed")).to_have_text("1")
    expect(page.locator('[data-role="note"]')).to_contain_text("Free placement (GM-7)")
    expect(page.locator(".gw-board")).to_have_class(has_class("gw-legal-open"))
    widget.close()


def test_gm4_end_marks_the_winner(page, server):
    game = gw.GridMaster4(size=6, players=2, tiles=3)
    widget, _bridge = open_game(page, server, game)
    for v, name in enumerate(["A1", "F6", "D1", "C6", "B3"], start=1):  # orange places 1, 2, 3
        cell(page, name).click()
        wait_version(page, v)
    assert game.is_over and game.winners == (0,)
    expect(page.locator('[data-role="status"]')).to_have_text(game.status())
    expect(row(page, 0)).to_have_attribute("data-mark", "winner")
    expect(row(page, 0)).to_have_class(has_class("is-winner"))
    expect(col(page, 0, "status")).to_have_text("winner")
    expect(row(page, 0).locator(".gw-pmark")).to_have_text("\u2605")
    expect(row(page, 1).locator(".gw-pmark")).to_have_text("")
    assert page.locator(".gw-cell.is-legal").count() == 0
    widget.close()


def test_gm4_hand_made_state_shared_win_and_muted_tiles(page, server):
    def player(name, score, remaining, active, owed, blocked, status):
        return dict(
            name=name,
            colour="#888",
            score=score,
            remaining=remaining,
            active=active,
            owed=owed,
            blocked=blocked,
            status=status,
        )

    players = [
        player("orange", 100, 0, 3, 0, False, "shared win"),
        player("magenta", 100, 0, 2, 0, False, "shared win"),
        player("lime", 40, 60, 0, 2, True, "lost"),
        player("aqua", 7, 93, 1, 0, True, "lost"),
    ]
    state = gm4_state(
        {"K10": (0, 100, True), "A1": (1, 99, False), "T20": (2, 40, False)},
        players=players,
        over=True,
        winners=(0, 1),
        status="orange and magenta share the win (GM-8).",
    )
    open_stub(page, server, state)
    # a hand-made state: the page draws any scene it is sent
    expect(cell(page, "K10")).to_have_attribute("aria-label", "K10, orange 100, active")
    expect(cell(page, "A1")).to_have_attribute("aria-label", "A1, magenta 99, inactive")
    expect(cell(page, "B1")).to_have_attribute("aria-label", "B1, empty")
    # "100" fits inside its tile
    box = page.evaluate("""() => {
        const g = document.querySelector('.gw-pieces .gw-piece-tile:not(.is-inactive)');
        const t = g.querySelector('text').getBBox(), r = g.querySelector('rect').getBBox();
        return {t: t.width, r: r.width};
    }""")
    assert box["t"] <= box["r"] * 0.9, box
    # muted tiles are darker than active ones of the same player
    lum = page.evaluate("""() => {
        const l = el => { const m = getComputedStyle(el).fill.match(/[\\d.]+/g).map(Number);
                          return 0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2]; };
        return [l(document.querySelector('.gw-piece-tile:not(.is-inactive) rect')), l(document.querySelector('.is-inactive rect'))];
    }""")
    assert lum[1] < lum[0] - 40, lum
    for p in (0, 1):
        expect(row(page, p)).to_have_attribute("data-mark", "winner")
        expect(col(page, p, "status")).to_have_text("shared win")
    expect(col(page, 2, "owed")).to_have_text("2")
    expect(col(page, 3, "owed")).to_have_text("\u2013")
    expect(page.locator('[data-role="note"]')).to_be_hidden()


def test_gm4_update_time_stays_small(page, server):
    game = gw.GridMaster4.from_moves(["K10", "B2", "S19", "B19", "K13"])
    widget, bridge = open_game(page, server, game)
    page.evaluate("() => { window.firstCell = document.querySelector('[data-cell=\"A1\"]'); }")
    times = []
    for _ in range(5):
        game.play(game.legal_moves()[0])
        changed = bridge._diff()
        times.append(
            page.evaluate(
                "u => { const t = performance.now(); window.gw.apply(u); return performance.now() - t; }", changed
            )
        )
        wait_version(page, game.version)
    assert page.evaluate("() => window.firstCell === document.querySelector('[data-cell=\"A1\"]')")
    assert min(times) < 30 and sorted(times)[2] < 50, f"updating a 20x20 board took {times} ms"
    widget.close()


# -- agents -------------------------------------------------------------------------


def test_step_button_plays_the_agent_seat(page, server):
    game = gw.GridMaster4()
    widget, _bridge = open_game(page, server, game, agents={0: gw.agents.RandomAgent(seed=1)})
    agents = page.locator('[data-role="agents"]')
    expect(agents).to_be_visible()
    step = page.locator('button[data-action="step"]')
    expect(step).to_be_enabled()
    expect(page.locator('button[data-action="play"]')).to_be_visible()
    # the agent seat is tagged in the panel and in the status line
    expect(row(page, 0).locator('[data-role="agent"]')).to_have_text("RandomAgent")
    tag = row(page, 0).locator('[data-role="agent"]')
    expect(tag).to_have_attribute("title", "played by the agent RandomAgent(seed=1)")
    expect(row(page, 1).locator('[data-role="agent"]')).to_be_hidden()
    expect(page.locator('[data-role="agent-to-move"]')).to_be_visible()
    # not playing: nothing moves by itself
    assert sent(page, "agent-step") == []
    step.click()
    wait_version(page, 1)
    assert len(game.history) == 1 and game.current_player == 1
    assert sent(page, "agent-step") == [{"type": "agent-step", "version": 0}]
    last = str(game.history[0])
    expect(cell(page, last)).to_have_attribute("aria-label", f"{last}, orange 1, active")
    # a person (magenta) is to act now
    expect(step).to_be_disabled()
    expect(page.locator('[data-role="agent-to-move"]')).to_be_hidden()
    widget.close()


def test_play_runs_agents_until_a_person_is_to_act(page, server):
    game = gw.GridMaster4()
    seats = {0: gw.agents.RandomAgent(seed=1), 1: gw.agents.RandomAgent(seed=2)}
    widget, _bridge = open_game(page, server, game, agents=seats, delay=0)
    expect(page.locator('input[data-action="speed"]')).to_have_value("0")
    page.locator('button[data-action="play"]').click()
    wait_version(page, 2)
    assert widget.playing is True
    assert len(game.history) == 2 and game.current_player == 2
    expect(page.locator('button[data-action="pause"]')).to_be_visible()
    # lime is a person: the clock waits for their click, then aqua (a person too)
    cell(page, "K10").click()
    wait_version(page, 3)
    assert [e["version"] for e in sent(page, "agent-step")] == [0, 1]
    # undo back to an agent's turn: pressing play, the agents play again by themselves
    page.locator('button[data-action="pause"]').click()
    until(page, lambda: widget.playing is False)
    undo = page.locator('button[data-action="undo"]')
    undo.click()
    until(page, lambda: len(game.history) == 2)
    undo.click()
    until(page, lambda: len(game.history) < 2)  # Python decides how far back (agent moves too)
    wait_version(page, game.version)
    assert game.current_player in (0, 1)
    page.locator('button[data-action="play"]').click()
    until(page, lambda: len(game.history) == 2)
    wait_version(page, game.version)
    assert game.current_player == 2
    widget.close()


def test_pause_stops_and_play_resumes(page, server):
    game = gw.GridMaster4()
    seats = {p: gw.agents.RandomAgent(seed=p) for p in range(4)}
    widget, _bridge = open_game(page, server, game, agents=seats, delay=30)
    page.locator('button[data-action="play"]').click()
    until(page, lambda: game.version >= 6)  # the agents go on: never wait on a passing version
    page.locator('button[data-action="pause"]').click()
    until(page, lambda: widget.playing is False)
    v = game.version
    n = len(sent(page, "agent-step"))
    page.wait_for_timeout(200)  # several delays: nothing more is sent or played
    assert game.version == v and len(sent(page, "agent-step")) == n
    expect(page.locator(".gw-root")).to_have_attribute("data-version", str(v))
    page.locator('button[data-action="play"]').click()
    until(page, lambda: game.version >= v + 2)
    page.locator('button[data-action="pause"]').click()
    widget.close()


def test_speed_range_sets_delay(page, server):
    game = gw.GridMaster4()
    widget, bridge = open_game(page, server, game, agents={1: gw.agents.RandomAgent(seed=1)})
    speed = page.locator('input[type="range"][data-action="speed"]')
    expect(speed).to_have_attribute("min", "0")
    expect(speed).to_have_attribute("max", "2000")
    expect(speed).to_have_value(str(widget.delay))
    speed.fill("1500")
    until(page, lambda: widget.delay == 1500)
    expect(page.locator(".gw-speed-ms")).to_have_text("1500 ms")
    # and from Python
    widget.delay = 250
    bridge.push()
    expect(speed).to_have_value("250")
    expect(page.locator(".gw-speed-ms")).to_have_text("250 ms")
    widget.close()


def test_two_views_play_each_agent_move_once(page, server):
    game = gw.GridMaster4()
    seats = {0: gw.agents.RandomAgent(seed=1), 1: gw.agents.RandomAgent(seed=2)}
    widget, _bridge = open_game(page, server, game, agents=seats, delay=0, playing=True)
    page.evaluate("window.gw.renderAnother()")
    wait_version(page, 2)
    expect(page.locator("#app2 .gw-root")).to_have_attribute("data-version", "2")
    assert len(game.history) == 2 and game.current_player == 2
    widget.close()


def test_clicks_while_an_agent_is_to_move_are_sent(page, server):
    game = gw.GridMaster4()
    widget, bridge = open_game(page, server, game, agents={0: gw.agents.RandomAgent(seed=1)})
    cell(page, "C3").click()
    # Python refuses it, naming the rule; the page only shows the answer
    expect(page.locator('[data-role="message"]')).to_contain_text("(GM-1)")
    assert bridge.sent[-1] == {"type": "play", "move": "C3", "version": 0, "player": 0}
    assert game.history == [] and game.version == 0
    expect(cell(page, "C3")).to_have_attribute("aria-label", "C3, empty")
    widget.close()


def test_gridlock_agent_seat_and_legal_toggle(page, server):
    game = gw.Gridlock()
    widget, _bridge = open_game(page, server, game, agents={1: gw.agents.RandomAgent(seed=3)})
    # the players' table names the agent on its seat (the agents group's own list is left out)
    expect(page.locator(".gw-seats")).to_be_hidden()
    tags = page.locator('.gw-players [data-role="agent"]')
    expect(tags).to_have_count(1)
    expect(page.locator('.gw-prow[data-player="1"] [data-role="agent"]')).to_have_attribute(
        "title", "played by the agent RandomAgent(seed=3)")
    expect(page.locator('.gw-prow[data-player="1"]')).to_contain_text("Player 2 (O)")
    # the legal toggle: off by default for Gridlock, then a visible dot on each legal cell
    toggle = page.locator('button[data-action="toggle-legal"]')
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(cell(page, "A1").locator(".gw-dot")).to_be_hidden()
    cell(page, "B2").click()
    wait_version(page, 1)
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    until(page, lambda: widget.show_legal is True)
    legal = {str(m) for m in game.legal_moves()}
    for name in ("A1", "B3", "D4"):
        loc = cell(page, name).locator(".gw-dot")
        if name in legal:
            expect(loc).to_be_visible()
        else:
            expect(loc).to_be_hidden()
    assert page.locator(".gw-cell.is-legal").count() == len(legal)
    expect(page.locator('[data-role="agent-to-move"]')).to_be_visible()
    page.locator('button[data-action="step"]').click()
    wait_version(page, 2)
    assert len(game.history) == 2
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(page.locator(".gw-cell .gw-dot:visible")).to_have_count(0)
    widget.close()


# -- the agents' clock, exactly (hand-made states) --------------------------------------


def _agent_state(version, agent=True, over=False):
    s = gm4_state({}, version=version, seats=["RandomAgent(seed=1)", "", "", ""])
    s["agent_to_move"] = agent and not over
    s["is_over"] = over
    return s


def test_clock_sends_once_per_state_after_the_delay(page, server):
    def answer(stub, content):
        if content.get("type") == "agent-step" and content.get("version") == stub.traits["state"]["version"]:
            v = stub.traits["state"]["version"] + 1
            stub.traits["state"] = _agent_state(v, agent=v < 8)

    stub, _bridge = open_stub(page, server, _agent_state(5), answer, playing=True, delay=120)
    wait_version(page, 8)
    steps = page.evaluate("window.gw.log.filter(e => e.send && e.send.type === 'agent-step')")
    assert [e["send"]["version"] for e in steps] == [5, 6, 7]
    # each one at least `delay` after the one before (each after its state was drawn)
    gaps = [b["t"] - a["t"] for a, b in itertools.pairwise(steps)]
    assert all(g >= 110 for g in gaps), gaps
    # a person to act: nothing more
    page.wait_for_timeout(300)
    assert len(stub.intents) == 3


def test_clock_new_state_pause_and_destroy_cancel(page, server):
    """The page's timers run on Playwright's clock, paused: time moves only by
    ``run_for``, so a loaded machine cannot make a timer fire early or late."""
    page.clock.install()
    stub, bridge = open_stub(page, server, _agent_state(5), None, playing=False, delay=250)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    stub.traits["playing"] = True  # state 5's timer starts now, on the paused clock
    bridge.push()
    page.wait_for_function("() => !!document.querySelector('button[data-action=\"pause\"]')", polling=50)
    # a new state before the delay is over: the old timer is dropped
    page.clock.run_for(100)
    stub.traits["state"] = _agent_state(6)
    bridge.push()
    page.wait_for_function("() => document.querySelector('.gw-root').dataset.version === '6'", polling=50)
    page.clock.run_for(260)  # past 5's first delay (had its timer stayed) and 6's
    until(page, lambda: stub.intents)
    assert [c["version"] for c in stub.intents] == [6]
    # the same state drawn again (a refused click) does not send it again
    stub.traits["state"] = dict(_agent_state(6), message="Refused", message_kind="error")
    bridge.push()
    page.wait_for_function("() => document.querySelector('[data-role=\"status\"]').textContent.includes('Refused')"
                           " || document.body.textContent.includes('Refused')", polling=50)
    page.clock.run_for(300)
    # pause cancels a pending step
    stub.traits["state"] = _agent_state(7)
    bridge.push()
    page.wait_for_function("() => document.querySelector('.gw-root').dataset.version === '7'", polling=50)
    page.locator('button[data-action="pause"]').click()
    until(page, lambda: stub.traits["playing"] is False)
    page.clock.run_for(300)
    # destroy cancels too
    page.locator('button[data-action="play"]').click()
    until(page, lambda: stub.traits["playing"] is True)
    stub.traits["state"] = _agent_state(8)
    bridge.push()
    page.wait_for_function("() => document.querySelector('.gw-root').dataset.version === '8'", polling=50)
    page.evaluate("window.gw.cleanup()")
    page.clock.run_for(400)
    page.evaluate("() => 0")  # anything sent would have reached the bridge by now
    assert [c["version"] for c in stub.intents] == [6]
    assert page.evaluate("window.gw.handlerCount()") == 0


@pytest.mark.parametrize("dark", [False, True])
def test_gm4_tiles_show_their_owner_without_colour_and_stand_out_3_to_1(page, server, dark):
    # WCAG 1.4.1: every tile carries its owner's mark (disc, square, triangle,
    # diamond), and the players' table shows the same mark beside each name;
    # WCAG 1.4.11: an active tile's outline is 3:1 against the board, in both themes
    game = gw.GridMaster4(size=8)
    rng = __import__("random").Random(3)
    for _ in range(12):
        game.play(rng.choice(game.legal_moves()))
    if dark:
        page.evaluate("document.body.classList.add('vscode-dark')")
    widget, _ = open_game(page, server, game)
    shapes = {-1: "", 0: "circle", 1: "rect", 2: "polygon", 3: "polygon"}
    # the pieces' groups, one per cell in row-major order: each tile's mark
    drawn = page.evaluate("""() => [...document.querySelector('.gw-pieces').children]
        .map(g => { const m = g.querySelectorAll('.gw-owner-mark'); return m.length === 1 ? m[0].tagName : m.length ? '?' : ''; })""")
    expected = [shapes[int(o)] for o in game.board.ravel()]
    assert drawn == expected
    assert page.locator(".gw-prow .gw-swatch .gw-owner-mark").count() == 4
    for p in range(4):
        active = sorted(game.active_tiles(p))
        assert active, f"player {p} has no active tile to look at"
        r, c = active[0]
        name = gw.core.cell_name((r, c))
        outline = page.evaluate("(i) => getComputedStyle(document.querySelector('.gw-pieces').children[i]"
                                ".querySelector('.gw-tile')).stroke", r * 8 + c)
        cellbg = page.locator(f'[data-cell="{name}"] .gw-bg').evaluate("e => getComputedStyle(e).fill")
        ratio = page.evaluate(fh.CONTRAST, [outline, cellbg])
        assert ratio >= 3, f"player {p}'s active tile outline is {ratio:.2f}:1 on its cell ({outline} on {cellbg})"
    widget.close()


def test_gm4_picture_marks_each_tile_and_panel_row_with_its_owner():
    # the static picture draws the same marks (core/draw.py owner_mark)
    game = gw.GridMaster4(size=8)
    for move in ["A1", "H8", "A8", "H1"]:
        game.play(move)
    svg = game.to_svg()
    assert svg.count("<circle") >= 2 and svg.count('<rect x="') > 8
    body = svg.split('class="gw-panel"')[0]
    assert body.count("<polygon") >= 2  # player 2's triangle and player 3's diamond on the board
