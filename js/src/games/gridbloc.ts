// GridBloc (RULES GB-1..GB-10): a runner against a blocker on a board of
// tiles with walls on the edges between them. Drawn here: the tiles (holes
// are gaps), the start tile's star, the runner's pawn, the tiles scored this
// round, the original walls (dark) and the walls placed this round (in the
// blocker's colour), the closed outer border, and the wall slots: every open
// interior edge is a click target `[data-wall="C4|D4"]` while the blocker is
// to act (or in the setup, GB-10, or in the board editor). The side panel
// holds the round and the scores (GB-5, GB-7), the reachable region (GB-6),
// the setup's "Start round one", and the board editor with its export.
//
// The rules stay in Python: a slot is offered because `extra.open_edges`
// names it, and every click sends its intent; Python answers.
//
// Keys (besides the shared arrows, Enter, U, R): W arms the wall keys, then
// an arrow places the wall on that side of the focused tile (Esc or W again
// disarms); Shift+arrow does it at once. In the editor, the same keys toggle
// an original wall; Enter on a tile uses the start or hole tool.

import { html, robotIcon, setAttr, setText, shortAgent, svg } from "../dom";
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

interface Row {
  tr: HTMLTableRowElement;
  name: HTMLSpanElement;
  trophy: HTMLSpanElement;
  role: HTMLSpanElement;
  agent: HTMLSpanElement;
  agentKey: string;
  r1: HTMLTableCellElement;
  r2: HTMLTableCellElement;
  total: HTMLTableCellElement;
}

