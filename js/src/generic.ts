// The generic layer: what a game without a front-end layer of its own gets
// (a game written on the game protocol in a notebook cell, a game of another
// package). Python sends the game's picture as generic layers
// (`state.scene`: pieces, regions, edges, holes) and where each legal move is
// (`state.targets`), and this layer draws the one and offers the other:
//
// - cell moves: a click (or Enter) on the cell plays its move;
// - edge moves: a clickable slot on each legal edge, border edges too
//   (`[data-edge]`, named by the move; Tab reaches them, Enter plays);
// - multi-cell moves: cells are picked one by one, the moves still possible
//   are highlighted, and the move plays when the picked cells are exactly its
//   cells (Escape clears the pick);
// - choice moves (not on the board): buttons in the side panel (`[data-choice]`).
//
// At a simultaneous node the page plays for `current_player` and the status
// line says who has chosen; a hidden choice never reaches the page.

import { html, robotIcon, setAttr, setText, shortAgent, svg } from "./dom";
import { playerClass, registerGame, type Board, type GameLayer } from "./games/layer";
import type { GameState, Scene, ScenePanel, ScenePiece, Target } from "./types";

type Cell = [number, number];
type Piece = ScenePiece;

const pieceCache = new WeakMap<object, Map<number, Piece[]>>();

/** The scene's pieces by cell index, several per cell (a runner on the start), once per scene. */
function pieces(s: GameState): Map<number, Piece[]> {
  const scene = s.scene;
  if (!scene) return new Map();
  let map = pieceCache.get(scene);
  if (!map) {
    map = new Map();
    for (const p of scene.pieces ?? []) {
      const i = p.cell[0] * s.cols + p.cell[1];
      const list = map.get(i);
      if (list) list.push(p);
      else map.set(i, [p]);
    }
    pieceCache.set(scene, map);
  }
  return map;
}

function targets(s: GameState): Target[] {
  return s.targets;
}

/**
 * `el` is drawn on the board's current SVG (the board is built anew on a new
 * size). Not `isConnected`: a host may render the view before it attaches it
 * to the page (JupyterLab does), and what is drawn then must not be drawn twice.
 */
function drawnOn(board: Board, el: SVGElement | null): boolean {
  return !!el && el.ownerSVGElement === board.svg;
}

/** What the layer keeps per board between states. */
interface Kept {
  picked: Set<number>;
  choicesKey: string;
  slotsKey: string;
  drawKey: string;
  overKey: string;
  sideKey: string;
  slots: SVGGElement | null;
  drawn: SVGGElement | null;
  drawnOver: SVGGElement | null;
  choices: HTMLDivElement | null;
  pickedG: SVGGElement | null;
  side: SidePanel | null;
  /** The game's layer offers the choice moves itself. */
  noChoices: boolean;
}

/** The players' table and the notes beside the board (`scene.panel`, `scene.notes`). */
interface SidePanel {
  el: HTMLDivElement;
  notes: HTMLDivElement;
  table: HTMLTableElement;
  head: HTMLTableRowElement;
  body: HTMLTableSectionElement;
  columnsKey: string;
  rowKeys: string[];
}

const kept = new WeakMap<Board, Kept>();

function keep(board: Board): Kept {
  let k = kept.get(board);
  if (!k) {
    k = {
      picked: new Set(), choicesKey: "", slotsKey: "", drawKey: "", overKey: "", sideKey: "",
      slots: null, drawn: null, drawnOver: null, choices: null, pickedG: null, side: null, noChoices: false,
    };
    kept.set(board, k);
  }
  return k;
}

/** The segment of the edge between two adjacent cells (one may lie off the board). */
function edgeLine(board: Board, a: Cell, b: Cell): { x1: number; y1: number; x2: number; y2: number } | null {
  const [r1, c1] = a;
  const [r2, c2] = b;
  const cell = board.cell;
  if (r1 === r2 && Math.abs(c1 - c2) === 1) {
    const x = board.x(Math.max(c1, c2));
    return { x1: x, y1: board.y(r1), x2: x, y2: board.y(r1) + cell };
  }
  if (c1 === c2 && Math.abs(r1 - r2) === 1) {
    const y = board.y(Math.max(r1, r2));
    return { x1: board.x(c1), y1: y, x2: board.x(c1) + cell, y2: y };
  }
  return null;
}

