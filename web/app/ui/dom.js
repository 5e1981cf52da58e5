// Building DOM with standard APIs: `h("button", {onclick}, "Save")`.

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Record<string, any>} Attributes
 */

/**
 * An element with attributes (`on…` are listeners, `class`, `for`, aria-*, data-* and the rest are set as
 * attributes; `value`, `checked`, `disabled` as properties) and children (text or nodes; null and false skipped).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attributes} [attributes]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (name === "value" || name === "checked" || name === "disabled" || name === "selected") /** @type {any} */ (element)[name] = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

let fieldCounter = 0;

/**
 * A labelled field: the label names the input (a screen reader reads it), an error below it names what is wrong.
 * @param {string} label
 * @param {Attributes} attributes the input's
 * @param {"input" | "textarea" | "select"} [tag]
 * @param {Node[]} [options] a select's options
 */
export function field(label, attributes, tag = "input", options = []) {
  const id = `field-${++fieldCounter}`;
  const errorId = `${id}-error`;
  const control = h(tag, { ...attributes, id, "aria-describedby": errorId }, ...options);
  const error = h("p", { class: "field-error", id: errorId });
  const wrapper = h("div", { class: "field" }, h("label", { for: id }, label), control, error);
  return {
    wrapper, control: /** @type {HTMLInputElement} */ (/** @type {unknown} */ (control)),
    /** @param {string} message */
    fail(message) {
      error.textContent = message;
      control.setAttribute("aria-invalid", message ? "true" : "false");
    },
  };
}

/**
 * Empties an element and fills it again.
 * @param {Element} element
 * @param {...(Child | Child[])} children
 */
export function replace(element, ...children) {
  element.replaceChildren();
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
}

/** The elements a list drew last, by key, with the signature they were drawn from. */
const drawn = new WeakMap();

/**
 * Shows `items` in `list`, in order, reusing the element of every item whose signature is unchanged:
 * a change redraws its own row, not the list (and the DOM is touched only where it differs).
 * @template T
 * @param {HTMLElement} list
 * @param {T[]} items
 * @param {(item: T) => string} key
 * @param {(item: T) => string} signature everything the row shows
 * @param {(item: T) => HTMLElement} render
 */
export function reconcile(list, items, key, signature, render) {
  /** @type {Map<string, {signature: string, element: HTMLElement}>} */
  const previous = drawn.get(list) ?? new Map();
  /** @type {Map<string, {signature: string, element: HTMLElement}>} */
  const next = new Map();
  const elements = items.map((item) => {
    const k = key(item), s = signature(item);
    const old = previous.get(k);
    const element = old && old.signature === s ? old.element : render(item);
    next.set(k, { signature: s, element });
    return element;
  });
  drawn.set(list, next);
  const current = list.children;
  if (current.length !== elements.length || elements.some((element, index) => current[index] !== element)) list.replaceChildren(...elements);
}
