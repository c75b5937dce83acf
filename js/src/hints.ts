// The hints overlay of every game (docs/frontend.md, "Hints").
//
// Python computes advice on the legal moves of the player to act in a worker
// thread and posts it to the synced dict `hint_data`; the page only draws it,
// and only while `hint_data.version === state.version` and its status is
// "done": a move played (a new version) removes the overlay at once.
//
// Where a move is drawn:
// - a cell ("B2": Gridlock, GridMaster4, GridBloc steps): a tint on the cell
//   and its label ("win", "42%"), a ring on the best moves;
// - an edge ("C4|D4": GridBloc walls): a small pill on the wall slot;
// - anything else (Block Four bids "IT" and placements "T:B2,C2,D2,C3",
//   GridBloc's "start E5" and "done"): a list in the side bar, best first,
//   `[data-role="hints"] li`; hovering an entry outlines its cells.
// Every hint element carries `data-hint` (its label) and `data-move`; the cell
// (`[data-cell]`) or wall slot (`[data-edge]`) it labels carries `data-hint` too.
// The overlay never takes a click (pointer-events: none).

import { html, setAttr, setText, svg } from "./dom";
import type { Board } from "./games/layer";
import type { GameState } from "./types";

/** One move's advice, as Python posts it. */
export interface HintMove {
  label: string;
  /** -1..1 for the player to act. */
  value: number;
  /** 0..1: the MCTS visit share (solve: 1 for a best move, else 0). */
  share: number;
  best: boolean;
  /** The colour, when Python says it ("heat": a class poll's count before the reveal); else by the value. */
  tone?: Tone;
}

/** The colours of a hint. */
export type Tone = "win" | "loss" | "draw" | "heat";
const TONES: Tone[] = ["win", "loss", "draw", "heat"];

/** The `hint_data` trait. */
export interface HintData {
  kind: string;
  version: number;
  status: string;
  message: string;
  moves: Record<string, HintMove>;
}

/** What the hints overlay needs of the grid view. */
export interface HintHost extends Board {
  /** The element of cell `i` (`[data-cell]`). */
  cellElement(i: number): SVGGElement | undefined;
}

/** Cells smaller than this get a tiny label only on the leading moves (a dot elsewhere). */
const SMALL_CELL = 30;
/** How many non-board moves the side list shows. */
const LIST_TOP = 8;
const CELLS_RE = /[A-Z]+[0-9]+/gi;

const KINDS: Array<[string, string, string]> = [
  ["", "Off", "No hints"],
  ["solve", "Solve (exact)", "The exact result of every move under perfect play (two-player games, small boards)"],
  ["mcts", "MCTS", "Monte Carlo tree search: how often each move was explored, and how it scored"],
  ["poll", "Class answers", "How many students chose each move (a class poll)"],
];

function num(v: unknown, d = 0): number {
  return typeof v === "number" && Number.isFinite(v) ? v : d;
}

/** `hint_data` checked: a partial or hand-made dict still draws, a malformed one draws nothing. */
export function readHints(raw: unknown): HintData | null {
  if (!raw || typeof raw !== "object") return null;
  const o = raw as Record<string, unknown>;
  const moves: Record<string, HintMove> = {};
  if (o.moves && typeof o.moves === "object") {
    for (const [m, v] of Object.entries(o.moves as Record<string, unknown>)) {
      if (!v || typeof v !== "object") continue;
      const h = v as Record<string, unknown>;
      moves[m] = {
        label: typeof h.label === "string" ? h.label : "",
        value: Math.max(-1, Math.min(1, num(h.value))),
        share: Math.max(0, Math.min(1, num(h.share))),
        best: h.best === true,
        tone: TONES.includes(h.tone as Tone) ? (h.tone as Tone) : undefined,
      };
    }
  }
  return {
    kind: typeof o.kind === "string" ? o.kind : "",
    version: num(o.version, -1),
    status: typeof o.status === "string" ? o.status : "",
    message: typeof o.message === "string" ? o.message : "",
    moves,
  };
}

/** "win" / "loss" / "draw" / "heat": the colour of a hint (Python's `tone` if given; solve's labels; MCTS by the sign of its value). */
export function tone(h: HintMove): Tone {
  if (h.tone) return h.tone;
  if (h.label === "win" || h.label === "loss" || h.label === "draw") return h.label;
  if (h.value > 0.1) return "win";
  if (h.value < -0.1) return "loss";
  return "draw";
}

