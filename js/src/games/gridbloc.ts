// GridBloc (RULES GB-1..GB-10): what the page does for GridBloc beyond its
// picture. The generic layer (../generic.ts) draws the scene (tiles, holes,
// walls, the start, the runner, the tiles scored, the players' table, the
// round) and offers the legal walls as edge slots (`[data-edge="C4|D4"]`).
// This layer adds:
//
// - the board editor (GB-1): a slot on every interior edge toggles an
//   original wall (`[data-wall="C4|D4"]`), a click on a tile moves the start
//   or makes it a hole; the board's JSON for export;
// - the region (GB-6): the tiles the runner can still reach, on request;
// - the wall keys: W arms them, then an arrow places the wall on that side
//   of the focused tile (Esc or W again disarms); Shift+arrow does it at
//   once; in the editor the same keys toggle an original wall;
// - the banner when a round begins (GB-7, GB-10).
//
// The rules stay in Python: every click and key sends its intent; Python answers.

import { html, setAttr, setText, svg } from "../dom";
import type { GameState } from "../types";
import { playerClass, registerGame, type Board, type GameLayer } from "./layer";
import "./gridbloc.css";

type Tool = "wall" | "start" | "hole";
const TOOLS: Array<[Tool, string, string]> = [
  ["wall", "Wall", "Click an edge to add or remove an original wall"],
  ["start", "Start", "Click a tile to make it the start tile"],
  ["hole", "Hole", "Click a tile to mask it out of the board, or to bring it back"],
];

interface GbExtra {
  phase: string;
  round: number;
  toAct: string | null;
  runner: number;
  blocker: number;
  roundScores: number[][];
  start: string;
  runnerTile: string;
  holes: Set<string>;
  original: Set<string>;
  placed: string[];
  openEdges: Set<string>;
  scored: string[];
  region: string[];
  unscoredReachable: number;
  events: string[];
}

// ---- reading `state.extra` -------------------------------------------------------------

function num(v: unknown, d = 0): number {
  return typeof v === "number" && Number.isFinite(v) ? v : d;
}
function strs(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").map((x) => x.toUpperCase()) : [];
}

const extras = new WeakMap<GameState, GbExtra>();

/** `state.extra`, checked (a partial or hand-made state still draws); once per state. */
function extraOf(s: GameState): GbExtra {
  let e = extras.get(s);
  if (!e) {
    e = readExtra(s);
    extras.set(s, e);
  }
  return e;
}

function readExtra(s: GameState): GbExtra {
  const e = s.extra;
  const round = num(e.round, 1);
  const runner = num(e.runner_player, round === 1 ? 1 : 0);
  const rs = Array.isArray(e.round_scores) ? e.round_scores : [];
  const roundScores = [0, 1].map((r) => {
    const row = Array.isArray(rs[r]) ? (rs[r] as unknown[]) : [];
    return [num(row[0]), num(row[1])];
  });
  return {
    phase: typeof e.phase === "string" ? e.phase : s.is_over ? "over" : "play",
    round,
    toAct: typeof e.to_act === "string" ? e.to_act : null,
    runner,
    blocker: num(e.blocker_player, 1 - runner),
    roundScores,
    start: typeof e.start === "string" ? e.start.toUpperCase() : "",
    runnerTile: typeof e.runner === "string" ? e.runner.toUpperCase() : "",
    holes: new Set(strs(e.holes)),
    original: new Set(strs(e.original)),
    placed: strs(e.placed),
    openEdges: new Set(strs(e.open_edges)),
    scored: strs(e.scored),
    region: strs(e.region),
    unscoredReachable: num(e.unscored_reachable),
    events: Array.isArray(e.events) ? e.events.filter((x): x is string => typeof x === "string") : [],
  };
}

function playerName(s: GameState, p: number): string {
  return s.players[p] ?? (p === 0 ? "Player 1" : p === 1 ? "Player 2" : `player ${p}`);
}

// ---- geometry -----------------------------------------------------------------------------

