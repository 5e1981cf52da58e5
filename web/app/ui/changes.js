// A store change in words ("Price dropped: €12.00 → €9.60"), for the Changes screen and each store's page.

import { h } from "./dom.js";
import { money, when } from "./format.js";

/** @typedef {import("../types.js").StoreEvent} StoreEvent */

/** Each change type's name, as the filters and rows show it. */
export const CHANGE_TYPES = /** @type {const} */ ([
  ["PRICE_DROPPED", "Price dropped"], ["PRICE_INCREASED", "Price increased"], ["BACK_IN_STOCK", "Back in stock"],
  ["OUT_OF_STOCK", "Out of stock"], ["NEW_PRODUCT", "New product"], ["PRODUCT_REMOVED", "Left the store"],
  ["IMAGES_CHANGED", "New pictures"],
]);
const typeNames = new Map(/** @type {[string, string][]} */ (CHANGE_TYPES.map(([type, name]) => [type, name])));

/** @param {string} type */
export const changeTypeName = (type) => typeNames.get(type) ?? type;

/**
 * What changed, with its magnitude for prices ("€12.00 → €9.60, −20 %, a large drop").
 * @param {StoreEvent} event
 * @param {string | null} currency
 */
export function changeDetail(event, currency) {
  if (event.oldPrice === null || event.newPrice === null) return "";
  const before = Number(event.oldPrice), after = Number(event.newPrice);
  const percent = before > 0 ? Math.round(((after - before) / before) * 100) : null;
  const size = event.magnitude ? `, ${event.magnitude.toLowerCase()}` : "";
  const change = percent === null || percent === 0 ? "" : ` (${percent > 0 ? "+" : "−"}${Math.abs(percent)} %${size})`;
  return `${money(event.oldPrice, currency)} → ${money(event.newPrice, currency)}${change}`;
}

/**
 * One row of a changes list: type, product (a link to it), variant, detail, time, and Mark read while unread.
 * @param {StoreEvent} event
 * @param {{currency: string | null, timeZone: string, showStore: boolean, markRead: ((id: string) => void) | null}} options
 */
export function changeItem(event, options) {
  const detail = changeDetail(event, options.currency);
  return h("li", { class: `change${event.read ? "" : " unread"}`, "data-id": event.id, "data-type": event.type },
    h("div", { class: "change-main" },
      h("span", { class: "change-type" }, changeTypeName(event.type)),
      h("a", { href: `/products/${event.productId}` }, event.productTitle),
      event.variantTitle && event.variantTitle !== "Default Title" ? h("span", { class: "hint" }, ` (${event.variantTitle})`) : null,
      detail ? h("span", { class: "change-detail" }, detail) : null,
      h("span", { class: "task-meta" }, options.showStore ? `${event.storeName} · ` : "", h("time", { datetime: event.createdAt }, when(event.createdAt, options.timeZone)),
        event.read ? "" : " · unread")),
    !event.read && options.markRead
      ? h("button", { type: "button", "aria-label": `Mark read: ${changeTypeName(event.type)}, ${event.productTitle}`, onclick: () => options.markRead?.(event.id) }, "Mark read")
      : null);
}

/**
 * What a row shows, for `reconcile`.
 * @param {StoreEvent} event
 */
export const changeSignature = (event) => `${event.version}|${event.read}`;
