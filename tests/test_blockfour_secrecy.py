"""BF-5: a submitted bid stays hidden until both bids are in. Each public
channel is checked by comparing two games that differ only in the hidden bid:
every output must be the same."""

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridwidgets import BlockFour
from gridwidgets.agents import RandomAgent


def twins(first, second, player=0, x_table=("L", "T"), before=()):
    """Two games, same moves ``before``, then ``player`` bids ``first`` in one
    and ``second`` in the other."""
    games = []
    for bid in (first, second):
        g = BlockFour(x_table=x_table)
        for move, p in before:
            g.play(move, player=p)
        g.play(bid, player=player)
        games.append(g)
    return games


def public(g):
    """Everything a person or the page can see of a game."""
    w = g.widget()
    state = dict(w.state)
    return {
        "history": [str(m) for m in g.history],
        "future": [str(m) for m in g.future],
        "json": g.to_json(),
        "svg": g._repr_svg_(),
        "text": str(g),
        "repr": repr(g),
        "status": g.status(),
        "widget_repr": repr(w),
        "bundle_svg": w._repr_mimebundle_()[0]["image/svg+xml"],
        "state": json.dumps(state, sort_keys=True),
        "legal_O": [str(m) for m in g.legal_moves(player=1)],
        "pending": g.pending_bids,
        "events": g.events,
    }


def test_bf5_x_bid_leaves_no_trace_in_any_public_output():
    a, b = twins("IO", "OZ")
    assert public(a) == public(b)
    assert a.pending_bids == (True, False)


def test_bf5_o_bid_first_leaves_no_trace_either():
    a, b = twins("LT", "IZ", player=1)
    assert public(a) == public(b)


def test_bf5_messages_to_the_browser_are_the_same():
    sent = []
    for bid in ("IO", "IZ"):
        g = BlockFour(x_table=("L", "T"))
        w = g.widget()
        msgs = []
        w._send = lambda msg, buffers=None, msgs=msgs: msgs.append(msg)
        w._handle_custom_msg({"type": "play", "move": bid, "player": 0, "version": w.state["version"]}, [])
        sent.append(json.dumps(msgs, sort_keys=True))
    assert sent[0] == sent[1] and sent[0].count('"method": "update"') == 1


def test_bf5_the_bid_is_revealed_once_both_are_in():
    a, b = twins("IO", "OZ")
    for g in (a, b):
        g.play("LT", player=1)
    assert [str(m) for m in a.history[:2]] == ["IO", "LT"] and [str(m) for m in b.history[:2]] == ["OZ", "LT"]
    assert a.widget().state["extra"]["revealed"]["bids"] == ["IO", "LT"]


def test_bf5_an_agent_does_not_see_the_other_bid():
    a, b = twins("IO", "OZ")
    va, vb = a.view_for(1), b.view_for(1)
    assert va == vb and va.pending_bids == (True, False) and va.current_player == 1
    # agents choose from the view: the same choice whatever X bid
    assert RandomAgent(seed=3).choose(va) == RandomAgent(seed=3).choose(vb)
    with pytest.raises(Exception, match="hidden"):
        va.play("LT", player=1)
    resolved = va.with_bid("IO", 0)
    resolved.play("LT", player=1)
    assert [str(m) for m in resolved.history[:2]] == ["IO", "LT"]


def test_bf5_the_bidders_own_view_keeps_their_bid():
    a, _ = twins("IO", "OZ")
    assert a.view_for(0).pending == (0,) and str(a.view_for(0)._pending[0]) == "IO"


def test_bf5_a_saved_game_drops_the_hidden_bid():
    a, _ = twins("IO", "OZ")
    loaded = BlockFour.from_json(a.to_json())
    assert loaded.pending_bids == (False, False)


@st.composite
def mid_game(draw):
    seed = draw(st.integers(0, 10_000))
    rng = random.Random(seed)
    moves = []
    g = BlockFour(seed=seed)
    for _ in range(draw(st.integers(0, 40))):
        if g.phase == "over":
            break
        p = g.current_player
        m = rng.choice(g.legal_moves(p))
        g.play(m, player=p)
        moves.append((str(m), p))
    return seed, moves


@given(mid_game(), st.data())
def test_hidden_bids_never_leak_in_random_games(game, data):
    seed, moves = game
    g = BlockFour(seed=seed)
    for m, p in moves:
        g.play(m, player=p)
    if g.phase != "bid" or any(g.pending_bids):
        return  # the next bid would complete a pair and be revealed at once
    bidder = data.draw(st.sampled_from([0, 1]))
    options = [str(m) for m in g.legal_moves(bidder)]
    if len(options) < 2:
        return
    first, second = data.draw(st.permutations(options))[:2]
    outputs = []
    for bid in (first, second):
        h = BlockFour(seed=seed)
        for m, p in moves:
            h.play(m, player=p)
        h.play(bid, player=bidder)
        assert h.pending_bids[bidder] and not h.pending_bids[1 - bidder]
        outputs.append(public(h))
    assert outputs[0] == outputs[1]