/** One interior edge: the wall between tiles `a` (top or left) and `b` (GB-8). */
interface Edge {
  name: string;
  a: number;
  b: number;
  /** true: a vertical segment (between columns), false: horizontal (between rows). */
  vertical: boolean;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

function edgesOf(board: Board): Edge[] {
  const { rows, cols, cell } = board;
  const out: Edge[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const a = r * cols + c;
      if (c + 1 < cols) {
        const x = board.x(c + 1);
        out.push({ name: `${board.notation(r, c)}|${board.notation(r, c + 1)}`, a, b: a + 1, vertical: true, x1: x, y1: board.y(r), x2: x, y2: board.y(r) + cell });
      }
      if (r + 1 < rows) {
        const y = board.y(r + 1);
        out.push({ name: `${board.notation(r, c)}|${board.notation(r + 1, c)}`, a, b: a + cols, vertical: false, x1: board.x(c), y1: y, x2: board.x(c) + cell, y2: y });
      }
    }
  }
  return out;
}

/**
 * A slot's hit area: a long hexagon along the edge, pointed at the corners,
 * `2 * half` of a cell thick (0.2: 40%). While a wall is to be placed (the
 * tiles are no target then) the wide one (0.48) covers the two triangles of
 * the neighbouring cells that face the edge, so every slot is a target of
 * 24 px and more (WCAG 2.5.8) and the slots of a corner never overlap.
 */
function slotPoints(e: Edge, cell: number, half = 0.2): string {
  const t = cell * half;
  const tip = cell * 0.03;
  const p: Array<[number, number]> = e.vertical
    ? [[e.x1, e.y1 + tip], [e.x1 + t, e.y1 + t], [e.x1 + t, e.y2 - t], [e.x1, e.y2 - tip], [e.x1 - t, e.y2 - t], [e.x1 - t, e.y1 + t]]
    : [[e.x1 + tip, e.y1], [e.x1 + t, e.y1 - t], [e.x2 - t, e.y1 - t], [e.x2 - tip, e.y1], [e.x2 - t, e.y1 + t], [e.x1 + t, e.y1 + t]];
  return p.map(([x, y]) => `${round1(x)},${round1(y)}`).join(" ");
}

function round1(v: number): number {
  return Math.round(v * 10) / 10;
}

/** A five-pointed star centred on (cx, cy). */
function starPath(cx: number, cy: number, outer: number, inner: number): string {
  let d = "";
  for (let k = 0; k < 10; k++) {
    const r = k % 2 === 0 ? outer : inner;
    const a = -Math.PI / 2 + (k * Math.PI) / 5;
    d += `${k === 0 ? "M" : "L"}${round1(cx + r * Math.cos(a))} ${round1(cy + r * Math.sin(a))}`;
  }
  return `${d}Z`;
}

// ---- the per-view state ---------------------------------------------------------------------

interface View {
  board: Board;
  edges: Edge[];
  regionG: SVGGElement;
  regionKey: string;
  holesKey: string;
  slotsG: SVGGElement;
  slots: SVGGElement[];
  slotKey: string[];
  // panel
  el: HTMLDivElement;
  banner: HTMLDivElement;
  bannerKey: string;
  regionBtn: HTMLButtonElement;
  reachable: HTMLDivElement;
  editBtn: HTMLButtonElement;
  exportBtn: HTMLButtonElement;
  editor: HTMLDivElement;
  toolBtns: Record<Tool, HTMLButtonElement>;
  editorHint: HTMLDivElement;
  exportBox: HTMLDivElement;
  exportText: HTMLTextAreaElement;
  keysHint: HTMLDivElement;
  // page state, never synced
  tool: Tool;
  exportOpen: boolean;
  armed: boolean;
}

const views = new WeakMap<Board, View>();

type Mode = "edit" | "setup" | "block" | "run" | "idle";

/** What a click on the board means now. */
function modeOf(board: Board, s: GameState, e: GbExtra): Mode {
  if (board.trait("editing") === true) return "edit";
  if (s.is_over || e.phase === "over") return "idle";
  if (e.phase === "setup") return "setup";
  const cp = s.current_player;
  if (cp !== null && cp >= 0 && s.seats[cp]) return "idle"; // an agent's turn
  if (e.toAct === "block") return "block";
  if (e.toAct === "run") return "run";
  return "idle";
}

