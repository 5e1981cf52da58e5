// Changes: the household's store feed from the local copy, grouped by day, filtered by store and type;
// unread counts live (each sync's pull redraws it), Mark read and Mark all read (offline too).

import { field, h, replace } from "../ui/dom.js";
import { CHANGE_TYPES, changeItem } from "../ui/changes.js";
import { reportingTo } from "../ui/forms.js";
import { dayHeading, dayOf, plural } from "../ui/format.js";
import { markAllRead, markEventRead } from "../areas/stores.js";

/** Changes drawn at first; "Show more" adds as many again. */
const PAGE = 100;

/**
 * @param {import("../app.js").App} app
 * @param {(text: string) => void} notify
 */
export function changesView(app, notify) {
  const type = field("Type", { name: "type" }, "select",
    [h("option", { value: "" }, "All changes"), ...CHANGE_TYPES.map(([value, name]) => h("option", { value }, name))]);
  const store = field("Store", { name: "store" }, "select");
  const unreadOnly = h("input", { type: "checkbox", name: "unread" });
  const counts = h("p", { role: "status", class: "hint" });
  const error = h("p", { class: "form-error", role: "alert" });
  const run = reportingTo(error);
  const markAll = h("button", { type: "button", onclick: () => void run(async () => { await markAllRead(app, store.control.value || null); notify("Changes marked read."); }) }, "Mark all read");
  const days = h("div", { class: "days" });
  const empty = h("p", { class: "empty" });
  let limit = PAGE;
  const more = h("button", { type: "button", onclick: () => { limit += PAGE; update(); } }, "Show more");
  for (const control of [type.control, store.control, unreadOnly]) control.addEventListener("change", () => { limit = PAGE; update(); });
  const element = h("section", { "aria-labelledby": "changes-heading" }, h("h1", { id: "changes-heading" }, "Changes"),
    h("div", { class: "filters" }, type.wrapper, store.wrapper), h("label", { class: "check" }, unreadOnly, "Unread only"),
    counts, h("div", { class: "actions" }, markAll), error, days, empty, more);
  let drawn = "";

  function update() {
    const chosen = store.control.value;
    replace(store.control, h("option", { value: "" }, "Every store"),
      app.lists.stores.map((s) => h("option", { value: s.id, selected: s.id === chosen }, s.name)));
    const zone = app.household?.timeZone ?? "UTC";
    const currencies = new Map(app.lists.stores.map((s) => [s.id, s.currency]));
    const events = app.lists.eventList.filter((e) => (!type.control.value || e.type === type.control.value)
      && (!store.control.value || e.storeId === store.control.value) && (!unreadOnly.checked || !e.read));
    const unread = store.control.value ? app.lists.unreadByStore.get(store.control.value) ?? 0 : app.lists.unreadChanges;
    counts.textContent = `${plural(unread, "unread change")}.`;
    markAll.disabled = unread === 0;
    const shown = events.slice(0, limit);
    const signature = `${zone}|${limit}|${shown.map((e) => `${e.id}:${e.version}:${e.read}`).join()}`;
    more.hidden = events.length <= limit;
    more.textContent = `Show more (${(events.length - limit).toLocaleString()} not shown)`;
    empty.textContent = events.length === 0 ? "No changes here yet." : "";
    if (signature === drawn) return;
    drawn = signature;
    const today = dayOf(new Date(), zone);
    /** @type {Map<string, import("../types.js").StoreEvent[]>} */
    const byDay = new Map();
    for (const event of shown) {
      const day = dayOf(new Date(event.createdAt), zone);
      byDay.set(day, [...(byDay.get(day) ?? []), event]);
    }
    replace(days, [...byDay].map(([day, list]) => h("section", { class: "day", "aria-label": dayHeading(day, today) },
      h("h2", {}, dayHeading(day, today)),
      h("ul", { class: "changes" }, list.map((event) => changeItem(event, {
        currency: currencies.get(event.storeId) ?? null, timeZone: zone, showStore: true, markRead: (id) => void markEventRead(app, id),
      }))))));
  }
  update();
  return { element, update };
}
