"""The Block Four widget in a real JupyterLab: both secret bids picked from
the cards and locked in, then a placement clicked where the preview is
legal, and the kernel agreeing (docs/frontend.md, "Block Four")."""

from __future__ import annotations

import ast

import lab_harness as harness
import pytest

pytest.importorskip("playwright.sync_api", reason="playwright (python) is not installed")
if not harness.chromium_available():
    pytest.skip(f"{harness.CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)

pytestmark = pytest.mark.browser

ROOT = '[data-game="blockfour"]'


def wait_version(nb, version: int) -> None:
    nb.wait_for("([sel, v]) => { const r = document.querySelector(sel); return !!r && r.dataset.version === String(v); }",
                [ROOT, version])


def version(nb) -> int:
    return int(nb.evaluate("(sel) => document.querySelector(sel).dataset.version", ROOT))


def wait_version_past(nb, version: int) -> None:
    nb.wait_for("([sel, v]) => { const r = document.querySelector(sel); return !!r && Number(r.dataset.version) > v; }",
                [ROOT, version])


def hand(nb, player: int) -> list[str]:
    """The cards in ``player``'s hand, as the players' table shows them (I, L, O, T, Z order)."""
    text = nb.page.locator(ROOT).locator(f'.gw-prow[data-player="{player}"] [data-col="hand"]').inner_text()
    return [] if text.strip() == "none" else text.split()


def bid(nb, player: int, cards: str) -> None:
    """Pick two cards of ``player`` from the hand and lock them in."""
    root = nb.page.locator(ROOT)
    v = version(nb)
    for k in cards:
        root.locator(f'[data-card="{k}"][data-player="{player}"][data-where="hand"]').click()
    nb.wait_for("(sel) => { const b = document.querySelector(sel + ' [data-action=\"lock\"]'); return !!b && !b.disabled; }", ROOT)
    root.locator('[data-action="lock"]').click()
    wait_version_past(nb, v)


def test_bf_bids_by_cards_then_a_placement_and_the_kernel_agrees(open_notebook):
    nb = open_notebook("blockfour_lab.ipynb")
    nb.run_all()
    nb.wait_for("(sel) => document.querySelectorAll(sel + ' [data-cell]').length === 81", ROOT)
    x_cards = "".join(hand(nb, 0)[:2])
    bid(nb, 0, x_cards)
    # the first bid is secret: the kernel knows only that X has bid
    out = nb.run_code("print(w.state['extra']['pending_bids'], w.state['extra']['revealed'])")
    assert out.strip() == "[True, False] None", out
    # O bids two cards, as few of X's as the hand allows (two matches place nothing, BF-6)
    o_hand = hand(nb, 1)
    o_cards = "".join(sorted(o_hand, key=lambda k: (k in x_cards, "ILOTZ".index(k)))[:2])
    o_cards = "".join(sorted(o_cards, key="ILOTZ".index))
    bid(nb, 1, o_cards)
    nb.wait_for("(sel) => !document.querySelector(sel + ' [data-role=\"reveal\"]').hidden", ROOT)
    assert nb.page.locator(f'{ROOT} [data-role="matches"]').get_attribute("data-matches") != "2"
    nb.wait_for("(sel) => !document.querySelector(sel + ' [data-role=\"place\"]').hidden", ROOT)
    v = version(nb)

    # the placer points at cells until the preview is legal there, then clicks
    root = nb.page.locator(ROOT)
    preview = root.locator('[data-role="preview"]')
    target = None
    for name in ("A1", "E5", "B2", "A9", "I1", "F7", "C8", "H4"):
        root.locator(f'[data-cell="{name}"]').hover()
        nb.wait_for("([sel, n]) => { const p = document.querySelector(sel + ' [data-role=\"preview\"]');"
                    " return !!p && (p.getAttribute('data-move') || '').split(/[:,]/).includes(n); }", [ROOT, name])
        if preview.get_attribute("data-legal") == "true":
            target = name
            break
    assert target is not None, "no legal preview found"
    move = preview.get_attribute("data-move")
    shape, cells = move.split(":")
    root.locator(f'[data-cell="{target}"]').click()
    wait_version_past(nb, v)

    out = nb.run_code("print([str(m) for m in g.history])")
    history = ast.literal_eval(out.strip())
    assert history[:2] == [x_cards, o_cards], history
    placements = [m for m in history[2:] if m.split(":")[0] == shape and not m.endswith("-")]
    assert any(sorted(m.split(":")[1].split(",")) == sorted(cells.split(",")) for m in placements), (history, move)
    for c in cells.split(","):
        label = root.locator(f'[data-cell="{c}"]').get_attribute("aria-label")
        assert ", empty" not in label, label
