// One store: its sync state (Sync now), rename and remove (admins), its products from the local copy
// (search, stock filter, sort, paging: all offline), products that left (online), and its changes.

import { field, h, reconcile, replace } from "../ui/dom.js";
import { changeItem, changeSignature } from "../ui/changes.js";
import { reportingTo } from "../ui/forms.js";
import { money, plural } from "../ui/format.js";
import { refusal, syncLine } from "./stores.js";
import { markAllRead, markEventRead, removeStore, removedProducts, renameStore, syncStore } from "../areas/stores.js";

/** Products drawn at first; "Show more" adds as many again. */
const PAGE = 50;
/** Changes shown on the page (the Changes screen has them all). */
const RECENT = 20;

/**
 * @param {import("../app.js").App} app
 * @param {string} id
 * @param {(path: string) => void} navigate
 * @param {(text: string) => void} notify
 */
export function storeView(app, id, navigate, notify) {
  const heading = h("h1", { id: "store-heading" });
  const where = h("p", { class: "task-meta" });
  const state = h("div", {});
  const error = h("p", { class: "form-error", role: "alert" });
  const run = reportingTo(error);
  const syncNow = h("button", { type: "button", onclick: () => void sync() }, "Sync now");
  const rename = h("button", { type: "button", onclick: () => {
    const store = app.lists.stores.find((s) => s.id === id);
    const next = store && prompt(`New name for ${store.name}`, store.name)?.trim();
    if (store && next && next !== store.name) void run(() => renameStore(app, id, next));
  } }, "Rename");
  const remove = h("button", { type: "button", class: "danger", onclick: () => {
    const store = app.lists.stores.find((s) => s.id === id);
    if (store && confirm(`Stop watching ${store.name}? Its products and changes are removed for every member.`)) {
      void run(async () => { await removeStore(app, id); navigate("/stores"); });
    }
  } }, "Remove store");

  const search = field("Search products", { type: "search", name: "search", autocomplete: "off", placeholder: "Title, vendor, type or tag" });
  const stock = field("Stock", { name: "stock" }, "select",
    [h("option", { value: "ALL" }, "All"), h("option", { value: "IN_STOCK" }, "In stock"), h("option", { value: "OUT_OF_STOCK" }, "Out of stock")]);
  const sort = field("Sort by", { name: "sort" }, "select",
    [h("option", { value: "TITLE" }, "Title"), h("option", { value: "PRICE_ASC" }, "Price, low to high"),
      h("option", { value: "PRICE_DESC" }, "Price, high to low"), h("option", { value: "CHANGED" }, "Recently changed")]);
  const removedToggle = h("input", { type: "checkbox", name: "removed", onchange: () => void loadRemoved() });
  const products = h("ul", { class: "products", "aria-label": "Products" });
  const count = h("p", { class: "hint", role: "status" });
  const more = h("button", { type: "button", onclick: () => { limit += PAGE; update(); } }, "Show more");
  const removedList = h("ul", { class: "products", "aria-label": "Products that left the store" });
  const removedNote = h("p", { class: "hint" });
  let limit = PAGE;
  for (const control of [search.control, stock.control, sort.control]) {
    control.addEventListener(control === search.control ? "input" : "change", () => { limit = PAGE; update(); });
  }

  const changes = h("ul", { class: "changes", "aria-label": "Recent changes" });
  const noChanges = h("p", { class: "empty" });
  const markAll = h("button", { type: "button", onclick: () => void run(async () => { await markAllRead(app, id); notify("Changes marked read."); }) }, "Mark all read");

  const element = h("section", { "aria-labelledby": "store-heading" }, heading, where, state, error,
    h("div", { class: "actions" }, syncNow, rename, remove),
    h("section", { "aria-labelledby": "products-heading" }, h("h2", { id: "products-heading" }, "Products"),
      h("div", { class: "filters" }, search.wrapper, stock.wrapper, sort.wrapper), count, products, more,
      h("label", { class: "check" }, removedToggle, "Show products that left the store"), removedNote, removedList),
    h("section", { "aria-labelledby": "changes-heading" }, h("h2", { id: "changes-heading" }, "Recent changes"),
      h("div", { class: "actions" }, markAll, h("a", { href: "/changes" }, "All changes")), changes, noChanges));

  async function sync() {
    await run(async () => {
      syncNow.setAttribute("aria-busy", "true");
      try {
        await syncStore(app, id);
        notify("Synced.");
      } catch (error) {
        throw new Error(refusal(error));
      } finally {
        syncNow.removeAttribute("aria-busy");
      }
    });
  }

  async function loadRemoved() {
    replace(removedList);
    removedNote.textContent = "";
    if (!removedToggle.checked) return;
    if (!app.online) return void (removedNote.textContent = "Products that left are listed when you are online.");
    removedNote.textContent = "Loading…";
    await run(async () => {
      const { products: gone, complete } = await removedProducts(app, id);
      const currency = app.lists.stores.find((s) => s.id === id)?.currency ?? null;
      const among = complete ? "" : " (among its 5 000 most recently changed products)";
      removedNote.textContent = gone.length === 0 ? `No product has left this store${among}.` : `${plural(gone.length, "product")} left the store${among}:`;
      replace(removedList, gone.map((product) => h("li", { class: "product" },
        h("span", { class: "task-title" }, product.title),
        h("span", { class: "task-meta" }, `${money(product.minPrice, currency)} · left ${new Date(product.removedAt ?? "").toLocaleDateString()}`))));
    }).finally(() => { if (removedNote.textContent === "Loading…") removedNote.textContent = ""; });
  }

  function update() {
    const store = app.lists.stores.find((s) => s.id === id);
    if (!store) {
      replace(heading, "Store not found");
      replace(where, "This store is not in the household on screen. ", h("a", { href: "/stores" }, "All stores"));
      element.querySelectorAll("section, .actions, .filters").forEach((part) => part.setAttribute("hidden", ""));
      return;
    }
    element.querySelectorAll("section, .actions, .filters").forEach((part) => part.removeAttribute("hidden"));
    heading.textContent = store.name;
    replace(where, h("a", { href: store.url, rel: "noopener noreferrer", target: "_blank" }, store.domain), store.currency ? ` · prices in ${store.currency}` : "");
    replace(state, syncLine(store));
    const mayManage = app.can("update", "Store");
    rename.hidden = !mayManage;
    remove.hidden = !app.can("delete", "Store");
    syncNow.hidden = !app.can("sync", "Store");
    for (const button of [syncNow, rename, remove]) button.disabled = !app.online;

    const all = app.lists.productsByStore.get(id) ?? [];
    const shown = filterProducts(all, search.control.value, stock.control.value, sort.control.value);
    reconcile(products, shown.slice(0, limit), (p) => p.id, (p) => `${p.version}`, (p) => productItem(p, store.currency));
    count.textContent = shown.length === all.length ? plural(all.length, "product") : `${shown.length.toLocaleString()} of ${plural(all.length, "product")}`;
    more.hidden = shown.length <= limit;
    more.textContent = `Show more (${(shown.length - limit).toLocaleString()} not shown)`;

    const recent = app.lists.eventList.filter((event) => event.storeId === id);
    const zone = app.household?.timeZone ?? "UTC";
    /** @param {string} eventId */
    const markRead = (eventId) => void markEventRead(app, eventId);
    reconcile(changes, recent.slice(0, RECENT), (e) => e.id, changeSignature,
      (e) => changeItem(e, { currency: store.currency, timeZone: zone, showStore: false, markRead }));
    const unread = app.lists.unreadByStore.get(id) ?? 0;
    noChanges.textContent = recent.length === 0 ? "No changes yet: they appear after the next sync finds some." : "";
    markAll.hidden = unread === 0;
  }
  update();
  return { element, update };
}

