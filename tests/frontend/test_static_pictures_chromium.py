"""The static pictures (Game.to_svg) look the same in Chromium as in the
plain rasteriser behind Game.to_png (resvg): text placed without
dominant-baseline, in fonts both find (tests/test_pictures.py compares resvg
with rsvg-convert)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import frontend_harness as fh  # noqa: E402

pytestmark = pytest.mark.browser
if not fh.CHROMIUM.exists():
    pytest.skip(f"{fh.CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api")
Image = pytest.importorskip("PIL.Image")

from boards import advance  # noqa: E402  (tests/boards.py)

from gridwidgets.core import registry  # noqa: E402
from gridwidgets.core.draw import to_png  # noqa: E402

#: mean difference per channel (0..255) allowed between Chromium's and resvg's
#: rendering of one picture; measured here 0.9 to 1.9 (font hinting and
#: anti-aliasing); text 4 px off its line (dominant-baseline ignored) costs 3.7 to 6.5
TOLERANCE = 2.6


def _array(png: bytes, size=None) -> np.ndarray:
    with Image.open(io.BytesIO(png)) as im:
        im = im.convert("RGB")
        if size is not None and im.size != size:
            im = im.resize(size)
        return np.asarray(im, dtype=float)


@pytest.mark.parametrize("name", registry.names())
def test_chromium_draws_the_picture_as_resvg_does(page, name):
    import re

    g = advance(registry.make(name), 12, seed=7)
    svg = g.to_svg()
    page.set_content(f'<html><body style="margin:0;background:#fff">{svg}</body></html>')
    shot = page.locator("svg.gw-static").screenshot()
    browser = _array(shot)
    h, w = browser.shape[:2]
    ours = _array(to_png(svg, scale=1), (w, h))
    diff = float(np.abs(browser - ours).mean())
    assert diff < TOLERANCE, f"{name}: Chromium and resvg differ by {diff:.2f}"
    # the tolerance catches text off its line
    shifted = re.sub(r'(<text x="[\d.]+" y=")([\d.]+)', lambda m: f"{m.group(1)}{float(m.group(2)) - 4:.1f}", svg)
    off = _array(to_png(shifted, scale=1), (w, h))
    assert float(np.abs(browser - off).mean()) > TOLERANCE
