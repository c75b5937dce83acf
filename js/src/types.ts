// The protocol between Python and the browser (docs/frontend.md). Python
// decides everything in it; the page only draws and sends intents.

/** What Python decides for the page about a game and the widget's limits (`state.contract`). */
export interface Contract {
  /** The hint overlays the game offers besides "" (off): "solve", "mcts". */
  hint_kinds: string[];
  /** Bounds of the agents' delay (the `delay` trait), ms. */
  delay_min: number;
  delay_max: number;
  /** Per player, a colour name of the palette (gridwidgets/core/palette.json). */
  colours: string[];
  /** The kinds of moves the game has: "cell", "edge", "cells", "choice". */
  move_kinds: string[];
  /** Some nodes collect hidden submissions from several players at once. */
  simultaneous: boolean;
  /** The game has a board editor (`edit` intents). */
  editor: boolean;
  /** The game's name for people ("Tic-tac-toe"). */
  long_name: string;
  /** The largest side of the board, CSS px (`ViewHooks.board_px`). */
  board_px: number;
}

/** Where a legal move is (`state.targets`, every game): hints, legal marks and the generic layer find moves by it. */
export interface Target {
  /** Its notation: what a click sends. */
  move: string;
  kind: "cell" | "edge" | "cells" | "choice";
  /** [row, col] of a cell move. */
  cell?: [number, number];
  /** The cells of a multi-cell move. */
  cells?: Array<[number, number]>;
  /** The two cells an edge separates; the second may lie one step off the board. */
  edge?: [[number, number], [number, number]];
}

/** A position as generic layers (gridwidgets/core/scene.py, `Scene.to_dict()`). */
export interface Scene {
  rows: number;
  cols: number;
  title: string;
  colours: string[];
  holes: Array<[number, number]>;
  regions: Array<{ cells: Array<[number, number]>; player: number; style: string; label: string }>;
  pieces: ScenePiece[];
  edges: Array<{ a: [number, number]; b: [number, number]; player: number; style: string }>;
  last: Array<[number, number]>;
  last_edges: Array<[[number, number], [number, number]]>;
  legal: Array<[number, number]>;
  forbidden: Array<[number, number]>;
  status: string;
  /** More lines beside the board ("Round 2 of 2 (GB-7)"). */
  notes: string[];
  /** The players' table (`Scene.panel`), null for none. */
  panel: ScenePanel | null;
  legend: Array<{ kind: string; player: number; text: string }>;
  /** What a cell move of the player to act puts down (its cell is not read): painted at once on a click. */
  next_piece: ScenePiece | null;
}

export type ScenePiece = { cell: [number, number]; kind: string; player: number; text: string; active: boolean; label: string };

/** The players' table of a scene: headings, then a row per player ("turn" or "winner" marked). */
export interface ScenePanel {
  columns: string[];
  rows: Array<{ player: number; values: string[]; mark: string }>;
}

/** The `state` trait: the whole public state of a game, replaced as one value. */
export interface GameState {
  /** The game's registry name. */
  game: string;
  /** The front-end layer that draws it ("" for the generic view). */
  layer: string;
  /** Increases by one on every change of the game; intents carry it back. */
  version: number;
  rows: number;
  cols: number;
  /** ["A", "B", ...] and ["1", "2", ...] (rule C-2). */
  col_labels: string[];
  row_labels: string[];
  /** Player names, index = player id. */
  players: string[];
  /** Who acts; null when the game is over. */
  current_player: number | null;
  /** At a simultaneous node: who has submitted (never what). */
  pending: number[];
  /** Row-major, rows*cols entries: the piece text in each cell, "" if empty. */
  cells: string[];
  /** Row-major owner id per cell, -1 if empty. */
  owners: number[];
  /** Notation of every legal move of the mover. */
  legal: string[];
  /** Empty cells the mover may not use, because of `forbidden_rule`. */
  forbidden: string[];
  forbidden_rule: string;
  /** The last move of the history, and the last step (a joint action reads "IO + IL"). */
  last_move: string | null;
  last_step: string | null;
  /** Every move, and the undone ones next first (flat, as save files hold them). */
  history: string[];
  future: string[];
  /** The history by steps (what undo, redo and the slider move by), the undone steps, the position. */
  steps: string[];
  future_steps: string[];
  step: number;
  is_over: boolean;
  winners: number[];
  status: string;
  message: string;
  message_kind: "" | "info" | "error" | string;
  contract: Contract;
  /** What the game's own layer needs (`Game.frontend_state()`). */
  extra: Record<string, unknown>;
  /** The picture (`Game.scene()`): what the generic layer draws, for every game. */
  scene?: Scene;
  /** Every game: where each legal move is (in the order of `legal`). */
  targets: Target[];
  /** Every game: the cells and edges the picture outlines as the last move ([row, col]). */
  last_cells: Array<[number, number]>;
  last_edges: Array<[[number, number], [number, number]]>;
  /** Per player: "" for a person, else the name of the agent on that seat. */
  seats: string[];
  /** The player to act is an agent seat and the game is not over. */
  agent_to_move: boolean;
  /** The players people play from this page (every seat no agent holds, unless a room's page limits it to its own). */
  people: number[];
}

/** The synced traits of every gridwidgets widget. */
export interface WidgetTraits {
  state: GameState;
  show_forbidden: boolean;
  show_labels: boolean;
  /** Highlight the legal moves of the player to act. */
  show_legal: boolean;
  /** Agent seats move by themselves (the page keeps the clock). */
  playing: boolean;
  /** Milliseconds an agent waits before its move (`contract.delay_min..delay_max`). */
  delay: number;
  /** The hint overlay asked for: "" or one of `contract.hint_kinds`. */
  hints: string;
  /** Seconds the hint computation may take. */
  hint_budget: number;
  /** The advice Python posted (see hints.ts): drawn only while its version is the state's. */
  hint_data: Record<string, unknown>;
  seen_version: number;
  hidden_controls: string[];
  fit: "none" | "screen" | "big";
}

/** Intents sent to Python with `model.send`. */
export type Intent =
  | { type: "play"; move: string; version: number; player: number | null }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "new" }
  | { type: "goto"; index: number }
  | { type: "agent-step"; version: number }
  | { type: "edit"; action: string; target: string };
