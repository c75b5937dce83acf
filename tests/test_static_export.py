"""`jupyter nbconvert --to html` of the tutorials keeps every board visible.

Each widget output stores a static SVG of the board next to the widget view
(GameWidget._repr_mimebundle_, Boards._repr_mimebundle_). Without a kernel or
the widget state, nbconvert skips the widget view and shows that picture, so a
notebook read on a site without a kernel still shows the boards.
"""

from __future__ import annotations

import base64
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from boards import SVG_IMG, WIDGET_VIEW, board_outputs, boards_in_html, boards_in_notebook

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("html")
    jupyter = Path(sys.executable).with_name("jupyter")
    cmd = [str(jupyter)] if jupyter.exists() else [shutil.which("jupyter") or "jupyter"]
    subprocess.run(
        [*cmd, "nbconvert", "--to", "html", "--output-dir", str(out), *map(str, TUTORIALS)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return out


def test_every_tutorial_has_boards_to_show():
    assert len(TUTORIALS) >= 6
    assert (ROOT / "notebooks" / "00-welcome.ipynb") in TUTORIALS
    for nb in TUTORIALS:
        images, inline, live, _png = boards_in_notebook(nb)
        assert images + inline > 0, f"{nb.name} stores no board picture"
        if nb.name != "05-game-theory.ipynb":
            assert live > 0, f"{nb.name} shows no live board"


@pytest.mark.parametrize("notebook", TUTORIALS, ids=lambda p: p.stem)
def test_html_export_shows_every_board(exported, notebook):
    page = (exported / f"{notebook.stem}.html").read_text()
    images, inline, _live, _png = boards_in_notebook(notebook)
    # the widget views give way to their static pictures: <img> for an SVG, inline SVG for text/html
    assert boards_in_html(page) == (images, inline)
    # the widget views were left out (no widget state), not rendered empty
    assert f'type="{WIDGET_VIEW}"' not in page


@pytest.mark.parametrize("notebook", TUTORIALS, ids=lambda p: p.stem)
def test_an_untrusted_notebook_shows_every_board_as_a_picture(notebook):
    """JupyterLab draws no SVG or script output of a notebook it does not trust
    (a fresh clone) and strips SVG from HTML outputs, leaving their text; it
    draws PNG. GitHub's notebook view draws PNG too. So every stored board is
    an image (never inline SVG in HTML), and every board SVG has its PNG."""
    _images, inline, _live, png = boards_in_notebook(notebook)
    assert inline == 0, f"{notebook.name}: boards inlined in HTML show as text until the notebook is trusted"
    assert png == board_outputs(notebook) > 0, f"{notebook.name}: a board picture without its PNG"


def test_welcome_export_shows_the_four_games_side_by_side(exported):
    page = (exported / "00-welcome.html").read_text()
    pictures = [base64.b64decode(b).decode("utf-8") for b in SVG_IMG.findall(page)]
    row = next((p for p in pictures if 'class="gw-boards"' in p), None)
    assert row is not None
    for name in ("Gridlock", "GridMaster4", "Block Four", "GridBloc"):
        assert f'aria-label="{name}:' in row