function play(board: Board, s: GameState, move: string): void {
  board.send({ type: "play", move, version: s.version, player: s.current_player });
}

/**
 * The outer border of a set of cells (a shape made of several cells), a
 * little inside them, as one path (core/draw.py `_group_border`).
 */
function groupPath(board: Board, cells: Cell[]): string {
  const set = new Set(cells.map(([r, c]) => `${r},${c}`));
  const has = (r: number, c: number): boolean => set.has(`${r},${c}`);
  const cell = board.cell;
  const inset = Math.max(1.5, cell * 0.08);
  // an edge's end: pulled in at a convex corner, pushed out at a concave one
  const end = (along: boolean, diagonal: boolean): number => (!along ? inset : diagonal ? -inset : 0);
  const f = (v: number): string => v.toFixed(1);
  const parts: string[] = [];
  for (const [r, c] of cells) {
    const x = board.x(c);
    const y = board.y(r);
    if (!has(r - 1, c)) parts.push(`M${f(x + end(has(r, c - 1), has(r - 1, c - 1)))},${f(y + inset)}H${f(x + cell - end(has(r, c + 1), has(r - 1, c + 1)))}`);
    if (!has(r + 1, c)) parts.push(`M${f(x + end(has(r, c - 1), has(r + 1, c - 1)))},${f(y + cell - inset)}H${f(x + cell - end(has(r, c + 1), has(r + 1, c + 1)))}`);
    if (!has(r, c - 1)) parts.push(`M${f(x + inset)},${f(y + end(has(r - 1, c), has(r - 1, c - 1)))}V${f(y + cell - end(has(r + 1, c), has(r + 1, c - 1)))}`);
    if (!has(r, c + 1)) parts.push(`M${f(x + cell - inset)},${f(y + end(has(r - 1, c), has(r - 1, c + 1)))}V${f(y + cell - end(has(r + 1, c), has(r + 1, c + 1)))}`);
  }
  return parts.join("");
}

/**
 * Draw the scene's layers as the static picture does (core/draw.py), under
 * the pieces: tinted and shaded cells, holes, the fields' outlines; over
 * them: the outlines of shapes, the cells the last move changed (a ring that
 * fades) and the edges (walls, lines).
 */
