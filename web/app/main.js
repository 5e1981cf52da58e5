// Starts the app: the person's replica, the sync leader (one tab per person, by Web Lock), the
// router, and drawing the screen again whenever the local store changes.

import { App } from "./app.js";
import { PokeSocket } from "./api/socket.js";
import { SyncEngine } from "./sync/engine.js";
import { leadWhenChosen } from "./sync/leader.js";
import { renderBar, renderConflicts, renderStatus, showNotice } from "./ui/chrome.js";
import { h } from "./ui/dom.js";
import { joinView, signInView, signUpView } from "./views/accounts.js";
import { agendaView } from "./views/agenda.js";
import { changesView } from "./views/changes.js";
import { explorerView } from "./views/explorer.js";
import { httpsHelpView } from "./views/help.js";
import { instanceView } from "./views/instance.js";
import { membersView } from "./views/members.js";
import { notificationView } from "./views/notification.js";
import { notificationsView } from "./views/notifications.js";
import { productView } from "./views/product.js";
import { settingsView } from "./views/settings.js";
import { storeView } from "./views/store.js";
import { storesView } from "./views/stores.js";
import { taskView } from "./views/task.js";
import { tasksView } from "./views/tasks.js";
import { createHouseholdView } from "./views/welcome.js";
import { newId } from "./ids.js";

/** @typedef {{element: HTMLElement, update?: () => void, focus?: HTMLElement | null}} View */

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const main = byId("main"), bar = byId("bar"), status = byId("status"), alerts = byId("alerts"), notices = byId("notices");
const app = new App();
/** @type {View | null} */
let current = null;
let currentPath = "";
/** @type {string | null} the household the screen was drawn for */
let shownFor = null;
/** @type {SyncEngine | null} */
let engine = null;
/** @type {(() => void) | null} ends this tab's leadership */
let resign = null;

/** @param {string} text @param {() => void} [undo] */
const notify = (text, undo) => showNotice(notices, text, undo && { label: "Undo", run: undo });

/** @param {string} path */
function navigate(path) {
  if (path !== location.pathname) history.pushState(null, "", path);
  route();
}

/** The screen for the current address. @returns {View} */
function screen() {
  const path = location.pathname;
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "join" && parts[1]) return joinView(app, navigate, parts[1]);
  if (parts[0] === "explorer") return explorerView(app);
  if (parts[0] === "help" && parts[1] === "https") return httpsHelpView();
  if (!app.signedIn) return parts[0] === "signup" ? signUpView(app, navigate) : signInView(app, navigate);
  if (parts[0] === "households" && parts[1] === "new") return createHouseholdView(app, navigate, false);
  if (!app.household) return createHouseholdView(app, navigate, true);
  switch (parts[0]) {
    case "tasks": return parts[1] ? taskView(app, parts[1], navigate, notify) : tasksView(app);
    case "members": return membersView(app, notify);
    case "settings": return settingsView(app, navigate, notify);
    case "notifications": return parts[1] ? notificationView(app, parts[1]) : notificationsView(app);
    case "stores": return parts[1] ? storeView(app, parts[1], navigate, notify) : storesView(app, navigate);
    case "products": return productView(app, parts[1] ?? "");
    case "changes": return changesView(app, notify);
    case "instance": return instanceView(app);
    case "agenda": return agendaView(app);
    default:
      if (path !== "/agenda") history.replaceState(null, "", "/agenda");
      return agendaView(app);
  }
}

/** Builds the screen for the address (a new address moves focus to it, as a page load would). */
function route() {
  const moved = location.pathname !== currentPath;
  currentPath = location.pathname;
  current = screen();
  shownFor = app.household?.id ?? null;
  main.replaceChildren(current.element);
  frame();
  if (moved) (current.focus ?? main).focus({ preventScroll: false });
}

/** Redraws what depends on the store, keeping the screen (and what the person is typing). */
function refresh() {
  if (!current) return;
  // The household on screen is gone (left, deleted, removed from it): draw what comes instead.
  if (shownFor !== (app.household?.id ?? null)) return route();
  const focused = document.activeElement;
  const row = focused?.closest("li[data-id]")?.getAttribute("data-id");
  const kind = focused instanceof HTMLInputElement ? "input" : "a";
  current.update?.();
  if (row && !main.contains(focused)) /** @type {HTMLElement | null} */ (main.querySelector(`li[data-id="${CSS.escape(row)}"] ${kind}`))?.focus();
  frame();
}

function frame() {
  renderBar(bar, app, location.pathname);
  renderStatus(status, app);
  renderConflicts(alerts, app);
  document.documentElement.dataset.signedIn = String(app.signedIn);
  // The person's theme (as the system's unless they chose).
  document.documentElement.dataset.theme = app.me?.preferences.theme ?? "SYSTEM";
}

/** One tab per person syncs; when it closes, the next waiting tab takes over. */
function lead() {
  const replica = app.replica;
  const session = app.session;
  if (!replica || !session || resign) return;
  const leadership = leadWhenChosen(session.userId, async () => {
    // Signed out (or in as someone else) while waiting for the lock: nothing to lead.
    if (app.replica !== replica) return () => {};
    const socket = new PokeSocket(() => app.session?.token ?? null);
    const leader = new SyncEngine(app.api, socket, replica);
    engine = leader;
    document.documentElement.dataset.leader = "true";
    leader.addEventListener("unauthenticated", sessionEnded);
    // Pokes for every household the person has (read from the replica: the list may have just changed).
    const watch = async () => leader.watch((await replica.households()).map((h) => h.id));
    /** @param {Event} event */
    const heard = (event) => {
      const kind = /** @type {any} */ (event).message.kind;
      if (kind === "outbox" && replica.outbox.some((p) => p.state === "pending")) void leader.sync();
      // A household joined or created here (or in another tab) is pulled at once.
      if (kind === "households") void watch().then(() => leader.sync());
    };
    replica.addEventListener("change", heard);
    leader.start();
    await watch();
    void leader.sync();
    return () => {
      replica.removeEventListener("change", heard);
      leader.stop();
      engine = null;
    };
  });
  resign = leadership.resign;
}

