// Notifications: the person's in-app notifications from the local copy, from every household (newest
// first, unread marked), Mark read, and Enable notifications on this device (Web Push, registered
// through the API).

import { h, reconcile } from "../ui/dom.js";
import { plural, when } from "../ui/format.js";
import { markNotificationRead, registerPush, serverInfo } from "../areas/notifications.js";

/** @typedef {import("../types.js").AppNotification} AppNotification */

/**
 * @param {import("../app.js").App} app
 */
export function notificationsView(app) {
  const counts = h("p", { role: "status", class: "hint" });
  const list = h("ul", { class: "notifications", "aria-label": "Notifications" });
  const empty = h("p", { class: "empty" });
  const pushState = h("p", { role: "status", class: "hint" });
  const enable = h("button", { type: "button", class: "primary", onclick: () => void enablePush(app, enable, pushState) }, "Enable notifications on this device");
  const element = h("section", { "aria-labelledby": "notifications-heading" },
    h("h1", { id: "notifications-heading" }, "Notifications"),
    h("div", { class: "card" }, h("p", {}, "Reminders, assignments and store changes can reach this device even when Hearth is closed."),
      enable, pushState),
    counts, list, empty);

  function update() {
    const notifications = app.lists.notificationList;
    const zone = app.household?.timeZone ?? "UTC";
    counts.textContent = `${plural(app.lists.unreadNotifications, "unread notification")}.`;
    reconcile(list, notifications.slice(0, 200), (n) => n.id, (n) => `${n.version}|${n.read}|${app.households.length}`, (n) => notificationItem(app, n, zone));
    empty.textContent = notifications.length === 0 ? "No notifications yet." : "";
  }
  update();
  return { element, update };
}

/**
 * @param {import("../app.js").App} app
 * @param {AppNotification} notification
 * @param {string} zone
 */
function notificationItem(app, notification, zone) {
  const target = notification.taskId ? `/tasks/${notification.taskId}` : notification.notificationStoreId ? `/stores/${notification.notificationStoreId}` : `/notifications/${notification.id}`;
  const household = app.households.length > 1 ? app.households.find((h) => h.id === notification.householdId)?.name : null;
  return h("li", { class: `notification${notification.read ? "" : " unread"}`, "data-id": notification.id },
    h("div", {},
      h("a", { href: target, class: "task-title", onclick: () => {
        if (!notification.read) void markNotificationRead(app, notification);
        // What it is about lives in its household: that one goes on screen.
        if (notification.householdId !== app.householdId) void app.selectHousehold(notification.householdId);
      } }, notification.title),
      h("p", { class: "notification-body" }, notification.body),
      h("span", { class: "task-meta" }, household ? `${household} · ` : "", h("time", { datetime: notification.createdAt }, when(notification.createdAt, zone)),
        notification.read ? "" : " · unread")),
    notification.read ? null : h("button", { type: "button", "aria-label": `Mark read: ${notification.title}`,
      onclick: () => void markNotificationRead(app, notification) }, "Mark read"));
}

/**
 * Subscribes this browser to Web Push with the server's key and registers the subscription; says
 * plainly what stands in the way when something does.
 * @param {import("../app.js").App} app
 * @param {HTMLButtonElement} button
 * @param {HTMLElement} state
 */
async function enablePush(app, button, state) {
  button.setAttribute("aria-busy", "true");
  try {
    state.textContent = await subscribe(app);
  } catch (error) {
    state.textContent = `Notifications could not be turned on: ${error instanceof Error ? error.message : error}`;
  } finally {
    button.removeAttribute("aria-busy");
  }
}

/** @param {import("../app.js").App} app */
async function subscribe(app) {
  if (!window.isSecureContext) return "This address is not secure (plain HTTP): browsers send notifications only to Hearth opened over HTTPS.";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return "This browser cannot receive notifications from web apps.";
  if (!app.online) return "You are offline: notifications can be turned on once you are back online.";
  const info = await serverInfo(app);
  if (!info.webPushPublicKey) return "This Hearth server does not send Web Push: its operator has not set it up (a VAPID key).";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return "The browser refused: allow notifications for this site in the browser's settings, then try again.";
  const registration = await navigator.serviceWorker.ready;
  const key = info.webPushPublicKey;
  const subscription = await registration.pushManager.getSubscription()
    ?? await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64url(key) });
  await registerPush(app, subscription.toJSON());
  return "Notifications are on for this device.";
}

/** @param {string} text */
function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}
