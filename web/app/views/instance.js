// The instance page (instance administrators only): every service's health as `health` reports it,
// refreshed every few seconds while the page is open. Online only: health is the server's now.

import { h, replace } from "../ui/dom.js";
import { ago } from "../ui/format.js";
import { health } from "../areas/notifications.js";

/** How often the page asks again. */
const REFRESH_MS = 5000;

/** Service names in words. */
const NAMES = /** @type {Record<string, string>} */ ({
  database: "Database", events: "Event bus", users: "People and sessions", households: "Households",
  stores: "Stores and their sync loop", tasks: "Tasks and reminders", delivery: "Notification delivery",
});

/**
 * @param {import("../app.js").App} app
 */
export function instanceView(app) {
  const state = h("p", { role: "status", class: "hint" });
  const services = h("div", { class: "services" });
  const element = h("section", { "aria-labelledby": "instance-heading" }, h("h1", { id: "instance-heading" }, "Instance"), state, services);
  if (!app.me?.isAdmin) {
    state.textContent = "Only the instance's administrators see its health.";
    return { element };
  }
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;

  async function refresh() {
    timer = null;
    if (!element.isConnected && services.childElementCount > 0) return;  // the page was left
    if (!app.online) {
      state.textContent = "You are offline: the instance's health shows once you are back online.";
    } else {
      try {
        const report = await health(app);
        const unhealthy = report.filter((service) => !service.isHealthy).length;
        state.textContent = unhealthy === 0 ? `All ${report.length} services are healthy.` : `${unhealthy} of ${report.length} services are unhealthy.`;
        replace(services, report.map(serviceCard));
      } catch (error) {
        state.textContent = `The instance's health could not be read: ${error instanceof Error ? error.message : error}`;
      }
    }
    timer = setTimeout(() => void refresh(), REFRESH_MS);
  }
  void refresh();
  return { element, update: () => { if (!timer && element.isConnected) void refresh(); } };
}

/** @param {import("../types.js").ServiceHealth} service */
function serviceCard(service) {
  const title = NAMES[service.name] ?? service.name;
  const id = `service-${service.name}`;
  return h("section", { class: `card service ${service.isHealthy ? "healthy" : "unhealthy"}`, "aria-labelledby": id },
    h("h2", { id }, title),
    h("p", {}, h("strong", {}, service.isHealthy ? "Healthy" : "Unhealthy"),
      ` · checked ${ago(service.lastChecked)} · answered in ${service.responseTimeMs.toFixed(1)} ms`),
    service.errors.length ? h("ul", { class: "service-errors" }, service.errors.map((error) => h("li", {}, error))) : null,
    service.details && Object.keys(service.details).length
      ? h("dl", { class: "details" }, Object.entries(service.details).sort(([a], [b]) => a.localeCompare(b))
        .flatMap(([name, value]) => [h("dt", {}, words(name)), h("dd", {}, show(name, value))]))
      : null);
}

/**
 * `queueDepth` → "Queue depth".
 * @param {string} name
 */
function words(name) {
  const spaced = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return spaced[0].toUpperCase() + spaced.slice(1);
}

/**
 * @param {string} name
 * @param {unknown} value
 */
function show(name, value) {
  if (typeof value === "number" && /rate$/i.test(name)) return `${(value * 100).toFixed(1)} %`;
  if (typeof value === "number") return value.toLocaleString(undefined, { maximumFractionDigits: 2 });
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string" && /At$/.test(name) && !Number.isNaN(Date.parse(value))) return `${ago(value)} (${new Date(value).toLocaleString()})`;
  return typeof value === "string" ? value : JSON.stringify(value);
}
