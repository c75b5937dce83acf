// The side panel of the grid view: the status line (whose turn, or the
// result), what the last move caused, the answer to the last intent, the
// area for the game layer's own controls, and the game buttons.

import { html, setAttr, setText } from "./dom";
import { playerClass } from "./games/layer";
import type { GameState, Intent } from "./types";

type Action = "undo" | "redo" | "new" | "toggle-forbidden" | "toggle-legal";

export class SidePanel {
  readonly el: HTMLDivElement;
  /** The status line's head, where the agents' "to move" tag sits too. */
  readonly head: HTMLDivElement;
  /** An HTML area for the game layer's controls (cards, scores, choices). */
  readonly panel: HTMLDivElement;
  private readonly statusEl: HTMLDivElement;
  private readonly turnEl: HTMLSpanElement;
  private readonly statusText: HTMLSpanElement;
  private readonly eventsEl: HTMLUListElement;
  private eventsKey = "";
  private readonly messageEl: HTMLDivElement;
  /** Screen readers only: the other seats' moves, as they come (an agent's, an opponent's). */
  private readonly announceEl: HTMLDivElement;
  private seen: { step: number; mover: number | null; version: number } | null = null;
  readonly buttons: Record<Action, HTMLButtonElement>;

  constructor(parent: HTMLElement) {
    this.el = html("div", { class: "gw-side" }, undefined, parent);
    this.head = html("div", { class: "gw-head" }, undefined, this.el);
    this.statusEl = html("div", { class: "gw-status", "data-role": "status", "aria-live": "polite" }, undefined, this.head);
    this.turnEl = html("span", { class: "gw-turn", "aria-hidden": "true" }, undefined, this.statusEl);
    this.statusText = html("span", { class: "gw-status-text" }, undefined, this.statusEl);
    this.eventsEl = html("ul", { class: "gw-events", "data-role": "events", "aria-live": "polite", "aria-label": "what the last move caused" }, undefined, this.el);
    this.messageEl = html("div", { class: "gw-message", "data-role": "message", role: "status", "aria-live": "polite" }, undefined, this.el);
    this.announceEl = html("div", { class: "gw-sr-only", "data-role": "announce", role: "log", "aria-live": "polite" }, undefined, this.el);
    this.panel = html("div", { class: "gw-panel" }, undefined, this.el);

    const controls = html("div", { class: "gw-controls", role: "toolbar", "aria-label": "game controls" }, undefined, this.el);
    const button = (action: string, label: string, icon: string, title: string): HTMLButtonElement => {
      const b = html("button", { type: "button", class: "gw-btn", "data-action": action, title, "data-lm-suppress-shortcuts": "true" }, undefined, controls);
      html("span", { class: "gw-icon", "aria-hidden": "true" }, icon, b);
      html("span", { class: "gw-label" }, label, b);
      return b;
    };
    this.buttons = {
      undo: button("undo", "Undo", "\u21B6", "Undo the last move (U)"),
      redo: button("redo", "Redo", "\u21B7", "Redo the next move (R)"),
      new: button("new", "New game", "\u21BA", "Start a new game with the same options"),
      "toggle-forbidden": button("toggle-forbidden", "Forbidden", "\u2298", "Show the cells the player to move may not use"),
      "toggle-legal": button("toggle-legal", "Legal moves", "\u2022", "Highlight the legal moves of the player to move"),
    };
    for (const t of ["toggle-forbidden", "toggle-legal"] as const) {
      this.buttons[t].classList.add("gw-toggle");
      this.buttons[t].setAttribute("aria-pressed", "false");
    }
  }

  /** Wire the buttons: intents go to Python, toggles flip a trait. */
  listen(
    on: (el: HTMLElement, type: "click", fn: () => void) => void,
    send: (intent: Intent) => void,
    toggle: (trait: string) => void,
  ): void {
    for (const [action, b] of Object.entries(this.buttons)) {
      on(b, "click", () => {
        if (action === "toggle-forbidden") toggle("show_forbidden");
        else if (action === "toggle-legal") toggle("show_legal");
        else send({ type: action } as Intent);
      });
    }
  }

  /** Before the first state arrives. */
  waiting(): void {
    setText(this.statusText, "waiting for the game state ...");
  }

  /**
   * Announce a move that was not this page's own: one step further than the
   * position seen before, made by a seat no person plays from this page (an
   * agent, or an opponent on another device). The status line says whose
   * turn it is; this says what the other side did (WCAG 4.1.3).
   */
  private announce(s: GameState): void {
    const before = this.seen;
    this.seen = { step: s.step, mover: s.is_over ? null : s.current_player, version: s.version };
    if (!before || s.step !== before.step + 1 || s.version <= before.version || !s.last_step) return;
    const mover = before.mover;
    if (mover === null) return;
    const joint = s.last_step.includes(" + "); // a simultaneous node revealed: news to every seat
    const own = s.people.includes(mover) && !(s.seats[mover] ?? "");
    if (own && !joint) return;
    const who = joint ? "Revealed:" : `${s.players[mover] ?? "The other side"} played`;
    setText(this.announceEl, `${who} ${s.last_step}.`);
  }

  update(s: GameState, showForbidden: boolean, showLegal: boolean): void {
    this.announce(s);
    setText(this.statusText, s.status);
    this.statusEl.classList.toggle("is-over", s.is_over);
    const cp = s.current_player;
    setAttr(this.turnEl, "class", `gw-turn ${cp === null || s.is_over ? "is-hidden" : playerClass(cp)}`);

    // What the last move caused (extra.events). An event the status line
    // already says stays in the list but is not shown twice.
    const said = plain(s.status);
    const events = Array.isArray(s.extra.events)
      ? (s.extra.events as unknown[]).filter((e): e is string => typeof e === "string" && !!e)
      : [];
    const eventsKey = `${said}\n${events.join("\n")}`;
    if (eventsKey !== this.eventsKey) {
      this.eventsKey = eventsKey;
      this.eventsEl.replaceChildren(...events.map((e) => html("li", plain(e) === said ? { class: "is-said" } : {}, e)));
      this.eventsEl.classList.toggle("is-all-said", events.every((e) => plain(e) === said));
    }

    setText(this.messageEl, s.message);
    setAttr(this.messageEl, "data-kind", s.message_kind || null);
    this.messageEl.classList.toggle("is-error", s.message_kind === "error");
    this.messageEl.classList.toggle("is-info", s.message_kind === "info");
    this.messageEl.classList.toggle("is-empty", !s.message);

    // undo also withdraws a hidden submission
    this.buttons.undo.disabled = s.step === 0 && s.pending.length === 0;
    this.buttons.redo.disabled = s.future_steps.length === 0;
    setAttr(this.buttons["toggle-forbidden"], "aria-pressed", String(showForbidden));
    const toggle = this.buttons["toggle-forbidden"];
    toggle.hidden = !s.forbidden_rule && s.forbidden.length === 0;
    setText(toggle.lastElementChild!, s.forbidden_rule ? `Forbidden (${s.forbidden_rule})` : "Forbidden");
    setAttr(this.buttons["toggle-legal"], "aria-pressed", String(showLegal));
  }
}

/** Text compared without case, spaces and a final full stop. */
function plain(text: string): string {
  return text.trim().replace(/[.\s]+$/, "").replace(/\s+/g, " ").toLowerCase();
}
