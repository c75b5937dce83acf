// The board of the grid view: the SVG grid of cells with labels, the pieces,
// keyboard focus, legal and forbidden marks and the last move. It is the
// `Board` the game layers draw on and the host of the hints overlay.
//
// Built once per board size, then updated in place on every state: only the
// attributes and texts that changed are touched, so a 20x20 board redraws a
// move in well under a millisecond.

import { html, setAttr, setText, svg } from "./dom";
import { playerClass, type Board, type GameLayer } from "./games/layer";
import type { HintHost } from "./hints";
import type { GameState } from "./types";

/** Largest board side in CSS px (the view scales down further with its column). */
const MAX_BOARD_PX = 480;
const MAX_CELL = 60;
const MIN_CELL = 12;
/** The smallest board label, in CSS px, however small the board is shown. */
const MIN_LABEL_PX = 12;
const PAD = 2;

// Bits of a cell's flags, to touch its classes only when they change.
const F_LEGAL = 1;
const F_FORBIDDEN = 2;
const F_EMPTY = 4;
const F_LAST = 8;

export const BOARD_HINT = "Click a cell to play. Keys: arrows move, Enter plays, U undo, R redo";

/** What the board needs of the view around it. */
export interface BoardHost {
  readonly uid: string;
  readonly panel: HTMLElement;
  current(): GameState | null;
  send(intent: { type: string; [key: string]: unknown }): void;
  trait(name: string): unknown;
  setTrait(name: string, value: unknown): void;
}

export class BoardView implements Board, HintHost {
  /** The focusable element holding the SVG. */
  readonly el: HTMLDivElement;
  svg!: SVGSVGElement;
  defs!: SVGDefsElement;
  under!: SVGGElement;
  over!: SVGGElement;
  /** The group the hints overlay draws in (rebuilt with the board). */
  hintsGroup!: SVGGElement;
  private piecesG!: SVGGElement;
  private lastG!: SVGGElement;
  private focusRect!: SVGGElement;
  private cellEls: SVGGElement[] = [];
  private titleEls: SVGTitleElement[] = [];
  private pieceEls: SVGGElement[] = [];
  private pieceKeys: string[] = [];
  private flags: number[] = [];
  /** The mover's colour class on each legal cell ("" elsewhere). */
  private cellMover: string[] = [];
  /** The cell painted before Python's answer (-1: none). */
  private pendingIdx = -1;
  /** The row and column labels, their size at full scale, the room they have, the board's width (user units). */
  private labelEls: SVGTextElement[] = [];
  private labelFs = 0;
  private labelRoom = 0;
  private viewW = 0;
  private resize: ResizeObserver | null = null;
  private byNotation = new Map<string, number>();
  rows = 0;
  cols = 0;
  cell = 0;
  private ox = 0;
  private oy = 0;
  private focusIdx = -1;

  constructor(private readonly host: BoardHost, parent: HTMLElement) {
    this.el = html("div", {
      class: "gw-board",
      tabindex: 0,
      role: "grid",
      "aria-label": "board",
      "data-lm-suppress-shortcuts": "true",
      title: BOARD_HINT,
    }, undefined, parent);
  }

  // ---- the Board interface of the layers -------------------------------------------------

  get state(): GameState {
    const s = this.host.current();
    if (!s) throw new Error("gridwidgets: no state yet");
    return s;
  }

  get uid(): string {
    return this.host.uid;
  }

  get panel(): HTMLElement {
    return this.host.panel;
  }

  get focusIndex(): number {
    return this.focusIdx;
  }

  x(col: number): number {
    return this.ox + col * this.cell;
  }

  y(row: number): number {
    return this.oy + row * this.cell;
  }

  index(notation: string): number {
    return this.byNotation.get(notation.toUpperCase()) ?? -1;
  }

  notation(row: number, col: number): string {
    const s = this.host.current();
    if (!s) return "";
    return `${s.col_labels[col] ?? "?"}${s.row_labels[row] ?? "?"}`;
  }

  send(intent: { type: string; [key: string]: unknown }): void {
    this.host.send(intent);
  }

  trait(name: string): unknown {
    return this.host.trait(name);
  }

  setTrait(name: string, value: unknown): void {
    this.host.setTrait(name, value);
  }

  cellElement(i: number): SVGGElement | undefined {
    return this.cellEls[i];
  }

  // ---- focus --------------------------------------------------------------------------

  setFocus(i: number): void {
    this.focusIdx = i;
    const s = this.host.current();
    if (!s || !this.focusRect) return;
    const r = Math.floor(i / s.cols);
    const c = i % s.cols;
    setAttr(this.focusRect, "transform", `translate(${this.x(c)} ${this.y(r)})`);
    const cellEl = this.cellEls[i];
    if (cellEl) setAttr(this.el, "aria-activedescendant", cellEl.id);
  }

