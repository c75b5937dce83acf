// GridMaster4 (RULES GM-1..GM-10): numbered tiles in the players' colours,
// inactive tiles muted (GM-5, GM-10), the tiles the last move switched off
// marked by a fading ring, and a player panel off the board: score, tiles
// left, active tiles, free placements owed (GM-7), blocked (GM-6), winners
// (GM-8). The rules stay in Python: everything here is drawn from `state`.

import { html, robotIcon, setAttr, setText, shortAgent, svg } from "../dom";
import type { GameState } from "../types";
import { playerClass, registerGame, type Board, type GameLayer } from "./layer";
import "./gridmaster4.css";

/** One entry of `extra.players` (docs/frontend.md). */
interface Gm4Player {
  name: string;
  score: number;
  remaining: number;
  active: number;
  owed: number;
  blocked: boolean;
  status: string;
}

interface Gm4Extra {
  tiles: number[];
  active: boolean[];
  deactivated: string[];
  free_placement: boolean;
  players: Gm4Player[];
}

function num(v: unknown, d = 0): number {
  return typeof v === "number" && Number.isFinite(v) ? v : d;
}

const extras = new WeakMap<GameState, Gm4Extra>();

/**
 * The owner's mark in a tile's corner, so the owner is told without its colour
 * (WCAG 1.4.1; two colours look alike to many): a disc for player 0, a square
 * for 1, a triangle for 2, a diamond for 3, as the static picture draws them
 * (core/draw.py owner_mark).
 */
function ownerMark(g: SVGGElement, p: number, cx: number, cy: number, r: number): void {
  const pts = (xy: Array<[number, number]>): string => xy.map(([x, y]) => `${(cx + x * r).toFixed(1)},${(cy + y * r).toFixed(1)}`).join(" ");
  if (p === 0) svg("circle", { class: "gm4-mark", cx, cy, r }, g);
  else if (p === 1) svg("rect", { class: "gm4-mark", x: cx - r * 0.9, y: cy - r * 0.9, width: r * 1.8, height: r * 1.8 }, g);
  else if (p === 2) svg("polygon", { class: "gm4-mark", points: pts([[0, -1], [1, 0.8], [-1, 0.8]]) }, g);
  else if (p === 3) svg("polygon", { class: "gm4-mark", points: pts([[0, -1], [1, 0], [0, 1], [-1, 0]]) }, g);
}

/** `state.extra`, checked (a partial or older state still draws); once per state. */
function extraOf(s: GameState): Gm4Extra {
  let e = extras.get(s);
  if (!e) {
    e = readExtra(s);
    extras.set(s, e);
  }
  return e;
}

function readExtra(s: GameState): Gm4Extra {
  const e = s.extra as Record<string, unknown>;
  const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
  const players = list<Record<string, unknown>>(e.players).map((p, i) => ({
    name: typeof p?.name === "string" ? p.name : s.players[i] ?? `player ${i}`,
    score: num(p?.score),
    remaining: num(p?.remaining),
    active: num(p?.active),
    owed: num(p?.owed),
    blocked: p?.blocked === true,
    status: typeof p?.status === "string" ? p.status : "",
  }));
  return {
    tiles: list<number>(e.tiles),
    active: list<boolean>(e.active),
    deactivated: list<string>(e.deactivated).filter((x) => typeof x === "string"),
    free_placement: e.free_placement === true,
    players,
  };
}

function tileText(s: GameState, i: number, e: Gm4Extra): string {
  const t = e.tiles[i];
  if (typeof t === "number" && t > 0) return String(t);
  return s.cells[i] ?? "";
}

function isActive(s: GameState, i: number, e: Gm4Extra): boolean {
  // without `extra.active` (a hand-made state), every tile shows as active
  return e.active.length === s.cells.length ? e.active[i] === true : true;
}

const STATUS_TEXT: Record<string, string> = {
  "to move": "to move",
  "free placement": "free placement (GM-7)",
  opening: "opening (GM-2)",
  waiting: "waiting",
  blocked: "blocked (GM-6)",
  winner: "winner",
  "shared win": "shared win",
  lost: "",
};

/** The per-view parts the layer keeps (the layer itself is shared by all views). */
interface View {
  note: HTMLDivElement;
  body: HTMLTableSectionElement;
  rows: Row[];
  rings: SVGGElement;
  ringsKey: string;
}

interface Row {
  tr: HTMLTableRowElement;
  name: HTMLSpanElement;
  nameText: HTMLSpanElement;
  trophy: HTMLSpanElement;
  status: HTMLSpanElement;
  agent: HTMLSpanElement;
  agentKey: string;
  score: HTMLTableCellElement;
  remaining: HTMLTableCellElement;
  active: HTMLTableCellElement;
  owed: HTMLTableCellElement;
}

