// The grid view of every gridwidgets game (docs/frontend.md): it composes the
// board (board.ts), the side panel (side.ts), the agent controls (agents.ts),
// the history (history.ts), the keys (keys.ts) and the hints (hints.ts), and
// hands the board to the game's layer (games/*.ts), or to the generic layer
// (generic.ts) that draws any game's scene. The browser never decides
// legality: every click and key sends an intent, Python answers with a new
// `state`.

import type { AnyModel } from "@anywidget/types";
import { AgentControls } from "./agents";
import { BoardView } from "./board";
import { html, setAttr, uid } from "./dom";
import { withGeneric } from "./generic";
import { layerFor, type Activation, type GameLayer } from "./games/layer";
import { HintsView } from "./hints";
import { HistoryView } from "./history";
import { boardKey, keepKeys } from "./keys";
import { SidePanel } from "./side";
import type { GameState, Intent, WidgetTraits } from "./types";

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
  const history = raw.history ?? [];
  const future = raw.future ?? [];
  const steps = Array.isArray(raw.steps) ? raw.steps : history;
  const contract = raw.contract && typeof raw.contract === "object" ? raw.contract : undefined;
  return {
    ...raw,
    game: raw.game ?? "",
    layer: typeof raw.layer === "string" ? raw.layer : raw.game ?? "",
    version: raw.version ?? 0,
    col_labels: raw.col_labels?.length === raw.cols ? raw.col_labels : Array.from({ length: raw.cols }, (_, c) => letters(c)),
    row_labels: raw.row_labels?.length === raw.rows ? raw.row_labels : Array.from({ length: raw.rows }, (_, r) => String(r + 1)),
    players: raw.players ?? [],
    current_player: raw.current_player ?? null,
    pending: Array.isArray(raw.pending) ? raw.pending : [],
    cells: raw.cells ?? Array<string>(n).fill(""),
    owners: raw.owners ?? Array<number>(n).fill(-1),
    legal: raw.legal ?? [],
    forbidden: raw.forbidden ?? [],
    forbidden_rule: raw.forbidden_rule ?? "",
    last_move: raw.last_move ?? null,
    last_step: raw.last_step ?? raw.last_move ?? null,
    targets: Array.isArray(raw.targets) ? raw.targets : [],
    last_cells: Array.isArray(raw.last_cells) ? raw.last_cells : [],
    last_edges: Array.isArray(raw.last_edges) ? raw.last_edges : [],
    history,
    future,
    steps,
    future_steps: Array.isArray(raw.future_steps) ? raw.future_steps : future,
    step: typeof raw.step === "number" ? raw.step : steps.length,
    is_over: !!raw.is_over,
    winners: raw.winners ?? [],
    status: raw.status ?? "",
    message: raw.message ?? "",
    message_kind: raw.message_kind ?? "",
    contract: {
      hint_kinds: Array.isArray(contract?.hint_kinds) ? contract!.hint_kinds : ["solve", "mcts"],
      delay_min: Number.isFinite(contract?.delay_min) ? contract!.delay_min : 0,
      delay_max: Number.isFinite(contract?.delay_max) ? contract!.delay_max : 2000,
      colours: Array.isArray(contract?.colours) ? contract!.colours : [],
      move_kinds: Array.isArray(contract?.move_kinds) ? contract!.move_kinds : ["cell"],
      simultaneous: contract?.simultaneous === true,
      editor: contract?.editor === true,
      long_name: typeof contract?.long_name === "string" ? contract.long_name : raw.game ?? "",
      board_px: Number.isFinite(contract?.board_px) && contract!.board_px > 0 ? contract!.board_px : 480,
    },
    extra: raw.extra && typeof raw.extra === "object" ? raw.extra : {},
    seats: Array.isArray(raw.seats) ? raw.seats.map((x) => (typeof x === "string" ? x : "")) : [],
    agent_to_move: raw.agent_to_move === true,
    people: Array.isArray(raw.people)
      ? raw.people.filter((x): x is number => typeof x === "number")
      : (raw.players ?? []).map((_: unknown, p: number) => p),
  };
}

