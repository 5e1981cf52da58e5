// Hearth's service worker: keeps this build's app shell so the app opens offline, at any route.
// `/graphql` and the other API routes are never touched: data lives in IndexedDB, not here.
// A new build installs in the background and waits; the page offers "reload" (message `skip-waiting`),
// otherwise it takes over when every tab of the old one has closed (web.dev's lifecycle).

const BUILD = "%BUILD%";
const PREFIX = "hearth-shell-";
const CACHE = PREFIX + BUILD;
const API = ["/graphql", "/mcp", "/admin", "/metrics", "/healthz", "/readyz"];
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
  if (API.some((path) => url.pathname === path || url.pathname.startsWith(path + "/"))) return;
  if (request.mode === "navigate" && !url.pathname.startsWith("/assets/")) {
    // Every route of the app is the same page: this build's shell, from the cache first.
    event.respondWith((async () => (await caches.match("/", { cacheName: CACHE })) ?? fetch(request))());
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith((async () => (await caches.match(request, { cacheName: CACHE })) ?? fetch(request))());
  }
});
