// The person's notifications and this browser's push subscription; the instance's health and
// version for its administrators. Marking read is queued (works offline); the rest is online only.

import * as ops from "../api/operations.js";
import { deviceName } from "../session.js";

/** @typedef {import("../app.js").App} App */

/**
 * A notification marked read, in its household's queue (works offline).
 * @param {App} app
 * @param {import("../types.js").AppNotification} notification
 */
export async function markNotificationRead(app, notification) {
  await app.queue({ markNotificationRead: { id: notification.id } }, notification.householdId);
}

/**
 * Registers this browser's push subscription as one of the person's channels.
 * @param {App} app
 * @param {PushSubscriptionJSON} subscription
 */
export async function registerPush(app, subscription) {
  const keys = subscription.keys ?? {};
  await app.api.request(ops.REGISTER_PUSH, { input: {
    endpoint: subscription.endpoint, keys: { p256dh: keys.p256dh ?? "", auth: keys.auth ?? "" }, deviceName: deviceName(),
  } });
}

/**
 * Every service's health (instance administrators only).
 * @param {App} app
 */
export async function health(app) {
  /** @type {{health: import("../types.js").ServiceHealth[]}} */
  const data = await app.api.request(ops.HEALTH);
  return data.health;
}

/**
 * The server's version and Web Push key.
 * @param {App} app
 */
export async function serverInfo(app) {
  /** @type {{serverInfo: {version: string, startedAt: string, webPushPublicKey: string | null}}} */
  const data = await app.api.request(ops.SERVER_INFO);
  return data.serverInfo;
}
