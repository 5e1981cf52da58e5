// Running a form's action: the button waits, the API's errors appear next to the field they name; a copy button.

import { ApiError } from "../api/graphql.js";
import { h } from "./dom.js";

/**
 * @param {HTMLFormElement} form
 * @param {Record<string, {fail: (message: string) => void}>} fields by the API's field name
 * @param {HTMLElement} general where an error naming no field goes
 * @param {() => Promise<void>} action
 */
export function submitting(form, fields, general, action) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    for (const f of Object.values(fields)) f.fail("");
    general.textContent = "";
    const button = form.querySelector("button[type=submit]");
    button?.setAttribute("aria-busy", "true");
    try {
      await action();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const name = error instanceof ApiError ? error.field?.split(".").pop() : undefined;
      const target = name ? fields[name] : undefined;
      if (target) target.fail(message);
      else general.textContent = message;
    } finally {
      button?.removeAttribute("aria-busy");
    }
  });
}

/**
 * An action run from a button: its error (if any) replaces the text of `area`, which it empties first.
 * @param {HTMLElement} area
 * @returns {(action: () => Promise<unknown>) => Promise<void>}
 */
export function reportingTo(area) {
  return async (action) => {
    area.textContent = "";
    try {
      await action();
    } catch (error) {
      area.textContent = error instanceof Error ? error.message : String(error);
    }
  };
}

/**
 * A button that copies `text` to the clipboard and says so (`copied`, through `notify`).
 * @param {string} label
 * @param {string} text
 * @param {(text: string) => void} notify
 * @param {string} copied
 */
export function copyButton(label, text, notify, copied) {
  return h("button", { type: "button", onclick: () => void navigator.clipboard?.writeText(text).then(() => notify(copied)) }, label);
}
