// The keyboard of the grid view: arrows move the focus ring, Enter or Space
// activates the cell under it, U undoes and R redoes; a game layer may take a
// key first. Keys the widget handles stop there, so they never reach the
// notebook (JupyterLab's command mode, VS Code's cell shortcuts).

import type { GameLayer } from "./games/layer";
import type { BoardView } from "./board";
import type { GameState, Intent } from "./types";

/** Keys the widget's own controls use: they must not reach the notebook. */
export const KEYS_HANDLED_BY_WIDGET = new Set([
  "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", "Enter", " ",
  "Delete", "Backspace", "Escape",
]);

export interface KeysHost {
  readonly board: BoardView;
  layer(): GameLayer;
  current(): GameState | null;
  send(intent: Intent): void;
  activate(i: number): void;
  pointAt(i: number): void;
}

/** A key pressed on the board. */
export function boardKey(host: KeysHost, ev: KeyboardEvent): void {
  const s = host.current();
  if (!s || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const board = host.board;
  const n = s.rows * s.cols;
  let i = board.focusIndex >= 0 && board.focusIndex < n ? board.focusIndex : 0;
  let r = Math.floor(i / s.cols);
  let c = i % s.cols;
  if (host.layer().key?.(board, s, ev)) {
    ev.preventDefault();
    ev.stopPropagation();
    return;
  }
  let handled = true;
  switch (ev.key) {
    case "ArrowUp": r = Math.max(0, r - 1); break;
    case "ArrowDown": r = Math.min(s.rows - 1, r + 1); break;
    case "ArrowLeft": c = Math.max(0, c - 1); break;
    case "ArrowRight": c = Math.min(s.cols - 1, c + 1); break;
    case "Home": c = 0; if (ev.shiftKey) r = 0; break;
    case "End": c = s.cols - 1; if (ev.shiftKey) r = s.rows - 1; break;
    case "Enter":
    case " ":
      if (ev.shiftKey) { handled = false; break; }
      ev.preventDefault();
      ev.stopPropagation();
      board.el.classList.add("gw-kbd");
      board.setFocus(i);
      host.pointAt(i);
      host.activate(i);
      return;
    case "u": case "U": host.send({ type: "undo" }); break;
    case "r": case "R": host.send({ type: "redo" }); break;
    default: handled = false;
  }
  if (!handled) return;
  ev.preventDefault();
  ev.stopPropagation();
  board.el.classList.add("gw-kbd");
  i = r * s.cols + c;
  board.setFocus(i);
  host.pointAt(i);
}

/**
 * Keep the widget's keys inside it: a key the widget handles (arrows, Enter,
 * Delete, ...) stops at its root, so the notebook around it never sees it;
 * modified keys such as Shift+Enter (run the cell) pass through.
 */
export function keepKeys(ev: KeyboardEvent): void {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.shiftKey) return;
  if (KEYS_HANDLED_BY_WIDGET.has(ev.key) || ev.key.length === 1) ev.stopPropagation();
}