function buildView(board: Board, old: View | undefined): View {
  const { cell } = board;
  // ---- the board: the region (GB-6) under the pieces, the editor's and the wall keys' slots over them
  const regionG = svg("g", { class: "gb-region-g", "aria-hidden": "true" }, board.under);
  const slotsG = svg("g", { class: "gb-slots", "aria-hidden": "true" }, board.over);
  const edges = edgesOf(board);
  const slots = edges.map((e) => {
    const g = svg("g", { class: "gb-slot", "data-slot": e.name }, slotsG);
    svg("line", { class: "gb-slot-line", x1: e.x1, y1: e.y1, x2: e.x2, y2: e.y2 }, g);
    svg("polygon", { class: "gb-slot-hit", points: slotPoints(e, cell) }, g);
    svg("polygon", { class: "gb-slot-hit gb-slot-wide", points: slotPoints(e, cell, 0.48) }, g);
    svg("title", {}, g).textContent = `wall ${e.name}`;
    return g;
  });
  slotsG.style.setProperty("--gb-wall-w", `${wallWidth(cell)}px`);

  // ---- the panel: the game's own part, after the players' table (generic.ts)
  const panel = board.panel;
  panel.querySelector(":scope > .gb-own")?.remove();
  const el = html("div", { class: "gw-own gb-own" }, undefined, panel);
  const banner = html("div", { class: "gb-banner", "data-role": "banner", role: "status", "aria-live": "polite", hidden: true }, undefined, el);

  // Board tools: the region (GB-6), the editor, the export.
  const tools = html("div", { class: "gb-tools", role: "toolbar", "aria-label": "board tools" }, undefined, el);
  const toolButton = (action: string, icon: string, label: string, title: string): HTMLButtonElement => {
    const b = html("button", { type: "button", class: "gw-btn gw-toggle", "data-action": action, title, "data-lm-suppress-shortcuts": "true", "aria-pressed": "false" }, undefined, tools);
    html("span", { class: "gw-icon", "aria-hidden": "true" }, icon, b);
    html("span", { class: "gw-label" }, label, b);
    return b;
  };
  const regionBtn = toolButton("toggle-region", "\u25A6", "Region", "Shade the tiles the runner can still reach (GB-6)");
  const editBtn = toolButton("toggle-edit", "\u270E", "Edit board", "Design the board: original walls, the start tile, holes (GB-1)");
  const exportBtn = toolButton("export", "\u21E9", "Export", "Show the board as JSON for gw.GridBloc(board=...)");
  const reachable = html("div", { class: "gb-reachable", "data-role": "reachable", "aria-live": "polite", hidden: true }, undefined, el);

  const editor = html("div", { class: "gb-editor", "data-role": "editor", hidden: true }, undefined, el);
  const toolRow = html("div", { class: "gb-tool-row", role: "group", "aria-label": "editor tool" }, undefined, editor);
  html("span", { class: "gw-section-title" }, "Tool", toolRow);
  const toolBtns = {} as Record<Tool, HTMLButtonElement>;
  for (const [tool, label, title] of TOOLS) {
    const b = html("button", { type: "button", class: "gw-btn gw-toggle gb-tool", "data-action": `tool-${tool}`, title, "aria-pressed": "false", "data-lm-suppress-shortcuts": "true" }, undefined, toolRow);
    html("span", { class: "gb-tool-icon", "aria-hidden": "true" }, undefined, b).appendChild(toolIcon(tool));
    html("span", { class: "gw-label" }, label, b);
    toolBtns[tool] = b;
  }
  const editorHint = html("div", { class: "gb-hint", "data-role": "editor-hint" }, "", editor);

  const exportBox = html("div", { class: "gb-export", "data-role": "export", hidden: true }, undefined, el);
  const exportLabel = html("label", { class: "gb-export-label" }, undefined, exportBox);
  html("span", {}, "Board JSON \u2014 paste into ", exportLabel);
  html("code", {}, "gw.GridBloc(board=...)", exportLabel);
  const exportText = html("textarea", {
    class: "gb-export-text", "data-role": "board-json", readonly: true, rows: 4, spellcheck: "false",
    "aria-label": "the board as JSON", "data-lm-suppress-shortcuts": "true",
  }, undefined, exportBox);
  exportText.addEventListener("focus", () => exportText.select());
  // a click after the focus would place the caret: keep everything selected
  exportText.addEventListener("mouseup", (ev) => {
    if (exportText.selectionStart !== exportText.selectionEnd) return;
    ev.preventDefault();
    exportText.select();
  });

  const keysHint = html("div", { class: "gb-keys", "data-role": "keys-hint", "aria-live": "polite", hidden: true }, "Wall keys: press an arrow for the side of the focused tile (Esc cancels)", el);

  const view: View = {
    board, edges, regionG, regionKey: "", holesKey: "", slotsG, slots, slotKey: slots.map(() => ""),
    el, banner, bannerKey: "", regionBtn, reachable, editBtn, exportBtn, editor, toolBtns, editorHint,
    exportBox, exportText, keysHint,
    tool: old?.tool ?? "wall",
    exportOpen: old?.exportOpen ?? false,
    armed: false,
  };
  views.set(board, view);

  // The editor's slot clicks (the svg is new with every build, so one listener each).
  board.svg.addEventListener("click", (ev) => {
    const slot = (ev.target as Element | null)?.closest?.("[data-wall]");
    if (!slot || !board.svg.contains(slot)) return;
    ev.stopPropagation();
    sendWall(view, slot.getAttribute("data-wall") ?? "");
  });
  el.addEventListener("click", (ev) => {
    const btn = (ev.target as Element | null)?.closest?.("button[data-action]");
    if (!btn || !el.contains(btn)) return;
    const action = btn.getAttribute("data-action") ?? "";
    if (action === "toggle-region") board.setTrait("show_region", board.trait("show_region") !== true);
    else if (action === "toggle-edit") board.setTrait("editing", board.trait("editing") !== true);
    else if (action === "export") {
      view.exportOpen = !view.exportOpen;
      update(board, board.state);
      if (view.exportOpen) view.exportText.focus();
      return;
    } else if (action.startsWith("tool-")) {
      const tool = action.slice(5) as Tool;
      if (tool in view.toolBtns) view.tool = tool;
    }
    update(board, board.state);
  });
  return view;
}

