// Hearth's service worker: keeps this build's app shell so the app opens offline, at any route.
// `/graphql` and every other path of the server's own (calendars, feeds, action links, exports) are never
// touched, whoever opens them: data lives in IndexedDB, not here.
// A new build installs in the background and waits; the page offers "reload" (message `skip-waiting`),
// otherwise it takes over when every tab of the old one has closed (web.dev's lifecycle).

const BUILD = "%BUILD%";
const PREFIX = "hearth-shell-";
const CACHE = PREFIX + BUILD;
// The server's own paths: each of these and everything below it (the same list as WebAppController's reserved segments).
const SERVER = ["/graphql", "/mcp", "/admin", "/metrics", "/healthz", "/readyz", "/dav", "/.well-known", "/feeds", "/actions", "/sw.js"];
// Below `/households` the app has its own pages (`/households/new`); these two are the server's.
const HOUSEHOLD_TRANSFERS = /^\/households\/(import|[^/]+\/export)\/?$/;

/**
 * Whether a path is the server's to answer (never the app shell's).
 * @param {string} pathname
 */
function isServerPath(pathname) {
  return SERVER.some((path) => pathname === path || pathname.startsWith(path + "/")) || HOUSEHOLD_TRANSFERS.test(pathname);
}
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

sw.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const first = !(await caches.keys()).some((name) => name.startsWith(PREFIX));
    const response = await fetch(`/assets/${BUILD}/precache.json`, { cache: "no-store" });
    if (!response.ok) throw new Error(`the app's file list answered ${response.status}`);
    const urls = /** @type {string[]} */ (await response.json());
    const cache = await caches.open(CACHE);
    await cache.addAll(urls.map((url) => new Request(url, { cache: "no-store" })));
    // The very first install has no older version to wait for.
    if (first) await sw.skipWaiting();
  })());
});

sw.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await sw.clients.claim();
  })());
});

sw.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") void sw.skipWaiting();
});

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== sw.location.origin) return;
  if (isServerPath(url.pathname)) return;
  if (request.mode === "navigate" && !url.pathname.startsWith("/assets/")) {
    // Every route of the app is the same page: this build's shell, from the cache first.
    event.respondWith((async () => (await caches.match("/", { cacheName: CACHE })) ?? fetch(request))());
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith((async () => (await caches.match(request, { cacheName: CACHE })) ?? fetch(request))());
  }
});

// Notifications pushed by Hearth (docs/notifications.md): shown with their actions; Complete and
// Snooze are done through the reminder's action links, which need no session, so they work with
// every tab closed; a DISMISS closes the reminder once its item is done elsewhere.

/**
 * @typedef {{ action: string, title: string, url: string }} ActionLink
 * @typedef {{ id: string, kind: string, title?: string, body?: string, taskId?: string | null,
 *             url?: string | null, actionLinks?: ActionLink[] }} PushMessage
 * @typedef {{ id: string, taskId: string | null, links: ActionLink[] }} Shown
 */

sw.addEventListener("push", (event) => {
  /** @type {PushMessage | null} */
  let message = null;
  try {
    message = event.data ? /** @type {PushMessage} */ (event.data.json()) : null;
  } catch {
    message = null;
  }
  if (!message || typeof message.id !== "string") return;
  event.waitUntil(showOrDismiss(message));
});

/** @param {PushMessage} message */
async function showOrDismiss(message) {
  if (message.kind === "DISMISS") {
    for (const shown of await sw.registration.getNotifications({ tag: message.id })) shown.close();
    return;
  }
  const links = Array.isArray(message.actionLinks) ? message.actionLinks : [];
  /** @type {Shown} */
  const data = { id: message.id, taskId: message.taskId ?? null, links };
  await sw.registration.showNotification(message.title || "Hearth", /** @type {NotificationOptions} */ ({
    body: message.body ?? "",
    tag: message.id,
    icon: "/icon.svg",
    data,
    actions: links.map((link) => ({ action: link.action.toLowerCase(), title: link.title })),
  }));
}

sw.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = /** @type {Shown} */ (event.notification.data);
  const link = data.links.find((candidate) => candidate.action.toLowerCase() === event.action);
  event.waitUntil(link ? act(link, event.notification.title) : openApp(`/notifications/${data.id}`));
});

/**
 * Does what a button asked through its link; says so when Hearth cannot be reached.
 * @param {ActionLink} link
 * @param {string} title
 */
async function act(link, title) {
  try {
    // A plain POST: the link is the permission (no session, no body); its answer is not needed.
    const response = await fetch(link.url, { method: "POST", mode: "no-cors", credentials: "omit" });
    if (response.type !== "opaque" && !response.ok) throw new Error(`answered ${response.status}`);
  } catch {
    await sw.registration.showNotification(`${link.title} did not reach Hearth`, {
      body: `${title}: open the app to try again.`, tag: `failed-${link.url}`,
    });
  }
}

/**
 * Focuses an open tab of the app at `path`, or opens one.
 * @param {string} path
 */
async function openApp(path) {
  const tabs = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
  const tab = tabs.find((client) => new URL(client.url).origin === sw.location.origin);
  if (tab) {
    await tab.focus();
    await tab.navigate(path).catch(() => null);
  } else {
    await sw.clients.openWindow(path);
  }
}
