// Unit tests of the sync engine's pure parts (outbox rebasing, pull application, conflicts) and of
// the permissions, run in the browser: `scripts/web/family.py` opens this page and reads the result.

import { Ability } from "../app/permissions.js";
import { applyChanges, applyOp, confirmed, conflictFields, keyOf, planBatch, readResults, resolveConflict, withPending } from "../app/sync/rebase.js";
import { ApiError } from "../app/api/graphql.js";
import { Schema } from "../app/explorer/schema.js";
import { lowestPrices } from "../app/ui/price-chart.js";
import { changeDetail } from "../app/ui/changes.js";
import { operationKind } from "../app/views/explorer.js";
import { filterProducts } from "../app/views/store.js";
import { refusal } from "../app/views/stores.js";
import { eventOccurrences, occurrencesBetween } from "../app/store/recurrence.js";

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

/** @param {string} id @param {string} title @param {Record<string, any>} [fields] @returns {import("../app/types.js").Product} */
const product = (id, title, fields = {}) => ({ id, version: 1, storeId: "s1", title, handle: id, url: "", vendor: "", productType: "", tags: [],
  images: [], minPrice: "10.00", maxPrice: "10.00", available: true, lastChangedAt: "2026-01-01T00:00:00Z", removedAt: null,
  variants: [{ id: `${id}v`, title: "Default Title", price: "10.00", compareAtPrice: null, available: true }], ...fields });
/** @param {string} at @param {string} oldPrice @param {string} newPrice @param {string} [variantTitle] @returns {import("../app/types.js").StoreEvent} */
const priceEvent = (at, oldPrice, newPrice, variantTitle = "Default Title") => ({ id: at, version: 1, storeId: "s1", storeName: "s", productId: "p",
  productTitle: "p", variantTitle, type: Number(newPrice) < Number(oldPrice) ? "PRICE_DROPPED" : "PRICE_INCREASED", oldPrice, newPrice,
  priceDelta: null, magnitude: "LARGE", createdAt: at, read: false });

test("products: search over title, vendor, type and tags (every word, any case); stock; sorts", () => {
  const products = [
    product("a", "Wool Runner", { vendor: "Allbirds", minPrice: "95.00", tags: ["shoes"], lastChangedAt: "2026-01-03T00:00:00Z" }),
    product("b", "Tree Dasher", { productType: "Running shoes", minPrice: "125.00", available: false }),
    product("c", "Socks", { minPrice: "12.00", tags: ["wool"], lastChangedAt: "2026-01-05T00:00:00Z" }),
  ];
  const ids = (/** @type {import("../app/types.js").Product[]} */ list) => list.map((p) => p.id);
  equal(ids(filterProducts(products, "WOOL", "ALL", "TITLE")), ["a", "c"], "title or tag, any case");
  equal(ids(filterProducts(products, "running shoes", "ALL", "TITLE")), ["b"], "every word, in the type");
  equal(ids(filterProducts(products, "allbirds runner", "ALL", "TITLE")), ["a"], "vendor and title together");
  equal(ids(filterProducts(products, "", "OUT_OF_STOCK", "TITLE")), ["b"], "out of stock");
  equal(ids(filterProducts(products, "", "IN_STOCK", "PRICE_ASC")), ["c", "a"], "in stock, cheapest first (as numbers, not text)");
  equal(ids(filterProducts(products, "", "ALL", "PRICE_DESC")), ["b", "a", "c"], "dearest first");
  equal(ids(filterProducts(products, "", "ALL", "CHANGED")), ["c", "a", "b"], "recently changed first");
});

test("price history: the lowest price across variants at each change, ending now", () => {
  const p = product("p", "Shoe", { variants: [
    { id: "v1", title: "S", price: "80.00", compareAtPrice: null, available: true },
    { id: "v2", title: "M", price: "90.00", compareAtPrice: null, available: true },
  ] });
  const points = lowestPrices(p, [priceEvent("2026-02-01T00:00:00Z", "70.00", "80.00", "S"), priceEvent("2026-01-01T00:00:00Z", "100.00", "70.00", "S")],
    Date.parse("2026-03-01T00:00:00Z"));
  equal(points.map((point) => point.price), [90, 70, 80, 80], "before the first change M was cheapest; then S");
  equal(points.at(-1)?.at, "2026-03-01T00:00:00.000Z", "the last point is now");
  equal(lowestPrices(p, [], 0).length, 1, "a price that never changed is one point");
});

