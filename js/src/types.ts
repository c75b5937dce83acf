// The protocol between Python and the browser (docs/frontend.md).

/** The `state` trait: the whole public state of a game, replaced as one value. */
export interface GameState {
  /** Picks the per-game layer: "gridlock", "gridmaster4", ... */
  game: string;
  /** Increases by one on every change of the game; intents carry it back. */
  version: number;
  rows: number;
  cols: number;
  /** ["A", "B", ...] and ["1", "2", ...] (RULES C-2). */
  col_labels: string[];
  row_labels: string[];
  /** Player names, index = player id. */
  players: string[];
  /** Who acts; null when the game is over. */
  current_player: number | null;
  /** Row-major, rows*cols entries: the piece text in each cell, "" if empty. */
  cells: string[];
  /** Row-major owner id per cell, -1 if empty. */
  owners: number[];
  /** Notation of every legal move of the mover. */
  legal: string[];
  /** Empty cells the mover may not use, because of `forbidden_rule`. */
  forbidden: string[];
  forbidden_rule: string;
  last_move: string | null;
  history: string[];
  /** Undone moves that redo would replay, next first. */
  future: string[];
  is_over: boolean;
  winners: number[];
  status: string;
  message: string;
  message_kind: "" | "info" | "error" | string;
  /** Per-game additions. */
  extra: Record<string, unknown>;
  /** Per player: "" for a person, else the name of the agent on that seat. */
  seats: string[];
  /** The player to act is an agent seat and the game is not over. */
  agent_to_move: boolean;
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
  /** Milliseconds an agent waits before its move (0..2000). */
  delay: number;
  /** The hint overlay asked for: "", "solve" or "mcts". */
  hints: string;
  /** Seconds the hint computation may take. */
  hint_budget: number;
  /** The advice Python posted (see hints.ts): drawn only while its version is the state's. */
  hint_data: Record<string, unknown>;
}

/** Intents sent to Python with `model.send`. */
export type Intent =
  | { type: "play"; move: string; version: number; player: number | null }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "new" }
  | { type: "seek"; index: number }
  | { type: "agent-step"; version: number };