export class GridView {
  readonly root: HTMLDivElement;
  readonly uid = uid("gw");
  private readonly model: AnyModel<WidgetTraits>;
  private state: GameState | null = null;
  private layer: GameLayer = withGeneric(layerFor(""));
  private layerName = "\u0000";
  private buildKey = "";
  private coloursKey = "";
  readonly board: BoardView;
  private readonly side: SidePanel;
  private readonly agents: AgentControls;
  private readonly history: HistoryView;
  private readonly hints: HintsView;
  /** The cell last reported to the layer's `point` hook (-1: none). */
  private pointedIdx = -1;
  /** The version this page's last intent was sent from, until its answer is drawn (-1: none). */
  private echoFrom = -1;
  /** The last short status Python sent as a message of its own, and the position it was said at. */
  private status: { message: string; kind: string; version: number } | null = null;
  /** The kind of the last pointer that went down on the board ("touch": a tap previews before it plays). */
  private lastPointer = "mouse";
  /** The window's resize is followed (fit="screen" or "big"). */
  private fitting = false;
  private readonly cleanups: Array<() => void> = [];
  /** Listeners of the layer's own traits (`GameLayer.traits`), per layer. */
  private traitOffs: Array<() => void> = [];

  constructor(model: AnyModel<WidgetTraits>, el: HTMLElement) {
    this.model = model;
    this.root = html("div", { class: "gw-root", "data-lm-suppress-shortcuts": "true" });
    const host = {
      uid: this.uid,
      get panel(): HTMLElement { return side.panel; },
      current: () => this.state,
      send: (intent: { type: string; [key: string]: unknown }) => this.send(intent),
      trait: (name: string) => this.trait(name),
      setTrait: (name: string, value: unknown) => this.setTrait(name, value),
    };
    this.board = new BoardView(host, this.root);
    const side = new SidePanel(this.root);
    this.side = side;
    // Hints: the selector (the `hints` trait), its status line and the list of moves that are not one cell.
    this.hints = new HintsView(this.board, side.el, (name) => this.trait(name), (name, value) => this.setTrait(name, value));
    this.agents = new AgentControls(side.el, side.head, {
      trait: (name) => this.trait(name),
      setTrait: (name, value) => this.setTrait(name, value),
      send: (intent) => this.send(intent),
      current: () => this.state,
      // the players' table beside the board (scene.panel) shows the agents' seats
      layerShowsSeats: () => this.layer.showsSeats === true || !!this.state?.scene?.panel,
    }, this.root);
    this.history = new HistoryView(side.el, (intent) => this.send(intent));
    el.appendChild(this.root);
    this.listen();
    this.followTheme();
    this.update();
  }

  /**
   * Dark or light as the host says: JupyterLab (`data-jp-theme-light`), VS Code
   * (`vscode-dark`), marimo and others (`dark` class or `data-theme="dark"` on
   * the page). Inside a shadow root (marimo) no page selector reaches our CSS,
   * so the root gets `gw-dark` and follows later changes of the theme.
   */
  private followTheme(): void {
    const apply = (): void => {
      const doc = document.documentElement;
      const body = document.body;
      let dark: boolean;
      const jp = body?.dataset.jpThemeLight;
      if (jp === "true" || jp === "false") dark = jp === "false";
      else if (body?.classList.contains("vscode-light")) dark = false;
      else if (body?.classList.contains("vscode-dark") || body?.classList.contains("vscode-high-contrast")) dark = true;
      else {
        const marked = [doc, body].some((n) => !!n && (n.classList.contains("dark") || n.classList.contains("dark-mode")
          || n.dataset.theme === "dark" || n.dataset.mode === "dark"))
          // a Vuetify application (Solara: the classroom rooms) marks its root
          || !!document.querySelector(".v-application.theme--dark");
        const light = [doc, body].some((n) => !!n && (n.classList.contains("light") || n.dataset.theme === "light"));
        dark = marked || (!light && window.matchMedia?.("(prefers-color-scheme: dark)").matches === true
          && getComputedStyle(body ?? doc).colorScheme.includes("dark"));
      }
      this.root.classList.toggle("gw-dark", dark);
    };
    apply();
    if (typeof MutationObserver === "undefined") return;
    const watch = new MutationObserver(apply);
    const attributes = ["class", "data-theme", "data-mode", "data-jp-theme-light", "style"];
    watch.observe(document.documentElement, { attributes: true, attributeFilter: attributes });
    if (document.body) watch.observe(document.body, { attributes: true, attributeFilter: attributes });
    const vuetify = document.querySelector(".v-application");
    if (vuetify) watch.observe(vuetify, { attributes: true, attributeFilter: ["class"] });
    this.cleanups.push(() => watch.disconnect());
  }

