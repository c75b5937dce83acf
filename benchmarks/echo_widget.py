"""A bare anywidget that only echoes a click: the baseline of the latency benchmark.

The button sends one custom message ``{"type": "click"}`` (as the Gridlock
board sends ``{"type": "play", ...}``); Python increments ``count``; the view
shows it.  The root carries ``data-version`` (= ``count``) and the count is in
``[data-role=count]``, like the board's root and status.
"""

import anywidget
import traitlets

ESM = r"""
function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "echo-widget";
  const button = document.createElement("button");
  button.dataset.action = "echo";
  button.textContent = "click";
  const count = document.createElement("span");
  count.dataset.role = "count";
  root.append(button, " ", count);
  const show = () => {
    const n = model.get("count");
    root.dataset.version = String(n);
    count.textContent = String(n);
  };
  show();
  button.addEventListener("click", () => model.send({ type: "click" }));
  model.on("change:count", show);
  el.appendChild(root);
  return () => model.off("change:count", show);
}
export default { render };
"""


class EchoWidget(anywidget.AnyWidget):
    _esm = ESM
    count = traitlets.Int(0).tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.on_msg(self._on_click)

    def _on_click(self, widget, content, buffers):
        if isinstance(content, dict) and content.get("type") == "click":
            self.count += 1

    def __repr__(self) -> str:
        return f"EchoWidget(count={self.count})"