function wallWidth(cell: number): number {
  return Math.max(3, Math.min(7, Math.round(cell * 0.11 * 2) / 2));
}

/** Small icons of the editor's tools. */
function toolIcon(tool: Tool): SVGSVGElement {
  const icon = svg("svg", { class: "gb-tool-svg", viewBox: "0 0 16 16", width: 13, height: 13, "aria-hidden": "true" });
  if (tool === "wall") {
    svg("rect", { x: 1.5, y: 1.5, width: 13, height: 13, rx: 2, class: "gb-ti-frame" }, icon);
    svg("path", { d: "M8 1.5V10", class: "gb-ti-wall" }, icon);
  } else if (tool === "start") {
    svg("path", { d: starPath(8, 8.6, 7, 3), class: "gb-ti-star" }, icon);
  } else {
    svg("rect", { x: 1.5, y: 1.5, width: 13, height: 13, rx: 2, class: "gb-ti-hole" }, icon);
    svg("path", { d: "M4.5 4.5l7 7M11.5 4.5l-7 7", class: "gb-ti-x" }, icon);
  }
  return icon;
}

// ---- intents ---------------------------------------------------------------------------------

/** A wall slot clicked (or a wall key): an edit in the editor, else a move. */
function sendWall(view: View, wall: string): void {
  if (!wall) return;
  const board = view.board;
  const s = board.state;
  if (board.trait("editing") === true) {
    board.send({ type: "edit", action: "wall", target: wall });
  } else {
    board.send({ type: "play", move: wall, player: s.current_player, version: s.version });
  }
}

/** The wall on one side of tile `i` ("" off the board). */
function wallBeside(board: Board, i: number, key: string): string {
  const { rows, cols } = board;
  const r = Math.floor(i / cols);
  const c = i % cols;
  const here = board.notation(r, c);
  switch (key) {
    case "ArrowUp": return r > 0 ? `${board.notation(r - 1, c)}|${here}` : "";
    case "ArrowDown": return r + 1 < rows ? `${here}|${board.notation(r + 1, c)}` : "";
    case "ArrowLeft": return c > 0 ? `${board.notation(r, c - 1)}|${here}` : "";
    case "ArrowRight": return c + 1 < cols ? `${here}|${board.notation(r, c + 1)}` : "";
    default: return "";
  }
}

// ---- drawing ----------------------------------------------------------------------------------

function cellXY(board: Board, i: number): [number, number] {
  return [board.x(i % board.cols), board.y(Math.floor(i / board.cols))];
}

