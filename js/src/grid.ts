// The shared grid view of every gridwidgets game (docs/frontend.md).
//
// Built once per board size, then updated in place on every `change:state`:
// only the attributes and texts that changed are touched, so a 20x20 board
// redraws a move in well under a millisecond. The browser never decides
// legality: every click and key sends an intent, Python answers with a new
// `state`.

import type { AnyModel } from "@anywidget/types";
import { html, mediaIcon, robotIcon, setAttr, setText, shortAgent, svg, uid } from "./dom";
import { layerFor, playerClass, type GameLayer } from "./games/layer";
import { HintsView, type HintHost } from "./hints";
import type { GameState, Intent, WidgetTraits } from "./types";

/** Largest board side in CSS px (the view scales down further with its column). */
const MAX_BOARD_PX = 480;
/** The agents' speed setting (the `delay` trait), ms. */
const MAX_DELAY = 2000;
const DEFAULT_DELAY = 400;
const MAX_CELL = 60;
const MIN_CELL = 12;
const PAD = 2;

// Bits of a cell's flags, to touch its classes only when they change.
const F_LEGAL = 1;
const F_FORBIDDEN = 2;
const F_EMPTY = 4;
const F_LAST = 8;

const BOARD_HINT = "Click a cell to play. Keys: arrows move, Enter plays, U undo, R redo";

const KEYS_HANDLED_BY_WIDGET = new Set([
  "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", "Enter", " ",
]);

function isState(s: unknown): s is GameState {
  if (!s || typeof s !== "object") return false;
  const o = s as Partial<GameState>;
  return typeof o.rows === "number" && typeof o.cols === "number" && o.rows > 0 && o.cols > 0;
}