interface View {
  board: Board;
  edges: Edge[];
  edgeByName: Map<string, Edge>;
  // board groups
  tintsG: SVGGElement;
  tintsKey: string;
  regionG: SVGGElement;
  regionKey: string;
  starG: SVGGElement;
  starKey: string;
  holesKey: string;
  holesG: SVGGElement;
  wallsG: SVGGElement;
  wallsKey: string;
  borderPath: SVGPathElement;
  slotsG: SVGGElement;
  slots: SVGGElement[];
  slotKey: string[];
  // panel
  banner: HTMLDivElement;
  bannerKey: string;
  roundTitle: HTMLSpanElement;
  roundRoles: HTMLDivElement;
  roundScore: HTMLDivElement;
  rows: Row[];
  r1Head: HTMLTableCellElement;
  r2Head: HTMLTableCellElement;
  setupBar: HTMLDivElement;
  setupText: HTMLSpanElement;
  done: HTMLButtonElement;
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
const listeners = new WeakMap<HTMLElement, (ev: MouseEvent) => void>();

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
  // ---- the board -----------------------------------------------------------------
  const holesG = svg("g", { class: "gb-holes", "aria-hidden": "true" }, board.under);
  const hatch = svg("pattern", { id: `${board.uid}-gbhole`, width: 7, height: 7, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, board.defs);
  svg("line", { x1: 0, y1: 0, x2: 0, y2: 7, class: "gb-hole-hatch" }, hatch);
  const tintsG = svg("g", { class: "gb-tints", "aria-hidden": "true" }, board.under);
  const regionG = svg("g", { class: "gb-region-g", "aria-hidden": "true" }, board.under);
  const starG = svg("g", { class: "gb-star-g", "aria-hidden": "true" }, board.under);
  const wallsG = svg("g", { class: "gb-walls", "aria-hidden": "true" }, board.over);
  const borderPath = svg("path", { class: "gb-border", "aria-hidden": "true" }, board.over);
  const slotsG = svg("g", { class: "gb-slots", "aria-hidden": "true" }, board.over);
  const edges = edgesOf(board);
  const edgeByName = new Map(edges.map((e) => [e.name, e]));
  const slots = edges.map((e) => {
    const g = svg("g", { class: "gb-slot", "data-edge": e.name }, slotsG);
    svg("line", { class: "gb-slot-line", x1: e.x1, y1: e.y1, x2: e.x2, y2: e.y2 }, g);
    svg("polygon", { class: "gb-slot-hit", points: slotPoints(e, cell) }, g);
    svg("polygon", { class: "gb-slot-hit gb-slot-wide", points: slotPoints(e, cell, 0.48) }, g);
    svg("title", {}, g).textContent = `wall ${e.name}`;
    return g;
  });
  slotsG.style.setProperty("--gb-wall-w", `${wallWidth(cell)}px`);
  wallsG.style.setProperty("--gb-wall-w", `${wallWidth(cell)}px`);
  borderPath.style.setProperty("--gb-wall-w", `${wallWidth(cell)}px`);

  // ---- the panel -----------------------------------------------------------------
  const panel = board.panel;
  panel.replaceChildren();
  panel.className = "gw-panel gb-panel";
  const banner = html("div", { class: "gb-banner", "data-role": "banner", role: "status", "aria-live": "polite", hidden: true }, undefined, panel);

  const roundBox = html("div", { class: "gb-round", "data-role": "round" }, undefined, panel);
  const roundHead = html("div", { class: "gb-round-head" }, undefined, roundBox);
  const roundTitle = html("span", { class: "gb-round-title", "data-role": "round-title" }, "", roundHead);
  const roundScore = html("div", { class: "gb-round-score", "data-role": "round-score" }, undefined, roundHead);
  const roundRoles = html("div", { class: "gb-roles", "data-role": "roles" }, undefined, roundBox);

  const table = html("table", { class: "gb-table", "data-role": "scores", "aria-label": "scores per round (GB-5, GB-7)" }, undefined, roundBox);
  const head = html("tr", {}, undefined, html("thead", {}, undefined, table));
  html("th", { scope: "col" }, "Player", head);
  const r1Head = html("th", { scope: "col", title: "round one: points as the runner" }, "Round 1", head);
  const r2Head = html("th", { scope: "col", title: "round two: points as the runner" }, "Round 2", head);
  html("th", { scope: "col", title: "both rounds (GB-7)" }, "Total", head);
  const body = html("tbody", {}, undefined, table);
  const rows: Row[] = [0, 1].map((p) => {
    const tr = html("tr", { class: `gb-row ${playerClass(p)}`, "data-player": p }, undefined, body);
    const who = html("td", { class: "gb-who" }, undefined, tr);
    const nameRow = html("div", { class: "gb-name" }, undefined, who);
    html("span", { class: "gw-swatch", "aria-hidden": "true" }, undefined, nameRow);
    const name = html("span", { class: "gb-name-text" }, "", nameRow);
    const trophy = html("span", { class: "gb-trophy", "aria-hidden": "true", hidden: true }, "\u2605", nameRow);
    const sub = html("div", { class: "gb-sub" }, undefined, who);
    const role = html("span", { class: "gb-role", "data-col": "role" }, "", sub);
    const agent = html("span", { class: "gw-agent-tag", "data-role": "agent", hidden: true }, undefined, sub);
    const r1 = html("td", { class: "gb-num", "data-col": "r1" }, "", tr);
    const r2 = html("td", { class: "gb-num", "data-col": "r2" }, "", tr);
    const total = html("td", { class: "gb-num gb-total", "data-col": "total" }, "", tr);
    return { tr, name, trophy, role, agent, agentKey: "", r1, r2, total };
  });

  // The setup (GB-10): Player 1 places original walls and the start, then done.
  const setupBar = html("div", { class: "gb-setup", "data-role": "setup", hidden: true }, undefined, panel);
  const setupText = html("span", { class: "gb-setup-text" }, "", setupBar);
  const done = html("button", {
    type: "button", class: "gw-btn gb-done", "data-action": "done", "data-lm-suppress-shortcuts": "true",
    title: "End the setup: round one begins (GB-10)",
  }, undefined, setupBar);
  html("span", { class: "gw-icon", "aria-hidden": "true" }, "\u25B6", done);
  html("span", { class: "gw-label" }, "Start round one", done);

  // Board tools: the region (GB-6), the editor, the export.
  const tools = html("div", { class: "gb-tools", role: "toolbar", "aria-label": "board tools" }, undefined, panel);
  const toolButton = (action: string, icon: string, label: string, title: string, toggle: boolean): HTMLButtonElement => {
    const b = html("button", { type: "button", class: `gw-btn${toggle ? " gw-toggle" : ""}`, "data-action": action, title, "data-lm-suppress-shortcuts": "true" }, undefined, tools);
    html("span", { class: "gw-icon", "aria-hidden": "true" }, icon, b);
    html("span", { class: "gw-label" }, label, b);
    if (toggle) setAttr(b, "aria-pressed", "false");
    return b;
  };
  const regionBtn = toolButton("toggle-region", "\u25A6", "Region", "Shade the tiles the runner can still reach (GB-6)", true);
  const editBtn = toolButton("toggle-edit", "\u270E", "Edit board", "Design the board: original walls, the start tile, holes (GB-1)", true);
  const exportBtn = toolButton("export", "\u21E9", "Export", "Show the board as JSON for gw.GridBloc(board=...)", true);
  const reachable = html("div", { class: "gb-reachable", "data-role": "reachable", "aria-live": "polite", hidden: true }, undefined, panel);

  const editor = html("div", { class: "gb-editor", "data-role": "editor", hidden: true }, undefined, panel);
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

  const exportBox = html("div", { class: "gb-export", "data-role": "export", hidden: true }, undefined, panel);
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

  const keysHint = html("div", { class: "gb-keys", "data-role": "keys-hint", "aria-live": "polite", hidden: true }, "Wall keys: press an arrow for the side of the focused tile (Esc cancels)", panel);

  const view: View = {
    board, edges, edgeByName,
    tintsG, tintsKey: "", regionG, regionKey: "", starG, starKey: "", holesKey: "", holesG, wallsG, wallsKey: "", borderPath,
    slotsG, slots, slotKey: slots.map(() => ""),
    banner, bannerKey: "", roundTitle, roundRoles, roundScore, rows, r1Head, r2Head,
    setupBar, setupText, done, regionBtn, reachable, editBtn, exportBtn, editor, toolBtns, editorHint,
    exportBox, exportText, keysHint,
    tool: old?.tool ?? "wall",
    exportOpen: old?.exportOpen ?? false,
    armed: false,
  };
  views.set(board, view);

  // Slot clicks (the svg is new with every build, so one listener each).
  board.svg.addEventListener("click", (ev) => {
    const slot = (ev.target as Element | null)?.closest?.("[data-wall]");
    if (!slot || !board.svg.contains(slot)) return;
    ev.stopPropagation();
    sendWall(view, slot.getAttribute("data-wall") ?? "");
  });

  // one listener per panel, also when the board is built again
  const oldListener = listeners.get(panel);
  if (oldListener) panel.removeEventListener("click", oldListener);
  const onClick = (ev: MouseEvent): void => {
    const btn = (ev.target as Element | null)?.closest?.("button[data-action]");
    if (!btn || !panel.contains(btn)) return;
    const action = btn.getAttribute("data-action") ?? "";
    const s = board.state;
    if (action === "toggle-region") board.setTrait("show_region", board.trait("show_region") !== true);
    else if (action === "toggle-edit") board.setTrait("editing", board.trait("editing") !== true);
    else if (action === "export") {
      view.exportOpen = !view.exportOpen;
      update(board, s);
      if (view.exportOpen) view.exportText.focus();
      return;
    } else if (action.startsWith("tool-")) {
      const tool = action.slice(5) as Tool;
      if (tool in view.toolBtns) view.tool = tool;
    } else if (action === "done") {
      board.send({ type: "play", move: "done", player: s.current_player, version: s.version });
      return;
    }
    update(board, board.state);
  };
  panel.addEventListener("click", onClick);
  listeners.set(panel, onClick);
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

function drawTints(view: View, s: GameState, e: GbExtra): void {
  const board = view.board;
  const c = board.cell;
  const inset = c >= 24 ? 1.5 : 1;
  const rx = Math.max(1.5, Math.min(6, Math.round(c * 0.12)));
  const key = `${e.runner}|${e.scored.join(",")}`;
  if (key !== view.tintsKey) {
    view.tintsKey = key;
    view.tintsG.replaceChildren();
    setAttr(view.tintsG, "class", `gb-tints ${playerClass(e.runner)}`);
    for (const name of e.scored) {
      const i = board.index(name);
      if (i < 0) continue;
      const [x, y] = cellXY(board, i);
      svg("rect", { class: "gb-scored", "data-scored": name, x: x + inset, y: y + inset, width: c - 2 * inset, height: c - 2 * inset, rx }, view.tintsG);
    }
  }

  // The region (GB-6): the tiles the runner can still reach, shaded, the others dimmed.
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

  // The start tile's star.
  const startKey = e.start;
  if (startKey !== view.starKey) {
    view.starKey = startKey;
    view.starG.replaceChildren();
    const i = board.index(e.start);
    if (i >= 0) {
      const [x, y] = cellXY(board, i);
      svg("path", { class: "gb-star", "data-start": e.start, d: starPath(x + c / 2, y + c / 2 + c * 0.02, c * 0.42, c * 0.19) }, view.starG);
    }
  }

  // Holes are gaps (GB-1): the cell stays (the editor clicks it), its tile does not.
  const holesKey = [...e.holes].join(",");
  if (holesKey !== view.holesKey) {
    view.holesKey = holesKey;
    for (const el of Array.from(board.svg.querySelectorAll(".gw-cell.gb-hole"))) el.classList.remove("gb-hole");
    for (const name of e.holes) board.svg.querySelector(`[data-cell="${name}"]`)?.classList.add("gb-hole");
    // the gap: the page's background over the whole cell, faintly hatched
    view.holesG.replaceChildren();
    for (const name of e.holes) {
      const i = board.index(name);
      if (i < 0) continue;
      const [x, y] = cellXY(board, i);
      const g = svg("g", { "data-hole": name }, view.holesG);
      const box = { x: x - 1, y: y - 1, width: c + 2, height: c + 2 };
      svg("rect", { class: "gb-hole-bg", ...box }, g);
      svg("rect", { class: "gb-hole-rect", ...box, fill: `url(#${board.uid}-gbhole)` }, g);
    }
  }
}

function drawWalls(view: View, s: GameState, e: GbExtra): void {
  const board = view.board;
  // the wall the picture outlines as the last move (Python's scene), by its two tiles
  const le = s.last_edges[0];
  const lastWall = le ? view.edges.find((x) => (x.a === le[0][0] * s.cols + le[0][1] && x.b === le[1][0] * s.cols + le[1][1])
    || (x.b === le[0][0] * s.cols + le[0][1] && x.a === le[1][0] * s.cols + le[1][1]))?.name ?? "" : "";
  const key = `${[...e.original].join(",")}|${e.placed.join(",")}|${e.blocker}|${lastWall}|${[...e.holes].join(",")}`;
  if (key === view.wallsKey) return;
  view.wallsKey = key;
  const g = view.wallsG;
  g.replaceChildren();
  const line = (edge: Edge, cls: string, attrs: Record<string, string> = {}): void => {
    svg("line", { class: cls, x1: edge.x1, y1: edge.y1, x2: edge.x2, y2: edge.y2, ...attrs }, g);
  };
  for (const name of e.original) {
    const edge = view.edgeByName.get(name);
    if (edge) line(edge, "gb-wall gb-original", { "data-original": name });
  }
  const placedG = svg("g", { class: `gb-placed-g ${playerClass(e.blocker)}` }, g);
  for (const name of e.placed) {
    const edge = view.edgeByName.get(name);
    if (!edge) continue;
    const last = name === lastWall;
    const wg = svg("g", { class: `gb-placed${last ? " is-last" : ""}`, "data-placed": name, ...(last ? { "data-last": "true" } : {}) }, placedG);
    if (last) svg("line", { class: "gb-placed-glow", x1: edge.x1, y1: edge.y1, x2: edge.x2, y2: edge.y2 }, wg);
    svg("line", { class: "gb-placed-bar", x1: edge.x1, y1: edge.y1, x2: edge.x2, y2: edge.y2 }, wg);
    svg("line", { class: "gb-placed-core", x1: edge.x1, y1: edge.y1, x2: edge.x2, y2: edge.y2 }, wg);
  }

  // The outer border (GB-2) and the edges around holes (GB-1): always closed.
  const { rows, cols } = board;
  const c = board.cell;
  const isTile = (r: number, col: number): boolean =>
    r >= 0 && col >= 0 && r < rows && col < cols && !e.holes.has(board.notation(r, col));
  let d = "";
  for (let r = 0; r < rows; r++) {
    for (let col = 0; col < cols; col++) {
      if (!isTile(r, col)) continue;
      const x = board.x(col);
      const y = board.y(r);
      if (!isTile(r - 1, col)) d += `M${x} ${y}h${c}`;
      if (!isTile(r + 1, col)) d += `M${x} ${y + c}h${c}`;
      if (!isTile(r, col - 1)) d += `M${x} ${y}v${c}`;
      if (!isTile(r, col + 1)) d += `M${x + c} ${y}v${c}`;
    }
  }
  setAttr(view.borderPath, "d", d || null);
}

/** Which slots take clicks now, and what each does. */
function drawSlots(view: View, s: GameState, e: GbExtra, mode: Mode): void {
  const editWalls = mode === "edit" && view.tool === "wall";
  const offer = mode === "block" || mode === "setup";
  const cp = s.current_player;
  const who = mode === "setup" ? 0 : e.blocker;
  setAttr(view.slotsG, "class", `gb-slots ${mode === "edit" ? "is-editing" : playerClass(cp !== null && cp >= 0 ? who : -1)}${view.armed ? " is-armed" : ""}`);
  const focus = view.board.focusIndex;
  view.edges.forEach((edge, k) => {
    let state = "";
    if (editWalls) {
      const nextToHole = e.holes.has(nameOf(view.board, edge.a)) || e.holes.has(nameOf(view.board, edge.b));
      if (!nextToHole) state = e.original.has(edge.name) ? "remove" : "add";
    } else if (offer && e.openEdges.has(edge.name)) {
      state = "add";
    } else if (mode === "block" && (e.original.has(edge.name) || e.placed.includes(edge.name))) {
      // a click on a wall goes to Python too, which says why nothing happens (GB-2)
      state = "taken";
    }
    const near = view.armed && state !== "" && (edge.a === focus || edge.b === focus);
    const key = `${state}|${near}`;
    if (key === view.slotKey[k]) return;
    view.slotKey[k] = key;
    const g = view.slots[k]!;
    setAttr(g, "data-wall", state ? edge.name : null);
    setAttr(g, "class", `gb-slot${state ? ` is-${state}` : " is-off"}${near ? " is-near" : ""}`);
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
  const over = s.is_over || e.phase === "over";
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

  // The round and the roles.
  const runner = playerName(s, e.runner);
  const blocker = playerName(s, e.blocker);
  // the editor designs a board: the game's round and scores step aside
  view.roundTitle.parentElement!.parentElement!.hidden = editing;
  setText(view.roundTitle, e.phase === "setup" ? "Setup" : over ? "Game over" : `Round ${e.round} of 2`);
  setAttr(view.roundTitle.parentElement!.parentElement!, "data-round", String(e.round));
  setAttr(view.roundTitle.parentElement!.parentElement!, "data-phase", e.phase);
  const rolesKey = `${e.phase}|${over}|${e.runner}|${e.blocker}|${e.toAct}|${runner}|${blocker}`;
  if (view.roundRoles.getAttribute("data-key") !== rolesKey) {
    setAttr(view.roundRoles, "data-key", rolesKey);
    view.roundRoles.replaceChildren();
    if (e.phase === "setup") {
      html("span", { class: `gb-role-chip ${playerClass(0)} is-acting` }, `${playerName(s, 0)} sets up the board`, view.roundRoles);
    } else if (!over) {
      const chip = (p: number, text: string, acting: boolean): void => {
        const el = html("span", { class: `gb-role-chip ${playerClass(p)}${acting ? " is-acting" : ""}`, "data-player": p }, undefined, view.roundRoles);
        html("span", { class: "gw-swatch", "aria-hidden": "true" }, undefined, el);
        el.appendChild(document.createTextNode(text));
      };
      chip(e.runner, `${runner} runs`, e.toAct === "run");
      chip(e.blocker, `${blocker} blocks`, e.toAct === "block");
    }
  }
  const pts = e.roundScores[e.round - 1]?.[e.runner] ?? 0;
  view.roundScore.hidden = over || e.phase === "setup";
  setText(view.roundScore, `${pts} point${pts === 1 ? "" : "s"} this round`);
  setAttr(view.roundScore, "class", `gb-round-score ${playerClass(e.runner)}`);

  // The scores per round (GB-5) and the totals (GB-7).
  const draw = over && s.winners.length > 1;
  view.r1Head.classList.toggle("is-now", !over && e.phase === "play" && e.round === 1);
  view.r2Head.classList.toggle("is-now", !over && e.phase === "play" && e.round === 2);
  view.rows.forEach((row, p) => {
    setText(row.name, playerName(s, p));
    const won = over && s.winners.includes(p) && !draw;
    row.tr.classList.toggle("is-winner", won);
    row.tr.classList.toggle("is-draw", draw);
    const current = !over && s.current_player === p && e.phase !== "setup";
    row.tr.classList.toggle("is-current", current);
    setAttr(row.tr, "aria-current", current ? "true" : null);
    row.trophy.hidden = !won;
    let role = "";
    if (over) role = draw ? "draw" : won ? "winner" : "";
    else if (e.phase === "setup") role = p === 0 ? "sets up the board" : "runs first";
    else role = p === e.runner ? (current ? "runs (to act)" : "runs") : current ? "blocks (to act)" : "blocks";
    setText(row.role, role);
    setAttr(row.tr, "data-status", role || null);
    // a player scores only while running: player 1 in round one, player 0 in round two (GB-7)
    const cellText = (round: number): string => {
      const runs = round === 1 ? 1 : 0;
      if (p !== runs) return "\u2013";
      if (e.phase === "setup" || (round === 2 && e.round < 2)) return "";
      return String(e.roundScores[round - 1]?.[p] ?? 0);
    };
    setText(row.r1, cellText(1));
    setText(row.r2, cellText(2));
    setAttr(row.r1, "title", p === 1 ? "runs in round one" : "blocks in round one");
    setAttr(row.r2, "title", p === 0 ? "runs in round two" : "blocks in round two");
    const total = (e.roundScores[0]?.[p] ?? 0) + (e.roundScores[1]?.[p] ?? 0);
    setText(row.total, String(total));
    const seat = s.seats[p] ?? "";
    row.agent.hidden = !seat;
    if (seat !== row.agentKey) {
      row.agentKey = seat;
      row.agent.replaceChildren(...(seat ? [robotIcon(), document.createTextNode(shortAgent(seat))] : []));
      setAttr(row.agent, "title", seat ? `played by the agent ${seat}` : null);
    }
  });

  // The setup (GB-10).
  const setup = e.phase === "setup" && !editing;
  view.setupBar.hidden = !setup;
  if (setup) {
    setText(view.setupText, `${playerName(s, 0)}: click edges to place original walls, click a tile to move the start, then start round one.`);
    setAttr(view.setupBar, "class", `gb-setup ${playerClass(0)}`);
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
  const view = views.get(board) ?? buildView(board, undefined);
  const e = extraOf(s);
  const mode = modeOf(board, s, e);
  drawTints(view, s, e);
  drawWalls(view, s, e);
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
  showsSeats: true,
  boardPx: 500,
  traits: ["show_region", "editing", "board_json"],
  hint: "Runner: click a highlighted tile. Blocker: click an edge to place a wall. Keys: arrows move, Enter steps, W then an arrow (or Shift+arrow) places a wall on that side of the focused tile, U undo",

  title(s) {
    return `GridBloc board, ${s.rows} by ${s.cols}`;
  },

  pieceKey(s, i) {
    return s.cells[i] === "R" ? `R${extraOf(s).runner}` : "";
  },

  drawPiece(g, s, i, size) {
    if (s.cells[i] !== "R") return;
    const e = extraOf(s);
    setAttr(g, "class", `gb-runner ${playerClass(e.runner)}`);
    const r = size * 0.3;
    svg("circle", { class: "gb-runner-shadow", r, cy: size * 0.03 }, g);
    svg("circle", { class: "gb-runner-disc", r }, g);
    // a pawn: head and body, in white on the disc
    const k = r / 10;
    svg("circle", { class: "gb-runner-pawn", cx: 0, cy: -3.6 * k, r: 2.6 * k }, g);
    svg("path", {
      class: "gb-runner-pawn",
      d: `M${-2.2 * k} ${-1.4 * k}h${4.4 * k}l${1.6 * k} ${5.6 * k}h${1 * k}v${1.8 * k}h${-9.6 * k}v${-1.8 * k}h${1 * k}z`,
    }, g);
  },

  describe(s, i) {
    const e = extraOf(s);
    const name = `${s.col_labels[i % s.cols] ?? "?"}${s.row_labels[Math.floor(i / s.cols)] ?? "?"}`;
    const text = s.cells[i] ?? "";
    const parts: string[] = [];
    if (text === "#" || e.holes.has(name)) return "hole";
    if (text === "R") parts.push(`runner (${playerName(s, e.runner)})`);
    if (name === e.start) parts.push("start");
    else if (text === "." || (text === "R" && e.scored.includes(name))) parts.push("scored");
    if (!parts.length) parts.push("empty");
    // the walls around the tile, for screen readers
    const sides: string[] = [];
    const r = Math.floor(i / s.cols);
    const c = i % s.cols;
    const cellName = (rr: number, cc: number): string => `${s.col_labels[cc]}${s.row_labels[rr]}`;
    const walls = new Set([...e.original, ...e.placed]);
    if (r > 0 && walls.has(`${cellName(r - 1, c)}|${name}`)) sides.push("above");
    if (r + 1 < s.rows && walls.has(`${name}|${cellName(r + 1, c)}`)) sides.push("below");
    if (c > 0 && walls.has(`${cellName(r, c - 1)}|${name}`)) sides.push("left");
    if (c + 1 < s.cols && walls.has(`${name}|${cellName(r, c + 1)}`)) sides.push("right");
    if (sides.length) parts.push(`wall${sides.length > 1 ? "s" : ""} ${sides.join(" and ")}`);
    return parts.join(", ");
  },

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
