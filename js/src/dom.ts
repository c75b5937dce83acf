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
