"""Every tutorial leaves the reader's boards to the reader (issue 26).

The rule is checked on every tutorial while nbval runs them (``conftest.py``
at the repository's root, ``tests/tutorial_watch.py``); these tests prove the
watcher sees what it must, in a small notebook run by nbclient: a board
shown and then played by a later cell is a fault (shown by ``display`` or as
a cell's last expression, alone or inside a container), a board played in
the cell that shows it or a board of its own is not, and a cell tagged
``demo-board`` may be played on.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import tutorial_watch

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")


def run(tmp_path: Path, cells: list[str | tuple[str, list[str]]]) -> list[str]:
    """Run ``cells`` (source, or (source, tags)) with the watcher; the faults found."""
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                          "language": "python"}})
    for cell in cells:
        source, tags = (cell, []) if isinstance(cell, str) else cell
        nb.cells.append(nbformat.v4.new_code_cell(source, metadata={"tags": tags}))
    path = tmp_path / "tutorial.ipynb"
    nbformat.write(nb, path)
    faults_file = tmp_path / "faults.json"
    watched = nbformat.v4.new_notebook(metadata=nb.metadata)
    watched.cells = [nbformat.v4.new_code_cell(tutorial_watch.watcher(faults_file)), *nb.cells]
    nbclient.NotebookClient(watched, timeout=120, kernel_name="python3").execute()
    return tutorial_watch.faults(faults_file, path)


def test_a_board_played_by_a_later_cell_is_a_fault_naming_both_cells(tmp_path):
    found = run(tmp_path, [
        "import gridwidgets as gw\ng = gw.Gridlock()",
        "w = g.widget()\nw",                       # the reader's board, as the last expression
        "g.play('B2')",                            # played by a later cell
    ])
    assert len(found) == 1, found
    assert "Widget shown by code cell 2 ('w = g.widget()')" in found[0]
    assert "changed by code cell 3 (\"g.play('B2')\")" in found[0]


def test_a_board_inside_a_container_or_shown_by_display_is_watched_too(tmp_path):
    found = run(tmp_path, [
        "import ipywidgets, gridwidgets as gw\ng = gw.Gridlock()\nh = gw.Gridlock()",
        "display(ipywidgets.VBox([g.widget()]))",
        "from IPython.display import display\ndisplay(h.widget())",
        "g.play('A1')\nh.play('D4')",
    ])
    assert len(found) == 2, found
    assert any("shown by code cell 2" in f for f in found) and any("shown by code cell 3" in f for f in found)


def test_a_board_of_its_own_a_position_set_up_before_showing_and_a_demo_board_are_no_fault(tmp_path):
    found = run(tmp_path, [
        "import gridwidgets as gw\ng = gw.Gridlock()\ng.play('B2')\nw = g.widget()\nw",  # played, then shown
        "demo = gw.Gridlock()\nd = demo.widget()\ndemo.play('C3')",                       # never shown
        ("shown = gw.Gridlock()\nv = shown.widget()\nv", [tutorial_watch.TAG]),
        "shown.play('A1')",                                                                # tagged: meant
    ])
    assert found == []
