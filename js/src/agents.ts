// The agent controls of the grid view: Step, Play/Pause, the speed (the
// `delay` trait, within the bounds Python sets in `state.contract`), the list
// of agent seats, the "to move" tag, and the page's clock that asks Python
// for the next agent move while `playing`.

import { html, mediaIcon, robotIcon, setAttr, setText, shortAgent } from "./dom";
import { playerClass } from "./games/layer";
import type { GameState, Intent } from "./types";

/** Used only until a state with a contract arrives (an old or partial state). */
const FALLBACK_DELAY = { min: 0, max: 2000, value: 400 };

export interface AgentsHost {
  trait(name: string): unknown;
  setTrait(name: string, value: unknown): void;
  send(intent: Intent): void;
  current(): GameState | null;
  /** The layer lists the seats itself (e.g. in its players panel). */
  layerShowsSeats(): boolean;
}

export class AgentControls {
  readonly el: HTMLDivElement;
  /** "<agent> to move", in the status head. */
  readonly tag: HTMLSpanElement;
  private readonly stepBtn: HTMLButtonElement;
  private readonly playBtn: HTMLButtonElement;
  private readonly speed: HTMLInputElement;
  private readonly speedText: HTMLSpanElement;
  private readonly seatsEl: HTMLUListElement;
  private seatsKey = "";
  private speedDragging = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerVersion = -1;
  private sentVersion = -1;

  constructor(parent: HTMLElement, head: HTMLElement, private readonly host: AgentsHost, private readonly root: HTMLElement) {
    this.tag = html("span", { class: "gw-agent-tag gw-agent-now", "data-role": "agent-to-move", hidden: true }, undefined, head);
    this.el = html("div", { class: "gw-agents", role: "group", "aria-label": "agents", "data-role": "agents", hidden: true }, undefined, parent);
    const agentsHead = html("div", { class: "gw-agents-head" }, undefined, this.el);
    const title = html("span", { class: "gw-section-title" }, undefined, agentsHead);
    title.appendChild(robotIcon());
    title.appendChild(document.createTextNode("Agents"));
    this.seatsEl = html("ul", { class: "gw-seats", "aria-label": "agent seats" }, undefined, this.el);
    const row = html("div", { class: "gw-agents-row" }, undefined, this.el);
    const button = (action: "step" | "play", label: string, titleText: string): HTMLButtonElement => {
      const b = html("button", { type: "button", class: "gw-btn", "data-action": action, title: titleText, "data-lm-suppress-shortcuts": "true" }, undefined, row);
      html("span", { class: "gw-icon", "aria-hidden": "true" }, undefined, b).appendChild(mediaIcon(action));
      html("span", { class: "gw-label" }, label, b);
      return b;
    };
    this.stepBtn = button("step", "Step", "The agent to move plays one move");
    this.playBtn = button("play", "Play", "Agents move by themselves");
    this.playBtn.classList.add("gw-play");
    const speedBox = html("label", { class: "gw-speed", title: "How long an agent waits before its move" }, undefined, this.el);
    html("span", { class: "gw-speed-end" }, "fast", speedBox);
    this.speed = html("input", {
      type: "range",
      class: "gw-range gw-speed-range",
      min: FALLBACK_DELAY.min,
      max: FALLBACK_DELAY.max,
      step: 50,
      value: FALLBACK_DELAY.value,
      "data-action": "speed",
      "aria-label": "agent delay in milliseconds",
      "data-lm-suppress-shortcuts": "true",
    }, undefined, speedBox);
    html("span", { class: "gw-speed-end" }, "slow", speedBox);
    this.speedText = html("span", { class: "gw-speed-ms", "aria-hidden": "true" }, "", speedBox);
  }

  listen(on: <K extends keyof HTMLElementEventMap>(el: HTMLElement, type: K, fn: (ev: HTMLElementEventMap[K]) => void) => void): void {
    on(this.stepBtn, "click", () => {
      const s = this.host.current();
      if (s) this.host.send({ type: "agent-step", version: s.version });
    });
    on(this.playBtn, "click", () => {
      const playing = this.host.trait("playing") === true;
      this.sentVersion = -1; // pressing play may retry the current state
      this.host.setTrait("playing", !playing);
      this.restart();
    });
    const onSpeed = (): void => {
      const v = this.clamp(Number(this.speed.value));
      if (v === this.delay()) return;
      this.host.setTrait("delay", v);
      this.restart();
    };
    on(this.speed, "pointerdown", () => { this.speedDragging = true; });
    const endDrag = (): void => {
      this.speedDragging = false;
      const s = this.host.current();
      if (s) this.update(s);
    };
    on(this.speed, "pointerup", endDrag);
    on(this.speed, "pointercancel", endDrag);
    on(this.speed, "input", onSpeed);
    on(this.speed, "change", () => { onSpeed(); endDrag(); });
  }