  send(intent: Intent | { type: string; [key: string]: unknown }): void {
    this.echoFrom = this.state?.version ?? -1;
    this.model.send(intent);
  }

  /**
   * The position this page's intent led to is drawn: say so in the
   * `seen_version` trait. A trait the page changes is what makes marimo re-run
   * the cells that read the widget (moves themselves reach Python as messages).
   */
  private echo(s: GameState): void {
    if (this.echoFrom < 0 || s.version === this.echoFrom) return;
    this.echoFrom = -1;
    if (this.trait("seen_version") !== undefined && this.trait("seen_version") !== s.version) {
      this.setTrait("seen_version", s.version);
    }
  }

  trait(name: string): unknown {
    return (this.model as unknown as AnyModel<Record<string, unknown>>).get(name);
  }

  setTrait(name: string, value: unknown): void {
    const m = this.model as unknown as AnyModel<Record<string, unknown>>;
    m.set(name, value);
    m.save_changes();
  }

  private on<K extends keyof HTMLElementEventMap>(target: HTMLElement, type: K, fn: (ev: HTMLElementEventMap[K]) => void): void {
    target.addEventListener(type, fn as EventListener);
    this.cleanups.push(() => target.removeEventListener(type, fn as EventListener));
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

  private listen(): void {
    const on = this.on.bind(this);
    const onState = (): void => this.update();
    const onAgents = (): void => this.agents.restart();
    const onHints = (): void => this.updateHints();
    const traits: Array<[string, () => void]> = [
      ["change:state", onState], ["change:show_forbidden", onState], ["change:show_labels", onState],
      ["change:show_legal", onState], ["change:playing", onAgents], ["change:delay", onAgents],
      ["change:hints", onHints], ["change:hint_data", onHints], ["change:hidden_controls", onState],
      ["change:fit", onState],
    ];
    for (const [name, fn] of traits) this.model.on(name as "change:state", fn);
    // {type: "status", message, kind, version}: a refusal said without resending the whole state
    const onCustom = (msg: unknown): void => {
      const m = msg as { type?: unknown; message?: unknown; kind?: unknown; version?: unknown } | null;
      if (!m || m.type !== "status" || typeof m.message !== "string") return;
      this.status = { message: m.message, kind: typeof m.kind === "string" ? m.kind : "error",
        version: typeof m.version === "number" ? m.version : (this.state?.version ?? -1) };
      this.update();
    };
    this.model.on("msg:custom", onCustom);
    this.cleanups.push(() => {
      for (const [name, fn] of traits) this.model.off(name as "change:state", fn);
      this.model.off("msg:custom", onCustom);
    });

    const boardEl = this.board.el;
    on(boardEl, "click", (ev) => {
      const cellEl = (ev.target as Element | null)?.closest?.("[data-cell]");
      if (!cellEl || !boardEl.contains(cellEl)) return;
      const i = this.board.index(cellEl.getAttribute("data-cell") ?? "");
      if (i < 0) return;
      this.board.setFocus(i);
      this.pointAt(i);
      this.activate(i, this.lastPointer === "touch" ? "touch" : "mouse");
    });
    on(boardEl, "pointerdown", (ev) => {
      boardEl.classList.remove("gw-kbd");
      this.lastPointer = (ev as PointerEvent).pointerType || "mouse";
    });
    // The cell pointed at, for layers that preview a move (a shape to place).
    on(boardEl, "pointermove", (ev) => {
      if (!this.layer.point) return;
      const cellEl = (ev.target as Element | null)?.closest?.("[data-cell]");
      if (!cellEl || !boardEl.contains(cellEl)) return;
      this.pointAt(this.board.index(cellEl.getAttribute("data-cell") ?? ""));
    });
    on(boardEl, "pointerleave", () => this.pointAt(-1));
    on(boardEl, "focus", () => {
      if (boardEl.matches(":focus-visible")) {
        boardEl.classList.add("gw-kbd");
        this.pointAt(this.board.focusIndex);
      }
    });
    on(boardEl, "blur", () => boardEl.classList.remove("gw-kbd"));
    const keysHost = {
      board: this.board,
      layer: () => this.layer,
      current: () => this.state,
      send: (intent: Intent) => this.send(intent),
      activate: (i: number) => this.activate(i),
      pointAt: (i: number) => this.pointAt(i),
    };
    on(boardEl, "keydown", (ev) => boardKey(keysHost, ev));
    // Keys the widget's own controls use must not reach the notebook (JupyterLab's
    // command mode, VS Code's cell shortcuts such as Delete).
    on(this.root, "keydown", keepKeys);

    this.side.listen(on, (intent) => this.send(intent), (trait) => {
      this.setTrait(trait, !this.trait(trait));
      this.update();
    });
    this.agents.listen(on);
    this.history.listen(on);
  }

  /** A click on cell `i`, or Enter on it: the layer's own intent, else play the cell. */
  private activate(i: number, how: Activation = "key"): void {
    const s = this.state;
    if (!s) return;
    if (this.layer.activate?.(this.board, s, i, how)) return;
    const r = Math.floor(i / s.cols);
    const c = i % s.cols;
    const move = this.board.notation(r, c);
    this.paintAtOnce(s, i, move);
    this.send({ type: "play", move, version: s.version, player: s.current_player });
  }

  /**
   * A legal click paints the mover's piece in this frame (the legal moves are
   * already in the page); Python's answer then confirms it or rolls it back.
   */
  private paintAtOnce(s: GameState, i: number, move: string): void {
    if (!this.layer.predict || s.is_over || s.agent_to_move || s.current_player === null) return;
    const seat = s.seats[s.current_player];
    if (seat) return;  // an agent holds the seat: not ours to paint
    const upper = move.toUpperCase();
    if (!s.legal.some((m) => m.toUpperCase() === upper)) return;
    const predicted = this.layer.predict(s, i);
    if (predicted) this.board.paintPending(predicted, i, this.layer);
  }

  /** Tell the layer which cell is pointed at (only when it changes). */
  private pointAt(i: number): void {
    const s = this.state;
    if (!s || !this.layer.point || i === this.pointedIdx) return;
    this.pointedIdx = i;
    this.layer.point(this.board, s, i);
  }

  /** Each player's colour, as the palette name Python sends (`contract.colours`). */
  private setColours(s: GameState): void {
    const key = s.contract.colours.join(",");
    if (key === this.coloursKey) return;
    this.coloursKey = key;
    s.contract.colours.forEach((name, p) => {
      if (/^[a-z-]+$/.test(name)) this.root.style.setProperty(`--gw-player-${p}`, `var(--gw-colour-${name})`);
    });
  }

  /** Redraw from the model: rebuild the board if its size changed, then update in place. */
  update(): void {
    const raw = this.model.get("state");
    if (!isState(raw)) {
      this.root.classList.add("gw-empty");
      this.side.waiting();
      return;
    }
    this.root.classList.remove("gw-empty");
    const s = normalise(raw);
    // a short status Python sent alone (a refusal in a room's page) stands for the position it was said at
    const said = this.status;
    if (said && said.version === s.version) {
      s.message = said.message;
      s.message_kind = said.kind;
    }
    const showLabels = this.model.get("show_labels") !== false;
    const key = [s.layer, s.game, s.rows, s.cols, showLabels, s.contract.board_px, s.col_labels.join(","), s.row_labels.join(",")].join("|");
    this.state = s;
    this.setColours(s);
    if (key !== this.buildKey) {
      if (s.layer !== this.layerName || this.buildKey === "") {
        this.layerName = s.layer;
        this.layer = withGeneric(layerFor(s.layer));
        this.listenLayerTraits();
      }
      this.board.build(s, showLabels, this.layer);
      this.hints.attach(this.board.hintsGroup);
      this.pointedIdx = -1;
      this.buildKey = key;
    }
    const showForbidden = this.model.get("show_forbidden") === true;
    const showLegal = this.model.get("show_legal") === true;
    this.board.update(s, this.layer, showForbidden, showLegal);
    this.side.update(s, showForbidden, showLegal);
    this.history.update(s);
    this.agents.update(s);
    this.layer.update?.(this.board, s);
    this.hints.update(s, s.contract.hint_kinds);
    this.root.classList.toggle("gw-over", s.is_over);
    const fit = this.trait("fit");
    this.root.classList.toggle("gw-fit", fit === "screen" || fit === "big");
    this.root.classList.toggle("gw-big", fit === "big");
    if (fit === "screen" || fit === "big") this.fitToWindow();
    setAttr(this.root, "data-game", s.game);
    setAttr(this.root, "data-layer", s.layer || "generic");
    setAttr(this.root, "data-version", String(s.version));
    this.hideControls();
    this.echo(s);
    this.agents.schedule();
  }

  /**
   * fit="screen" or "big": the board may be as tall as the window less what is
   * above it on the page (menus, explanations), so it shows whole without scrolling.
   */
  private fitToWindow(): void {
    if (!this.fitting) {
      this.fitting = true;
      const onResize = (): void => this.fitToWindow();
      window.addEventListener("resize", onResize);
      this.cleanups.push(() => window.removeEventListener("resize", onResize));
    }
    requestAnimationFrame(() => {
      const top = this.board.el.getBoundingClientRect().top + window.scrollY;
      if (Number.isFinite(top) && top >= 0) this.root.style.setProperty("--gw-fit-offset", `${Math.round(top + 16)}px`);
    });
  }

  /** Hide the controls Python asked to hide (`hidden_controls`: action names). */
  private hideControls(): void {
    const raw = this.trait("hidden_controls");
    const hidden = new Set(Array.isArray(raw) ? raw.filter((x): x is string => typeof x === "string") : []);
    for (const el of this.root.querySelectorAll<HTMLElement>("[data-action]")) {
      const hide = hidden.has(el.dataset.action ?? "");
      if (hide) {
        el.hidden = true;
        el.dataset.gwHidden = "true";
      } else if (el.dataset.gwHidden) {
        el.hidden = false;
        delete el.dataset.gwHidden;
      }
    }
    // the hints box holds one control: hidden with it (not an empty heading); "agents": the agents box
    const hintBox = this.root.querySelector<HTMLElement>('[data-role="hint-box"]');
    if (hintBox && hidden.has("hints")) hintBox.hidden = true;
    const agentsBox = this.root.querySelector<HTMLElement>('[data-role="agents"]');
    if (agentsBox && hidden.has("agents")) agentsBox.hidden = true;
  }

  /** `hints` or `hint_data` changed: redraw the overlay only. */
  private updateHints(): void {
    if (!this.state) return;
    this.hints.update(this.state, this.state.contract.hint_kinds);
    // the box stays hidden when the page hides the hints (its overlay on the board is still drawn)
    const hidden = this.trait("hidden_controls");
    if (Array.isArray(hidden) && hidden.includes("hints")) this.hints.box.hidden = true;
  }

  destroy(): void {
    this.agents.cancel();
    for (const off of this.traitOffs.splice(0)) off();
    for (const f of this.cleanups.splice(0)) f();
    this.hints.destroy();
    this.board.destroy();
    this.root.remove();
  }
}