const views = new WeakMap<Board, View>();

function buildView(board: Board): View {
  const panel = board.panel;
  panel.replaceChildren();
  panel.classList.add("gm4-panel");
  const note = html("div", { class: "gm4-note", "data-role": "note", role: "note", hidden: true }, undefined, panel);
  const table = html("table", { class: "gm4-table", "data-role": "players", "aria-label": "players" }, undefined, panel);
  const head = html("tr", {}, undefined, html("thead", {}, undefined, table));
  html("th", { scope: "col" }, "Player", head);
  html("th", { scope: "col", title: "the highest tile placed (GM-1)" }, "Score", head);
  html("th", { scope: "col", title: "tiles not yet placed" }, "Left", head);
  html("th", { scope: "col", title: "active tiles (GM-5)" }, "Active", head);
  html("th", { scope: "col", title: "free placements owed (GM-7)" }, "Owed", head);
  const body = html("tbody", {}, undefined, table);
  const rings = svg("g", { class: "gm4-rings", "aria-hidden": "true" }, board.over);
  const view: View = { note, body, rows: [], rings, ringsKey: "" };
  views.set(board, view);
  return view;
}

function makeRow(view: View, p: number): Row {
  const tr = html("tr", { class: `gm4-row ${playerClass(p)}`, "data-player": p }, undefined, view.body);
  const who = html("td", { class: "gm4-who" }, undefined, tr);
  const name = html("span", { class: "gm4-name" }, undefined, who);
  // the swatch carries the player's tile mark: the key from shape to player
  const swatch = svg("svg", { class: "gw-swatch gm4-swatch", viewBox: "-6 -6 12 12", width: 12, height: 12, "aria-hidden": "true" });
  svg("rect", { class: "gm4-swatch-bg", x: -6, y: -6, width: 12, height: 12, rx: 2 }, swatch);
  ownerMark(swatch, p, 0, 0, 3.6);
  name.appendChild(swatch);
  const nameText = html("span", { class: "gm4-name-text" }, "", name);
  const trophy = html("span", { class: "gm4-trophy", "aria-hidden": "true", hidden: true }, "\u2605", name);
  const sub = html("div", { class: "gm4-sub" }, undefined, who);
  const status = html("span", { class: "gm4-status", "data-col": "status" }, "", sub);
  const agent = html("span", { class: "gw-agent-tag", "data-role": "agent", hidden: true }, undefined, sub);
  const cell = (col: string): HTMLTableCellElement => html("td", { class: `gm4-${col}`, "data-col": col }, "", tr);
  return {
    tr, name, nameText, trophy, status, agent, agentKey: "",
    score: cell("score"), remaining: cell("remaining"), active: cell("active"), owed: cell("owed"),
  };
}

