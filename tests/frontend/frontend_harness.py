"""A fast front-end check without Jupyter (docs/TESTING.md).

A plain page on 127.0.0.1 loads the built ``gridwidgets/static/widget.js``
with a fake anywidget model (``harness.html``); its ``send`` and
``save_changes`` call the real Python widget in-process through functions
exposed by Playwright, and the traits Python changed are pushed back into the
page, which fires ``change:<trait>`` like the real widget manager.
"""

from __future__ import annotations

import copy
import http.server
import json
import pathlib
import threading
from typing import Any

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STATIC = ROOT / "gridwidgets" / "static"
CHROMIUM = pathlib.Path("/usr/bin/chromium")
#: the traits the front end reads (docs/frontend.md); a widget without one
#: of them (GridBloc's ``show_region``, ``editing``, ``board_json``) skips it.
#: ``hint_data`` is set from a worker thread in Python: ``Bridge.push()``
#: after ``w.wait_hints()`` sends it to the page.
TRAITS = (
    "state",
    "show_forbidden",
    "show_labels",
    "show_legal",
    "playing",
    "delay",
    "show_region",
    "editing",
    "board_json",
    "hints",
    "hint_budget",
    "hint_data",
    "seen_version",
    "hidden_controls",
    "fit",
    # gw.side_by_side's one widget (Boards)
    "views",
    "titles",
    "min_width",
)


class _Handler(http.server.BaseHTTPRequestHandler):
    """Serves ``/`` (the harness page) and ``/static/<file>`` (the bundle)."""

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            file, kind = HERE / "harness.html", "text/html"
        elif path.startswith("/static/") and "/" not in path[len("/static/") :]:
            file = STATIC / path[len("/static/") :]
            kind = {".js": "text/javascript", ".css": "text/css"}.get(file.suffix, "application/octet-stream")
        elif path == "/favicon.ico":
            self.send_response(204)
            self.end_headers()
            return
        else:
            self.send_error(404)
            return
        if not file.is_file():
            self.send_error(404)
            return
        body = file.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", f"{kind}; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:  # quiet
        pass


class Server:
    """A local HTTP server on 127.0.0.1 in a thread; ``stop()`` ends it."""

    def __init__(self) -> None:
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


class Bridge:
    """Connects one page's fake model to one Python widget."""

    def __init__(self, page: Any, widget: Any) -> None:
        self.page = page
        self.widget = widget
        self.shown: dict[str, Any] = {}
        self.sent: list[Any] = []
        page.expose_function("py_initial", self._initial)
        page.expose_function("py_send", self._send)
        page.expose_function("py_save", self._save)

    def _current(self) -> dict[str, Any]:
        keys = [t for t in TRAITS if t in self.widget.keys]
        return _json(self.widget.get_state(keys))

    def _diff(self) -> dict[str, Any]:
        now = self._current()
        changed = {k: v for k, v in now.items() if self.shown.get(k) != v}
        self.shown.update(copy.deepcopy(changed))
        return changed

    def _initial(self) -> dict[str, Any]:
        return self._diff()

    def _send(self, content: Any) -> dict[str, Any]:
        # the path a custom message takes in ipywidgets: on_msg callbacks,
        # which call the widget's handle_intent (play, agent-step, ...)
        self.sent.append(content)
        self.widget._handle_custom_msg(content, [])
        return self._diff()

    def _save(self, changes: dict[str, Any]) -> dict[str, Any]:
        # the path a browser-side model.set + save_changes takes in ipywidgets
        self.shown.update(copy.deepcopy(changes))
        self.widget.set_state(changes)
        return self._diff()

    def push(self) -> None:
        """Send the browser whatever changed in Python (a code cell's move)."""
        changed = self._diff()
        if changed:
            self.page.evaluate("u => window.gw.apply(u)", changed)

    def push_hints(self, timeout: float = 30.0) -> dict[str, Any]:
        """Wait for the widget's hint computation (a worker thread), then push
        what changed (``hint_data``) to the page; returns ``hint_data``."""
        data = self.widget.wait_hints(timeout)
        self.push()
        return data


class StubWidget:
    """Stands in for a Python widget with hand-made traits (a state drawn as
    it is, no rules): ``on_intent(stub, content)`` may answer an intent by
    changing ``stub.traits``. Used to test drawing and the agents' clock
    exactly; the other tests use the real widgets."""

    def __init__(self, state: dict[str, Any], on_intent: Any = None, **traits: Any) -> None:
        self.traits: dict[str, Any] = {
            "state": state,
            "show_forbidden": True,
            "show_labels": True,
            "show_legal": False,
            "playing": False,
            "delay": 400,
            **traits,
        }
        self.keys = list(self.traits)
        self.on_intent = on_intent
        self.intents: list[Any] = []

    def get_state(self, keys: list[str]) -> dict[str, Any]:
        return {k: copy.deepcopy(self.traits[k]) for k in keys}

    def set_state(self, changes: dict[str, Any]) -> None:
        self.traits.update(copy.deepcopy(changes))

    def _handle_custom_msg(self, content: Any, buffers: Any) -> None:
        self.intents.append(content)
        if self.on_intent is not None:
            self.on_intent(self, content)

    def close(self) -> None:
        pass


def open_widget(page: Any, server: Server, widget: Any, theme: str | None = None) -> Bridge:
    """Load the harness page for ``widget``; returns the bridge once the view rendered."""
    bridge = Bridge(page, widget)
    page.goto(server.url + (f"?theme={theme}" if theme else ""))
    page.wait_for_function("window.gwReady === true", timeout=10_000)
    return bridge


#: a page function: the WCAG contrast ratio of a colour over a background (any
#: CSS colour the page computes: rgb(), color(srgb ...), oklab() mid-transition;
#: each resolved by painting it on a canvas, the first over the second),
#: ``page.evaluate(CONTRAST, [colour, background])``
CONTRAST = """([a, b]) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const x = canvas.getContext('2d', {willReadFrequently: true});
    const paint = (...layers) => {
        x.fillStyle = '#ffffff';
        x.fillRect(0, 0, 1, 1);
        for (const l of layers) { x.fillStyle = l; x.fillRect(0, 0, 1, 1); }
        return [...x.getImageData(0, 0, 1, 1).data].slice(0, 3).map((v) => v / 255);
    };
    const lum = (c) => { const [r, g, bl] = c.map((v) => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
                         return 0.2126 * r + 0.7152 * g + 0.0722 * bl; };
    const [p, q] = [lum(paint(b, a)), lum(paint(b))].sort((m, n) => n - m);
    return (p + 0.05) / (q + 0.05);
}"""
