// Unit tests of the sync engine's pure parts (outbox rebasing, pull application, conflicts) and of
// the permissions, run in the browser: `scripts/web/family.py` opens this page and reads the result.

import { Ability } from "../app/permissions.js";
import { applyChanges, confirmed, conflictFields, keyOf, planBatch, readResults, resolveConflict, withPending } from "../app/sync/rebase.js";

/** @typedef {import("../app/types.js").Pending} Pending */

/** @type {{name: string, error: string | null}[]} */
const results = [];

/**
 * @param {string} name
 * @param {() => void} body
 */
function test(name, body) {
  try {
    body();
    results.push({ name, error: null });
  } catch (error) {
    results.push({ name, error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * @param {unknown} actual
 * @param {unknown} expected
 * @param {string} what
 */
function equal(actual, expected, what) {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
}

const H = "h1";
/** @param {string} id @param {number} version @param {Record<string, unknown>} [fields] */
const taskChange = (id, version, fields = {}) => ({ type: /** @type {const} */ ("TASK"), id, version, deleted: false,
  record: { id, version, householdId: H, kind: "TASK", title: id, notes: null, labels: [], subtasks: [], deadline: null, ...fields } });
/** @param {number} id @param {Record<string, any>} op @param {Pending["state"]} [state] @returns {Pending} */
const pending = (id, op, state = "pending") => ({ id, householdId: H, op, state, createdAt: 0 });

test("a pull puts new records and replaces older versions", () => {
  const records = new Map();
  applyChanges(records, H, [taskChange("t1", 1), taskChange("t2", 1)]);
  const { put, remove } = applyChanges(records, H, [taskChange("t1", 2, { title: "renamed" })]);
  equal(put.map((e) => [e.id, e.version]), [["t1", 2]], "written");
  equal(remove, [], "removed");
  equal(records.get(keyOf(H, "TASK", "t1"))?.record.title, "renamed", "the newer version");
  equal(records.size, 2, "records");
});

test("a deleted store takes its products and events; a deleted household everything", () => {
  const records = new Map();
  applyChanges(records, H, [
    { type: "STORE", id: "s1", version: 1, deleted: false, record: { id: "s1" } },
    { type: "PRODUCT", id: "p1", version: 1, deleted: false, record: { id: "p1", storeId: "s1" } },
    { type: "PRODUCT", id: "p2", version: 1, deleted: false, record: { id: "p2", storeId: "s2" } },
    { type: "STORE_EVENT", id: "e1", version: 1, deleted: false, record: { id: "e1", storeId: "s1" } },
    taskChange("t1", 1),
  ]);
  const store = applyChanges(records, H, [{ type: "STORE", id: "s1", version: 2, deleted: true, record: null }]);
  equal(store.remove.sort(), [keyOf(H, "PRODUCT", "p1"), keyOf(H, "STORE", "s1"), keyOf(H, "STORE_EVENT", "e1")].sort(), "the store's records");
  equal([...records.keys()].sort(), [keyOf(H, "PRODUCT", "p2"), keyOf(H, "TASK", "t1")].sort(), "what stays");
  const household = applyChanges(records, H, [{ type: "HOUSEHOLD", id: H, version: 3, deleted: true, record: null }]);
  equal(household.householdGone, true, "gone");
  equal(records.size, 0, "nothing stays");
});

test("pending mutations show on top of the replica and again after a pull", () => {
  const records = new Map();
  applyChanges(records, H, [taskChange("t1", 1)]);
  const outbox = [
    pending(1, { createTask: { householdId: H, input: { id: "t2", title: "new" } } }),
    pending(2, { updateTask: { id: "t1", expectedVersion: 1, input: { title: "mine" } } }),
  ];
  let view = withPending(records, outbox, H);
  equal(view.get(keyOf(H, "TASK", "t1"))?.record.title, "mine", "the update");
  equal(view.get(keyOf(H, "TASK", "t2"))?.record.title, "new", "the create");
  equal(records.get(keyOf(H, "TASK", "t1"))?.record.title, "t1", "the replica itself is unchanged");
  applyChanges(records, H, [taskChange("t1", 2, { title: "t1", notes: "theirs" })]);
  view = withPending(records, outbox, H);
  equal([view.get(keyOf(H, "TASK", "t1"))?.record.title, view.get(keyOf(H, "TASK", "t1"))?.record.notes], ["mine", "theirs"], "field-level: both");
});

test("a push batch ends before a second versioned change of one record", () => {
  const outbox = [
    pending(1, { updateTask: { id: "t1", expectedVersion: 1, input: { title: "a" } } }),
    pending(2, { createTask: { householdId: H, input: { id: "t9", title: "x" } } }),
    pending(3, { updateTask: { id: "t1", expectedVersion: 1, input: { notes: "b" } } }),
    pending(4, { completeTask: { id: "t2" } }, "sent"),
  ];
  equal(planBatch(outbox).map((p) => p.id), [1, 2], "the batch");
  equal(planBatch(outbox, 1).map((p) => p.id), [1], "at most max");
});

test("APPLIED waits as sent and rebases later changes; CONFLICT waits for the person; REJECTED goes", () => {
  const outbox = [
    pending(1, { updateTask: { id: "t1", expectedVersion: 1, input: { title: "a" } } }),
    pending(2, { updateTask: { id: "t2", expectedVersion: 4, input: { title: "b" } } }),
    pending(3, { deleteLabel: { id: "l1" } }),
    pending(4, { updateTask: { id: "t1", expectedVersion: 1, input: { notes: "c" } } }),
  ];
  const outcome = readResults(outbox, [
    { id: 1, status: "APPLIED", code: null, message: null, fields: null, version: 2 },
    { id: 2, status: "CONFLICT", code: "CONFLICT", message: "changed", fields: ["title"], version: null },
    { id: 3, status: "REJECTED", code: "FORBIDDEN", message: "no", fields: null, version: null },
  ], (p, fields) => conflictFields(p, fields, undefined));
  const byId = new Map(outcome.update.map((p) => [p.id, p]));
  equal(byId.get(1)?.state, "sent", "applied");
  equal(byId.get(2)?.state, "conflict", "conflict");
  equal(byId.get(2)?.conflict?.fields, [{ field: "title", mine: "b", theirs: null }], "the conflict's fields");
  equal(byId.get(4)?.op.updateTask.expectedVersion, 2, "rebased on the applied version");
  equal(outcome.remove, [3], "rejected");
  equal(outcome.rejected[0]?.message, "no", "its message");
  equal(outbox[3].op.updateTask.expectedVersion, 1, "the input outbox is unchanged");
});

test("a finished pull confirms sent mutations up to lastMutationId", () => {
  const outbox = [pending(1, {}, "sent"), pending(2, {}, "conflict"), pending(3, {}, "sent"), pending(4, {})];
  equal(confirmed(outbox, 2), [1], "confirmed");
  equal(confirmed(outbox, 3), [1, 3], "confirmed");
});

test("keep mine expects the version now known; take theirs drops the change", () => {
  const conflict = pending(5, { updateTask: { id: "t1", expectedVersion: 1, input: { title: "mine" } } }, "conflict");
  equal(resolveConflict(conflict, "mine", 7), { updateTask: { id: "t1", expectedVersion: 7, input: { title: "mine" } } }, "mine");
  equal(resolveConflict(conflict, "theirs", 7), null, "theirs");
  equal(conflictFields(conflict, ["title"], { key: "", householdId: H, type: "TASK", id: "t1", version: 7, record: { title: "theirs" } }),
    [{ field: "title", mine: "mine", theirs: "theirs" }], "both values");
});

test("permissions: packed CASL rules, later rules first, conditions with $in", () => {
  const ability = Ability.fromPacked([
    ["read", "Task", { householdId: H }],
    ["create,update", "Task", { householdId: H }],
    ["manage", "Member,Invitation", { householdId: H, role: { $in: ["MEMBER", "VIEWER"] } }],
    ["delete", "Task", { householdId: H }, 1],
  ]);
  equal(ability.can("create", "Task", { householdId: H }), true, "create here");
  equal(ability.can("create", "Task", { householdId: "other" }), false, "not elsewhere");
  equal(ability.can("delete", "Task", { householdId: H }), false, "inverted");
  equal(ability.can("update", "Member", { householdId: H, role: "VIEWER" }), true, "manage a viewer");
  equal(ability.can("update", "Member", { householdId: H, role: "OWNER" }), false, "not an owner");
});

const failed = results.filter((r) => r.error);
const list = /** @type {HTMLElement} */ (document.getElementById("cases"));
for (const r of results) {
  const item = document.createElement("li");
  item.textContent = r.error ? `FAILED ${r.name}: ${r.error}` : `ok ${r.name}`;
  list.append(item);
}
/** @type {HTMLElement} */ (document.getElementById("result")).textContent = failed.length
  ? `${failed.length} of ${results.length} failed: ${failed.map((r) => `${r.name}: ${r.error}`).join("; ")}`
  : `${results.length} of ${results.length} passed`;
