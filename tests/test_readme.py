"""The README: its pictures (taken by tests/browser/test_board_pictures.py and
committed), its two commands, and its links."""

import re
import struct
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
GAMES = ("gridlock", "gridmaster4", "blockfour", "gridbloc")


@pytest.mark.parametrize("game", GAMES)
def test_readme_shows_a_picture_of_each_board(game):
    path = ROOT / "docs" / "images" / f"{game}.png"
    assert f"(docs/images/{game}.png)" in README
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk
    assert 300 <= width <= 1200 and 250 <= height <= 1000, (width, height)


def test_readme_gives_the_two_commands_the_makefile_has():
    makefile = (ROOT / "Makefile").read_text()
    for target in ("lab", "test"):
        assert f"make {target}" in README
        assert re.search(rf"^{target}:", makefile, flags=re.M)
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_readme_links_lead_to_files_of_the_repository():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    local = [link for link in links if not re.match(r"[a-z]+://", link)]
    assert len(local) >= 10
    for link in local:
        assert (ROOT / link).exists(), link