/**
 * The products a search, stock filter and sort select, as the API's `products` would (search over
 * title, vendor, type and tags, ignoring case).
 * @param {import("../types.js").Product[]} products
 * @param {string} search
 * @param {string} stock ALL, IN_STOCK or OUT_OF_STOCK
 * @param {string} sort TITLE, PRICE_ASC, PRICE_DESC or CHANGED
 */
export function filterProducts(products, search, stock, sort) {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const found = products.filter((p) => {
    if (stock === "IN_STOCK" && !p.available) return false;
    if (stock === "OUT_OF_STOCK" && p.available) return false;
    if (words.length === 0) return true;
    const text = `${p.title} ${p.vendor} ${p.productType} ${p.tags.join(" ")}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
  if (sort === "PRICE_ASC") found.sort((a, b) => Number(a.minPrice) - Number(b.minPrice));
  if (sort === "PRICE_DESC") found.sort((a, b) => Number(b.minPrice) - Number(a.minPrice));
  if (sort === "CHANGED") found.sort((a, b) => (a.lastChangedAt < b.lastChangedAt ? 1 : a.lastChangedAt > b.lastChangedAt ? -1 : 0));
  return found;
}

/**
 * @param {import("../types.js").Product} product
 * @param {string | null} currency
 */
function productItem(product, currency) {
  const price = product.minPrice === product.maxPrice ? money(product.minPrice, currency) : `from ${money(product.minPrice, currency)}`;
  return h("li", { class: "product", "data-id": product.id },
    h("a", { href: `/products/${product.id}`, class: "task-title" }, product.title),
    h("span", { class: "task-meta" }, h("span", {}, price), h("span", {}, product.available ? "In stock" : "Out of stock"),
      product.vendor ? h("span", {}, product.vendor) : null));
}