function drawScene(board: Board, s: GameState, k: Kept): void {
  const scene = s.scene;
  const key = scene ? JSON.stringify([scene.regions, scene.holes]) : "";
  if (key !== k.drawKey || !drawnOn(board, k.drawn)) {
    k.drawKey = key;
    k.drawn?.remove();
    const under = svg("g", { class: "gw-scene-under", "data-role": "scene" }, board.under);
    k.drawn = under;
    const cell = board.cell;
    for (const region of scene?.regions ?? []) {
      const cls = `gw-region gw-region-${region.style} ${playerClass(region.player)}`;
      if (region.style === "tint" || region.style === "shade") {
        for (const [r, c] of region.cells) {
          svg("rect", { class: cls, x: board.x(c) + 1.5, y: board.y(r) + 1.5, width: cell - 3, height: cell - 3, rx: 3 }, under);
        }
      }
    }
    for (const [r, c] of scene?.holes ?? []) {
      svg("rect", { class: "gw-hole", "data-hole": board.notation(r, c), x: board.x(c) - 0.5, y: board.y(r) - 0.5, width: cell + 1, height: cell + 1 }, under);
    }
    for (const region of scene?.regions ?? []) {
      if (region.style !== "outline" || !region.cells.length) continue;
      const rs = region.cells.map(([r]) => r);
      const cs = region.cells.map(([, c]) => c);
      const r0 = Math.min(...rs);
      const c0 = Math.min(...cs);
      const g = svg("g", { class: "gw-field", "data-region": region.label || null }, under);
      svg("rect", {
        class: "gw-region gw-region-outline",
        x: board.x(c0), y: board.y(r0),
        width: (Math.max(...cs) + 1 - c0) * cell, height: (Math.max(...rs) + 1 - r0) * cell,
      }, g);
      if (region.label) {
        svg("title", {}, g).textContent = region.label;
        // the field's name in its top left corner, readable from the back of a room
        const fs = Math.max(9, Math.min(11, Math.round(cell * 0.2)));
        const t = svg("text", { class: "gw-region-label", x: board.x(c0) + 4, y: board.y(r0) + 3 + fs * 0.85, "font-size": fs, "aria-hidden": "true" }, g);
        t.textContent = region.label;
      }
    }
  }
  const overKey = scene ? JSON.stringify([s.version, scene.regions.filter((r) => r.style === "group" || r.style === "ring"), scene.edges, scene.last_edges]) : "";
  if (overKey === k.overKey && drawnOn(board, k.drawnOver)) return;
  k.overKey = overKey;
  k.drawnOver?.remove();
  // over the pieces, under the game's own and the shared overlays (slots, previews, hints)
  const over = svg("g", { class: "gw-scene-over", "data-role": "scene-over", "aria-hidden": "true" });
  board.over.prepend(over);
  k.drawnOver = over;
  if (!scene) return;
  const cell = board.cell;
  for (const region of scene.regions ?? []) {
    if (region.style === "group" && region.cells.length) {
      const path = svg("path", { class: `gw-region-group ${playerClass(region.player)}`, d: groupPath(board, region.cells), "stroke-width": Math.max(1.5, cell * 0.06).toFixed(1) }, over);
      if (region.label) path.setAttribute("data-region", region.label);
    } else if (region.style === "ring") {
      for (const [r, c] of region.cells) {
        svg("rect", {
          class: "gw-region-ring",
          // not data-cell: that names the one clickable cell
          "data-changed": board.notation(r, c),
          x: board.x(c) + 0.5, y: board.y(r) + 0.5, width: cell - 1, height: cell - 1,
          rx: Math.max(3, Math.round(cell * 0.24)),
        }, over);
      }
    }
  }
  const lastEdges = new Set((scene.last_edges ?? []).map((e) => JSON.stringify(e)));
  for (const e of scene.edges ?? []) {
    const line = edgeLine(board, e.a, e.b);
    if (!line) continue;
    const last = lastEdges.has(JSON.stringify([e.a, e.b]));
    svg("line", {
      ...line,
      class: `gw-scene-edge gw-edge-${e.style} ${playerClass(e.player)}${last ? " is-last" : ""}`,
      "data-line": `${board.notation(e.a[0], e.a[1])}|${board.notation(e.b[0], e.b[1])}`,
      "stroke-width": e.style === "wall" ? Math.max(3, Math.round(cell * 0.1)) : Math.max(2, Math.round(cell * 0.06)),
    }, over);
  }
}