/** The region (GB-6): the tiles the runner can still reach, shaded, the others dimmed; holes for the editor. */
function drawRegion(view: View, s: GameState, e: GbExtra): void {
  const board = view.board;
  const c = board.cell;
  const inset = c >= 24 ? 1.5 : 1;
  const rx = Math.max(1.5, Math.min(6, Math.round(c * 0.12)));
  const show = board.trait("show_region") === true && e.phase === "play";
  const regionKey = show ? `${e.region.join(",")}|${[...e.holes].join(",")}` : "";
  if (regionKey !== view.regionKey) {
    view.regionKey = regionKey;
    view.regionG.replaceChildren();
    if (show) {
      const inRegion = new Set(e.region);
      const scored = new Set(e.scored);
      for (let i = 0; i < s.rows * s.cols; i++) {
        const name = board.notation(Math.floor(i / s.cols), i % s.cols);
        if (e.holes.has(name)) continue;
        const [x, y] = cellXY(board, i);
        const reach = inRegion.has(name);
        const cls = reach ? (scored.has(name) || name === e.start ? "gb-region is-scored" : "gb-region") : "gb-unreach";
        svg("rect", { class: cls, ...(reach ? { "data-region": name } : {}), x: x + inset, y: y + inset, width: c - 2 * inset, height: c - 2 * inset, rx }, view.regionG);
      }
    }
  }
  // a hole's cell stays (the editor clicks it): marked so that it shows no tile and no hover
  const holesKey = [...e.holes].join(",");
  if (holesKey !== view.holesKey) {
    view.holesKey = holesKey;
    for (const el of Array.from(board.svg.querySelectorAll(".gw-cell.gb-hole"))) el.classList.remove("gb-hole");
    for (const name of e.holes) board.svg.querySelector(`[data-cell="${name}"]`)?.classList.add("gb-hole");
  }
}

/** The editor's slots (every interior edge not beside a hole) and the wall keys' preview. */
function drawSlots(view: View, s: GameState, e: GbExtra, mode: Mode): void {
  const editWalls = mode === "edit" && view.tool === "wall";
  const cp = s.current_player;
  const who = mode === "setup" ? 0 : e.blocker;
  setAttr(view.slotsG, "class", `gb-slots ${mode === "edit" ? "is-editing" : playerClass(cp !== null && cp >= 0 ? who : -1)}${view.armed ? " is-armed" : ""}`);
  const focus = view.board.focusIndex;
  const offer = (mode === "block" || mode === "setup") && view.armed;
  view.edges.forEach((edge, k) => {
    let state = "";
    if (editWalls) {
      const nextToHole = e.holes.has(nameOf(view.board, edge.a)) || e.holes.has(nameOf(view.board, edge.b));
      if (!nextToHole) state = e.original.has(edge.name) ? "remove" : "add";
    }
    // the wall keys, armed: the open edges around the focused tile
    const near = (view.armed && (editWalls || (offer && e.openEdges.has(edge.name)))) && (edge.a === focus || edge.b === focus);
    const key = `${state}|${near}`;
    if (key === view.slotKey[k]) return;
    view.slotKey[k] = key;
    const g = view.slots[k]!;
    setAttr(g, "data-wall", state ? edge.name : null);
    setAttr(g, "class", `gb-slot${state ? ` is-${state}` : near ? "" : " is-off"}${near ? " is-near" : ""}`);
  });
}

function nameOf(board: Board, i: number): string {
  return board.notation(Math.floor(i / board.cols), i % board.cols);
}

const BANNERS: Array<[RegExp, string]> = [
  [/^Round 2:/i, "Round 2: roles swapped, walls reset"],
  [/^Setup done/i, "Round one begins"],
];

