// Several live boards in one anywidget (`gw.side_by_side`, Python's `Boards`):
// each board is its game's GameWidget in Python; here each gets the same
// GridView as a board of its own, through a model that reads that board's
// values from the parent's `views` trait and sends its intents and trait
// updates to the parent, tagged with the board's index. One anywidget, so the
// boards are live in hosts that draw no ipywidgets containers (marimo).

import type { AnyModel } from "@anywidget/types";
import { html } from "./dom";
import { GridView } from "./view";
import type { WidgetTraits } from "./types";

type Handler = (...args: unknown[]) => void;

interface BoardsTraits {
  views: Array<Record<string, unknown>>;
  seen_version: number;
  titles: string[];
  min_width: number;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Board `k` of a Boards widget, seen by its GridView as a model of its own. */
class BoardModel {
  private readonly handlers = new Map<string, Set<Handler>>();
  /** Values this page set and sent, shown until Python's answer arrives. */
  private local: Record<string, unknown> = {};
  private dirty = new Set<string>();
  private shown: Record<string, unknown>;

  constructor(private readonly parent: AnyModel<BoardsTraits>, private readonly k: number) {
    this.shown = { ...this.values() };
  }

  private values(): Record<string, unknown> {
    const views = this.parent.get("views");
    return (Array.isArray(views) && views[this.k]) || {};
  }

  get(name: string): unknown {
    return name in this.local ? this.local[name] : this.values()[name];
  }

  set(name: string, value: unknown): void {
    this.local[name] = value;
    this.dirty.add(name);
    this.emit(`change:${name}`, value);
  }

  save_changes(): void {
    if (this.dirty.size === 0) return;
    const changes: Record<string, unknown> = {};
    for (const name of this.dirty) changes[name] = this.local[name];
    this.dirty.clear();
    this.parent.send({ board: this.k, set: changes });
    if ("seen_version" in changes) {
      // the page drew the answer to its own move: a trait of the one widget
      // changes too, which is what makes marimo re-run the cells that read it
      const m = this.parent as unknown as AnyModel<Record<string, unknown>>;
      m.set("seen_version", (Number(m.get("seen_version")) || 0) + 1);
      m.save_changes();
    }
  }

  send(content: unknown): void {
    this.parent.send({ board: this.k, intent: content });
  }

  on(event: string, fn: Handler): void {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)!.add(fn);
  }

  off(event?: string | null, fn?: Handler | null): void {
    if (!event) this.handlers.clear();
    else if (!fn) this.handlers.delete(event);
    else this.handlers.get(event)?.delete(fn);
  }

  /** The parent's `views` changed: fire `change:<name>` for this board's values that did. */
  refresh(): void {
    const now = this.values();
    for (const [name, value] of Object.entries(now)) {
      if (name in this.local && !this.dirty.has(name)) delete this.local[name];  // Python answered
      if (!same(this.shown[name], value)) {
        this.shown[name] = value;
        this.emit(`change:${name}`, value);
      }
    }
  }

  private emit(event: string, value: unknown): void {
    for (const fn of [...(this.handlers.get(event) ?? [])]) fn(value);
  }
}

/** Draw a Boards widget: a wrapping grid of titled boards. */
export function renderBoards(model: AnyModel<BoardsTraits>, el: HTMLElement): () => void {
  const root = html("div", { class: "gw-boards-live" }, undefined, el);
  const width = Number(model.get("min_width")) || 300;
  root.style.gridTemplateColumns = `repeat(auto-fill, minmax(min(100%, ${width}px), 1fr))`;
  const titles = model.get("titles") ?? [];
  const views = model.get("views") ?? [];
  const boards: Array<[BoardModel, GridView]> = views.map((_v, k) => {
    const cell = html("div", { class: "gw-boards-cell", "data-board": k }, undefined, root);
    html("div", { class: "gw-boards-title" }, titles[k] ?? "", cell);
    const bm = new BoardModel(model, k);
    return [bm, new GridView(bm as unknown as AnyModel<WidgetTraits>, cell)];
  });
  const onViews = (): void => {
    for (const [bm] of boards) bm.refresh();
  };
  model.on("change:views", onViews);
  return () => {
    model.off("change:views", onViews);
    for (const [, view] of boards) view.destroy();
    root.remove();
  };
}
