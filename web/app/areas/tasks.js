// Tasks, events, subtasks and labels: every change is queued in the outbox (works offline) and
// carried by `push`; an edit names only the fields that changed and the version it was based on.

import * as ops from "../api/operations.js";
import { newId } from "../ids.js";
import { keyOf } from "../sync/rebase.js";

/** @typedef {import("../app.js").App} App */

/**
 * @param {App} app
 * @param {string} title
 * @param {string} [id] the client-made id (a new one when not given)
 */
export async function createTask(app, title, id = newId()) {
  await app.queue({ createTask: { householdId: app.householdId, input: { id, title } } });
  return id;
}

/**
 * @param {App} app
 * @param {{title: string, startsAt: string, endsAt?: string | null, location?: string | null}} input
 */
export async function createEvent(app, input) {
  const id = newId();
  await app.queue({ createEvent: { householdId: app.householdId, input: { id, ...input } } });
  return id;
}

/**
 * Sends only the fields that changed, expecting the version the replica holds (field-level merge).
 * @param {App} app
 * @param {string} id
 * @param {Record<string, unknown>} changes
 */
export async function updateTask(app, id, changes) {
  if (Object.keys(changes).length === 0) return;
  const version = serverVersion(app, "TASK", id);
  await app.queue({ updateTask: { id, input: changes, ...(version ? { expectedVersion: version } : {}) } });
}

/**
 * Marks an item done or open. A repeating task's completion names its occurrence, so the same
 * occurrence completed on another phone too moves the task on once.
 * @param {App} app
 * @param {string} id
 * @param {boolean} done
 */
export async function setDone(app, id, done) {
  const occurrence = app.tasks.find((task) => task.id === id)?.occurrence;
  await app.queue(done ? { completeTask: { id, ...(occurrence ? { occurrence } : {}) } } : { reopenTask: { id } });
}

/**
 * Moves a repeating task on to its next occurrence without doing this one.
 * @param {App} app
 * @param {string} id
 */
export async function skipOccurrence(app, id) {
  const occurrence = app.tasks.find((task) => task.id === id)?.occurrence;
  await app.queue({ skipOccurrence: { id, ...(occurrence ? { occurrence } : {}) } });
}

/**
 * The next three dates of a rule from a first date, in the household's zone (online only).
 * @param {App} app
 * @param {string} rule
 * @param {string} start
 * @returns {Promise<string[]>}
 */
export async function previewRepeat(app, rule, start) {
  /** @type {{recurrencePreview: string[]}} */
  const data = await app.api.request(ops.RECURRENCE_PREVIEW, { rule, start, zone: app.household?.timeZone ?? "UTC" });
  return data.recurrencePreview;
}

/**
 * Says the signed-in person is away until a moment (null: back home); rotations pass over them meanwhile (online only).
 * @param {App} app
 * @param {string | null} until
 */
export async function setAway(app, until) {
  await app.api.request(ops.SET_AWAY, { id: app.householdId, until });
  app.wantSync();
}

/**
 * Who completed how many repeating tasks since `from` (online only).
 * @param {App} app
 * @param {string} from
 * @returns {Promise<{byMember: {userId: string | null, completions: number}[], byTask: {taskId: string, title: string, completions: number}[]}>}
 */
export async function choreStats(app, from) {
  /** @type {{household: {choreStats: {byMember: {userId: string | null, completions: number}[], byTask: {taskId: string, title: string, completions: number}[]}}}} */
  const data = await app.api.request(ops.CHORE_STATS, { id: app.householdId, from, to: new Date(Date.now() + 60_000).toISOString() });
  return data.household.choreStats;
}

/**
 * @param {App} app
 * @param {string} id
 */
export async function deleteTask(app, id) {
  await app.queue({ deleteTask: { id } });
}

/**
 * @param {App} app
 * @param {string} taskId
 * @param {string} title
 */
export async function addSubtask(app, taskId, title) {
  await app.queue({ addSubtask: { taskId, id: newId(), title } });
}

/**
 * @param {App} app
 * @param {string} id
 * @param {{title?: string, done?: boolean}} changes
 */
export async function updateSubtask(app, id, changes) {
  await app.queue({ updateSubtask: { id, ...changes } });
}

/**
 * @param {App} app
 * @param {string} id
 */
export async function removeSubtask(app, id) {
  await app.queue({ removeSubtask: { id } });
}

/**
 * @param {App} app
 * @param {string} taskId
 * @param {string[]} subtaskIds
 */
export async function reorderSubtasks(app, taskId, subtaskIds) {
  await app.queue({ reorderSubtasks: { taskId, subtaskIds } });
}

/**
 * @param {App} app
 * @param {string} taskId
 * @param {number} minutes
 */
export async function snooze(app, taskId, minutes = 60) {
  await app.queue({ snoozeReminder: { taskId, minutes } });
}

/**
 * @param {App} app
 * @param {string} name
 * @param {string} color
 */
export async function createLabel(app, name, color) {
  await app.queue({ createLabel: { householdId: app.householdId, id: newId(), name, color } });
}

/**
 * @param {App} app
 * @param {string} id
 * @param {{name?: string, color?: string}} changes
 */
export async function updateLabel(app, id, changes) {
  const version = serverVersion(app, "LABEL", id);
  await app.queue({ updateLabel: { id, ...changes, ...(version ? { expectedVersion: version } : {}) } });
}

/**
 * @param {App} app
 * @param {string} id
 */
export async function deleteLabel(app, id) {
  await app.queue({ deleteLabel: { id } });
}

/**
 * The version the server last sent of a record (0 when it only exists here so far).
 * @param {App} app
 * @param {string} type
 * @param {string} id
 */
function serverVersion(app, type, id) {
  if (!app.replica || !app.householdId) return 0;
  return app.replica.cache.get(app.householdId)?.get(keyOf(app.householdId, type, id))?.version ?? 0;
}