  // ---- building -----------------------------------------------------------------------

  /** Build the board for a size (and labels on or off). */
  build(s: GameState, showLabels: boolean, layer: GameLayer): void {
    const { rows, cols } = s;
    const n = Math.max(rows, cols);
    const maxPx = layer.boardPx ?? (s.contract.board_px || MAX_BOARD_PX);
    const rough = Math.floor((maxPx - 2 * PAD - 20) / n);
    const margin = showLabels ? (rough >= 30 ? 22 : 18) : 0;
    const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor((maxPx - 2 * PAD - margin) / n)));
    this.rows = rows;
    this.cols = cols;
    this.cell = cell;
    this.ox = PAD + margin;
    this.oy = PAD + margin;
    const width = this.ox + cols * cell + PAD;
    const height = this.oy + rows * cell + PAD;
    const radius = Math.min(8, Math.round(cell * 0.14));
    const uid = this.host.uid;

    const root = svg("svg", { class: "gw-svg", viewBox: `0 0 ${width} ${height}`, width, height, "aria-hidden": null });
    root.style.setProperty("--gw-cell", `${cell}px`);
    const defs = svg("defs", {}, root);
    const hatch = svg("pattern", {
      id: `${uid}-hatch`, width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)",
    }, defs);
    svg("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "gw-hatch-line" }, hatch);
    const frame = { x: this.ox - 1, y: this.oy - 1, width: cols * cell + 2, height: rows * cell + 2, rx: radius + 1 };
    this.labelEls = [];
    this.viewW = width;
    if (showLabels) {
      const labels = svg("g", { class: "gw-labels", "aria-hidden": "true" }, root);
      const fs = Math.max(9, Math.min(12, Math.round(cell * 0.42)));
      this.labelFs = fs;
      this.labelRoom = Math.min(margin + 2 * PAD, cell);  // (the svg shows what overflows into its padding)
      s.col_labels.forEach((label, c) => {
        const t = svg("text", { x: this.x(c) + cell / 2, y: this.oy - margin / 2, "font-size": fs, dy: "0.35em" }, labels);
        t.textContent = label;
        this.labelEls.push(t);
      });
      s.row_labels.forEach((label, r) => {
        const t = svg("text", { x: this.ox - margin / 2, y: this.y(r) + cell / 2, "font-size": fs, dy: "0.35em" }, labels);
        t.textContent = label;
        this.labelEls.push(t);
      });
    }

    svg("rect", { class: "gw-frame", ...frame }, root);
    const cellsG = svg("g", { class: "gw-cells" }, root);
    const gap = cell >= 24 ? 1.5 : 1;
    const tileR = Math.max(1.5, Math.min(6, Math.round(cell * 0.12)));
    this.cellEls = [];
    this.titleEls = [];
    this.byNotation = new Map();
    for (let r = 0; r < rows; r++) {
      const rowG = svg("g", { role: "row" }, cellsG);
      for (let c = 0; c < cols; c++) {
        const name = `${s.col_labels[c]}${s.row_labels[r]}`;
        const i = r * cols + c;
        const g = svg("g", { class: "gw-cell", id: `${uid}-c${i}`, "data-cell": name, role: "gridcell", "aria-label": name }, rowG);
        // The whole cell is the hit target; the visible tile is inset from it.
        svg("rect", { class: "gw-hit", x: this.x(c), y: this.y(r), width: cell, height: cell }, g);
        const tile = { x: this.x(c) + gap, y: this.y(r) + gap, width: cell - 2 * gap, height: cell - 2 * gap, rx: tileR };
        svg("rect", { class: "gw-bg", ...tile }, g);
        svg("rect", { class: "gw-forb", ...tile, fill: `url(#${uid}-hatch)` }, g);
        svg("circle", { class: "gw-dot", cx: this.x(c) + cell / 2, cy: this.y(r) + cell / 2, r: Math.max(2, Math.min(5, Math.round(cell * 0.12 * 2) / 2)) }, g);
        this.titleEls.push(svg("title", {}, g));
        this.cellEls.push(g);
        this.byNotation.set(name.toUpperCase(), i);
      }
    }

    this.under = svg("g", { class: "gw-under" }, root);
    this.piecesG = svg("g", { class: "gw-pieces", "aria-hidden": "true" }, root);
    this.pieceEls = [];
    this.pieceKeys = [];
    this.flags = [];
    this.cellMover = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        this.pieceEls.push(svg("g", { transform: `translate(${this.x(c) + cell / 2} ${this.y(r) + cell / 2})` }, this.piecesG));
        this.pieceKeys.push("");
        this.flags.push(-1);
        this.cellMover.push("");
      }
    }
    this.lastG = svg("g", { class: "gw-last", "aria-hidden": "true" }, root);
    this.over = svg("g", { class: "gw-over-layer" }, root);
    // the hints overlay: above the pieces and the game's decorations, never taking a click
    this.hintsGroup = svg("g", { class: "gw-hints-g", "aria-hidden": "true" }, root);
    // Keyboard focus: a ring in the brand colour with a thin halo inside it,
    // drawn around the tile so it never hides the last-move outline.
    this.focusRect = svg("g", { class: "gw-focus", "aria-hidden": "true" }, root);
    const ring = { width: cell - 1, height: cell - 1, rx: tileR + 1.5 };
    svg("rect", { class: "gw-focus-ring", x: 0.5, y: 0.5, ...ring }, this.focusRect);
    svg("rect", { class: "gw-focus-halo", x: 2.25, y: 2.25, width: cell - 4.5, height: cell - 4.5, rx: tileR }, this.focusRect);

    this.svg = root;
    this.defs = defs;
    this.el.replaceChildren(root);
    this.el.style.setProperty("--gw-board-w", `${width}px`);
    this.watchSize();
    setAttr(this.el, "aria-label", layer.title?.(s) ?? `${s.game || "game"} board, ${rows} by ${cols}`);
    setAttr(this.el, "title", layer.hint ?? BOARD_HINT);
    setAttr(this.el, "aria-rowcount", String(rows));
    setAttr(this.el, "aria-colcount", String(cols));

    const n2 = rows * cols;
    const first = s.last_cells[0];
    const start = first ? first[0] * cols + first[1] : -1;
    this.focusIdx = this.focusIdx >= 0 && this.focusIdx < n2 ? this.focusIdx : start >= 0 ? start : 0;
    this.setFocus(this.focusIdx);
    layer.build?.(this);
  }

  /**
   * The board shrinks with its column (a phone): its labels grow in user units
   * so that they stay 12 CSS px at least (WCAG 1.4.4), within the margin
   * they have.
   */
  private watchSize(): void {
    if (!this.resize && typeof ResizeObserver !== "undefined") {
      this.resize = new ResizeObserver(() => this.fitLabels());
      this.resize.observe(this.el);
    }
    this.fitLabels();
  }

  private fitLabels(): void {
    if (!this.svg) return;
    const shown = this.svg.getBoundingClientRect().width;
    if (!(shown > 0) || !(this.viewW > 0)) return;
    const scale = shown / this.viewW;
    // the board's scale, for text drawn later in the board (a field's name: `.gw-region-label`)
    this.svg.style.setProperty("--gw-board-scale", scale.toFixed(4));
    if (!this.labelEls.length) return;
    // a page may ask for bigger labels (a projector: 24 px, a phone: 14 px) with --gw-min-label
    const least = Math.max(MIN_LABEL_PX, this.askedLabelPx());
    const fs = Math.min(this.labelRoom, Math.max(this.labelFs, least / scale));
    const value = fs.toFixed(1);
    if (this.labelEls[0]!.getAttribute("font-size") === value) return;
    for (const t of this.labelEls) t.setAttribute("font-size", value);
  }

  /** The least label size the page asks for (`--gw-min-label`, any CSS length), in CSS px; 0: none. */
  private askedLabelPx(): number {
    const raw = getComputedStyle(this.el).getPropertyValue("--gw-min-label").trim();
    if (!raw) return 0;
    if (/^[0-9.]+px$/.test(raw)) return parseFloat(raw);
    const probe = document.createElement("span");  // a length such as min(100vh / 45, ...): measured
    probe.style.cssText = "position:absolute;visibility:hidden;height:0;width:var(--gw-min-label)";
    this.el.appendChild(probe);
    const px = probe.getBoundingClientRect().width;
    probe.remove();
    return Number.isFinite(px) ? px : 0;
  }

  /** Stop watching the board's size (the view is gone). */
  destroy(): void {
    this.resize?.disconnect();
    this.resize = null;
  }

  // ---- updating -----------------------------------------------------------------------

  private lastCells(s: GameState): number[] {
    // what the picture outlines (Python's scene), never read from the move's notation
    const n = s.rows * s.cols;
    return s.last_cells.map(([r, c]) => r * s.cols + c).filter((i) => i >= 0 && i < n);
  }

  /**
   * Paint cell `i` as `predicted` has it, before Python's answer (a click's
   * optimistic paint); the next `update` repaints the cell from the true state,
   * confirming or rolling back.
   */
  paintPending(predicted: GameState, i: number, layer: GameLayer): void {
    const g = this.pieceEls[i];
    if (!g) return;
    g.replaceChildren();
    layer.drawPiece?.(g, predicted, i, this.cell);
    g.classList.add("gw-pending");
    this.pieceKeys[i] = "\u0002pending";
    this.pendingIdx = i;
  }

  /** Bring the cells, pieces, marks and last-move outline up to the state. */
  update(s: GameState, layer: GameLayer, showForbidden: boolean, showLegal: boolean): void {
    if (this.pendingIdx >= 0) {
      this.pieceEls[this.pendingIdx]?.classList.remove("gw-pending");
      this.pendingIdx = -1;
    }
    // the legal cells: the layer's, or the cells of the legal moves' targets (never their notation)
    const targetCells = (): string[] => s.targets.filter((t) => t.kind === "cell" && t.cell)
      .map((t) => `${s.col_labels[t.cell![1]]}${s.row_labels[t.cell![0]]}`);
    const legal = new Set((layer.legalCells ? layer.legalCells(s) : targetCells()).map((m) => m.toUpperCase()));
    const forbidden = new Set(s.forbidden.map((m) => m.toUpperCase()));
    this.el.classList.toggle("gw-show-forbidden", showForbidden);
    this.el.classList.toggle("gw-show-legal", showLegal);
    // The legal highlight takes the mover's colour. The colour class goes on
    // the legal cells only: on the board root it would restyle every cell of
    // a 20x20 board on every move.
    const mover = s.current_player !== null && !s.is_over ? playerClass(s.current_player) : "";
    let empties = 0;
    let legalEmpties = 0;
    const last = this.lastCells(s);
    const lastSet = new Set(last);
    const rule = s.forbidden_rule ? ` (${s.forbidden_rule})` : "";
    const n = s.rows * s.cols;

    for (let i = 0; i < n; i++) {
      const text = s.cells[i] ?? "";
      const owner = s.owners[i] ?? -1;
      const empty = text === "" && owner < 0;
      const key = layer.pieceKey ? layer.pieceKey(s, i) : `${text}\u0001${owner}`;
      const pieceG = this.pieceEls[i]!;
      if (key !== this.pieceKeys[i]) {
        pieceG.replaceChildren();
        if (!empty || layer.pieceKey) layer.drawPiece?.(pieceG, s, i, this.cell);
        this.pieceKeys[i] = key;
      }

      const cellEl = this.cellEls[i]!;
      const name = cellEl.getAttribute("data-cell") ?? "";
      const isLegal = legal.has(name);
      const isForbidden = forbidden.has(name);
      if (empty) {
        empties += 1;
        if (isLegal) legalEmpties += 1;
      }
      const flags = (isLegal ? F_LEGAL : 0) | (isForbidden ? F_FORBIDDEN : 0) | (empty ? F_EMPTY : 0) | (lastSet.has(i) ? F_LAST : 0);
      if (flags !== this.flags[i]) {
        cellEl.classList.toggle("is-legal", isLegal);
        cellEl.classList.toggle("is-forbidden", isForbidden);
        cellEl.classList.toggle("is-empty", empty);
        cellEl.classList.toggle("is-last", lastSet.has(i));
        this.flags[i] = flags;
      }
      const moverCls = isLegal ? mover : "";
      if (moverCls !== this.cellMover[i]) {
        if (this.cellMover[i]) cellEl.classList.remove(this.cellMover[i]!);
        if (moverCls) cellEl.classList.add(moverCls);
        this.cellMover[i] = moverCls;
      }

      // "B2, X" / "B2, empty" / "B2, empty, forbidden (GL-3)"; the last move is
      // said in aria-description so the label always ends with the content.
      let label = `${name}, ${(layer.describe ?? defaultDescribe)(s, i) || "empty"}`;
      if (isForbidden && showForbidden) label += `, forbidden${rule}`;
      const isLast = lastSet.has(i);
      setAttr(cellEl, "aria-label", label);
      setAttr(cellEl, "aria-description", isLast ? "last move" : null);
      setText(this.titleEls[i]!, isLast ? `${label} (last move)` : label);
    }

    // Last move outline(s): a small pool of rects.
    const pool = this.lastG.children;
    last.forEach((i, k) => {
      let rect = pool[k] as SVGRectElement | undefined;
      if (!rect) {
        rect = svg("rect", { width: this.cell - 4, height: this.cell - 4, rx: Math.max(2, Math.min(6, Math.round(this.cell * 0.12))) }, this.lastG);
      }
      const r = Math.floor(i / s.cols);
      const c = i % s.cols;
      setAttr(rect, "x", String(this.x(c) + 2));
      setAttr(rect, "y", String(this.y(r) + 2));
      setAttr(rect, "class", `gw-last-rect ${playerClass(s.owners[i] ?? -1)}`);
    });
    while (pool.length > last.length) pool[pool.length - 1]!.remove();

    // Every open cell legal (an opening, a free placement): a light tint, no dots.
    this.el.classList.toggle("gw-legal-open", empties > 1 && legalEmpties === empties);

    if (this.focusIdx >= n) this.setFocus(0);
  }
}

function defaultDescribe(s: GameState, i: number): string {
  return s.cells[i] ?? "";
}
