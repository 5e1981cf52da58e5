// Queued changes the server refused for a newer value: listed for the person, who keeps theirs
// (queued again, expecting the version now known) or takes the server's (dropped).

import { keyOf, resolveConflict, target } from "../sync/rebase.js";

/** @typedef {import("../app.js").App} App */

/**
 * Changes in conflict, waiting for the person.
 * @param {App} app
 */
export function conflicts(app) {
  return (app.replica?.outbox ?? []).filter((p) => p.state === "conflict");
}

/**
 * @param {App} app
 * @param {number} pendingId
 * @param {"mine" | "theirs"} choice
 */
export async function resolve(app, pendingId, choice) {
  const replica = app.replica;
  const pending = replica?.outbox.find((p) => p.id === pendingId);
  if (!replica || !pending) return;
  const record = target(pending.op);
  const version = record ? (await replica.records(pending.householdId)).get(keyOf(pending.householdId, record.type, record.id))?.version : undefined;
  const op = resolveConflict(pending, choice, version);
  await replica.updateOutbox([], [pending.id]);
  if (op) await replica.enqueue(pending.householdId, op);
}
