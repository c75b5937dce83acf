// Block Four (RULES BF-1..BF-13): what the page does for Block Four beyond its
// picture. The generic layer (../generic.ts) draws the scene: the X and O
// marks, the nine fields tinted by who controls them (BF-9), every placed
// shape's outline (BF-3), the gap fills (BF-8) and the players' table (the
// score, the spaces, the cards in hand and on the table, BF-10). This layer
// adds the secret bid of two cards picked from the bidder's hand (BF-5,
// BF-13), the reveal with its match count and the order of placements
// (BF-6), and the placement of a shape with a preview under the pointer that
// R rotates and F mirrors (BF-3, BF-7).
//
// The rules stay in Python: a preview is "legal" only when its notation is in
// `state.legal`, and every click sends its intent whatever the preview says.
// The cards a player picks before locking a bid live only in this page (never
// in a trait): hot-seat play must not show them to the other player.

import { html, setAttr, setText, svg } from "../dom";
import type { GameState } from "../types";
import { playerClass, registerGame, type Board, type GameLayer } from "./layer";
import "./blockfour.css";

/** The five shapes in card order (BF-2). */
const SHAPES = ["I", "L", "O", "T", "Z"];
const MATCH_TEXT = ["no match: four placements", "one match: two copies each", "two matches: nothing placed"];
const ORDER_TEXT: Record<string, string> = { done: "placed", skipped: "skipped (BF-7)", now: "placing now", next: "next" };

type Offsets = Array<[number, number]>;

interface BfField { x: number; o: number; controller: number }
interface BfOrder { player: number; shape: string; status: string }
interface BfRevealed { bids: string[]; matches: number; order: BfOrder[] }

interface BfExtra {
  phase: string;
  turn: number;
  fields: BfField[];
  fieldsControlled: number[];
  spaces: number[];
  hands: string[][];
  tables: string[][];
  cardNumbers: Record<string, number>;
  pending: boolean[];
  revealed: BfRevealed | null;
  toPlace: { player: number; shape: string } | null;
  orientations: Record<string, { rot: Offsets[]; mir: Offsets[] }>;
  gaps: string[];
  skipped: string[];
  /** `state.legal` in a canonical form (placements with their cells in row order). */
  legal: Set<string>;
}

// ---- reading `state.extra` -------------------------------------------------------------