test("a price change in words: both prices and the percentage", () => {
  equal(changeDetail(priceEvent("t", "10.00", "7.50"), null).replace(/\s/g, " "), "10.00 → 7.50 (−25 %, large)", "a drop");
  equal(changeDetail({ ...priceEvent("t", "10.00", "7.50"), oldPrice: null, newPrice: null }, "EUR"), "", "not a price change");
});

test("the sync limit is said as the time to wait; other refusals as the API words them", () => {
  equal(refusal(new ApiError("RATE_LIMITED", "This store was synced moments ago; try again in 42 seconds.", undefined, { retryAfter: 41.2 })),
    "Synced a moment ago: try again in 42 s.", "rate limited");
  equal(refusal(new ApiError("BAD_USER_INPUT", "nowhere.test does not answer.")), "nowhere.test does not answer.", "the API's words");
});

test("marking a change or a notification read shows at once", () => {
  const view = new Map();
  const event = { key: keyOf(H, "STORE_EVENT", "e1"), householdId: H, type: /** @type {const} */ ("STORE_EVENT"), id: "e1", version: 1, record: { read: false } };
  view.set(event.key, event);
  applyOp(view, H, { markEventRead: { id: "e1" } });
  equal(view.get(event.key)?.record.read, true, "the change is read");
  equal(event.record.read, false, "the replica's record is untouched");
});

test("explorer: the operation that runs, and the fields to complete where the caret is", () => {
  equal(operationKind("query A { a } subscription B { b }", "B"), "subscription", "the named one");
  equal(operationKind("{ a }", undefined), "query", "shorthand");
  equal(operationKind("# subscription\nmutation M { m }", undefined), "mutation", "the first");
  const ref = (/** @type {string} */ name) => ({ kind: "OBJECT", name, ofType: null });
  const field = (/** @type {string} */ name, /** @type {string} */ type) => ({ name, description: null, args: [], type: ref(type), isDeprecated: false, deprecationReason: null });
  const type = (/** @type {string} */ name, /** @type {any[]} */ fields) => ({ kind: "OBJECT", name, description: null, fields, inputFields: null, enumValues: null, interfaces: [], possibleTypes: null });
  const schema = new Schema({ queryType: { name: "Query" }, mutationType: null, subscriptionType: null, types: [
    type("Query", [field("store", "Store"), field("serverInfo", "ServerInfo")]),
    type("Store", [field("name", "String"), field("products", "Product")]),
    type("Product", [field("title", "String"), field("tags", "String")]),
    type("ServerInfo", [field("version", "String")]),
  ] });
  const at = (/** @type {string} */ text) => schema.completions(text, text.length);
  equal(at("{ store(id: \"x{\") { pro").fields.map((f) => f.name), ["products"], "through arguments (braces in strings ignored)");
  equal(at("query Q($id: UUID!) { s: store(id: $id) { products { t").fields.map((f) => f.name), ["title", "tags"], "aliases and variables");
  equal(at("{ store { name } ").fields.map((f) => f.name), ["store", "serverInfo"], "back at the root after a selection closes");
  equal(at("{ serverInfo { ").type, "ServerInfo", "the type at the caret");
  equal(at("{ nothing { ").fields, [], "an unknown field offers nothing");
});