/** Best first: the best moves, then by share (MCTS) or value (solve), then by value. */
function order(kind: string, moves: Array<[string, HintMove]>): Array<[string, HintMove]> {
  return moves.slice().sort(([, a], [, b]) => {
    if (a.best !== b.best) return a.best ? -1 : 1;
    const ka = kind === "solve" ? a.value : a.share;
    const kb = kind === "solve" ? b.value : b.share;
    if (ka !== kb) return kb - ka;
    return b.value - a.value;
  });
}

export class HintsView {
  /** The side-bar box: selector, status line and list. */
  readonly box: HTMLDivElement;
  private readonly select: HTMLSelectElement;
  private readonly options = new Map<string, HTMLOptionElement>();
  private readonly statusEl: HTMLDivElement;
  private readonly titleEl: HTMLSpanElement;
  private readonly listEl: HTMLOListElement;
  private readonly moreEl: HTMLDivElement;
  private group: SVGGElement | null = null;
  private previewG: SVGGElement | null = null;
  /** Cells and slots tagged with `data-hint`, to untag them. */
  private tagged: Element[] = [];
  /** What the overlay was drawn from: a redraw only when one of these changes. */
  private drawnData: unknown = undefined;
  private drawnVersion = NaN;
  private drawnGroup: SVGGElement | null = null;
  private drawnKind: unknown = undefined;

  constructor(
    private readonly host: HintHost,
    parent: HTMLElement,
    private readonly get: (name: string) => unknown,
    private readonly set: (name: string, value: unknown) => void,
  ) {
    this.box = html("div", { class: "gw-hints", role: "group", "aria-label": "hints", "data-role": "hint-box" }, undefined, parent);
    const head = html("label", { class: "gw-hints-head" }, undefined, this.box);
    this.titleEl = html("span", { class: "gw-section-title" }, "Hints", head);
    this.select = html("select", {
      class: "gw-select",
      "data-action": "hints",
      "aria-label": "hints",
      title: "Advice on the moves of the player to act, computed in Python",
      "data-lm-suppress-shortcuts": "true",
    }, undefined, head);
    for (const [value, label, title] of KINDS) {
      this.options.set(value, html("option", { value, title }, label, this.select));
    }
    this.statusEl = html("div", { class: "gw-hint-status", "data-role": "hint-status", "aria-live": "polite" }, undefined, this.box);
    this.listEl = html("ol", { class: "gw-hint-list", "data-role": "hints", "aria-label": "hints, best first" }, undefined, this.box);
    this.moreEl = html("div", { class: "gw-hint-more", "aria-hidden": "true" }, undefined, this.box);

    this.select.addEventListener("change", () => this.set("hints", this.select.value));
    this.listEl.addEventListener("pointerover", (ev) => {
      const li = (ev.target as Element | null)?.closest?.("li[data-move]");
      this.preview(li ? li.getAttribute("data-move") ?? "" : "");
    });
    this.listEl.addEventListener("pointerleave", () => this.preview(""));
  }

  /** After the board was (re)built: the overlay group, above the pieces and decorations. */
  attach(group: SVGGElement): void {
    this.group = group;
    this.previewG = null;
    this.tagged = [];
    this.drawnGroup = null;
  }

  /** Redraw from the traits; cheap when neither `hint_data` nor the state changed. */
  /** Redraw; `kinds` are the hint kinds the game offers (Python decides: `state.contract.hint_kinds`). */
  update(s: GameState, kinds: string[]): void {
    const kindTrait = this.get("hints");
    const present = kindTrait !== undefined || this.get("hint_data") !== undefined;
    this.box.hidden = !present;
    const want = typeof kindTrait === "string" ? kindTrait : "";
    for (const [value, opt] of this.options) {
      const offered = value === "" || kinds.includes(value);
      opt.disabled = !offered;
      opt.hidden = !offered;
    }
    if (this.select.value !== want) this.select.value = want;
    // a class poll's overlay is Python's to turn on and off: no selector beside it
    this.select.hidden = want === "poll";
    setText(this.titleEl, want === "poll" ? "Class answers" : "Hints");
    this.box.classList.toggle("is-on", want !== "");

    const raw = this.get("hint_data");
    if (raw === this.drawnData && s.version === this.drawnVersion && this.group === this.drawnGroup && kindTrait === this.drawnKind) return;
    this.drawnData = raw;
    this.drawnVersion = s.version;
    this.drawnGroup = this.group;
    this.drawnKind = kindTrait;

    const data = readHints(raw);
    const current = !!data && data.version === s.version;
    const kindOk = !!data && (kindTrait === undefined || data.kind === want);
    const show = current && kindOk && data!.status === "done";

    // the status line
    let text = "";
    let status = "";
    if (want || (data && kindTrait === undefined && data.kind)) {
      if (!data || !current || !kindOk || data.status === "computing") {
        text = "thinking\u2026";
        status = "computing";
      } else if (data.status === "done") {
        text = data.message;
        status = "done";
      } else if (data.status === "error") {
        text = data.message || "The hints could not be computed.";
        status = "error";
      } else if (data.status === "over") {
        text = data.message || "The game is over: no hints.";
        status = "over";
      } else {
        text = data.message;
        status = data.status;
      }
    }
    setText(this.statusEl, text);
    setAttr(this.statusEl, "data-status", status || null);
    this.statusEl.hidden = !text;
    setAttr(this.box, "data-version", show ? String(data!.version) : null);

    this.draw(s, show ? data! : null);
  }