/** The players' table and the notes beside the board, from `scene.panel` and `scene.notes`. */
function drawSide(board: Board, s: GameState, k: Kept): void {
  const scene = s.scene;
  const panel: ScenePanel | null = scene?.panel ?? null;
  const notes = scene?.notes ?? [];
  if (!k.side || k.side.el.parentElement !== board.panel) {
    k.side?.el.remove();
    const el = html("div", { class: "gw-scene-side", "data-role": "scene-side" });
    board.panel.prepend(el);
    const notesEl = html("div", { class: "gw-notes", "data-role": "note", role: "note", hidden: true }, undefined, el);
    const table = html("table", { class: "gw-players", "data-role": "players", "aria-label": "players" }, undefined, el);
    const head = html("tr", {}, undefined, html("thead", {}, undefined, table));
    const body = html("tbody", {}, undefined, table);
    k.side = { el, notes: notesEl, table, head, body, columnsKey: "", rowKeys: [] };
  }
  const side = k.side;
  const cp = s.is_over ? null : s.current_player;
  setText(side.notes, notes.join("\n"));
  side.notes.hidden = !notes.length;
  setAttr(side.notes, "class", `gw-notes ${cp !== null ? playerClass(cp) : "gw-pnone"}`);
  side.table.hidden = !panel;
  if (!panel) return;
  const columnsKey = panel.columns.join("\u0001");
  if (columnsKey !== side.columnsKey) {
    side.columnsKey = columnsKey;
    side.head.replaceChildren(...panel.columns.map((h, c) => html("th", { scope: "col", "data-col": slug(h, c) }, h)));
    side.body.replaceChildren();
    side.rowKeys = [];
  }
  // a game of tiles marks each player's tiles with a shape: the swatch shows it too
  const marked = (scene?.legend ?? []).some((item) => item.kind === "tile");
  const rows = side.body.rows;
  panel.rows.forEach((row, n) => {
    const seat = s.seats[row.player] ?? "";
    const key = JSON.stringify([row, seat, marked, cp]);
    if (side.rowKeys[n] === key && rows[n]) return;
    side.rowKeys[n] = key;
    const tr = html("tr", {
      class: `gw-prow ${playerClass(row.player)}${row.mark === "turn" ? " is-current" : ""}${row.mark === "winner" ? " is-winner" : ""}`,
      "data-player": row.player,
      "data-mark": row.mark || null,
      "aria-current": row.mark === "turn" ? "true" : null,
    });
    row.values.forEach((value, c) => {
      const td = html("td", { "data-col": slug(panel.columns[c] ?? "", c) }, undefined, tr);
      if (c > 0) {
        td.textContent = value;
        return;
      }
      const who = html("span", { class: "gw-pwho" }, undefined, td);
      const mark = row.mark === "turn" ? "\u25B6" : row.mark === "winner" ? "\u2605" : "";
      html("span", { class: `gw-pmark${mark ? "" : " is-none"}`, "aria-hidden": "true", title: row.mark === "turn" ? "to act" : row.mark || null }, mark, who);
      if (row.player >= 0) who.appendChild(swatch(row.player, marked));
      html("span", { class: "gw-pname" }, value, who);
      if (row.mark === "winner") html("span", { class: "gw-sr-only" }, " (winner)", who);
      if (seat) {
        const tag = html("span", { class: "gw-agent-tag", "data-role": "agent", title: `played by the agent ${seat}` }, undefined, td);
        tag.append(robotIcon(), document.createTextNode(shortAgent(seat)));
      }
    });
    const old = rows[n];
    if (old) old.replaceWith(tr);
    else side.body.appendChild(tr);
  });
  while (side.body.rows.length > panel.rows.length) side.body.lastElementChild!.remove();
  side.rowKeys.length = panel.rows.length;
}

/** A column's name as a `data-col` value ("Tiles left" -> "tiles-left"). */
function slug(heading: string, c: number): string {
  return heading.toLowerCase().replace(/\(.*?\)/g, "").trim().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || `col${c}`;
}

/** A player's swatch: the colour, and the owner's mark when tiles carry it. */
function swatch(player: number, marked: boolean): SVGSVGElement {
  const el = svg("svg", { class: `gw-swatch ${playerClass(player)}`, viewBox: "-6 -6 12 12", width: 12, height: 12, "aria-hidden": "true" });
  svg("rect", { class: "gw-swatch-bg", x: -6, y: -6, width: 12, height: 12, rx: 2 }, el);
  if (marked) ownerMark(el, player, 0, 0, 3.6);
  return el;
}

/**
 * The owner's mark in a tile's corner, so the owner is told without its
 * colour (WCAG 1.4.1): a disc for player 0, a square for 1, a triangle for
 * 2, a diamond for 3 (core/draw.py `owner_mark`).
 */
function ownerMark(g: SVGElement, p: number, cx: number, cy: number, r: number): void {
  const pts = (xy: Array<[number, number]>): string => xy.map(([x, y]) => `${(cx + x * r).toFixed(1)},${(cy + y * r).toFixed(1)}`).join(" ");
  if (p === 0) svg("circle", { class: "gw-owner-mark", cx, cy, r }, g);
  else if (p === 1) svg("rect", { class: "gw-owner-mark", x: cx - r * 0.9, y: cy - r * 0.9, width: r * 1.8, height: r * 1.8 }, g);
  else if (p === 2) svg("polygon", { class: "gw-owner-mark", points: pts([[0, -1], [1, 0.8], [-1, 0.8]]) }, g);
  else if (p === 3) svg("polygon", { class: "gw-owner-mark", points: pts([[0, -1], [1, 0], [0, 1], [-1, 0]]) }, g);
}