function drawPanel(view: View, s: GameState, e: GbExtra, mode: Mode): void {
  const board = view.board;
  const editing = mode === "edit";

  // The banner: the round change (GB-7) or the end of the setup (GB-10).
  let bannerText = "";
  let bannerSub = "";
  for (const ev of e.events) {
    for (const [re, text] of BANNERS) {
      if (re.test(ev)) {
        bannerText = text;
        bannerSub = e.phase === "play" ? `${playerName(s, e.runner)} runs, ${playerName(s, e.blocker)} blocks` : "";
      }
    }
  }
  const bannerKey = `${bannerText}|${bannerSub}|${s.version}`;
  if (bannerKey !== view.bannerKey) {
    view.bannerKey = bannerKey;
    view.banner.hidden = !bannerText;
    view.banner.replaceChildren();
    if (bannerText) {
      html("div", { class: "gb-banner-title" }, bannerText, view.banner);
      if (bannerSub && bannerSub !== bannerText) html("div", { class: "gb-banner-sub" }, bannerSub, view.banner);
    }
  }

  // The region (GB-6).
  const showRegion = board.trait("show_region") === true;
  setAttr(view.regionBtn, "aria-pressed", String(showRegion));
  const reach = showRegion && e.phase === "play" && !editing;
  view.reachable.hidden = !reach;
  if (reach) {
    const n = e.unscoredReachable;
    setText(view.reachable, `${n} unscored tile${n === 1 ? "" : "s"} reachable`);
    view.reachable.classList.toggle("is-zero", n === 0);
  }

  // The editor.
  setAttr(view.editBtn, "aria-pressed", String(editing));
  view.editor.hidden = !editing;
  for (const [tool, b] of Object.entries(view.toolBtns) as Array<[Tool, HTMLButtonElement]>) {
    setAttr(b, "aria-pressed", String(editing && view.tool === tool));
  }
  if (editing) {
    setText(view.editorHint, view.tool === "wall"
      ? "Click an edge to add or remove an original wall. Each change starts a new game on the new board."
      : view.tool === "start"
        ? "Click a tile to make it the start tile (the star)."
        : "Click a tile to make it a hole (not a tile, GB-1), or a hole to bring the tile back.");
  }
  setAttr(view.exportBtn, "aria-pressed", String(view.exportOpen));
  view.exportBox.hidden = !view.exportOpen;
  const json = board.trait("board_json");
  const text = typeof json === "string" ? json : "";
  if (view.exportText.value !== text) view.exportText.value = text;

  view.keysHint.hidden = !view.armed;
  const root = board.panel.closest(".gw-root");
  root?.classList.toggle("gb-editing", editing);
  root?.classList.toggle("gb-blocking", mode === "block" || (editing && view.tool === "wall"));
  root?.classList.toggle("gb-setup-phase", mode === "setup");
}

function update(board: Board, s: GameState): void {
  // (a view is built with the board, `build`)
  const view = views.get(board) ?? buildView(board, undefined);
  const e = extraOf(s);
  const mode = modeOf(board, s, e);
  drawRegion(view, s, e);
  drawSlots(view, s, e, mode);
  drawPanel(view, s, e, mode);
}

function setArmed(view: View, armed: boolean): void {
  if (view.armed === armed) return;
  view.armed = armed;
  update(view.board, view.board.state);
}

// ---- the layer ------------------------------------------------------------------------------------

const ARROWS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);

export const gridblocLayer: GameLayer = {
  traits: ["show_region", "editing", "board_json"],
  hint: "Runner: click a highlighted tile. Blocker: click an edge to place a wall. Keys: arrows move, Enter steps, W then an arrow (or Shift+arrow) places a wall on that side of the focused tile, U undo",

  legalCells(s) {
    const e = extraOf(s);
    return e.phase === "play" && e.toAct === "run" ? s.legal : [];
  },

  build(board) {
    const old = views.get(board);
    buildView(board, old);
  },

  update,

  activate(board, s, i) {
    const view = views.get(board);
    const e = extraOf(s);
    const name = nameOf(board, i);
    if (board.trait("editing") === true) {
      const tool = view?.tool ?? "wall";
      if (tool !== "wall") board.send({ type: "edit", action: tool, target: name });
      return true;
    }
    if (e.phase === "setup") {
      board.send({ type: "play", move: `start ${name}`, player: s.current_player, version: s.version });
      return true;
    }
    return false;
  },
  key(board, s, ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    const view = views.get(board);
    if (!view) return false;
    const k = ev.key;
    // wall keys are keyboard use: show the focus ring as the shared keys do
    const kbd = (): void => board.svg.parentElement?.classList.add("gw-kbd");
    if (k === "w" || k === "W") {
      kbd();
      setArmed(view, !view.armed);
      return true;
    }
    if (k === "Escape" && view.armed) {
      setArmed(view, false);
      return true;
    }
    if (ARROWS.has(k) && (view.armed || ev.shiftKey)) {
      kbd();
      const n = s.rows * s.cols;
      const i = board.focusIndex >= 0 && board.focusIndex < n ? board.focusIndex : 0;
      const wall = wallBeside(board, i, k);
      setArmed(view, false);
      if (wall) sendWall(view, wall);
      return true;
    }
    return false;
  },

  point(board, s) {
    // the wall keys' preview follows the focus ring
    const view = views.get(board);
    if (view?.armed) drawSlots(view, s, extraOf(s), modeOf(board, s, extraOf(s)));
  },
};

registerGame("gridbloc", gridblocLayer);
