"""The rule that every tutorial leaves the reader's boards to the reader
(issue 26), checked while nbval runs the tutorials (see ``conftest.py`` at the
repository's root) and proved able to fail by ``tests/test_tutorials.py``.

A board a tutorial shows for the reader to click must still be as it was
shown after Run All: code that demonstrates plays on a board of its own. The
watcher, run in the notebook's kernel before its first cell, records every
widget a cell displays (by ``display`` or as the cell's last expression) and
every widget inside it, fingerprints each when that cell ends, and compares
after every later cell. A change is a fault naming the cell that showed the
board and the cell that changed it; faults are written to a JSON file after
each cell.

A board that a tutorial shows in order to play on it from later cells (the
"code updates every view" demonstration) says so with the cell tag
``demo-board`` on the cell that shows it.
"""

from __future__ import annotations

import json
from pathlib import Path

TAG = "demo-board"

_WATCHER = r'''
def _gw_watch_boards(path):
    import json
    import ipywidgets
    from ipywidgets.widgets.widget import _instances
    from IPython import get_ipython

    ip = get_ipython()
    shown = {}      # model id -> (source of the cell that showed it, class name)
    prints = {}     # model id -> its fingerprint
    pending = []    # model ids displayed by the cell running now
    faults = []
    # traits that change by themselves (a hint search's answer arriving) or belong to the page
    volatile = {"hint_data", "_esm", "_css", "layout", "seen_version", "_dom_classes", "tabbable", "tooltip"}

    def inside(widget, found):
        if widget.model_id in found:
            return
        found[widget.model_id] = widget
        for name in widget.keys:
            value = getattr(widget, name, None)
            for item in (value if isinstance(value, (list, tuple)) else [value]):
                if isinstance(item, ipywidgets.Widget) and item.model_id:
                    inside(item, found)

    def fingerprint(widget):
        state = {k: v for k, v in widget.get_state().items() if k not in volatile}
        return json.dumps(state, sort_keys=True, default=repr)

    def note(data):
        view = (data or {}).get("application/vnd.jupyter.widget-view+json")
        if view:
            pending.append(view["model_id"])

    publish = ip.display_pub.publish
    def recording_publish(data, *args, **kwargs):
        note(data)
        return publish(data, *args, **kwargs)
    ip.display_pub.publish = recording_publish
    write = ip.displayhook.write_format_data
    def recording_write(format_dict, *args, **kwargs):
        note(format_dict)
        return write(format_dict, *args, **kwargs)
    ip.displayhook.write_format_data = recording_write

    def post_run_cell(result):
        source = result.info.raw_cell if result.info is not None else ""
        for model_id, (where, name) in shown.items():
            widget = _instances.get(model_id)
            if widget is None or widget.comm is None:  # closed: nothing left for the reader to click
                continue
            now = fingerprint(widget)
            if now != prints[model_id]:
                faults.append({"shown_by": where, "changed_by": source, "widget": name})
                prints[model_id] = now
        found = {}
        for model_id in pending:
            if (widget := _instances.get(model_id)) is not None:
                inside(widget, found)
        for model_id, widget in found.items():
            if model_id not in shown:
                shown[model_id] = (source, type(widget).__name__)
                prints[model_id] = fingerprint(widget)
        pending.clear()
        with open(path, "w") as f:
            json.dump(faults, f)

    ip.events.register("post_run_cell", post_run_cell)

_gw_watch_boards(__GW_FAULTS__)
del _gw_watch_boards
'''


def watcher(faults_file: str | Path) -> str:
    """The code that installs the watcher in a kernel, writing faults to ``faults_file``."""
    return _WATCHER.replace("__GW_FAULTS__", repr(str(faults_file)))


def faults(faults_file: str | Path, notebook: str | Path) -> list[str]:
    """The faults recorded in ``faults_file`` for ``notebook``, as messages,
    leaving out boards shown by a cell tagged ``demo-board``."""
    path = Path(faults_file)
    if not path.exists():
        return []
    nb = json.loads(Path(notebook).read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    sources = ["".join(c["source"]) for c in code]

    def number(source: str) -> int | None:
        return next((i + 1 for i, s in enumerate(sources) if s.strip() == source.strip()), None)

    def line(source: str) -> str:
        lines = source.strip().splitlines()
        return (lines[0] if lines else "")[:60]

    out = []
    for f in json.loads(path.read_text()):
        n = number(f["shown_by"])
        if n is not None and TAG in code[n - 1].get("metadata", {}).get("tags", []):
            continue
        out.append(
            f"{Path(notebook).name}: the {f['widget']} shown by code cell {n} ({line(f['shown_by'])!r}) was changed "
            f"by code cell {number(f['changed_by'])} ({line(f['changed_by'])!r}): a tutorial's board is the "
            f"reader's; play on a board of its own, or tag the showing cell {TAG!r} if later cells are meant to "
            f"play on it"
        )
    return out
