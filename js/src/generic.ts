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

import { html, setAttr, svg } from "./dom";
import { playerClass, registerGame, type Board, type GameLayer } from "./games/layer";
import type { GameState, Scene, Target } from "./types";

type Cell = [number, number];
type Piece = Scene["pieces"][number];

const pieceCache = new WeakMap<object, Map<number, Piece>>();

/** The scene's pieces by cell index (computed once per state object). */
function pieces(s: GameState): Map<number, Piece> {
  const scene = s.scene;
  if (!scene) return new Map();
  let map = pieceCache.get(scene);
  if (!map) {
    map = new Map();
    for (const p of scene.pieces ?? []) map.set(p.cell[0] * s.cols + p.cell[1], p);
    pieceCache.set(scene, map);
  }
  return map;
}

function targets(s: GameState): Target[] {
  return s.targets;
}

/** What the layer keeps per board between states. */
interface Kept {
  picked: Set<number>;
  choicesKey: string;
  slotsKey: string;
  drawKey: string;
  slots: SVGGElement | null;
  drawn: SVGGElement | null;
  choices: HTMLDivElement | null;
  pickedG: SVGGElement | null;
}

const kept = new WeakMap<Board, Kept>();

function keep(board: Board): Kept {
  let k = kept.get(board);
  if (!k) {
    k = { picked: new Set(), choicesKey: "", slotsKey: "", drawKey: "", slots: null, drawn: null, choices: null, pickedG: null };
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

/** Draw the scene's regions, holes and edges (under and over the pieces). */
function drawScene(board: Board, s: GameState, k: Kept): void {
  const scene = s.scene;
  const key = scene ? JSON.stringify([scene.regions, scene.holes, scene.edges, scene.last_edges]) : "";
  if (key === k.drawKey && k.drawn?.isConnected) return;
  k.drawKey = key;
  k.drawn?.remove();
  const under = svg("g", { class: "gw-scene-under", "data-role": "scene" }, board.under);
  k.drawn = under;
  if (!scene) return;
  const cell = board.cell;
  for (const region of scene.regions ?? []) {
    const cls = `gw-region gw-region-${region.style} ${playerClass(region.player)}`;
    for (const [r, c] of region.cells) {
      svg("rect", { class: cls, x: board.x(c) + 1.5, y: board.y(r) + 1.5, width: cell - 3, height: cell - 3, rx: 3 }, under);
    }
  }
  for (const [r, c] of scene.holes ?? []) {
    svg("rect", { class: "gw-hole", x: board.x(c), y: board.y(r), width: cell, height: cell }, under);
  }
  const lastEdges = new Set((scene.last_edges ?? []).map((e) => JSON.stringify(e)));
  for (const e of scene.edges ?? []) {
    const line = edgeLine(board, e.a, e.b);
    if (!line) continue;
    const last = lastEdges.has(JSON.stringify([e.a, e.b]));
    svg("line", { ...line, class: `gw-scene-edge gw-edge-${e.style} ${playerClass(e.player)}${last ? " is-last" : ""}` }, under);
  }
}

/** Clickable slots on the legal edges. */
function drawSlots(board: Board, s: GameState, k: Kept): void {
  const edges = targets(s).filter((t) => t.kind === "edge" && t.edge);
  const key = `${s.version}|${edges.map((t) => t.move).join(",")}`;
  if (key === k.slotsKey && k.slots?.isConnected) return;
  k.slotsKey = key;
  k.slots?.remove();
  const g = svg("g", { class: "gw-edge-slots", "data-role": "edge-slots" }, board.over);
  k.slots = g;
  const pad = Math.max(3, board.cell * 0.14);
  for (const t of edges) {
    const line = edgeLine(board, t.edge![0], t.edge![1]);
    if (!line) continue;
    const horizontal = line.y1 === line.y2;
    const slot = svg("g", {
      class: `gw-edge-slot ${playerClass(s.current_player ?? -1)}`,
      "data-edge": t.move,
      role: "button",
      tabindex: 0,
      "aria-label": `draw ${t.move}`,
    }, g);
    svg("rect", {
      class: "gw-edge-hit",
      x: horizontal ? line.x1 + pad : line.x1 - pad,
      y: horizontal ? line.y1 - pad : line.y1 + pad,
      width: horizontal ? board.cell - 2 * pad : 2 * pad,
      height: horizontal ? 2 * pad : board.cell - 2 * pad,
      rx: pad,
    }, slot);
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
  if (key === k.choicesKey && k.choices?.isConnected) return;
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

function glyph(g: SVGGElement, p: Piece, size: number): void {
  const cls = playerClass(p.player);
  if (p.kind === "tile") {
    svg("rect", { class: `gw-tile ${cls}${p.active ? "" : " is-inactive"}`, x: -size * 0.42, y: -size * 0.42, width: size * 0.84, height: size * 0.84, rx: size * 0.14 }, g);
  } else if (p.kind === "token") {
    svg("circle", { class: `gw-token ${cls}`, r: size * 0.28 }, g);
  } else if (p.kind === "star") {
    const pts: string[] = [];
    for (let k = 0; k < 10; k++) {
      const a = Math.PI / 2 + (k * Math.PI) / 5;
      const rr = (k % 2 === 0 ? 0.32 : 0.14) * size;
      pts.push(`${(rr * Math.cos(a)).toFixed(1)},${(-rr * Math.sin(a)).toFixed(1)}`);
    }
    svg("polygon", { class: `gw-star ${cls}`, points: pts.join(" ") }, g);
  }
  if (p.text && p.kind !== "token" && p.kind !== "star") {
    const fs = Math.max(8, Math.round(size * (p.text.length > 2 ? 0.3 : p.text.length > 1 ? 0.4 : 0.5)));
    const t = svg("text", {
      class: `gw-disc-text gw-piece-text gw-piece-${p.kind} ${cls}${p.active ? "" : " is-inactive"}`,
      dy: "0.35em",
      "font-size": fs,
    }, g);
    t.textContent = p.text;
  }
}

/** The fallback layer of every game without one of its own. */
export const genericLayer: GameLayer = {
  title(s) {
    return `${s.scene?.title || s.game || "game"} board, ${s.rows} by ${s.cols}`;
  },

  pieceKey(s, i) {
    const p = pieces(s).get(i);
    return p ? `${p.kind}|${p.player}|${p.text}|${p.active}` : `|${s.cells[i] ?? ""}|${s.owners[i] ?? -1}`;
  },

  drawPiece(g, s, i, size) {
    const p = pieces(s).get(i);
    if (p) {
      glyph(g, p, size);
      return;
    }
    // no scene (an older state): the cell's text in its owner's colour
    const text = s.cells[i] ?? "";
    if (!text) return;
    glyph(g, { cell: [0, 0], kind: "mark", player: s.owners[i] ?? -1, text, active: true, label: "" }, size);
  },

  describe(s, i) {
    const p = pieces(s).get(i);
    if (p) {
      const who = p.player >= 0 ? s.players[p.player] ?? `player ${p.player}` : "";
      const what = p.label || p.text || p.kind;
      return who && who !== what ? `${who} ${what}` : what;
    }
    return s.cells[i] ?? "";
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
    drawSlots(board, s, k);
    drawChoices(board, s, k);
    // a new position clears a pick that no longer leads to a move
    if (k.picked.size && !candidates(s, k.picked).length) k.picked.clear();
    drawPicked(board, s, k);
    setAttr(board.svg, "data-targets", String(targets(s).length));
  },

  activate(board, s, i) {
    const k = keep(board);
    const r = Math.floor(i / s.cols);
    const c = i % s.cols;
    if (!k.picked.size) {
      const single = targets(s).find((t) => t.kind === "cell" && t.cell && t.cell[0] === r && t.cell[1] === c);
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