/** Fill the keys a (possibly older or partial) state lacks, so drawing never throws. */
function normalise(raw: GameState): GameState {
  const n = raw.rows * raw.cols;
  const letters = (c: number): string => {
    let s = "";
    for (let x = c + 1; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
    return s;
  };
  return {
    ...raw,
    game: raw.game ?? "",
    version: raw.version ?? 0,
    col_labels: raw.col_labels?.length === raw.cols ? raw.col_labels : Array.from({ length: raw.cols }, (_, c) => letters(c)),
    row_labels: raw.row_labels?.length === raw.rows ? raw.row_labels : Array.from({ length: raw.rows }, (_, r) => String(r + 1)),
    players: raw.players ?? [],
    current_player: raw.current_player ?? null,
    cells: raw.cells ?? Array<string>(n).fill(""),
    owners: raw.owners ?? Array<number>(n).fill(-1),
    legal: raw.legal ?? [],
    forbidden: raw.forbidden ?? [],
    forbidden_rule: raw.forbidden_rule ?? "",
    last_move: raw.last_move ?? null,
    history: raw.history ?? [],
    future: raw.future ?? [],
    is_over: !!raw.is_over,
    winners: raw.winners ?? [],
    status: raw.status ?? "",
    message: raw.message ?? "",
    message_kind: raw.message_kind ?? "",
    extra: raw.extra && typeof raw.extra === "object" ? raw.extra : {},
    seats: Array.isArray(raw.seats) ? raw.seats.map((x) => (typeof x === "string" ? x : "")) : [],
    agent_to_move: raw.agent_to_move === true,
  };
}

export class GridView implements HintHost {
  readonly root: HTMLDivElement;
  readonly uid = uid("gw");
  private readonly model: AnyModel<WidgetTraits>;
  private current: GameState | null = null;
  private layer: GameLayer = layerFor("");
  private buildKey = "";

  // Board (rebuilt per size)
  private readonly boardEl: HTMLDivElement;
  svg!: SVGSVGElement;
  defs!: SVGDefsElement;
  under!: SVGGElement;
  over!: SVGGElement;
  private piecesG!: SVGGElement;
  private lastG!: SVGGElement;
  private focusRect!: SVGGElement;
  /** The hints overlay (hints.ts): its board group is rebuilt with the board. */
  private readonly hints: HintsView;
  private cellEls: SVGGElement[] = [];
  private titleEls: SVGTitleElement[] = [];
  private pieceEls: SVGGElement[] = [];
  private pieceKeys: string[] = [];
  private flags: number[] = [];
  private byNotation = new Map<string, number>();
  rows = 0;
  cols = 0;
  cell = 0;
  private ox = 0;
  private oy = 0;
  private focusIdx = -1;
  /** The cell last reported to the layer's `point` hook (-1: none). */
  private pointedIdx = -1;

  // Side bar (built once)
  private readonly statusEl: HTMLDivElement;
  private readonly turnEl: HTMLSpanElement;
  private readonly statusText: HTMLSpanElement;
  private readonly agentTag: HTMLSpanElement;
  private readonly eventsEl: HTMLUListElement;
  private eventsKey = "";
  private readonly messageEl: HTMLDivElement;
  private readonly buttons: Record<"undo" | "redo" | "new" | "toggle-forbidden" | "toggle-legal", HTMLButtonElement>;
  /** The mover's colour class on each legal cell ("" elsewhere). */
  private cellMover: string[] = [];

  // Agents (shown when a seat holds an agent)
  private readonly agentsEl: HTMLDivElement;
  private readonly stepBtn: HTMLButtonElement;
  private readonly playBtn: HTMLButtonElement;
  private readonly speed: HTMLInputElement;
  private readonly speedText: HTMLSpanElement;
  private readonly seatsEl: HTMLUListElement;
  private seatsKey = "";
  private speedDragging = false;
  private agentTimer: ReturnType<typeof setTimeout> | null = null;
  private agentTimerVersion = -1;
  private agentSentVersion = -1;
  private readonly range: HTMLInputElement;
  private readonly posEl: HTMLSpanElement;
  private readonly movesEl: HTMLOListElement;
  private moveItems: HTMLLIElement[] = [];
  private shownIndex = -1;
  readonly panel: HTMLDivElement;
  private dragging = false;

  private readonly cleanups: Array<() => void> = [];
  /** Listeners of the layer's own traits (`GameLayer.traits`), per layer. */
  private traitOffs: Array<() => void> = [];

  constructor(model: AnyModel<WidgetTraits>, el: HTMLElement) {
    this.model = model;
    this.root = html("div", { class: "gw-root", "data-lm-suppress-shortcuts": "true" });

    this.boardEl = html("div", {
      class: "gw-board",
      tabindex: 0,
      role: "grid",
      "aria-label": "board",
      "data-lm-suppress-shortcuts": "true",
      title: BOARD_HINT,
    }, undefined, this.root);

    const side = html("div", { class: "gw-side" }, undefined, this.root);
    const head = html("div", { class: "gw-head" }, undefined, side);
    this.statusEl = html("div", { class: "gw-status", "data-role": "status", "aria-live": "polite" }, undefined, head);
    this.turnEl = html("span", { class: "gw-turn", "aria-hidden": "true" }, undefined, this.statusEl);
    this.statusText = html("span", { class: "gw-status-text" }, undefined, this.statusEl);
    this.agentTag = html("span", { class: "gw-agent-tag gw-agent-now", "data-role": "agent-to-move", hidden: true }, undefined, head);
    this.eventsEl = html("ul", { class: "gw-events", "data-role": "events", "aria-live": "polite", "aria-label": "what the last move caused" }, undefined, side);
    this.messageEl = html("div", { class: "gw-message", "data-role": "message", role: "status", "aria-live": "polite" }, undefined, side);
    this.panel = html("div", { class: "gw-panel" }, undefined, side);

    const controls = html("div", { class: "gw-controls", role: "toolbar", "aria-label": "game controls" }, undefined, side);
    const button = (action: string, label: string, icon: string, title: string): HTMLButtonElement => {
      const b = html("button", { type: "button", class: "gw-btn", "data-action": action, title, "data-lm-suppress-shortcuts": "true" }, undefined, controls);
      html("span", { class: "gw-icon", "aria-hidden": "true" }, icon, b);
      html("span", { class: "gw-label" }, label, b);
      return b;
    };
    this.buttons = {
      undo: button("undo", "Undo", "\u21B6", "Undo the last move (U)"),
      redo: button("redo", "Redo", "\u21B7", "Redo the next move (R)"),
      new: button("new", "New game", "\u21BA", "Start a new game with the same options"),
      "toggle-forbidden": button("toggle-forbidden", "Forbidden", "\u2298", "Show the cells the player to move may not use"),
      "toggle-legal": button("toggle-legal", "Legal moves", "\u2022", "Highlight the legal moves of the player to move"),
    };
    for (const t of ["toggle-forbidden", "toggle-legal"] as const) {
      this.buttons[t].classList.add("gw-toggle");
      this.buttons[t].setAttribute("aria-pressed", "false");
    }

    // Hints: the selector (the `hints` trait), its status line and the list of moves that are not one cell.
    this.hints = new HintsView(this, side, (name) => this.trait(name), (name, value) => this.setTrait(name, value));

    // Agents: step, play / pause and the speed (the `playing` and `delay` traits).
    this.agentsEl = html("div", { class: "gw-agents", role: "group", "aria-label": "agents", "data-role": "agents", hidden: true }, undefined, side);
    const agentsHead = html("div", { class: "gw-agents-head" }, undefined, this.agentsEl);
    const agentsTitle = html("span", { class: "gw-section-title" }, undefined, agentsHead);
    agentsTitle.appendChild(robotIcon());
    agentsTitle.appendChild(document.createTextNode("Agents"));
    this.seatsEl = html("ul", { class: "gw-seats", "aria-label": "agent seats" }, undefined, this.agentsEl);
    const agentRow = html("div", { class: "gw-agents-row" }, undefined, this.agentsEl);
    const agentButton = (action: "step" | "play", label: string, title: string): HTMLButtonElement => {
      const b = html("button", { type: "button", class: "gw-btn", "data-action": action, title, "data-lm-suppress-shortcuts": "true" }, undefined, agentRow);
      html("span", { class: "gw-icon", "aria-hidden": "true" }, undefined, b).appendChild(mediaIcon(action));
      html("span", { class: "gw-label" }, label, b);
      return b;
    };
    this.stepBtn = agentButton("step", "Step", "The agent to move plays one move");
    this.playBtn = agentButton("play", "Play", "Agents move by themselves");
    this.playBtn.classList.add("gw-play");
    const speedBox = html("label", { class: "gw-speed", title: "How long an agent waits before its move" }, undefined, this.agentsEl);
    html("span", { class: "gw-speed-end" }, "fast", speedBox);
    this.speed = html("input", {
      type: "range",
      class: "gw-range gw-speed-range",
      min: 0,
      max: MAX_DELAY,
      step: 50,
      value: DEFAULT_DELAY,
      "data-action": "speed",
      "aria-label": "agent delay in milliseconds",
      "data-lm-suppress-shortcuts": "true",
    }, undefined, speedBox);
    html("span", { class: "gw-speed-end" }, "slow", speedBox);
    this.speedText = html("span", { class: "gw-speed-ms", "aria-hidden": "true" }, "", speedBox);

    const hist = html("div", { class: "gw-history" }, undefined, side);
    const histHead = html("div", { class: "gw-history-head" }, undefined, hist);
    html("span", { class: "gw-history-title" }, "History", histHead);
    this.posEl = html("span", { class: "gw-pos", "aria-hidden": "true" }, "", histHead);
    this.range = html("input", {
      type: "range",
      class: "gw-range",
      min: 0,
      max: 0,
      step: 1,
      value: 0,
      "data-action": "seek",
      "aria-label": "position in the game history",
      "data-lm-suppress-shortcuts": "true",
    }, undefined, hist);
    this.movesEl = html("ol", { class: "gw-moves", "aria-label": "moves" }, undefined, hist);

    el.appendChild(this.root);
    this.listen();
    this.update();
  }

  // ---- Board interface for layers -------------------------------------------------------

  get state(): GameState {
    if (!this.current) throw new Error("gridwidgets: no state yet");
    return this.current;
  }

  x(col: number): number {
    return this.ox + col * this.cell;
  }

  y(row: number): number {
    return this.oy + row * this.cell;
  }

  get focusIndex(): number {
    return this.focusIdx;
  }

  index(notation: string): number {
    return this.byNotation.get(notation.toUpperCase()) ?? -1;
  }

  notation(row: number, col: number): string {
    const s = this.current;
    if (!s) return "";
    return `${s.col_labels[col] ?? "?"}${s.row_labels[row] ?? "?"}`;
  }

  send(intent: Intent | { type: string; [key: string]: unknown }): void {
    this.model.send(intent);
  }

  cellElement(i: number): SVGGElement | undefined {
    return this.cellEls[i];
  }

  trait(name: string): unknown {
    return (this.model as unknown as AnyModel<Record<string, unknown>>).get(name);
  }

  setTrait(name: string, value: unknown): void {
    const m = this.model as unknown as AnyModel<Record<string, unknown>>;
    m.set(name, value);
    m.save_changes();
  }

  /** Redraw when one of the layer's own traits changes. */
  private listenLayerTraits(): void {
    for (const off of this.traitOffs.splice(0)) off();
    const m = this.model as unknown as AnyModel<Record<string, unknown>>;
    for (const t of this.layer.traits ?? []) {
      const fn = (): void => this.update();
      m.on(`change:${t}`, fn);
      this.traitOffs.push(() => m.off(`change:${t}`, fn));
    }
  }

  // ---- events -------------------------------------------------------------------------

  private on<K extends keyof HTMLElementEventMap>(
    target: HTMLElement, type: K, fn: (ev: HTMLElementEventMap[K]) => void,
  ): void {
    target.addEventListener(type, fn as EventListener);
    this.cleanups.push(() => target.removeEventListener(type, fn as EventListener));
  }

  private listen(): void {
    const onState = (): void => this.update();
    const onForbidden = (): void => this.update();
    const onAgents = (): void => {
      // a new speed restarts the clock of the pending move
      this.cancelTimer();
      if (this.current) this.updateAgents(this.current);
      this.schedule();
    };
    this.model.on("change:state", onState);
    this.model.on("change:show_forbidden", onForbidden);
    this.model.on("change:show_labels", onState);
    this.model.on("change:show_legal", onForbidden);
    this.model.on("change:playing", onAgents);
    this.model.on("change:delay", onAgents);
    const onHints = (): void => this.updateHints();
    this.model.on("change:hints", onHints);
    this.model.on("change:hint_data", onHints);
    this.cleanups.push(() => {
      this.model.off("change:hints", onHints);
      this.model.off("change:hint_data", onHints);
      this.model.off("change:state", onState);
      this.model.off("change:show_forbidden", onForbidden);
      this.model.off("change:show_labels", onState);
      this.model.off("change:show_legal", onForbidden);
      this.model.off("change:playing", onAgents);
      this.model.off("change:delay", onAgents);
    });

    this.on(this.boardEl, "click", (ev) => {
      const target = ev.target as Element | null;
      const cellEl = target?.closest?.("[data-cell]");
      if (!cellEl || !this.boardEl.contains(cellEl)) return;
      const i = this.index(cellEl.getAttribute("data-cell") ?? "");
      if (i < 0) return;
      this.setFocus(i);
      this.pointAt(i);
      this.activate(i);
    });
    this.on(this.boardEl, "pointerdown", () => this.boardEl.classList.remove("gw-kbd"));
    // The cell pointed at, for layers that preview a move (Block Four's shapes).
    this.on(this.boardEl, "pointermove", (ev) => {
      if (!this.layer.point) return;
      const cellEl = (ev.target as Element | null)?.closest?.("[data-cell]");
      if (!cellEl || !this.boardEl.contains(cellEl)) return;
      this.pointAt(this.index(cellEl.getAttribute("data-cell") ?? ""));
    });
    this.on(this.boardEl, "pointerleave", () => this.pointAt(-1));
    this.on(this.boardEl, "focus", () => {
      if (this.boardEl.matches(":focus-visible")) {
        this.boardEl.classList.add("gw-kbd");
        this.pointAt(this.focusIdx);
      }
    });
    this.on(this.boardEl, "blur", () => this.boardEl.classList.remove("gw-kbd"));
    this.on(this.boardEl, "keydown", (ev) => this.onBoardKey(ev));

    // Keys the widget's own controls use must not reach JupyterLab (command mode
    // would e.g. move between cells on arrows); modified keys such as
    // Shift+Enter (run cell) pass through.
    this.on(this.root, "keydown", (ev) => {
      if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.shiftKey) return;
      if (KEYS_HANDLED_BY_WIDGET.has(ev.key)) ev.stopPropagation();
    });

    for (const [action, b] of Object.entries(this.buttons)) {
      this.on(b, "click", () => {
        if (action === "toggle-forbidden" || action === "toggle-legal") {
          const trait = action === "toggle-forbidden" ? "show_forbidden" : "show_legal";
          this.model.set(trait, !this.model.get(trait));
          this.model.save_changes();
          this.update();
        } else {
          this.send({ type: action } as Intent);
        }
      });
    }

    this.on(this.stepBtn, "click", () => {
      const s = this.current;
      if (s) this.send({ type: "agent-step", version: s.version });
    });
    this.on(this.playBtn, "click", () => {
      const playing = this.model.get("playing") === true;
      this.agentSentVersion = -1; // pressing play may retry the current state
      this.model.set("playing", !playing);
      this.model.save_changes();
      onAgents();
    });
    const onSpeed = (): void => {
      const v = clampDelay(Number(this.speed.value));
      if (v === this.delay()) return;
      this.model.set("delay", v);
      this.model.save_changes();
      onAgents();
    };
    this.on(this.speed, "pointerdown", () => { this.speedDragging = true; });
    const endSpeedDrag = (): void => {
      this.speedDragging = false;
      if (this.current) this.updateAgents(this.current);
    };
    this.on(this.speed, "pointerup", endSpeedDrag);
    this.on(this.speed, "pointercancel", endSpeedDrag);
    this.on(this.speed, "input", onSpeed);
    this.on(this.speed, "change", () => { onSpeed(); endSpeedDrag(); });

    this.on(this.range, "pointerdown", () => { this.dragging = true; });
    const endDrag = (): void => {
      if (!this.dragging) return;
      this.dragging = false;
      if (this.current) this.updateHistory(this.current);
    };
    this.on(this.range, "pointerup", endDrag);
    this.on(this.range, "pointercancel", endDrag);
    this.on(this.range, "change", endDrag);
    this.on(this.range, "input", () => this.seek(Number(this.range.value)));

    this.on(this.movesEl, "click", (ev) => {
      const li = (ev.target as Element | null)?.closest?.("li[data-index]");
      if (li) this.seek(Number(li.getAttribute("data-index")));
    });
  }

  private seek(index: number): void {
    const s = this.current;
    if (!s || !Number.isInteger(index)) return;
    if (index === s.history.length) return;
    this.send({ type: "seek", index });
  }

  /** A click on cell `i`, or Enter on it: the layer's own intent, else play the cell. */
  private activate(i: number): void {
    const s = this.current;
    if (!s) return;
    if (this.layer.activate?.(this, s, i)) return;
    this.play(i);
  }

  /** Tell the layer which cell is pointed at (only when it changes). */
  private pointAt(i: number): void {
    const s = this.current;
    if (!s || !this.layer.point || i === this.pointedIdx) return;
    this.pointedIdx = i;
    this.layer.point(this, s, i);
  }

  private play(i: number): void {
    const s = this.current;
    if (!s) return;
    const r = Math.floor(i / s.cols);
    const c = i % s.cols;
    this.send({ type: "play", move: this.notation(r, c), version: s.version, player: s.current_player });
  }

  private onBoardKey(ev: KeyboardEvent): void {
    const s = this.current;
    if (!s || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const n = s.rows * s.cols;
    let i = this.focusIdx >= 0 && this.focusIdx < n ? this.focusIdx : 0;
    let r = Math.floor(i / s.cols);
    let c = i % s.cols;
    if (this.layer.key?.(this, s, ev)) {
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
        this.boardEl.classList.add("gw-kbd");
        this.setFocus(i);
        this.pointAt(i);
        this.activate(i);
        return;
      case "u": case "U": this.send({ type: "undo" }); break;
      case "r": case "R": this.send({ type: "redo" }); break;
      default: handled = false;
    }
    if (!handled) return;
    ev.preventDefault();
    ev.stopPropagation();
    this.boardEl.classList.add("gw-kbd");
    i = r * s.cols + c;
    this.setFocus(i);
    this.pointAt(i);
  }

  private setFocus(i: number): void {
    this.focusIdx = i;
    const s = this.current;
    if (!s || !this.focusRect) return;
    const r = Math.floor(i / s.cols);
    const c = i % s.cols;
    setAttr(this.focusRect, "transform", `translate(${this.x(c)} ${this.y(r)})`);
    const cellEl = this.cellEls[i];
    if (cellEl) setAttr(this.boardEl, "aria-activedescendant", cellEl.id);
  }

  // ---- drawing ------------------------------------------------------------------------

  /** Redraw from the model: rebuild the board if its size changed, then update in place. */
  update(): void {
    const raw = this.model.get("state");
    if (!isState(raw)) {
      this.root.classList.add("gw-empty");
      setText(this.statusText, "waiting for the game state ...");
      return;
    }
    this.root.classList.remove("gw-empty");
    const s = normalise(raw);
    const showLabels = this.model.get("show_labels") !== false;
    const key = [s.game, s.rows, s.cols, showLabels, s.col_labels.join(","), s.row_labels.join(",")].join("|");
    this.current = s;
    if (key !== this.buildKey) {
      const layer = layerFor(s.game);
      if (layer !== this.layer || this.buildKey === "") {
        this.layer = layer;
        this.listenLayerTraits();
      }
      this.buildBoard(s, showLabels);
      this.buildKey = key;
    }
    this.updateBoard(s);
    this.updateSide(s);
    this.updateAgents(s);
    this.layer.update?.(this, s);
    this.hints.update(s, this.layer.solvable === true);
    this.root.classList.toggle("gw-over", s.is_over);
    setAttr(this.root, "data-game", s.game);
    setAttr(this.root, "data-version", String(s.version));
    this.schedule();
  }

  /** `hints` or `hint_data` changed: redraw the overlay only. */
  private updateHints(): void {
    if (this.current) this.hints.update(this.current, this.layer.solvable === true);
  }

  // ---- agents -------------------------------------------------------------------------

  private delay(): number {
    const d = Number(this.model.get("delay"));
    return Number.isFinite(d) ? clampDelay(d) : DEFAULT_DELAY;
  }

  private cancelTimer(): void {
    if (this.agentTimer !== null) clearTimeout(this.agentTimer);
    this.agentTimer = null;
    this.agentTimerVersion = -1;
  }

  /**
   * While `playing` and an agent is to move, send `agent-step` once, `delay` ms
   * after drawing that state. A new version, a pause or destroy cancels it; a
   * state with the same version (a refused click) keeps the pending one.
   */
  private schedule(): void {
    const s = this.current;
    const want = !!s && this.model.get("playing") === true && s.agent_to_move && !s.is_over;
    if (!s || !want) {
      this.cancelTimer();
      return;
    }
    if (this.agentTimer !== null && this.agentTimerVersion === s.version) return;
    this.cancelTimer();
    if (this.agentSentVersion === s.version) return;
    const version = s.version;
    this.agentTimerVersion = version;
    this.agentTimer = setTimeout(() => {
      this.agentTimer = null;
      this.agentTimerVersion = -1;
      const now = this.current;
      if (!now || now.version !== version || this.model.get("playing") !== true) return;
      this.agentSentVersion = version;
      this.send({ type: "agent-step", version });
    }, this.delay());
  }

  private updateAgents(s: GameState): void {
    const anyAgent = s.seats.some((x) => !!x);
    this.agentsEl.hidden = !anyAgent;
    const cp = s.current_player;
    const seat = cp !== null && cp >= 0 ? s.seats[cp] ?? "" : "";
    const agentNow = s.agent_to_move && !s.is_over && !!seat;
    const playing = this.model.get("playing") === true;

    this.agentTag.hidden = !agentNow;
    if (agentNow) {
      const key = `${cp}|${seat}`;
      if (this.agentTag.getAttribute("data-key") !== key) {
        this.agentTag.replaceChildren(robotIcon(), document.createTextNode(shortAgent(seat)));
        setAttr(this.agentTag, "data-key", key);
      }
      setAttr(this.agentTag, "title", `${s.players[cp!] ?? `player ${cp}`} is played by the agent ${seat}`);
      setAttr(this.agentTag, "class", `gw-agent-tag gw-agent-now ${playerClass(cp!)}${playing ? " is-playing" : ""}`);
    }
    this.root.classList.toggle("gw-agent-moving", agentNow && playing);
    if (!anyAgent) return;

    this.stepBtn.disabled = !agentNow;
    setAttr(this.playBtn, "data-action", playing ? "pause" : "play");
    setAttr(this.playBtn, "title", playing ? "Stop the agents (they wait for Step or Play)" : "Agents move by themselves");
    if (this.playBtn.getAttribute("data-icon") !== (playing ? "pause" : "play")) {
      setAttr(this.playBtn, "data-icon", playing ? "pause" : "play");
      this.playBtn.firstElementChild!.replaceChildren(mediaIcon(playing ? "pause" : "play"));
    }
    setText(this.playBtn.lastElementChild!, playing ? "Pause" : "Play");
    this.playBtn.classList.toggle("is-playing", playing);

    const d = this.delay();
    if (!this.speedDragging && this.speed.value !== String(d)) this.speed.value = String(d);
    setAttr(this.speed, "aria-valuetext", `${d} ms`);
    setText(this.speedText, `${d} ms`);

    this.seatsEl.hidden = this.layer.showsSeats === true;
    const seatsKey = JSON.stringify([s.seats, s.players]);
    if (seatsKey !== this.seatsKey && !this.seatsEl.hidden) {
      this.seatsKey = seatsKey;
      this.seatsEl.replaceChildren();
      s.seats.forEach((name, p) => {
        if (!name) return;
        const li = html("li", { class: `gw-seat ${playerClass(p)}`, "data-player": p }, undefined, this.seatsEl);
        html("span", { class: "gw-swatch", "aria-hidden": "true" }, undefined, li);
        html("span", { class: "gw-seat-player" }, s.players[p] ?? `player ${p}`, li);
        const tag = html("span", { class: "gw-agent-tag", title: name }, undefined, li);
        tag.append(robotIcon(), document.createTextNode(name));
      });
    }
  }

  private buildBoard(s: GameState, showLabels: boolean): void {
    const { rows, cols } = s;
    const n = Math.max(rows, cols);
    const maxPx = this.layer.boardPx ?? MAX_BOARD_PX;
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

    const root = svg("svg", {
      class: "gw-svg",
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      "aria-hidden": null,
    });
    root.style.setProperty("--gw-cell", `${cell}px`);
    const defs = svg("defs", {}, root);
    const hatch = svg("pattern", {
      id: `${this.uid}-hatch`,
      width: 6,
      height: 6,
      patternUnits: "userSpaceOnUse",
      patternTransform: "rotate(45)",
    }, defs);
    svg("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "gw-hatch-line" }, hatch);
    const frame = { x: this.ox - 1, y: this.oy - 1, width: cols * cell + 2, height: rows * cell + 2, rx: radius + 1 };
    if (showLabels) {
      const labels = svg("g", { class: "gw-labels", "aria-hidden": "true" }, root);
      const fs = Math.max(9, Math.min(12, Math.round(cell * 0.42)));
      s.col_labels.forEach((label, c) => {
        const t = svg("text", { x: this.x(c) + cell / 2, y: this.oy - margin / 2, "font-size": fs, dy: "0.35em" }, labels);
        t.textContent = label;
      });
      s.row_labels.forEach((label, r) => {
        const t = svg("text", { x: this.ox - margin / 2, y: this.y(r) + cell / 2, "font-size": fs, dy: "0.35em" }, labels);
        t.textContent = label;
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
        const g = svg("g", {
          class: "gw-cell",
          id: `${this.uid}-c${i}`,
          "data-cell": name,
          role: "gridcell",
          "aria-label": name,
        }, rowG);
        // The whole cell is the hit target; the visible tile is inset from it.
        svg("rect", { class: "gw-hit", x: this.x(c), y: this.y(r), width: cell, height: cell }, g);
        const tile = { x: this.x(c) + gap, y: this.y(r) + gap, width: cell - 2 * gap, height: cell - 2 * gap, rx: tileR };
        svg("rect", { class: "gw-bg", ...tile }, g);
        svg("rect", { class: "gw-forb", ...tile, fill: `url(#${this.uid}-hatch)` }, g);
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
    this.hints.attach(svg("g", { class: "gw-hints-g", "aria-hidden": "true" }, root));
    // Keyboard focus: a ring in the brand colour with a thin halo inside it,
    // drawn around the tile so it never hides the last-move outline.
    this.focusRect = svg("g", { class: "gw-focus", "aria-hidden": "true" }, root);
    const ring = { width: cell - 1, height: cell - 1, rx: tileR + 1.5 };
    svg("rect", { class: "gw-focus-ring", x: 0.5, y: 0.5, ...ring }, this.focusRect);
    svg("rect", { class: "gw-focus-halo", x: 2.25, y: 2.25, width: cell - 4.5, height: cell - 4.5, rx: tileR }, this.focusRect);

    this.svg = root;
    this.defs = defs;
    this.boardEl.replaceChildren(root);
    this.boardEl.style.setProperty("--gw-board-w", `${width}px`);
    setAttr(this.boardEl, "aria-label", this.layer.title?.(s) ?? `${s.game || "game"} board, ${rows} by ${cols}`);
    setAttr(this.boardEl, "title", this.layer.hint ?? BOARD_HINT);
    this.pointedIdx = -1;
    setAttr(this.boardEl, "aria-rowcount", String(rows));
    setAttr(this.boardEl, "aria-colcount", String(cols));

    const n2 = rows * cols;
    const start = s.last_move ? this.index(s.last_move) : -1;
    this.focusIdx = this.focusIdx >= 0 && this.focusIdx < n2 ? this.focusIdx : start >= 0 ? start : 0;
    this.setFocus(this.focusIdx);
    this.layer.build?.(this);
  }

  private lastCells(s: GameState): number[] {
    if (this.layer.lastCells) return this.layer.lastCells(s, this);
    if (!s.last_move) return [];
    const out: number[] = [];
    for (const m of s.last_move.toUpperCase().matchAll(/[A-Z]+[0-9]+/g)) {
      const i = this.index(m[0]);
      if (i >= 0) out.push(i);
    }
    return out;
  }

  private updateBoard(s: GameState): void {
    const layer = this.layer;
    const legal = new Set((layer.legalCells ? layer.legalCells(s) : s.legal).map((m) => m.toUpperCase()));
    const forbidden = new Set(s.forbidden.map((m) => m.toUpperCase()));
    const showForbidden = this.model.get("show_forbidden") === true;
    this.boardEl.classList.toggle("gw-show-forbidden", showForbidden);
    this.boardEl.classList.toggle("gw-show-legal", this.model.get("show_legal") === true);
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
        if (!empty || layer.pieceKey) layer.drawPiece(pieceG, s, i, this.cell);
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
    this.boardEl.classList.toggle("gw-legal-open", empties > 1 && legalEmpties === empties);

    if (this.focusIdx >= n) this.setFocus(0);
  }

  private updateSide(s: GameState): void {
    setText(this.statusText, s.status);
    this.statusEl.classList.toggle("is-over", s.is_over);
    const cp = s.current_player;
    setAttr(this.turnEl, "class", `gw-turn ${cp === null || s.is_over ? "is-hidden" : playerClass(cp)}`);

    // What the last move caused (extra.events). An event the status line
    // already says stays in the list but is not shown twice.
    const said = plain(s.status);
    const events = Array.isArray(s.extra.events)
      ? (s.extra.events as unknown[]).filter((e): e is string => typeof e === "string" && !!e)
      : [];
    const eventsKey = `${said}\n${events.join("\n")}`;
    if (eventsKey !== this.eventsKey) {
      this.eventsKey = eventsKey;
      this.eventsEl.replaceChildren(...events.map((e) => html("li", plain(e) === said ? { class: "is-said" } : {}, e)));
      this.eventsEl.classList.toggle("is-all-said", events.every((e) => plain(e) === said));
    }

    setText(this.messageEl, s.message);
    setAttr(this.messageEl, "data-kind", s.message_kind || null);
    this.messageEl.classList.toggle("is-error", s.message_kind === "error");
    this.messageEl.classList.toggle("is-info", s.message_kind === "info");
    this.messageEl.classList.toggle("is-empty", !s.message);

    this.buttons.undo.disabled = s.history.length === 0;
    this.buttons.redo.disabled = s.future.length === 0;
    const show = this.model.get("show_forbidden") === true;
    setAttr(this.buttons["toggle-forbidden"], "aria-pressed", String(show));
    const toggle = this.buttons["toggle-forbidden"];
    toggle.hidden = !s.forbidden_rule && s.forbidden.length === 0;
    setText(toggle.lastElementChild!, s.forbidden_rule ? `Forbidden (${s.forbidden_rule})` : "Forbidden");
    setAttr(this.buttons["toggle-legal"], "aria-pressed", String(this.model.get("show_legal") === true));

    this.updateHistory(s);
  }

  private updateHistory(s: GameState): void {
    const idx = s.history.length;
    const total = s.history.length + s.future.length;
    const pos = total === 0 ? "no moves yet" : `move ${idx} of ${total}`;
    setAttr(this.range, "max", String(total));
    if (!this.dragging && this.range.value !== String(idx)) this.range.value = String(idx);
    this.range.disabled = total === 0;
    setAttr(this.range, "aria-valuetext", pos);
    setText(this.posEl, pos);

    const moves = ["start", ...s.history, ...s.future];
    const items = this.moveItems;
    for (let k = 0; k < moves.length; k++) {
      let li = items[k];
      if (!li) {
        li = html("li", { "data-index": k }, undefined, this.movesEl);
        items.push(li);
      }
      const text = k === 0 ? "start" : `${k}. ${moves[k]}`;
      setText(li, text);
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

  destroy(): void {
    this.cancelTimer();
    for (const off of this.traitOffs.splice(0)) off();
    for (const f of this.cleanups.splice(0)) f();
    this.hints.destroy();
    this.root.remove();
  }
}

function defaultDescribe(s: GameState, i: number): string {
  return s.cells[i] ?? "";
}

/** Text compared without case, spaces and a final full stop. */
function plain(text: string): string {
  return text.trim().replace(/[.\s]+$/, "").replace(/\s+/g, " ").toLowerCase();
}

function clampDelay(ms: number): number {
  if (!Number.isFinite(ms)) return DEFAULT_DELAY;
  return Math.max(0, Math.min(MAX_DELAY, Math.round(ms)));
}