/** Clickable slots on the legal edges. */
function drawSlots(board: Board, s: GameState, k: Kept): void {
  // an agent's move, or the game over: no slot to offer
  const edges = s.agent_to_move || s.is_over ? [] : targets(s).filter((t) => t.kind === "edge" && t.edge);
  const key = `${s.version}|${edges.map((t) => t.move).join(",")}`;
  if (key === k.slotsKey && drawnOn(board, k.slots)) return;
  k.slotsKey = key;
  k.slots?.remove();
  // inside the board's grid: a row of cells, each slot a cell that plays its edge
  const g = svg("g", edges.length
    ? { class: "gw-edge-slots", "data-role": "edge-slots", role: "row", "aria-label": "edges" }
    : { class: "gw-edge-slots", "data-role": "edge-slots", "aria-hidden": "true" }, board.over);
  k.slots = g;
  // a slot's hit area: a long hexagon along the edge, pointed at the corners;
  // while no cell is a move (a wall to place) it covers the triangles of the
  // two cells that face the edge, so every slot is a target of 24 px and more
  // (WCAG 2.5.8) and the slots of a corner never overlap
  const wide = !targets(s).some((t) => t.kind === "cell" || t.kind === "cells");
  const half = board.cell * (wide ? 0.48 : 0.2);
  const tip = board.cell * 0.03;
  const f = (v: number): string => v.toFixed(1);
  for (const t of edges) {
    const line = edgeLine(board, t.edge![0], t.edge![1]);
    if (!line) continue;
    const horizontal = line.y1 === line.y2;
    const slot = svg("g", {
      class: `gw-edge-slot ${playerClass(s.current_player ?? -1)}`,
      "data-edge": t.move,
      role: "gridcell",
      tabindex: 0,
      "aria-label": `place ${t.move}`,
    }, g);
    const { x1, y1, x2, y2 } = line;
    const pts: Array<[number, number]> = horizontal
      ? [[x1 + tip, y1], [x1 + half, y1 - half], [x2 - half, y1 - half], [x2 - tip, y1], [x2 - half, y1 + half], [x1 + half, y1 + half]]
      : [[x1, y1 + tip], [x1 + half, y1 + half], [x1 + half, y2 - half], [x1, y2 - tip], [x1 - half, y2 - half], [x1 - half, y1 + half]];
    svg("polygon", { class: "gw-edge-hit", points: pts.map(([x, y]) => `${f(x)},${f(y)}`).join(" ") }, slot);
    svg("line", { class: "gw-edge-preview", ...line }, slot);
    const fire = (ev: Event): void => {
      ev.stopPropagation();
      play(board, s, t.move);
    };
    slot.addEventListener("click", fire);
    slot.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        fire(ev);
      }
    });
  }
}

/** Buttons for the moves that are not on the board. */
function drawChoices(board: Board, s: GameState, k: Kept): void {
  const choices = targets(s).filter((t) => t.kind === "choice");
  const key = `${s.version}|${choices.map((t) => t.move).join("\u0001")}`;
  if (key === k.choicesKey && k.choices?.parentElement === board.panel) return;
  k.choicesKey = key;
  k.choices?.remove();
  k.choices = null;
  if (!choices.length) return;
  const box = html("div", { class: "gw-choices", role: "group", "data-role": "choices", "aria-label": "moves" }, undefined, board.panel);
  k.choices = box;
  const who = s.current_player !== null ? s.players[s.current_player] ?? "" : "";
  if (who) html("span", { class: "gw-section-title" }, `${who}:`, box);
  for (const t of choices) {
    const b = html("button", {
      type: "button",
      class: `gw-btn gw-choice ${playerClass(s.current_player ?? -1)}`,
      "data-choice": t.move,
      "data-lm-suppress-shortcuts": "true",
    }, t.move, box);
    b.addEventListener("click", () => play(board, s, t.move));
  }
}

