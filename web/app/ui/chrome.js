// The page's frame: navigation with the household switcher, the status line, conflict alerts, notices.

import { h, replace } from "./dom.js";
import { conflicts as conflictsOf, resolve } from "../areas/conflicts.js";

/** @typedef {import("../app.js").App} App */

/**
 * @param {HTMLElement} bar
 * @param {App} app
 * @param {string} path the current route
 */
export function renderBar(bar, app, path) {
  if (!app.signedIn) {
    replace(bar, h("a", { href: "/", class: "brand" }, "Hearth"));
    return;
  }
  /**
   * A screen's link: the current one (its address, or any of `also`) marked, and a badge when something is unread.
   * @param {string} href @param {string} text
   * @param {{unread?: number, what?: string, also?: string[]}} badge `what` names the unread things for a screen reader
   */
  const link = (href, text, { unread = 0, what = "unread", also = [] } = {}) =>
    h("a", { href, "aria-current": [href, ...also].some((prefix) => path.startsWith(prefix)) ? "page" : false }, text,
      unread > 0 ? [" ", h("span", { class: "badge" }, unread > 99 ? "99+" : String(unread), h("span", { class: "visually-hidden" }, ` ${what}`))] : null);
  const switcher = app.households.length > 1 ? h("select", { "aria-label": "Household", class: "switcher",
    onchange: (/** @type {Event} */ e) => void app.selectHousehold(/** @type {HTMLSelectElement} */ (e.target).value) },
    app.households.map((household) => h("option", { value: household.id, selected: household.id === app.householdId }, household.name)))
    : h("span", { class: "household-name" }, app.household?.name ?? "");
  replace(bar, h("a", { href: "/", class: "brand" }, "Hearth"), switcher,
    h("nav", { "aria-label": "Main" }, link("/agenda", "Agenda"), link("/tasks", "Tasks"),
      link("/stores", "Stores", { unread: app.lists.unreadChanges, what: "unread changes", also: ["/products", "/changes"] }),
      link("/members", "Members"), link("/notifications", "Notifications", { unread: app.lists.unreadNotifications }), link("/settings", "Settings"),
      app.me?.isAdmin ? link("/instance", "Instance") : null));
}

/**
 * The status line: online, syncing or offline, and how many changes wait.
 * @param {HTMLElement} line
 * @param {App} app
 */
export function renderStatus(line, app) {
  if (!app.signedIn) return void (line.textContent = app.online ? "" : "Offline");
  const waiting = app.replica?.waiting ?? 0;
  const changes = waiting === 0 ? "all changes synced" : `${waiting} ${waiting === 1 ? "change" : "changes"} not yet synced`;
  const status = app.syncStatus;
  const text = !app.online ? `Offline — ${changes}`
    : status.progress ? status.progress
    : status.syncing ? `Syncing — ${changes}`
    : status.error ? `Online — ${changes}. The last sync failed: ${status.error}`
    : `Online — ${changes}`;
  if (line.textContent !== text) line.textContent = text;
  line.dataset.state = !app.online ? "offline" : status.syncing ? "syncing" : "online";
}

/**
 * One alert per change in conflict: the field, both values, and the two ways out.
 * @param {HTMLElement} area
 * @param {App} app
 */
export function renderConflicts(area, app) {
  const conflicts = conflictsOf(app);
  const key = conflicts.map((p) => `${p.id}:${JSON.stringify(p.conflict?.fields)}`).join();
  if (area.dataset.key === key) return;
  area.dataset.key = key;
  /** @param {unknown} value */
  const show = (value) => (value === null || value === undefined || value === "" ? "(empty)" : String(value));
  replace(area, conflicts.map((pending) => {
    const fields = pending.conflict?.fields ?? [];
    return h("div", { role: "alert", class: "conflict" },
      h("p", {}, h("strong", {}, "Someone else changed this too. "), pending.conflict?.message ?? ""),
      h("ul", {}, fields.map((f) => h("li", {}, h("strong", {}, f.field), `: yours “${show(f.mine)}”, theirs “${show(f.theirs)}”`))),
      h("button", { type: "button", onclick: () => void resolve(app, pending.id, "mine") }, "Keep mine"),
      h("button", { type: "button", onclick: () => void resolve(app, pending.id, "theirs") }, "Take theirs"));
  }));
}

/**
 * A short notice, with a button when there is something to do about it (Undo, Reload). Notices with an
 * action stay while it can be taken (`keep`: until used); a new notice replaces those without one.
 * @param {HTMLElement} area
 * @param {string} text
 * @param {{label: string, run: () => void, keep?: boolean}} [action]
 */
export function showNotice(area, text, action) {
  for (const old of [...area.children]) if (!old.querySelector("[data-action]")) old.remove();
  const notice = h("div", { class: "notice" }, h("span", {}, text),
    action ? h("button", { type: "button", "data-action": true, onclick: () => { action.run(); notice.remove(); } }, action.label) : null,
    h("button", { type: "button", "aria-label": "Dismiss", onclick: () => notice.remove() }, "✕"));
  area.append(notice);
  if (!action?.keep) setTimeout(() => notice.remove(), action ? 6000 : 5000);
}