function num(v: unknown, d = 0): number {
  return typeof v === "number" && Number.isFinite(v) ? v : d;
}
function strs(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}
function rec(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
function offsets(v: unknown): Offsets[] {
  if (!Array.isArray(v)) return [];
  return v
    .map((o) => (Array.isArray(o) ? o.filter((p) => Array.isArray(p) && p.length === 2).map((p) => [num(p[0]), num(p[1])] as [number, number]) : []))
    .filter((o) => o.length > 0);
}

const extras = new WeakMap<GameState, BfExtra>();

/** `state.extra`, checked (a partial or hand-made state still draws); once per state. */
function extraOf(s: GameState): BfExtra {
  let e = extras.get(s);
  if (!e) {
    e = readExtra(s);
    extras.set(s, e);
  }
  return e;
}

function readExtra(s: GameState): BfExtra {
  const e = s.extra;
  const nums = (v: unknown): number[] => (Array.isArray(v) ? v.map((x) => num(x)) : []);
  const lists = (v: unknown): string[][] => (Array.isArray(v) ? v.map(strs) : []);
  const fields = (Array.isArray(e.fields) ? e.fields : []).map((f) => {
    const r = rec(f);
    return { x: num(r.x), o: num(r.o), controller: num(r.controller, -1) };
  });
  const cn = rec(e.card_numbers);
  const cardNumbers: Record<string, number> = {};
  SHAPES.forEach((k, i) => { cardNumbers[k] = num(cn[k], i + 1); });
  let revealed: BfRevealed | null = null;
  if (e.revealed && typeof e.revealed === "object") {
    const r = rec(e.revealed);
    revealed = {
      bids: strs(r.bids),
      matches: num(r.matches),
      order: (Array.isArray(r.order) ? r.order : []).map((o) => {
        const x = rec(o);
        return { player: num(x.player, -1), shape: typeof x.shape === "string" ? x.shape : "?", status: typeof x.status === "string" ? x.status : "" };
      }),
    };
  }
  const tp = e.to_place && typeof e.to_place === "object" ? rec(e.to_place) : null;
  const orientations: BfExtra["orientations"] = {};
  for (const [k, v] of Object.entries(rec(e.orientations))) {
    const o = rec(v);
    orientations[k] = { rot: offsets(o.rot), mir: offsets(o.mir) };
  }
  return {
    phase: typeof e.phase === "string" ? e.phase : s.is_over ? "over" : "bid",
    turn: num(e.turn, 1),
    fields,
    fieldsControlled: nums(e.fields_controlled),
    spaces: nums(e.spaces),
    hands: lists(e.hands),
    tables: lists(e.tables),
    cardNumbers,
    pending: Array.isArray(e.pending_bids) ? e.pending_bids.map((x) => x === true) : [],
    revealed,
    toPlace: tp && typeof tp.shape === "string" ? { player: num(tp.player, s.current_player ?? 0), shape: tp.shape } : null,
    orientations,
    gaps: strs(e.gaps),
    skipped: strs(e.skipped),
    legal: new Set(s.legal.map(canonical)),
  };
}

/** Notation without case, a placement's cells sorted in row order ("T:B2,C2,D2,C3"). */
function canonical(move: string): string {
  const m = move.trim().toUpperCase();
  const colon = m.indexOf(":");
  if (colon < 0) return m;
  const cells = m.slice(colon + 1).split(",").map((c) => c.trim()).filter(Boolean);
  const key = (c: string): [number, string] => {
    const mm = /^([A-Z]+)([0-9]+)$/.exec(c);
    return mm ? [Number(mm[2]), mm[1]!.padStart(3, " ")] : [0, c];
  };
  cells.sort((a, b) => {
    const [ra, ca] = key(a);
    const [rb, cb] = key(b);
    return ra - rb || (ca < cb ? -1 : ca > cb ? 1 : 0);
  });
  return `${m.slice(0, colon)}:${cells.join(",")}`;
}

/** A bid in notation: the two letters in I, L, O, T, Z order (BF-12). */
function bidNotation(cards: string[]): string {
  return [...cards].sort((a, b) => SHAPES.indexOf(a) - SHAPES.indexOf(b)).join("");
}

/** A touch screen (no mouse to point with): its words are "tap", a placement's first tap shows it. */
function touch(): boolean {
  return typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;
}

function playerName(s: GameState, p: number): string {
  return s.players[p] ?? (p === 0 ? "X" : p === 1 ? "O" : `player ${p}`);
}

/** The cells a placement covers, in row order (e.g. from "T:B2,C2,D2,C3"). */
function placementCells(move: string): string[] {
  const colon = move.indexOf(":");
  if (colon < 0) return [];
  return move.slice(colon + 1).split(",").map((c) => c.trim().toUpperCase()).filter((c) => /^[A-Z]+[0-9]+$/.test(c));
}

// ---- drawing helpers -----------------------------------------------------------------------

/** A tetromino as a tiny SVG: `offsets` are [row, col] from its top-left. */
function shapeIcon(cells: Offsets, sq: number, cls = "bf-shape"): SVGSVGElement {
  const h = Math.max(1, ...cells.map((p) => p[0] + 1));
  const w = Math.max(1, ...cells.map((p) => p[1] + 1));
  const icon = svg("svg", { class: cls, viewBox: `0 0 ${w * sq} ${h * sq}`, width: w * sq, height: h * sq, "aria-hidden": "true" });
  for (const [r, c] of cells) {
    svg("rect", { x: c * sq + 0.5, y: r * sq + 0.5, width: sq - 1, height: sq - 1, rx: Math.max(0.5, sq * 0.18) }, icon);
  }
  return icon;
}

/** A shape's first orientation (the card's picture); a plain row of four without orientations. */
function cardCells(e: BfExtra, shape: string): Offsets {
  return e.orientations[shape]?.rot[0] ?? DEFAULT_SHAPES[shape] ?? [[0, 0], [0, 1], [0, 2], [0, 3]];
}

const DEFAULT_SHAPES: Record<string, Offsets> = {
  I: [[0, 0], [0, 1], [0, 2], [0, 3]],
  L: [[0, 0], [1, 0], [2, 0], [2, 1]],
  O: [[0, 0], [0, 1], [1, 0], [1, 1]],
  T: [[0, 0], [0, 1], [0, 2], [1, 1]],
  Z: [[0, 0], [0, 1], [1, 1], [1, 2]],
};

/** A card: its number and its shape. `button` for a hand card that may be clicked. */
function card(e: BfExtra, shape: string, player: number, where: "hand" | "table" | "bid", button: boolean): HTMLElement {
  const n = e.cardNumbers[shape] ?? SHAPES.indexOf(shape) + 1;
  // the name begins with what the card shows, number then letter (WCAG 2.5.3, label in name)
  const label = `${n} ${shape} card${where === "table" ? ", on the table" : ""}`;
  const el = button
    ? html("button", { type: "button", class: "bf-card", "data-lm-suppress-shortcuts": "true" })
    : html("span", { class: "bf-card", role: "img" });
  setAttr(el, "data-card", shape);
  setAttr(el, "data-player", String(player));
  setAttr(el, "data-where", where);
  setAttr(el, "aria-label", label);
  setAttr(el, "title", label);
  el.classList.add(`bf-${where}`);
  html("span", { class: "bf-num", "aria-hidden": "true" }, String(n), el);
  el.append(" ");  // (a flex box lays out no space: it only keeps "1 I" apart as text)
  const cells = cardCells(e, shape);
  const h = Math.max(...cells.map((p) => p[0] + 1));
  const w = Math.max(...cells.map((p) => p[1] + 1));
  const sq = Math.max(5, Math.min(8, Math.floor(Math.min(28 / w, 28 / h))));  // readable when projected
  el.appendChild(shapeIcon(cells, sq));
  el.append(" ");
  html("span", { class: "bf-letter", "aria-hidden": "true" }, shape, el);
  return el;
}

/** The mark of player 0 (X) or 1 (O) centred on 0,0, as Gridlock draws it. */
function drawMark(g: SVGGElement, p: number, size: number): void {
  const stroke = Math.max(2, size * 0.1);
  const cls = `gw-mark ${playerClass(p)}`;
  if (p === 0) {
    const a = size * 0.24;
    svg("path", { d: `M${-a} ${-a}L${a} ${a}M${a} ${-a}L${-a} ${a}`, class: cls, "stroke-width": stroke }, g);
  } else {
    svg("circle", { r: size * 0.27, class: cls, "stroke-width": stroke }, g);
  }
}

/** A padlock (the Lock button), drawn so that no font needs the glyph. */
function lockIcon(): SVGSVGElement {
  const icon = svg("svg", { class: "gw-media bf-lock-icon", viewBox: "0 0 16 16", width: 12, height: 12, "aria-hidden": "true" });
  svg("path", { d: "M5 7V5a3 3 0 0 1 6 0v2", fill: "none", stroke: "currentColor", "stroke-width": 1.8 }, icon);
  svg("rect", { x: 3, y: 7, width: 10, height: 7.5, rx: 1.5, fill: "currentColor" }, icon);
  return icon;
}

/** The X or O mark of a player, as a small inline icon. */
function markIcon(p: number, size = 16): SVGSVGElement {
  const icon = svg("svg", { class: `bf-mark-icon ${playerClass(p)}`, viewBox: "-10 -10 20 20", width: size, height: size, "aria-hidden": "true" });
  if (p === 0) svg("path", { d: "M-5.5 -5.5L5.5 5.5M5.5 -5.5L-5.5 5.5", class: "gw-mark", "stroke-width": 2.6 }, icon);
  else svg("circle", { r: 6, class: "gw-mark", "stroke-width": 2.6 }, icon);
  return icon;
}

// ---- the per-view state ---------------------------------------------------------------------

interface View {
  board: Board;
  el: HTMLDivElement;
  bidBar: HTMLDivElement;
  bidHand: HTMLDivElement;
  bidHandKey: string;
  bidText: HTMLSpanElement;
  bidPick: HTMLSpanElement;
  lock: HTMLButtonElement;
  placeBar: HTMLDivElement;
  placeText: HTMLSpanElement;
  placeShape: HTMLSpanElement;
  placeShapeKey: string;
  placeNote: HTMLSpanElement;
  rotate: HTMLButtonElement;
  mirror: HTMLButtonElement;
  reveal: HTMLDivElement;
  revealKey: string;
  previewG: SVGGElement;
  /** Page state only, never synced: the cards picked for a bid, and whose / when. */
  picked: string[];
  pickKey: string;
  /** The orientation of the preview: an index into `rot` or `mir`. */
  turn: number;
  mirrored: boolean;
  shapeKey: string;
  /** The cell pointed at (-1: none). */
  hover: number;
  /** `version:cell` of a tap that showed the shape there (touch: the next tap on it places) */
  armed: string;
}

const views = new WeakMap<Board, View>();

function buildView(board: Board): View {
  // the game's own part of the panel, after the players' table (generic.ts)
  const panel = board.panel;
  const root = panel.closest<HTMLElement>(".gw-root");
  panel.querySelector(":scope > .bf-own")?.remove();
  root?.querySelector(":scope > .bf-own")?.remove();
  const own = html("div", { class: "gw-own bf-own" }, undefined, panel);

  // The bid: two cards picked, then Lock.
  const bidBar = html("div", { class: "bf-bar bf-bid", "data-role": "bid", hidden: true }, undefined, own);
  const bidLine = html("div", { class: "bf-bar-line" }, undefined, bidBar);
  const bidText = html("span", { class: "bf-bar-text", "data-role": "bid-text", "aria-live": "polite" }, "", bidLine);
  // the bidder's hand: the cards to pick from (never the other player's, BF-5)
  const bidHand = html("div", { class: "bf-hand-cards", role: "group", "aria-label": "cards in hand" }, undefined, bidBar);
  const bidRow = html("div", { class: "bf-bar-row" }, undefined, bidBar);
  const bidPick = html("span", { class: "bf-pick", "aria-hidden": "true" }, undefined, bidRow);
  const lock = html("button", {
    type: "button", class: "gw-btn bf-lock", "data-action": "lock", disabled: true, "data-lm-suppress-shortcuts": "true",
    title: "Lock the two picked cards in as this turn's bid (final, BF-13)",
  }, undefined, bidRow);
  html("span", { class: "gw-icon", "aria-hidden": "true" }, undefined, lock).appendChild(lockIcon());
  html("span", { class: "gw-label" }, "Lock bid", lock);

  // The placement: the shape to place, its orientation, rotate and mirror.
  const placeBar = html("div", { class: "bf-bar bf-place", "data-role": "place", hidden: true }, undefined, own);
  const placeLine = html("div", { class: "bf-bar-line" }, undefined, placeBar);
  const placeText = html("span", { class: "bf-bar-text", "data-role": "place-text" }, "", placeLine);
  const placeRow = html("div", { class: "bf-bar-row" }, undefined, placeBar);
  const placeShape = html("span", { class: "bf-orient", "data-role": "orientation", "aria-hidden": "true" }, undefined, placeRow);
  const mkBtn = (action: string, icon: string, label: string, title: string): HTMLButtonElement => {
    const b = html("button", { type: "button", class: "gw-btn", "data-action": action, title, "data-lm-suppress-shortcuts": "true" }, undefined, placeRow);
    html("span", { class: "gw-icon", "aria-hidden": "true" }, icon, b);
    html("span", { class: "gw-label" }, label, b);
    return b;
  };
  const rotate = mkBtn("rotate", "\u27F3", "Rotate (R)", "Turn the shape a quarter turn (key R)");
  const mirror = mkBtn("mirror", "\u21C6", "Mirror (F)", "Flip the shape to its mirror image (key F, BF-3)");
  mirror.classList.add("gw-toggle");
  setAttr(mirror, "aria-pressed", "false");
  const placeNote = html("span", { class: "bf-prev-note", "data-role": "preview-note", "aria-live": "polite" }, "", placeBar);

  const reveal = html("div", { class: "bf-reveal", "data-role": "reveal", hidden: true }, undefined, own);

  // On the board: the placement preview (the scene draws the rest).
  const previewG = svg("g", { class: "bf-preview", "data-role": "preview", "aria-hidden": "true" }, board.over);

  const view: View = {
    board, el: own, bidBar, bidHand, bidHandKey: "", bidText, bidPick, lock, placeBar, placeText, placeShape, placeShapeKey: "", placeNote,
    rotate, mirror, reveal, revealKey: "", previewG,
    picked: [], pickKey: "", turn: 0, mirrored: false, shapeKey: "", hover: -1, armed: "",
  };
  views.set(board, view);
  // a page resized (a phone turned, a window narrowed): the controls follow the layout
  if (root && typeof ResizeObserver !== "undefined") new ResizeObserver(() => placeOwn(view)).observe(root);

  own.addEventListener("click", (ev) => {
    const t = ev.target as Element | null;
    const cardEl = t?.closest?.("button[data-card]");
    if (cardEl && own.contains(cardEl)) {
      pick(view, cardEl.getAttribute("data-card") ?? "", Number(cardEl.getAttribute("data-player")));
      return;
    }
    const btn = t?.closest?.("button[data-action]");
    if (!btn || !own.contains(btn)) return;
    const action = btn.getAttribute("data-action");
    if (action === "lock") lockBid(view);
    else if (action === "rotate") turnShape(view, "rotate");
    else if (action === "mirror") turnShape(view, "mirror");
  });
  return view;
}

// ---- the bid ---------------------------------------------------------------------------------

/** The person who may pick cards now: the player to bid, if a person (not an agent). */
/**
 * Who bids from this page now: the player to act if people play it from this
 * page, else the first player of this page still to bid (a room's page plays
 * its own seat only, and bids while the other seat has not). `null`: nobody.
 */
function bidder(s: GameState, e: BfExtra): number | null {
  if (s.is_over || e.phase !== "bid") return null;
  const free = (p: number): boolean => p >= 0 && p < s.players.length && !s.seats[p] && !e.pending[p]
    && s.people.includes(p);
  const p = s.current_player;
  if (p !== null && free(p)) return p;
  return s.people.find(free) ?? null;
}

function pick(view: View, shape: string, player: number): void {
  const s = view.board.state;
  const e = extraOf(s);
  if (bidder(s, e) !== player || !(e.hands[player] ?? []).includes(shape)) return;
  const i = view.picked.indexOf(shape);
  if (i >= 0) view.picked.splice(i, 1);
  else {
    view.picked.push(shape);
    if (view.picked.length > 2) view.picked.shift();
  }
  drawBid(view, s, e);
}

function lockBid(view: View): void {
  const s = view.board.state;
  const e = extraOf(s);
  const p = bidder(s, e);
  if (p === null || view.picked.length !== 2) return;
  const move = bidNotation(view.picked);
  // the Lock button is about to be disabled: the keyboard's focus goes to the
  // board, not to the page's body (WCAG 2.4.3)
  const root = view.lock.closest(".gw-root");
  const focused = !!root && root.contains(document.activeElement);
  // The picked cards leave the page at once: the next player at this screen must not see them.
  view.picked = [];
  drawBid(view, s, e);
  if (focused && !(root?.contains(document.activeElement) && document.activeElement !== view.lock)) {
    (view.board.svg.closest(".gw-board") as HTMLElement | null)?.focus();
  }
  view.board.send({ type: "play", move, player: p, version: s.version });
}

function drawBid(view: View, s: GameState, e: BfExtra): void {
  const who = bidder(s, e);
  const show = e.phase === "bid" && !s.is_over;
  view.bidBar.hidden = !show;
  if (!show) return;
  const names = (e.pending.length ? e.pending : s.players.map(() => false))
    .map((done, p) => (done ? `${playerName(s, p)} has bid` : ""))
    .filter(Boolean);
  let text: string;
  if (who !== null) {
    const n = view.picked.length;
    const cards = n === 0 ? "two cards" : "one more card";
    // a page of one seat (a room's) speaks to its player; a shared screen names who bids
    const own = s.people.length === 1;
    if (own) text = n === 2 ? "Lock your bid in, or change a card" : `Your bid: pick ${cards} from your hand`;
    else text = n === 2 ? `${playerName(s, who)}: lock the bid in, or change a card`
      : `${playerName(s, who)} to bid: pick ${cards} from your hand`;
  } else if (s.current_player !== null && s.seats[s.current_player]) {
    text = `${playerName(s, s.current_player)} (agent) to bid`;
  } else {
    text = "waiting for the bids";
  }
  if (who === null && names.length) text = `${names.join(" · ")}; ${text}`;
  setText(view.bidText, `Turn ${e.turn}. ${text}`);
  setAttr(view.bidBar, "class", `bf-bar bf-bid ${who !== null ? playerClass(who) : ""}`);
  // the two slots of the bid being picked
  const key = `${who}|${view.picked.join("")}`;
  if (view.bidPick.getAttribute("data-key") !== key) {
    setAttr(view.bidPick, "data-key", key);
    view.bidPick.replaceChildren();
    for (let k = 0; k < 2; k++) {
      const shape = view.picked[k];
      if (shape && who !== null) view.bidPick.appendChild(card(e, shape, who, "bid", false));
      else html("span", { class: "bf-slot" }, undefined, view.bidPick);
    }
  }
  view.bidPick.hidden = who === null;
  view.lock.hidden = who === null;
  // the bidder's hand, the cards to pick (BF-12); the picked ones pressed
  const hand = who !== null ? e.hands[who] ?? [] : [];
  const handKey = `${who}|${hand.join("")}|${JSON.stringify(e.cardNumbers)}|${Object.keys(e.orientations).length}`;
  if (handKey !== view.bidHandKey) {
    view.bidHandKey = handKey;
    view.bidHand.replaceChildren(...(who === null ? [] : hand.map((k) => card(e, k, who, "hand", true))));
  }
  view.bidHand.hidden = who === null;
  for (const b of Array.from(view.bidHand.children)) {
    const on = view.picked.includes(b.getAttribute("data-card") ?? "");
    b.classList.toggle("is-picked", on);
    setAttr(b, "aria-pressed", String(on));
  }
  const move = bidNotation(view.picked);
  view.lock.disabled = who === null || view.picked.length !== 2 || !e.legal.has(move);
  view.lock.classList.toggle("is-ready", !view.lock.disabled);
  setAttr(view.lock, "data-player", who === null ? null : String(who));
}

// ---- the placement preview --------------------------------------------------------------------

/** The person who places now (not an agent), or null. */
function placer(s: GameState, e: BfExtra): number | null {
  if (s.is_over || e.phase !== "place" || !e.toPlace) return null;
  const p = s.current_player ?? e.toPlace.player;
  // an agent's seat, or a seat played from another page (a room's): not this page's to place
  if (p === null || p < 0 || s.seats[p] || !s.people.includes(p)) return null;
  return p;
}

function orientationOf(view: View, e: BfExtra): Offsets | null {
  const shape = e.toPlace?.shape ?? "";
  const o = e.orientations[shape];
  const list = o ? (view.mirrored ? (o.mir.length ? o.mir : o.rot) : o.rot) : [];
  if (!list.length) {
    const d = DEFAULT_SHAPES[shape];
    return d ?? null;
  }
  return list[((view.turn % list.length) + list.length) % list.length]!;
}

interface Preview { cells: number[]; names: string[]; move: string; legal: boolean }

/**
 * The preview anchored at cell `i`: the pointed cell is the shape's first cell
 * in row order; where that runs off the board, the next of its cells that
 * keeps the shape on the board (so the pointed cell is always covered).
 */
function previewAt(board: Board, s: GameState, e: BfExtra, offs: Offsets, i: number): Preview | null {
  if (i < 0 || i >= s.rows * s.cols || !e.toPlace) return null;
  const sorted = [...offs].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const r0 = Math.floor(i / s.cols);
  const c0 = i % s.cols;
  let chosen: Array<[number, number]> | null = null;
  for (const [ar, ac] of sorted) {
    const cells = sorted.map(([r, c]) => [r0 - ar + r, c0 - ac + c] as [number, number]);
    if (cells.every(([r, c]) => r >= 0 && c >= 0 && r < s.rows && c < s.cols)) {
      chosen = cells;
      break;
    }
  }
  if (!chosen) return null;
  const names = chosen.map(([r, c]) => board.notation(r, c));
  const move = `${e.toPlace.shape}:${names.join(",")}`;
  return { cells: chosen.map(([r, c]) => r * s.cols + c), names, move, legal: e.legal.has(canonical(move)) };
}

function currentPreview(view: View, s: GameState, e: BfExtra, i: number): Preview | null {
  if (placer(s, e) === null) return null;
  const offs = orientationOf(view, e);
  return offs ? previewAt(view.board, s, e, offs, i) : null;
}

function drawPreview(view: View, s: GameState, e: BfExtra): void {
  const g = view.previewG;
  const p = currentPreview(view, s, e, view.hover);
  const who = placer(s, e);
  if (!p || who === null) {
    if (g.childElementCount) g.replaceChildren();
    for (const a of ["data-move", "data-legal"]) setAttr(g, a, null);
    setText(view.placeNote, who === null ? "" : touch() ? "Tap the board to see the shape there." : "Point at the board to place the shape.");
    view.placeNote.className = "bf-prev-note";
    return;
  }
  const board = view.board;
  const c = board.cell;
  g.replaceChildren();
  setAttr(g, "data-move", p.move);
  setAttr(g, "data-legal", String(p.legal));
  setAttr(g, "class", `bf-preview ${playerClass(who)} ${p.legal ? "is-legal" : "is-illegal"}`);
  const inset = 3;
  p.cells.forEach((i, k) => {
    const r = Math.floor(i / s.cols);
    const col = i % s.cols;
    const cg = svg("g", { class: "bf-prev-cell", "data-preview": p.names[k] }, g);
    svg("rect", { x: board.x(col) + inset, y: board.y(r) + inset, width: c - 2 * inset, height: c - 2 * inset, rx: Math.max(3, c * 0.14) }, cg);
    if (p.legal && !(s.cells[i] ?? "")) {
      // a faint mark of the placing player where the shape would go
      const m = svg("g", { class: "bf-prev-mark", transform: `translate(${board.x(col) + c / 2} ${board.y(r) + c / 2})` }, cg);
      drawMark(m, who, c);
    }
  });
  setText(view.placeNote, `${p.move.replace(":", " on ").replace(/,/g, ", ")}: ${p.legal ? (touch() ? "legal, tap again to place" : "legal, click to place") : "not legal here"}`);
  view.placeNote.className = `bf-prev-note ${p.legal ? "is-legal" : "is-illegal"}`;
}

function drawPlace(view: View, s: GameState, e: BfExtra): void {
  const who = placer(s, e);
  const show = e.phase === "place" && !s.is_over && !!e.toPlace;
  view.placeBar.hidden = !show;
  // a new shape to place starts in its first orientation
  const shapeKey = `${e.toPlace?.shape ?? ""}`;
  if (shapeKey !== view.shapeKey) {
    view.shapeKey = shapeKey;
    view.turn = 0;
    view.mirrored = false;
  }
  if (!show || !e.toPlace) {
    drawPreview(view, s, e);
    return;
  }
  const tp = e.toPlace;
  const name = playerName(s, tp.player);
  setText(view.placeText, who !== null
    ? `${name} places ${tp.shape}: ${touch() ? "tap the board, tap again to place" : "point at the board, click to place"}`
    : s.seats[tp.player] ? `${name} (agent) places ${tp.shape}` : `${name} places ${tp.shape}: wait for their move`);
  setAttr(view.placeBar, "class", `bf-bar bf-place ${playerClass(tp.player)}`);
  const offs = orientationOf(view, e);
  const key = `${tp.shape}|${view.mirrored}|${view.turn}|${JSON.stringify(offs)}`;
  if (key !== view.placeShapeKey) {
    view.placeShapeKey = key;
    view.placeShape.replaceChildren();
    if (offs) view.placeShape.appendChild(shapeIcon(offs, 9, "bf-shape bf-orient-shape"));
  }
  // what this page cannot use is not shown (another seat's placement)
  view.rotate.hidden = who === null;
  view.mirror.hidden = who === null;
  setAttr(view.mirror, "aria-pressed", String(view.mirrored));
  // the orientation shown: an index into orientations[shape].rot (or .mir)
  setAttr(view.placeBar, "data-turn", String(view.turn));
  setAttr(view.placeBar, "data-mirrored", String(view.mirrored));
  drawPreview(view, s, e);
}

function turnShape(view: View, how: "rotate" | "mirror"): void {
  const s = view.board.state;
  const e = extraOf(s);
  if (placer(s, e) === null) return;
  if (how === "rotate") view.turn = (view.turn + 1) % 4;
  else view.mirrored = !view.mirrored;
  if (view.hover < 0) view.hover = view.board.focusIndex;
  drawPlace(view, s, e);
}

// ---- the board decorations and the panel ---------------------------------------------------------

function drawReveal(view: View, s: GameState, e: BfExtra): void {
  const r = e.revealed;
  const el = view.reveal;
  el.hidden = !r;
  if (!r) {
    view.revealKey = "";
    return;
  }
  const key = JSON.stringify([r, e.phase, e.turn, s.players, s.is_over]);
  if (key === view.revealKey) return;
  view.revealKey = key;
  el.replaceChildren();
  const head = html("div", { class: "bf-reveal-head" }, undefined, el);
  html("span", { class: "gw-section-title" }, e.phase === "bid" ? "Last turn's bids" : `Turn ${e.turn}: the bids`, head);
  const bids = html("div", { class: "bf-bids", "data-role": "bids" }, undefined, el);
  r.bids.forEach((bid, p) => {
    const b = html("div", { class: `bf-bidline ${playerClass(p)}`, "data-player": p, "data-bid": bid }, undefined, bids);
    b.appendChild(markIcon(p, 14));
    html("span", { class: "bf-bid-who" }, playerName(s, p), b);
    const cards = html("span", { class: "bf-bid-cards" }, undefined, b);
    for (const k of bid.split("")) {
      const c = card(e, k, p, "bid", false);
      const other = r.bids[1 - p] ?? "";
      if (other.includes(k)) c.classList.add("is-match");
      cards.appendChild(c);
    }
  });
  html("div", { class: `bf-matches m${r.matches}`, "data-role": "matches", "data-matches": r.matches }, MATCH_TEXT[r.matches] ?? `${r.matches} matches`, el);
  if (r.order.length) {
    const ol = html("ol", { class: "bf-order", "data-role": "order", "aria-label": "placements of this turn" }, undefined, el);
    for (const o of r.order) {
      const li = html("li", { class: `bf-order-item ${playerClass(o.player)}`, "data-status": o.status, "data-shape": o.shape, "data-player": o.player }, undefined, ol);
      li.appendChild(shapeIcon(cardCells(e, o.shape), 5, "bf-shape bf-order-shape"));
      html("span", { class: "bf-order-shape-name" }, o.shape, li);
      html("span", { class: "bf-order-who" }, playerName(s, o.player), li);
      const status = s.is_over && o.status === "next" ? "not played" : ORDER_TEXT[o.status] ?? o.status;
      html("span", { class: "bf-order-status" }, status, li);
      if (s.is_over && o.status === "next") li.classList.add("is-void");
      if (o.status === "now") setAttr(li, "aria-current", "step");
    }
  }
}

function update(board: Board, s: GameState): void {
  // (a view is built with the board, `build`)
  const view = views.get(board) ?? buildView(board);
  const e = extraOf(s);
  // Picked cards belong to one player's bid in one turn; anything else clears them.
  const pickKey = `${e.phase}|${e.turn}|${s.current_player}|${bidder(s, e)}|${s.history.length}`;
  if (pickKey !== view.pickKey) {
    view.pickKey = pickKey;
    view.picked = [];
  }
  const hand = bidder(s, e) !== null ? e.hands[bidder(s, e)!] ?? [] : [];
  view.picked = view.picked.filter((k) => hand.includes(k));
  board.panel.closest(".gw-root")?.classList.toggle("bf-placing", placer(s, e) !== null);
  drawBid(view, s, e);
  drawPlace(view, s, e);
  drawReveal(view, s, e);
  placeOwn(view);
}

/**
 * On a narrow page, where the side bar wrapped below the board, the cards,
 * Lock bid, Rotate and Mirror sit above the board (a full row), so that a
 * phone shows them with the board; back in the side bar when it fits beside.
 */
function placeOwn(view: View): void {
  const board = view.board;
  const root = board.panel.closest<HTMLElement>(".gw-root");
  const side = board.panel.closest<HTMLElement>(".gw-side");
  const boardBox = root ? Array.from(root.children).find((c) => c.contains(board.svg)) as HTMLElement | undefined : undefined;
  if (!root || !side || !boardBox || !root.isConnected) return;
  const narrow = side.offsetTop > boardBox.offsetTop + boardBox.offsetHeight / 2;
  const above = view.el.parentElement === root;
  if (narrow && !above) root.insertBefore(view.el, boardBox);
  else if (!narrow && above) board.panel.appendChild(view.el);
  view.el.classList.toggle("bf-own-top", narrow);
}

// ---- the layer ------------------------------------------------------------------------------------

export const blockfourLayer: GameLayer = {
  // the bids are picked from the hand, never offered as buttons
  ownsChoices: true,
  hint: "Bid: pick two cards, then Lock. Place: point at the board, R rotates, F mirrors, click or Enter places. Arrows move the focus, U undo",

  title(s) {
    return `Block Four board, ${s.rows} by ${s.cols}, nine fields`;
  },

  legalCells(s) {
    const e = extraOf(s);
    if (e.phase !== "place") return [];
    const out = new Set<string>();
    for (const m of s.legal) for (const c of placementCells(m)) out.add(c);
    return [...out];
  },

  build(board) {
    const old = views.get(board);
    const view = buildView(board);
    if (old) {
      view.picked = old.picked;
      view.pickKey = old.pickKey;
      view.turn = old.turn;
      view.mirrored = old.mirrored;
      view.shapeKey = old.shapeKey;
    }
  },

  update,

  activate(board, s, i, how) {
    const view = views.get(board);
    const e = extraOf(s);
    if (!view || placer(s, e) === null) return false;
    // a tap on a touch screen first shows the shape there (no pointer hovers a touch screen);
    // a second tap on the same cell places it, a tap elsewhere moves it
    const armed = view.armed === `${s.version}:${i}`;
    view.hover = i;
    drawPreview(view, s, e);
    if (how === "touch" && !armed) {
      view.armed = `${s.version}:${i}`;
      return true;
    }
    view.armed = "";
    const p = currentPreview(view, s, e, i);
    if (!p) return false;
    // sent also when not legal: Python answers with the rule that forbids it
    board.send({ type: "play", move: p.move, player: s.current_player, version: s.version });
    return true;
  },

  key(board, _s, ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return false;
    const view = views.get(board);
    if (!view) return false;
    const k = ev.key.toLowerCase();
    if (k === "r" || k === "f") {
      // R and F always belong to the shape here (redo stays on its button)
      turnShape(view, k === "r" ? "rotate" : "mirror");
      return true;
    }
    return false;
  },

  point(board, s, i) {
    const view = views.get(board);
    if (!view) return;
    view.hover = i;
    const e = extraOf(s);
    if (e.phase === "place") drawPreview(view, s, e);
  },
};

registerGame("blockfour", blockfourLayer);