/** The multi-cell moves still possible with the cells picked so far. */
function candidates(s: GameState, picked: Set<number>): Target[] {
  return targets(s).filter((t) => {
    if (t.kind !== "cells" || !t.cells) return false;
    const own = new Set(t.cells.map(([r, c]) => r * s.cols + c));
    for (const i of picked) if (!own.has(i)) return false;
    return true;
  });
}

function drawPicked(board: Board, s: GameState, k: Kept): void {
  k.pickedG?.remove();
  k.pickedG = null;
  if (!k.picked.size) return;
  const g = svg("g", { class: "gw-picked-g", "aria-hidden": "true", "data-role": "picked" }, board.over);
  k.pickedG = g;
  const cell = board.cell;
  const open = new Set<number>();
  for (const t of candidates(s, k.picked)) for (const [r, c] of t.cells!) open.add(r * s.cols + c);
  for (const i of open) {
    const r = Math.floor(i / s.cols);
    const c = i % s.cols;
    const picked = k.picked.has(i);
    svg("rect", {
      class: `${picked ? "gw-picked" : "gw-candidate"} ${playerClass(s.current_player ?? -1)}`,
      "data-picked": picked ? board.notation(r, c) : null,
      x: board.x(c) + 2, y: board.y(r) + 2, width: cell - 4, height: cell - 4, rx: 4,
    }, g);
  }
}

/** Draw one piece centred on 0,0 in a cell of side `size` (core/draw.py `_piece`, the page's own touches). */
function glyph(g: SVGGElement, p: Piece, size: number): void {
  const cls = playerClass(p.player);
  if (p.kind === "tile") {
    const inset = size >= 24 ? 1.5 : 1;
    const side = size - 2 * inset;
    const t = svg("g", { class: `gw-piece-tile ${cls}${p.active ? "" : " is-inactive"}` }, g);
    svg("rect", { class: "gw-tile", x: -side / 2, y: -side / 2, width: side, height: side, rx: Math.max(2, Math.round(size * 0.2)) }, t);
    ownerMark(t, p.player, -size * 0.26, -size * 0.26, size * 0.1);
    if (p.text) {
      const fs = p.text.length >= 3 ? size * 0.4 : p.text.length === 2 ? size * 0.48 : size * 0.52;
      const num = svg("text", {
        class: "gw-tile-num",
        dy: "0.35em",
        "font-size": Math.max(7, Math.round(fs * 2) / 2),
        // "100" is squeezed into the tile rather than overflowing it
        ...(p.text.length >= 3 ? { textLength: Math.round(side * 0.8), lengthAdjust: "spacingAndGlyphs" } : {}),
      }, t);
      num.textContent = p.text;
    }
    return;
  }
  if (p.kind === "token") {
    // a disc with a pawn on it (a runner)
    const r = size * 0.3;
    const t = svg("g", { class: `gw-piece-token ${cls}` }, g);
    svg("circle", { class: "gw-token-shadow", r, cy: size * 0.03 }, t);
    svg("circle", { class: "gw-token", r }, t);
    const k = r / 10;
    svg("circle", { class: "gw-token-pawn", cx: 0, cy: -3.6 * k, r: 2.6 * k }, t);
    svg("path", {
      class: "gw-token-pawn",
      d: `M${-2.2 * k} ${-1.4 * k}h${4.4 * k}l${1.6 * k} ${5.6 * k}h${1 * k}v${1.8 * k}h${-9.6 * k}v${-1.8 * k}h${1 * k}z`,
    }, t);
    return;
  }
  if (p.kind === "star") {
    const pts: string[] = [];
    for (let n = 0; n < 10; n++) {
      const a = Math.PI / 2 + (n * Math.PI) / 5;
      const rr = (n % 2 === 0 ? 0.32 : 0.14) * size;
      pts.push(`${(rr * Math.cos(a)).toFixed(1)},${(-rr * Math.sin(a)).toFixed(1)}`);
    }
    svg("polygon", { class: `gw-star ${cls}`, points: pts.join(" ") }, g);
    return;
  }
  const stroke = Math.max(2, size * 0.1);
  if (p.kind === "mark" && p.text === "X") {
    const a = size * 0.24;
    svg("path", { d: `M${-a} ${-a}L${a} ${a}M${a} ${-a}L${-a} ${a}`, class: `gw-mark ${cls}`, "stroke-width": stroke }, g);
    return;
  }
  if (p.kind === "mark" && p.text === "O") {
    svg("circle", { r: size * 0.27, class: `gw-mark ${cls}`, "stroke-width": stroke }, g);
    return;
  }
  if (p.text) {
    const text = p.kind === "text" ? p.text : p.text.slice(0, 2);
    const fs = Math.max(8, Math.round(size * (text.length > 2 ? 0.3 : text.length > 1 ? 0.4 : 0.5)));
    const t = svg("text", { class: `gw-piece-text gw-piece-${p.kind} ${cls}`, dy: "0.35em", "font-size": fs }, g);
    t.textContent = text;
  }
}