export const gridmaster4Layer: GameLayer = {
  // 20x20 cells of 25 px: the numbers stay readable and the board fits a notebook column
  boardPx: 540,
  showsSeats: true,

  title(s) {
    return `GridMaster4 board, ${s.rows} by ${s.cols}`;
  },

  predict(s, i) {
    // the mover's next tile: one more than their highest (GM-2, GM-4)
    const p = s.current_player;
    if (p === null || p < 0) return null;
    const e = extraOf(s);
    const next = (e.players[p]?.score ?? 0) + 1;
    const owners = s.owners.slice();
    owners[i] = p;
    const x = s.extra as Record<string, unknown>;
    const tiles = e.tiles.slice();
    const active = e.active.slice();
    tiles[i] = next;
    if (active.length === s.cells.length) active[i] = true;
    return { ...s, owners, extra: { ...x, tiles, active } };
  },

  pieceKey(s, i) {
    const e = extraOf(s);
    const owner = s.owners[i] ?? -1;
    const text = tileText(s, i, e);
    if (!text && owner < 0) return "";
    return `${text}\u0001${owner}\u0001${isActive(s, i, e) ? 1 : 0}`;
  },

  drawPiece(g, s, i, size) {
    const e = extraOf(s);
    const owner = s.owners[i] ?? -1;
    const text = tileText(s, i, e);
    if (!text && owner < 0) return;
    const active = isActive(s, i, e);
    setAttr(g, "class", `gm4-piece ${playerClass(owner)}${active ? "" : " gm4-off"}`);
    const inset = size >= 24 ? 1.5 : 1;
    const side = size - 2 * inset;
    const rx = Math.max(2, Math.round(size * 0.2));
    svg("rect", { class: "gm4-tile", x: -side / 2, y: -side / 2, width: side, height: side, rx }, g);
    ownerMark(g, owner, -size * 0.26, -size * 0.26, size * 0.1);
    if (text) {
      const fs = text.length >= 3 ? size * 0.4 : text.length === 2 ? size * 0.48 : size * 0.52;
      const t = svg("text", {
        class: "gm4-num",
        dy: "0.35em",
        "font-size": Math.max(7, Math.round(fs * 2) / 2),
        // "100" is squeezed into the tile rather than overflowing it
        ...(text.length >= 3 ? { textLength: Math.round(side * 0.8), lengthAdjust: "spacingAndGlyphs" } : {}),
      }, g);
      t.textContent = text;
    }
  },

  describe(s, i) {
    const e = extraOf(s);
    const owner = s.owners[i] ?? -1;
    const text = tileText(s, i, e);
    if (!text && owner < 0) return "";
    const name = owner >= 0 ? e.players[owner]?.name ?? s.players[owner] ?? `player ${owner}` : "";
    return `${name} ${text}, ${isActive(s, i, e) ? "active" : "inactive"}`.trim();
  },

  build(board) {
    buildView(board);
  },

  update(board, s) {
    const view = views.get(board) ?? buildView(board);
    const e = extraOf(s);
    const cp = s.is_over ? null : s.current_player;

    // The tiles the last move switched off (GM-5): a ring that fades, drawn
    // again only when the move changes.
    const ringsKey = `${s.version}|${e.deactivated.join(",")}`;
    if (ringsKey !== view.ringsKey) {
      view.ringsKey = ringsKey;
      view.rings.replaceChildren();
      const c = board.cell;
      for (const name of e.deactivated) {
        const i = board.index(name);
        if (i < 0) continue;
        const r = Math.floor(i / s.cols);
        const col = i % s.cols;
        svg("rect", {
          class: "gm4-deact",
          // not data-cell: that names the one clickable cell
          "data-deactivated": name,
          x: board.x(col) + 0.5,
          y: board.y(r) + 0.5,
          width: c - 1,
          height: c - 1,
          rx: Math.max(3, Math.round(c * 0.24)),
        }, view.rings);
      }
    }

    // Free placement or the opening: every open cell is legal.
    const free = e.free_placement && !s.is_over && cp !== null;
    view.note.hidden = !free;
    if (free) {
      const who = e.players[cp]?.name ?? s.players[cp] ?? `player ${cp}`;
      const opening = e.players[cp]?.status === "opening";
      setText(view.note, opening
        ? `Opening (GM-2): ${who} places tile 1 on any open cell`
        : `Free placement (GM-7): ${who} may use any open cell`);
      setAttr(view.note, "class", `gm4-note ${playerClass(cp)}`);
    }

    // The player panel.
    const players = e.players.length ? e.players : s.players.map((name) => ({
      name, score: 0, remaining: 0, active: 0, owed: 0, blocked: false, status: "",
    }));
    while (view.rows.length < players.length) view.rows.push(makeRow(view, view.rows.length));
    while (view.rows.length > players.length) view.rows.pop()!.tr.remove();
    const shared = s.is_over && s.winners.length > 1;
    players.forEach((p, k) => {
      const row = view.rows[k]!;
      const won = s.is_over ? s.winners.includes(k) : p.status === "winner" || p.status === "shared win";
      const status = won ? (shared || p.status === "shared win" ? "shared win" : "winner") : p.status;
      row.tr.classList.toggle("is-current", cp === k);
      row.tr.classList.toggle("is-blocked", p.blocked);
      row.tr.classList.toggle("is-winner", won);
      row.tr.classList.toggle("is-owed", p.owed > 0);
      setAttr(row.tr, "data-status", status || null);
      setAttr(row.tr, "aria-current", cp === k ? "true" : null);
      setText(row.nameText, p.name);
      row.trophy.hidden = !won;
      setText(row.status, STATUS_TEXT[status] ?? status);
      setText(row.score, String(p.score));
      setText(row.remaining, String(p.remaining));
      setText(row.active, String(p.active));
      setText(row.owed, p.owed > 0 ? String(p.owed) : "\u2013");
      row.owed.classList.toggle("gm4-owed", p.owed > 0);
      const seat = s.seats[k] ?? "";
      row.agent.hidden = !seat;
      if (seat !== row.agentKey) {
        row.agentKey = seat;
        row.agent.replaceChildren(...(seat ? [robotIcon(), document.createTextNode(shortAgent(seat))] : []));
        setAttr(row.agent, "title", seat ? `played by the agent ${seat}` : null);
      }
    });
  },
};

registerGame("gridmaster4", gridmaster4Layer);
