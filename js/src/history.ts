// The history of the grid view: the list of steps and the slider. Both move
// by steps (a move, or the revealed joint action of a simultaneous node, with
// the moves the rules made by themselves); a click or a drag sends
// `{type: "goto", index}` and Python goes there.

import { html, setAttr, setText } from "./dom";
import type { GameState, Intent } from "./types";

export class HistoryView {
  private readonly range: HTMLInputElement;
  private readonly posEl: HTMLSpanElement;
  private readonly movesEl: HTMLOListElement;
  private moveItems: HTMLLIElement[] = [];
  private shownIndex = -1;
  private dragging = false;
  private current: GameState | null = null;

  constructor(parent: HTMLElement, private readonly send: (intent: Intent) => void) {
    const hist = html("div", { class: "gw-history" }, undefined, parent);
    const head = html("div", { class: "gw-history-head" }, undefined, hist);
    html("span", { class: "gw-history-title" }, "History", head);
    this.posEl = html("span", { class: "gw-pos", "aria-hidden": "true" }, "", head);
    this.range = html("input", {
      type: "range",
      class: "gw-range",
      min: 0,
      max: 0,
      step: 1,
      value: 0,
      "data-action": "goto",
      "aria-label": "position in the game history",
      "data-lm-suppress-shortcuts": "true",
    }, undefined, hist);
    // tabindex: the list scrolls, so the keyboard must reach it (WCAG 2.1.1)
    this.movesEl = html("ol", { class: "gw-moves", "aria-label": "moves", tabindex: 0 }, undefined, hist);
  }

  listen(on: <K extends keyof HTMLElementEventMap>(el: HTMLElement, type: K, fn: (ev: HTMLElementEventMap[K]) => void) => void): void {
    on(this.range, "pointerdown", () => { this.dragging = true; });
    const endDrag = (): void => {
      if (!this.dragging) return;
      this.dragging = false;
      if (this.current) this.update(this.current);
    };
    on(this.range, "pointerup", endDrag);
    on(this.range, "pointercancel", endDrag);
    on(this.range, "change", endDrag);
    on(this.range, "input", () => this.goto(Number(this.range.value)));
    on(this.movesEl, "click", (ev) => {
      const li = (ev.target as Element | null)?.closest?.("li[data-index]");
      if (li) this.goto(Number(li.getAttribute("data-index")));
    });
  }

  private goto(index: number): void {
    const s = this.current;
    if (!s || !Number.isInteger(index) || index === s.step) return;
    this.send({ type: "goto", index });
  }

  update(s: GameState): void {
    this.current = s;
    const idx = s.step;
    const total = s.steps.length + s.future_steps.length;
    const pos = total === 0 ? "no moves yet" : `move ${idx} of ${total}`;
    setAttr(this.range, "max", String(total));
    if (!this.dragging && this.range.value !== String(idx)) this.range.value = String(idx);
    this.range.disabled = total === 0;
    setAttr(this.range, "aria-valuetext", pos);
    setText(this.posEl, pos);

    const moves = ["start", ...s.steps, ...s.future_steps];
    const items = this.moveItems;
    for (let k = 0; k < moves.length; k++) {
      let li = items[k];
      if (!li) {
        li = html("li", { "data-index": k }, undefined, this.movesEl);
        items.push(li);
      }
      setText(li, k === 0 ? "start" : `${k}. ${moves[k]}`);
      const cls = k === idx ? "is-current" : k > idx ? "is-future" : "";
      if (li.className !== cls) li.className = cls;
      setAttr(li, "aria-current", k === idx ? "step" : null);
    }
    while (items.length > moves.length) items.pop()!.remove();

    if (idx !== this.shownIndex) {
      this.shownIndex = idx;
      const cur = items[idx];
      const list = this.movesEl;
      // Scroll the list only (scrollIntoView would scroll the notebook too),
      // in the next frame: reading the layout here would force a style and
      // layout pass in the middle of the update.
      requestAnimationFrame(() => {
        if (!cur || !cur.isConnected || list.clientHeight <= 0) return;
        const top = cur.offsetTop; // the list is position: relative
        if (top < list.scrollTop) list.scrollTop = top;
        else if (top + cur.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = top + cur.offsetHeight - list.clientHeight;
        }
      });
    }
  }
}