/** How the cell is named for people: its pieces, a hole, its region, the walls around it. */
function describeCell(s: GameState, i: number): string {
  const scene = s.scene;
  if (!scene) return s.cells[i] ?? "";
  const r = Math.floor(i / s.cols);
  const c = i % s.cols;
  const at = (cells: Cell[]): boolean => cells.some(([rr, cc]) => rr === r && cc === c);
  if (at(scene.holes ?? [])) return "hole";
  const parts: string[] = [];
  for (const p of pieces(s).get(i) ?? []) {
    const who = p.player >= 0 ? s.players[p.player] ?? `player ${p.player}` : "";
    const what = p.label || p.text || p.kind;
    parts.push(who && !what.includes(who) ? `${who} ${what}` : what);
  }
  for (const region of scene.regions ?? []) {
    if (region.style !== "outline" && region.style !== "group" && region.label && at(region.cells)) parts.push(region.label);
  }
  // the edges around the cell (walls, lines), for screen readers
  const sides = new Map<string, string[]>();
  for (const e of scene.edges ?? []) {
    const [a, b] = [e.a, e.b];
    const other = a[0] === r && a[1] === c ? b : b[0] === r && b[1] === c ? a : null;
    // the board's rim goes without saying
    if (!other || other[0] < 0 || other[1] < 0 || other[0] >= s.rows || other[1] >= s.cols) continue;
    const side = other[0] < r ? "above" : other[0] > r ? "below" : other[1] < c ? "left" : "right";
    const list = sides.get(e.style) ?? [];
    list.push(side);
    sides.set(e.style, list);
  }
  for (const [style, list] of sides) parts.push(`${style}${list.length > 1 ? "s" : ""} ${list.join(" and ")}`);
  return parts.join(", ");
}

