// Small DOM helpers shared by the grid view and the game layers.

export const SVG_NS = "http://www.w3.org/2000/svg";

type Attrs = Record<string, string | number | boolean | null | undefined>;

function setAttrs(el: Element, attrs: Attrs | undefined): void {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? "" : String(v));
  }
}

/** Create an SVG element with attributes, optionally appended to `parent`. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs?: Attrs,
  parent?: Element,
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  if (parent) parent.appendChild(el);
  return el;
}

/** Create an HTML element with attributes and text, optionally appended to `parent`. */
export function html<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs,
  text?: string,
  parent?: Element,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  if (text !== undefined) el.textContent = text;
  if (parent) parent.appendChild(el);
  return el;
}

/** Set an attribute only when its value changes (cheap in-place updates). */
export function setAttr(el: Element, name: string, value: string | null): void {
  if (value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) {
    el.setAttribute(name, value);
  }
}

/** Set text content only when it changes. */
export function setText(el: Node, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

let counter = 0;
/** A page-unique id prefix, so several views of one widget never clash. */
export function uid(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

/** "RandomAgent(seed=1)" -> "RandomAgent": the full name goes in the title. */
export function shortAgent(name: string): string {
  const i = name.indexOf("(");
  return (i > 0 ? name.slice(0, i) : name).trim() || name;
}

/** A small robot: the mark of a seat played by an agent. */
export function robotIcon(): SVGSVGElement {
  const icon = svg("svg", { class: "gw-robot", viewBox: "0 0 16 16", width: 12, height: 12, "aria-hidden": "true" });
  svg("path", { d: "M8 1.5v2", class: "gw-robot-line" }, icon);
  svg("circle", { cx: 8, cy: 1.6, r: 1.1, class: "gw-robot-fill" }, icon);
  svg("rect", { x: 2.5, y: 4, width: 11, height: 9, rx: 2.5, class: "gw-robot-line" }, icon);
  svg("circle", { cx: 6, cy: 8, r: 1.2, class: "gw-robot-fill" }, icon);
  svg("circle", { cx: 10, cy: 8, r: 1.2, class: "gw-robot-fill" }, icon);
  svg("path", { d: "M6 11h4M1 7.5v3M15 7.5v3", class: "gw-robot-line" }, icon);
  return icon;
}

const MEDIA_ICONS: Record<string, string> = {
  play: "M4.5 2.8v10.4L13 8z",
  pause: "M4 3h3v10H4zM9 3h3v10H9z",
  step: "M3 2.8v10.4L10.5 8zM11 3h2.5v10H11z",
};

/** A small filled media icon (play, pause, step) that needs no font glyph. */
export function mediaIcon(name: "play" | "pause" | "step"): SVGSVGElement {
  const icon = svg("svg", { class: "gw-media", viewBox: "0 0 16 16", width: 11, height: 11, "aria-hidden": "true" });
  svg("path", { d: MEDIA_ICONS[name] ?? "", fill: "currentColor" }, icon);
  return icon;
}