/**
 * @param {string} [message]
 * @param {boolean} [keepCopy] keep the local copy (the session ended while changes wait)
 */
async function signedOut(message, keepCopy = false) {
  resign?.();
  resign = null;
  if (app.signedIn) await app.forget(keepCopy).catch(() => {});
  navigate("/signin");
  if (message) notify(message);
}

/** The server no longer knows the session: sign in again; changes still waiting are kept for then. */
function sessionEnded() {
  const waiting = app.replica?.waiting ?? 0;
  void signedOut(waiting > 0
    ? `Your session has ended. Sign in again to send your ${waiting} ${waiting === 1 ? "change" : "changes"} that wait on this device.`
    : "Your session has ended: please sign in again.", waiting > 0);
}

app.addEventListener("change", refresh);
app.addEventListener("notice", (event) => notify(/** @type {CustomEvent} */ (event).detail));
app.addEventListener("signed-out", (event) => {
  if (resign || app.signedIn === false) void signedOut(undefined, Boolean(/** @type {CustomEvent} */ (event).detail?.keepCopy));
});
app.addEventListener("sync-wanted", () => void engine?.sync());

addEventListener("popstate", route);
addEventListener("online", () => { frame(); current?.update?.(); if (app.signedIn) void app.refreshAccount().catch(() => {}); });
addEventListener("offline", () => { frame(); current?.update?.(); });
document.addEventListener("click", (event) => {
  const link = /** @type {Element} */ (event.target).closest?.("a[href]");
  if (!(link instanceof HTMLAnchorElement) || link.origin !== location.origin || link.target || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  navigate(link.pathname);
});

// Closing the last tab while changes wait asks first: they would sync on the next open, but only here.
const tabs = new Set();
const tabId = newId();
const tabChannel = new BroadcastChannel("hearth-tabs");
tabChannel.onmessage = (/** @type {MessageEvent} */ event) => {
  const { kind, tab } = event.data ?? {};
  if (kind === "hello") { tabs.add(tab); tabChannel.postMessage({ kind: "here", tab: tabId }); }
  if (kind === "here") tabs.add(tab);
  if (kind === "bye") tabs.delete(tab);
};
tabChannel.postMessage({ kind: "hello", tab: tabId });
addEventListener("pagehide", () => tabChannel.postMessage({ kind: "bye", tab: tabId }));
addEventListener("beforeunload", (event) => {
  if ((app.replica?.waiting ?? 0) > 0 && tabs.size === 0) {
    event.preventDefault();
    event.returnValue = "";
  }
});

/** The service worker keeps the shell for offline use; a new version waits until the person reloads. */
async function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  const offer = () => {
    if (!registration.waiting || !navigator.serviceWorker.controller) return;
    const waiting = registration.waiting;
    showNotice(notices, "A new version of Hearth is ready.", { label: "Reload", run: () => waiting.postMessage("skip-waiting"), keep: true });
  };
  registration.addEventListener("updatefound", () => {
    registration.installing?.addEventListener("statechange", offer);
  });
  offer();
  // A page an older version served reloads when the new one takes over (the first install only claims).
  const hadController = navigator.serviceWorker.controller !== null;
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading || !hadController) return;
    reloading = true;
    location.reload();
  });
}

/**
 * Opened over plain HTTP by a name on the network (not 127.0.0.1 or localhost), the browser keeps
 * the service worker, Web Push and installing from the app: said once on this device, plainly.
 */
function warnIfInsecure() {
  if (window.isSecureContext || localStorage.getItem("hearth.insecureWarning")) return;
  localStorage.setItem("hearth.insecureWarning", "shown");
  // Above the screen, not over it: a long notice at the bottom would cover a phone's form.
  const banner = h("div", { class: "warning", role: "status" },
    h("p", {}, h("strong", {}, "This address is not secure (plain HTTP). "),
      "Here Hearth cannot work offline, be installed or send notifications; everything else works. For the rest, open Hearth over HTTPS: ",
      h("a", { href: "/help/https" }, "how to serve Hearth over HTTPS"), "."),
    h("button", { type: "button", onclick: () => banner.remove() }, "Got it"));
  alerts.before(banner);
}

async function boot() {
  performance.mark("hearth:boot");
  try {
    await app.open();
    performance.mark("hearth:opened");
  } catch (error) {
    main.replaceChildren(h("p", { role: "alert" }, `Hearth cannot open its local copy: ${error instanceof Error ? error.message : error}`));
    return;
  }
  route();
  performance.mark("hearth:drawn");
  warnIfInsecure();
  if (app.signedIn) {
    lead();
    // The screen stays (the person may be typing) unless the household it shows changes (see refresh).
    if (app.online) await app.refreshAccount().catch((error) => {
      if (error?.code === "UNAUTHENTICATED") sessionEnded();
    });
  }
  registerWorker().catch((error) => console.warn("Hearth works online only here: the service worker did not register.", error));
}

// After signing in or up, the new replica needs a leader.
app.addEventListener("change", () => { if (app.signedIn && !resign) lead(); });
addEventListener("unhandledrejection", (event) => {
  const error = event.reason;
  if (error?.name === "QuotaExceededError") notify("This device has no room left for Hearth's local copy: free some space, or changes cannot be kept offline.");
});
void boot();