/** The layer of every game: it draws the scene and plays the moves on the board. */
export const genericLayer: GameLayer = {
  title(s) {
    return `${s.contract.long_name || s.game || "game"} board, ${s.rows} by ${s.cols}`;
  },

  pieceKey(s, i) {
    const list = pieces(s).get(i);
    if (list) return list.map((p) => `${p.kind}|${p.player}|${p.text}|${p.active}`).join("\u0001");
    return s.scene ? "" : `|${s.cells[i] ?? ""}|${s.owners[i] ?? -1}`;
  },

  drawPiece(g, s, i, size) {
    const list = pieces(s).get(i);
    if (list) {
      for (const p of list) glyph(g, p, size);
      return;
    }
    if (s.scene) return;
    // no scene (an older state): the cell's text in its owner's colour
    const text = s.cells[i] ?? "";
    if (!text) return;
    glyph(g, { cell: [0, 0], kind: "mark", player: s.owners[i] ?? -1, text, active: true, label: "" }, size);
  },

  describe: describeCell,

  predict(s, i) {
    // the piece a cell move of the mover puts down, as the scene says (`next_piece`)
    const next = s.scene?.next_piece;
    if (!next || !s.scene) return null;
    const r = Math.floor(i / s.cols);
    const c = i % s.cols;
    const scene: Scene = { ...s.scene, pieces: [...s.scene.pieces.filter((p) => p.cell[0] !== r || p.cell[1] !== c), { ...next, cell: [r, c] }] };
    return { ...s, scene };
  },

  legalCells(s) {
    const out: string[] = [];
    for (const t of targets(s)) {
      if (t.kind === "cell" && t.cell) out.push(`${s.col_labels[t.cell[1]]}${s.row_labels[t.cell[0]]}`);
      else if (t.kind === "cells" && t.cells) for (const [r, c] of t.cells) out.push(`${s.col_labels[c]}${s.row_labels[r]}`);
    }
    return out;
  },

  update(board, s) {
    const k = keep(board);
    drawScene(board, s, k);
    drawSide(board, s, k);
    drawSlots(board, s, k);
    if (!k.noChoices) drawChoices(board, s, k);
    // a new position clears a pick that no longer leads to a move
    if (k.picked.size && !candidates(s, k.picked).length) k.picked.clear();
    drawPicked(board, s, k);
    setAttr(board.svg, "data-targets", String(targets(s).length));
    setAttr(board.svg, "data-tiles", s.scene?.pieces.some((p) => p.kind === "tile") ? "true" : null);
  },

  activate(board, s, i) {
    const k = keep(board);
    const r = Math.floor(i / s.cols);
    const c = i % s.cols;
    if (!k.picked.size) {
      const single = targets(s).find((t) => t.kind === "cell" && t.cell && t.cell[0] === r && t.cell[1] === c);
      // the shared view plays a move named by its cell (and paints the piece at once)
      if (single && single.move.toUpperCase() === board.notation(r, c).toUpperCase()) return false;
      if (single) {
        play(board, s, single.move);
        return true;
      }
    }
    const multi = targets(s).some((t) => t.kind === "cells");
    if (!multi) return false; // Python answers the click (e.g. with the rule it breaks)
    const next = new Set(k.picked);
    if (next.has(i)) next.delete(i);
    else next.add(i);
    let open = candidates(s, next);
    if (!open.length) {
      next.clear();
      next.add(i);
      open = candidates(s, next);
      if (!open.length) next.clear();
    }
    k.picked = next;
    const done = open.find((t) => t.cells!.length === next.size);
    if (done) {
      k.picked = new Set();
      play(board, s, done.move);
    }
    drawPicked(board, s, k);
    return true;
  },

  key(board, s, ev) {
    if (ev.key !== "Escape") return false;
    const k = keep(board);
    if (!k.picked.size) return false;
    k.picked.clear();
    drawPicked(board, s, k);
    return true;
  },
};

registerGame("", genericLayer);

/**
 * A game's layer over the generic one: the generic layer draws the scene
 * (pieces, regions, edges, the players' table) and plays the moves on the
 * board; the game's layer adds what is its own to do in the page (a secret
 * bid picker, a placement preview, a board editor). Its hooks run first
 * (`activate`, `key`: when they return false the generic ones run); `update`
 * runs after the generic one.
 */
export function withGeneric(layer: GameLayer): GameLayer {
  // a game without a layer of its own: the generic one alone (its flags reset too)
  const own: GameLayer = layer === genericLayer ? {} : layer;
  const g = genericLayer;
  return {
    title: (s) => own.title?.(s) ?? g.title!(s),
    boardPx: own.boardPx,
    showsSeats: own.showsSeats,
    traits: own.traits,
    hint: own.hint,
    pieceKey: g.pieceKey,
    drawPiece: g.drawPiece,
    describe: g.describe,
    legalCells: (s) => (own.legalCells ?? g.legalCells!)(s),
    predict: own.predict ?? g.predict,
    build: (board) => own.build?.(board),
    update: (board, s) => {
      keep(board).noChoices = own.ownsChoices === true;
      g.update!(board, s);
      own.update?.(board, s);
    },
    activate: (board, s, i, how) => own.activate?.(board, s, i, how) === true || g.activate!(board, s, i, how),
    key: (board, s, ev) => own.key?.(board, s, ev) === true || g.key!(board, s, ev),
    point: own.point,
  };
}