test("repeating events: weekly on days, daylight saving, last weekday, COUNT, UNTIL and exceptions, as the server lists them", () => {
  const iso = (/** @type {number[] | null} */ times) => (times ?? []).map((t) => new Date(t).toISOString().slice(0, 16));
  const jan = [Date.parse("2030-01-01T00:00:00Z"), Date.parse("2030-02-01T00:00:00Z")];
  equal(iso(occurrencesBetween({ rule: "FREQ=WEEKLY;BYDAY=TU" }, "2030-01-01T06:00:00Z", "Europe/Berlin", jan[0], jan[1])),
    ["2030-01-01T06:00", "2030-01-08T06:00", "2030-01-15T06:00", "2030-01-22T06:00", "2030-01-29T06:00"], "every Tuesday");
  equal(iso(occurrencesBetween({ rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", exceptions: ["2030-01-17T06:00:00Z"] }, "2030-01-03T06:00:00Z",
    "Europe/Berlin", jan[0], jan[1])), ["2030-01-03T06:00", "2030-01-14T06:00", "2030-01-28T06:00", "2030-01-31T06:00"], "fortnightly, one taken out");
  equal(iso(occurrencesBetween({ rule: "FREQ=DAILY" }, "2026-10-24T05:00:00Z", "Europe/Berlin", Date.parse("2026-10-24T00:00:00Z"),
    Date.parse("2026-10-27T00:00:00Z"))), ["2026-10-24T05:00", "2026-10-25T06:00", "2026-10-26T06:00"], "07:00 stays 07:00 after the clocks go back");
  equal(iso(occurrencesBetween({ rule: "FREQ=MONTHLY;BYDAY=-1FR" }, "2026-12-25T17:00:00Z", "Europe/Berlin", Date.parse("2027-01-01T00:00:00Z"),
    Date.parse("2027-03-01T00:00:00Z"))), ["2027-01-29T17:00", "2027-02-26T17:00"], "the last Friday");
  equal(iso(occurrencesBetween({ rule: "FREQ=DAILY;COUNT=3" }, "2030-01-01T06:00:00Z", "UTC", jan[0], jan[1])),
    ["2030-01-01T06:00", "2030-01-02T06:00", "2030-01-03T06:00"], "COUNT");
  equal(iso(occurrencesBetween({ rule: "FREQ=WEEKLY;UNTIL=20300115T225959Z" }, "2030-01-01T06:00:00Z", "Europe/Berlin", jan[0], jan[1])),
    ["2030-01-01T06:00", "2030-01-08T06:00", "2030-01-15T06:00"], "UNTIL");
  equal(occurrencesBetween({ rule: "FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU" }, "2030-01-01T06:00:00Z", "UTC", jan[0], jan[1]), null,
    "a rule the app does not read falls back to the server's dates");
});

test("a changed occurrence of an event is listed where it moved to, with its own title, and not where it was", () => {
  const hour = 3_600_000, t = (/** @type {string} */ text) => Date.parse(text);
  const weekly = [t("2030-01-06T17:00:00Z"), t("2030-01-13T17:00:00Z"), t("2030-01-20T17:00:00Z")];
  const repeat = { overrides: [{ occurrence: "2030-01-13T17:00:00Z", startsAt: "2030-01-21T18:00:00Z", endsAt: "2030-01-21T20:30:00Z",
    title: "Dress rehearsal", notes: null, location: "Town hall" }] };
  const listed = eventOccurrences(repeat, weekly, 2 * hour, t("2030-01-01T00:00:00Z"), t("2030-02-01T00:00:00Z"));
  equal(listed.map((o) => [new Date(o.startsAt).toISOString().slice(0, 16), new Date(o.occurrence).toISOString().slice(0, 16), o.title ?? null]),
    [["2030-01-06T17:00", "2030-01-06T17:00", null], ["2030-01-20T17:00", "2030-01-20T17:00", null],
      ["2030-01-21T18:00", "2030-01-13T17:00", "Dress rehearsal"]], "moved, renamed, in order");
  equal(eventOccurrences(repeat, weekly, 2 * hour, t("2030-01-13T00:00:00Z"), t("2030-01-14T00:00:00Z")), [], "not on the day it left");
});

test("completing a repeating task offline moves it to the next date the server sent, once per occurrence, and passes the turn", () => {
  const records = new Map();
  applyChanges(records, H, [taskChange("bins", 1, { deadline: "2030-01-01T06:00:00Z", occurrence: "2030-01-01T06:00:00Z",
    upcoming: ["2030-01-08T06:00:00Z", "2030-01-15T06:00:00Z"], repeat: { rule: "FREQ=WEEKLY", from: "SCHEDULE" },
    rotation: { memberIds: ["ann", "ben"], current: "ann" }, assigneeId: "ann", completed: false, subtasks: [{ id: "s", title: "Glass", done: true, position: 0 }] })]);
  const view = withPending(records, [pending(1, { completeTask: { id: "bins", occurrence: "2030-01-01T06:00:00Z" } }),
    pending(2, { completeTask: { id: "bins", occurrence: "2030-01-01T06:00:00Z" } })], H);
  const task = view.get(keyOf(H, "TASK", "bins"))?.record;
  equal([task.deadline, task.completed, task.assigneeId, task.subtasks[0].done, task.lastCompletion.occurrence],
    ["2030-01-08T06:00:00Z", false, "ben", false, "2030-01-01T06:00:00Z"], "moved on once");
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