  private clear(): void {
    for (const el of this.tagged) el.removeAttribute("data-hint");
    this.tagged = [];
    this.group?.replaceChildren();
    this.previewG = null;
    this.listEl.replaceChildren();
    this.listEl.hidden = true;
    this.moreEl.hidden = true;
  }

  private draw(s: GameState, data: HintData | null): void {
    this.clear();
    const g = this.group;
    if (!data || !g) return;
    const host = this.host;
    const cell = host.cell;
    const small = cell < SMALL_CELL;
    const entries = Object.entries(data.moves);
    const maxShare = entries.reduce((m, [, h]) => Math.max(m, h.share), 0) || 1;
    // MCTS and a class poll: the strength of a move's tint is its share (visits, answers)
    const mcts = data.kind !== "solve";
    /** Whether a label is written out (else a dot): always, but on small cells only the leading MCTS moves. */
    const spell = (h: HintMove, tiny: boolean): boolean =>
      !mcts || data.kind === "poll" || !tiny || h.best || h.share >= Math.max(0.02, 0.25 * maxShare);
    const strength = (h: HintMove): number =>
      mcts ? 0.12 + 0.5 * (h.share / maxShare) : h.best ? 0.42 : 0.3;
    const listed: Array<[string, HintMove]> = [];
    g.setAttribute("class", `gw-hints-g${small ? " is-small" : ""}`);
    g.setAttribute("data-kind", data.kind);

    // where each hinted move is: its target (cell, edge), never its notation;
    // moves of several cells (a placement) and moves off the board are listed
    const where = new Map(s.targets.map((x) => [x.move, x]));
    for (const [move, h] of entries) {
      const t = tone(h);
      const target = where.get(move);
      if (target?.kind === "cell" && target.cell) {
        const [r, c] = target.cell;
        const i = r * s.cols + c;
        const el = svg("g", {
          class: `gw-hint tone-${t}${h.best ? " is-best" : ""}`,
          "data-hint": h.label,
          "data-move": move,
          "data-tone": t,
          transform: `translate(${host.x(c) + cell / 2} ${host.y(r) + cell / 2})`,
        }, g);
        const inset = cell >= 24 ? 2.5 : 1.5;
        const side = cell - 2 * inset;
        svg("rect", {
          class: "gw-hint-tint",
          x: -side / 2, y: -side / 2, width: side, height: side,
          rx: Math.max(1.5, Math.min(6, Math.round(cell * 0.12))),
          "fill-opacity": strength(h).toFixed(3),
        }, el);
        if (h.best) {
          const rs = side - (small ? 2 : 3);
          svg("rect", {
            class: "gw-hint-ring",
            x: -rs / 2, y: -rs / 2, width: rs, height: rs,
            rx: Math.max(1.5, Math.min(6, Math.round(cell * 0.12))),
            "stroke-width": small ? 1.5 : 2.25,
          }, el);
        }
        if (spell(h, small)) {
          const len = Math.max(2, h.label.length);
          const fs = Math.max(6.5, Math.min(cell * 0.34, (side * 1.55) / len, 15));
          const text = svg("text", { class: "gw-hint-label", dy: "0.35em", "font-size": fs.toFixed(1) }, el);
          text.textContent = h.label;
        } else {
          svg("circle", { class: "gw-hint-dot", r: (Math.max(1, cell * 0.07) + cell * 0.13 * Math.sqrt(h.share / maxShare)).toFixed(2) }, el);
        }
        const cellEl = host.cellElement(i);
        if (cellEl) {
          cellEl.setAttribute("data-hint", h.label);
          this.tagged.push(cellEl);
        }
        continue;
      }
      if (target?.kind === "edge" && target.edge) {
        // the middle of the line between the two cells (the second may lie off the board)
        const [[r1, c1], [r2, c2]] = target.edge;
        const cx = (host.x(c1) + host.x(c2)) / 2 + cell / 2;
        const cy = (host.y(r1) + host.y(r2)) / 2 + cell / 2;
        const el = svg("g", {
          class: `gw-hint gw-hint-edge tone-${t}${h.best ? " is-best" : ""}`,
          "data-hint": h.label,
          "data-move": move,
          "data-tone": t,
          transform: `translate(${cx.toFixed(1)} ${cy.toFixed(1)})`,
        }, g);
        if (spell(h, true)) {
          const fs = Math.max(6.5, Math.min(cell * 0.22, 11));
          const w = Math.max(cell * 0.5, fs * 0.62 * h.label.length + fs * 0.9);
          const ht = fs * 1.45;
          svg("rect", { class: "gw-hint-pill", x: -w / 2, y: -ht / 2, width: w, height: ht, rx: ht / 2 }, el);
          const text = svg("text", { class: "gw-hint-label", dy: "0.35em", "font-size": fs.toFixed(1) }, el);
          text.textContent = h.label;
        } else {
          svg("circle", { class: "gw-hint-pill", r: (Math.max(2, cell * 0.06) + cell * 0.08 * Math.sqrt(h.share / maxShare)).toFixed(2) }, el);
        }
        const slot = host.svg.querySelector(`[data-edge="${cssEscape(move)}"]`);
        if (slot) {
          slot.setAttribute("data-hint", h.label);
          this.tagged.push(slot);
        }
        continue;
      }
      listed.push([move, h]);
    }

    if (listed.length) {
      const sorted = order(data.kind, listed);
      for (const [move, h] of sorted.slice(0, LIST_TOP)) {
        const t = tone(h);
        const li = html("li", {
          class: `gw-hint-item tone-${t}${h.best ? " is-best" : ""}`,
          "data-move": move,
          "data-hint": h.label,
          "data-tone": t,
          title: `${move}: ${h.label}${data.kind === "mcts" ? ` (value ${h.value >= 0 ? "+" : ""}${h.value.toFixed(2)})` : ""}`,
        }, undefined, this.listEl);
        html("span", { class: "gw-hint-move" }, move, li);
        const bar = html("span", { class: "gw-hint-bar", "aria-hidden": "true" }, undefined, li);
        const fill = html("span", { class: "gw-hint-fill" }, undefined, bar);
        fill.style.width = `${Math.round(100 * (mcts ? h.share / maxShare : h.value > 0 ? 1 : h.value < 0 ? 0.15 : 0.5))}%`;
        html("span", { class: "gw-hint-tag" }, h.label, li);
      }
      this.listEl.hidden = false;
      const rest = sorted.length - LIST_TOP;
      setText(this.moreEl, rest > 0 ? `and ${rest} more move${rest === 1 ? "" : "s"}` : "");
      this.moreEl.hidden = rest <= 0;
    }
  }

  /** Outline the cells a listed move names (a Block Four placement), or nothing for "". */
  private preview(move: string): void {
    const g = this.group;
    if (!g) return;
    if (this.previewG && this.previewG.getAttribute("data-move") === move) return;
    this.previewG?.remove();
    this.previewG = null;
    if (!move) return;
    const cells = [...move.matchAll(CELLS_RE)].map((m) => this.host.index(m[0])).filter((i) => i >= 0);
    if (!cells.length) return;
    const s = this.host.state;
    const cell = this.host.cell;
    const pg = svg("g", { class: "gw-hint-preview", "data-move": move }, g);
    for (const i of cells) {
      svg("rect", {
        x: this.host.x(i % s.cols) + 2, y: this.host.y(Math.floor(i / s.cols)) + 2,
        width: cell - 4, height: cell - 4, rx: Math.max(2, Math.min(6, Math.round(cell * 0.12))),
        "data-preview-cell": this.host.notation(Math.floor(i / s.cols), i % s.cols),
      }, pg);
    }
    this.previewG = pg;
  }

  destroy(): void {
    this.clear();
    this.box.remove();
  }
}

function cssEscape(v: string): string {
  return v.replace(/["\\]/g, "\\$&");
}
