// Stores: the household's watched stores from the local copy (name, pictures, products, sync state,
// unread changes), how many failed to sync, and Add store (admins; online).

import { ApiError } from "../api/graphql.js";
import { field, h, reconcile } from "../ui/dom.js";
import { ago, plural } from "../ui/format.js";
import { addStore } from "../areas/stores.js";

/** @typedef {import("../types.js").Store} Store */

/**
 * @param {import("../app.js").App} app
 * @param {(path: string) => void} navigate
 */
export function storesView(app, navigate) {
  const summary = h("p", { class: "sync-summary", role: "status" });
  const list = h("ul", { class: "stores", "aria-label": "Stores" });
  const empty = h("p", { class: "empty" });
  const changes = h("a", { href: "/changes" });

  const address = field("Store address", { name: "domain", autocomplete: "off", inputmode: "url", placeholder: "shop.example.com", maxlength: 253 });
  const offline = h("p", { class: "hint" });
  const add = h("button", { type: "submit", class: "primary" }, "Add");
  const form = h("form", { class: "card", hidden: true, "aria-labelledby": "add-store-heading" },
    h("h2", { id: "add-store-heading" }, "Add a store"), address.wrapper, offline, add);
  const open = h("button", { type: "button", "aria-expanded": "false", onclick: () => toggle(form.hidden) }, "Add store");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const domain = address.control.value.trim();
    if (!domain) return address.fail("Type the store's address, for example shop.example.com.");
    address.fail("");
    add.setAttribute("aria-busy", "true");
    add.disabled = true;
    try {
      const id = await addStore(app, domain);
      address.control.value = "";
      toggle(false);
      navigate(`/stores/${id}`);
    } catch (error) {
      address.fail(refusal(error));
    } finally {
      add.removeAttribute("aria-busy");
      add.disabled = !app.online;
    }
  });
  /** @param {boolean} show */
  function toggle(show) {
    form.hidden = !show;
    open.setAttribute("aria-expanded", String(show));
    if (show) address.control.focus();
  }

  const mayAdd = app.can("create", "Store");
  const element = h("section", { "aria-labelledby": "stores-heading" },
    h("h1", { id: "stores-heading" }, "Stores"), summary,
    h("div", { class: "actions" }, mayAdd ? open : null, changes), mayAdd ? form : null, list, empty);

  function update() {
    const stores = app.lists.stores;
    const failed = stores.filter((store) => store.syncStatus.state === "FAILED").length;
    summary.textContent = failed === 0 ? "" : `${plural(failed, "store")} failed to sync.`;
    const unread = app.lists.unreadChanges;
    changes.textContent = unread === 0 ? "All changes" : `All changes (${unread.toLocaleString()} unread)`;
    const now = Date.now();
    reconcile(list, stores, (store) => store.id, (store) => storeSignature(app, store, now), (store) => storeItem(app, store, now));
    empty.textContent = stores.length === 0 ? (mayAdd ? "No stores yet: add one to watch its prices and stock." : "This household watches no stores yet.") : "";
    add.disabled = !app.online;
    offline.textContent = app.online ? "" : "You are offline: stores can be added once you are back online.";
  }
  update();
  return { element, update, focus: null };
}

/**
 * @param {import("../app.js").App} app
 * @param {Store} store
 * @param {number} now
 */
function storeSignature(app, store, now) {
  const products = app.lists.productsByStore.get(store.id) ?? [];
  return `${store.version}|${products.length}|${products[0]?.version}|${app.lists.unreadByStore.get(store.id) ?? 0}|${Math.floor(now / 60_000)}`;
}

/**
 * @param {import("../app.js").App} app
 * @param {Store} store
 * @param {number} now
 */
function storeItem(app, store, now) {
  const products = app.lists.productsByStore.get(store.id) ?? [];
  const pictures = products.map((p) => p.images[0]?.src).filter((src) => src && src.startsWith("https:")).slice(0, 3);
  const unread = app.lists.unreadByStore.get(store.id) ?? 0;
  return h("li", { class: "store", "data-id": store.id },
    h("div", { class: "store-pictures", "aria-hidden": "true" }, pictures.map((src) => h("img", { src, alt: "", loading: "lazy", width: 48, height: 48 }))),
    h("div", {},
      h("a", { href: `/stores/${store.id}`, class: "task-title" }, store.name),
      h("div", { class: "task-meta" }, h("span", {}, store.domain), h("span", {}, plural(products.length, "product")),
        unread ? h("span", {}, `${unread.toLocaleString()} unread`) : null),
      syncLine(store, now)));
}

/**
 * The store's sync state in words: when it synced and will next, or what went wrong and what to do.
 * @param {Store} store
 * @param {number} [now]
 */
export function syncLine(store, now = Date.now()) {
  const status = store.syncStatus;
  if (status.state === "FAILED") {
    return h("p", { class: "sync-failed" }, h("strong", {}, "Sync failed: "), status.lastError?.message ?? "", " ",
      status.lastError?.suggestion ?? "", ` Next try ${ago(status.nextSyncAt, now)}.`);
  }
  const last = status.state === "NEVER_SYNCED" || !status.lastSyncedAt ? "Not synced yet" : `Synced ${ago(status.lastSyncedAt, now)}`;
  return h("p", { class: "task-meta" }, status.state === "SYNCING" ? "Syncing now" : `${last}; next sync ${ago(status.nextSyncAt, now)}.`);
}

/**
 * An API refusal in words (the API's own, which say what to do); the sync limit says how long to wait.
 * @param {unknown} error
 */
export function refusal(error) {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const retryAfter = Number(error.extensions.retryAfter);
  if (error.code === "RATE_LIMITED" && Number.isFinite(retryAfter)) return `Synced a moment ago: try again in ${Math.ceil(retryAfter)} s.`;
  return error.message;
}