  /** The delay bounds Python decides (`state.contract`). */
  private bounds(): { min: number; max: number } {
    const c = this.host.current()?.contract;
    if (c && Number.isFinite(c.delay_min) && Number.isFinite(c.delay_max) && c.delay_max >= c.delay_min) {
      return { min: c.delay_min, max: c.delay_max };
    }
    return FALLBACK_DELAY;
  }

  private clamp(ms: number): number {
    const { min, max } = this.bounds();
    if (!Number.isFinite(ms)) return Math.max(min, Math.min(max, FALLBACK_DELAY.value));
    return Math.max(min, Math.min(max, Math.round(ms)));
  }

  private delay(): number {
    return this.clamp(Number(this.host.trait("delay")));
  }

  /** A new speed or a pause restarts the clock of the pending move. */
  restart(): void {
    this.cancel();
    const s = this.host.current();
    if (s) this.update(s);
    this.schedule();
  }

  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerVersion = -1;
  }

  /**
   * While `playing` and an agent is to move, send `agent-step` once, `delay` ms
   * after drawing that state. A new version, a pause or destroy cancels it; a
   * state with the same version (a refused click) keeps the pending one.
   */
  schedule(): void {
    const s = this.host.current();
    const want = !!s && this.host.trait("playing") === true && s.agent_to_move && !s.is_over;
    if (!s || !want) {
      this.cancel();
      return;
    }
    if (this.timer !== null && this.timerVersion === s.version) return;
    this.cancel();
    if (this.sentVersion === s.version) return;
    const version = s.version;
    this.timerVersion = version;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerVersion = -1;
      const now = this.host.current();
      if (!now || now.version !== version || this.host.trait("playing") !== true) return;
      this.sentVersion = version;
      this.host.send({ type: "agent-step", version });
    }, this.delay());
  }

  update(s: GameState): void {
    const anyAgent = s.seats.some((x) => !!x);
    this.el.hidden = !anyAgent;
    const cp = s.current_player;
    const seat = cp !== null && cp >= 0 ? s.seats[cp] ?? "" : "";
    const agentNow = s.agent_to_move && !s.is_over && !!seat;
    const playing = this.host.trait("playing") === true;

    this.tag.hidden = !agentNow;
    if (agentNow) {
      const key = `${cp}|${seat}`;
      if (this.tag.getAttribute("data-key") !== key) {
        this.tag.replaceChildren(robotIcon(), document.createTextNode(shortAgent(seat)));
        setAttr(this.tag, "data-key", key);
      }
      setAttr(this.tag, "title", `${s.players[cp!] ?? `player ${cp}`} is played by the agent ${seat}`);
      setAttr(this.tag, "class", `gw-agent-tag gw-agent-now ${playerClass(cp!)}${playing ? " is-playing" : ""}`);
    }
    this.root.classList.toggle("gw-agent-moving", agentNow && playing);
    if (!anyAgent) return;

    this.stepBtn.disabled = !agentNow;
    setAttr(this.playBtn, "data-action", playing ? "pause" : "play");
    setAttr(this.playBtn, "title", playing ? "Stop the agents (they wait for Step or Play)" : "Agents move by themselves");
    if (this.playBtn.getAttribute("data-icon") !== (playing ? "pause" : "play")) {
      setAttr(this.playBtn, "data-icon", playing ? "pause" : "play");
      this.playBtn.firstElementChild!.replaceChildren(mediaIcon(playing ? "pause" : "play"));
    }
    setText(this.playBtn.lastElementChild!, playing ? "Pause" : "Play");
    this.playBtn.classList.toggle("is-playing", playing);

    const { min, max } = this.bounds();
    setAttr(this.speed, "min", String(min));
    setAttr(this.speed, "max", String(max));
    const d = this.delay();
    if (!this.speedDragging && this.speed.value !== String(d)) this.speed.value = String(d);
    setAttr(this.speed, "aria-valuetext", `${d} ms`);
    setText(this.speedText, `${d} ms`);

    this.seatsEl.hidden = this.host.layerShowsSeats();
    const seatsKey = JSON.stringify([s.seats, s.players]);
    if (seatsKey !== this.seatsKey && !this.seatsEl.hidden) {
      this.seatsKey = seatsKey;
      this.seatsEl.replaceChildren();
      s.seats.forEach((name, p) => {
        if (!name) return;
        const li = html("li", { class: `gw-seat ${playerClass(p)}`, "data-player": p }, undefined, this.seatsEl);
        html("span", { class: "gw-swatch", "aria-hidden": "true" }, undefined, li);
        html("span", { class: "gw-seat-player" }, s.players[p] ?? `player ${p}`, li);
        const tag = html("span", { class: "gw-agent-tag", title: name }, undefined, li);
        tag.append(robotIcon(), document.createTextNode(name));
      });
    }
  }
}
