// The contract between the shared grid view and a per-game layer, and the
// registry of layers keyed by `state.layer` (Python's `Game.frontend_layer`;
// "" is the generic layer of generic.ts, which draws any game's scene).
//
// The shared view (view.ts and its parts) draws everything that every grid game has: the
// cells, labels, hover, keyboard focus, last move, forbidden marks, status,
// message, buttons and history. A layer adds what is particular to one game:
// how a cell's piece looks (and how it is named for screen readers), extra
// decorations on the board (fields, walls), and extra controls beside it
// (cards, scores). A layer never decides legality; it may send intents.

import type { GameState } from "../types";

/** What the shared view offers a layer. Coordinates are SVG user units (= CSS px at full size). */
/** How a cell was activated: a mouse or pen click, a tap on a touch screen, or a key (Enter, Space). */
export type Activation = "mouse" | "touch" | "key";

export interface Board {
  /** The state currently shown. */
  readonly state: GameState;
  readonly rows: number;
  readonly cols: number;
  /** The side of one cell. */
  readonly cell: number;
  /** The board's SVG, its <defs>, and the decoration groups under and over the pieces. */
  readonly svg: SVGSVGElement;
  readonly defs: SVGDefsElement;
  readonly under: SVGGElement;
  readonly over: SVGGElement;
  /** An HTML area in the side bar for per-game controls (cards, scores, ...). */
  readonly panel: HTMLElement;
  /** The row-major index of the cell under the keyboard focus ring. */
  readonly focusIndex: number;
  /** A page-unique prefix for ids (patterns, clip paths) of this view. */
  readonly uid: string;
  /** Left and top edge of a column / row. */
  x(col: number): number;
  y(row: number): number;
  /** Row-major index of a cell given in notation ("B2"), or -1. */
  index(notation: string): number;
  /** Notation of a cell ("B2"). */
  notation(row: number, col: number): string;
  /** Send an intent to Python (`{type: ...}`); Python checks everything. */
  send(intent: { type: string; [key: string]: unknown }): void;
  /** The value of a synced trait of the widget (e.g. a game's own toggle). */
  trait(name: string): unknown;
  /** Set a synced trait from the page (a toggle) and save it to Python. */
  setTrait(name: string, value: unknown): void;
}

export interface GameLayer {
  /** A name for the board, for screen readers ("Gridlock board"). */
  title?(s: GameState): string;
  /** The largest board side in CSS px for this game (default 480); cells are at most 60 px. */
  boardPx?: number;
  /**
   * The layer shows which seats are agents itself (e.g. in its player panel),
   * so the shared agents group leaves out its list of agent seats.
   */
  showsSeats?: boolean;
  /**
   * The layer offers the moves that are not on the board itself (Block Four's
   * bid picker), so the generic layer draws no buttons for them.
   */
  ownsChoices?: boolean;
  /**
   * Synced traits of this game's widget beyond the shared ones (e.g. GridBloc's
   * `show_region`, `editing`, `board_json`): the view redraws when one changes.
   */
  traits?: string[];
  /**
   * A key that changes whenever the piece of cell `i` must be redrawn.
   * Default: the piece text and the owner.
   */
  pieceKey?(s: GameState, i: number): string;
  /**
   * Draw the piece of cell `i` into `g`, which is empty and centred on the
   * cell (draw around 0,0). `size` is the cell side. Not called for empty cells
   * unless `pieceKey` says otherwise.
   */
  drawPiece?(g: SVGGElement, s: GameState, i: number, size: number): void;
  /** How a cell's content is named in its aria-label ("X"); "" for an empty cell. */
  describe?(s: GameState, i: number): string;
  /** Called once after the board is built (per board size): add defs and decorations. */
  build?(board: Board): void;
  /** Called after every state change, after the cells are updated. */
  update?(board: Board, s: GameState): void;
  /** The board's tooltip (how to play it with the pointer and the keys). */
  hint?: string;
  /**
   * The cells to mark while `show_legal` is on. Default: the cells of the legal
   * moves' targets (`state.targets` of kind "cell"); a game whose moves name
   * several cells maps them.
   */
  legalCells?(s: GameState): string[];
  /**
   * A click on cell `i` (`how`: "mouse", or "touch" for a tap), or Enter /
   * Space with the focus ring on it ("key"). Return true when the layer sent
   * its own intent (or kept the activation, as a first tap that previews);
   * false lets the shared view send `{type: "play", move: <the cell>}`.
   */
  activate?(board: Board, s: GameState, i: number, how?: Activation): boolean;
  /**
   * The position as it would look once the player to move plays cell `i`
   * (only cell `i` need be right), painted at once on a click while Python
   * checks the move: its answer confirms or rolls it back. `null` or no hook:
   * nothing is painted before the answer.
   */
  predict?(s: GameState, i: number): GameState | null;
  /**
   * A key pressed on the board, before the shared keys (arrows, Enter, U, R).
   * Return true when the layer handled it: the view then stops it from
   * reaching JupyterLab and from the shared key of the same name.
   */
  key?(board: Board, s: GameState, ev: KeyboardEvent): boolean;
  /**
   * The cell the player points at: under the pointer, or under the focus ring
   * when it moved by keys; -1 when the pointer left the board.
   */
  point?(board: Board, s: GameState, i: number): void;
}

const layers = new Map<string, GameLayer>();

/** Register the layer of a game (`state.layer`); "" registers the fallback, the generic layer. */
export function registerGame(game: string, layer: GameLayer): void {
  layers.set(game, layer);
}

/** The layer of a game, or the generic one (generic.ts) that draws any game from its scene. */
export function layerFor(game: string): GameLayer {
  const layer = layers.get(game) ?? layers.get("");
  if (!layer) throw new Error("gridwidgets: no generic layer registered");
  return layer;
}

/** The CSS class that gives an element its player's colour (`--gw-c`). */
export function playerClass(owner: number): string {
  return owner >= 0 ? `gw-p${owner}` : "gw-pnone";
}
