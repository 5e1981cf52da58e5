// The sync engine's pure parts: applying pulled changes, showing pending mutations on top of the
// replica, planning pushes and reading their results. No IndexedDB, no network: unit-tested in the browser.

/** @typedef {import("../types.js").Entry} Entry */
/** @typedef {import("../types.js").Pending} Pending */
/** @typedef {import("../types.js").SyncChange} SyncChange */
/** @typedef {import("../types.js").PushedMutation} PushedMutation */
/** @typedef {import("../types.js").Task} Task */

/**
 * The replica's key of a record: records are kept per household (a person's member record is in each).
 * @param {string} householdId
 * @param {string} type
 * @param {string} id
 */
export function keyOf(householdId, type, id) {
  return `${householdId}|${type}|${id}`;
}

/**
 * Applies one page of pulled changes to a household's records (in place) and returns what to
 * write and delete. Tombstones: a deleted STORE takes its products and events, a deleted HOUSEHOLD everything.
 * @param {Map<string, Entry>} records the household's records by key
 * @param {string} householdId
 * @param {SyncChange[]} changes
 * @returns {{put: Entry[], remove: string[], householdGone: boolean}}
 */
export function applyChanges(records, householdId, changes) {
  /** @type {Map<string, Entry>} */
  const put = new Map();
  /** @type {Set<string>} */
  const remove = new Set();
  let householdGone = false;
  for (const change of changes) {
    const key = keyOf(householdId, change.type, change.id);
    if (!change.deleted) {
      const entry = { key, householdId, type: change.type, id: change.id, version: change.version, record: change.record };
      records.set(key, entry);
      put.set(key, entry);
      remove.delete(key);
      continue;
    }
    /** @type {string[]} */
    let gone = [key];
    if (change.type === "HOUSEHOLD") {
      householdGone = true;
      gone = [...records.keys()];
    } else if (change.type === "STORE") {
      for (const entry of records.values()) {
        if ((entry.type === "PRODUCT" || entry.type === "STORE_EVENT") && entry.record?.storeId === change.id) gone.push(entry.key);
      }
    }
    for (const k of gone) {
      records.delete(k);
      put.delete(k);
      remove.add(k);
    }
  }
  return { put: [...put.values()], remove: [...remove], householdGone };
}

/**
 * What the views show: the replica with the outbox's mutations applied on top, in order (also
 * those sent but not yet seen in a pull, and those in conflict: the person's value stays until they choose).
 * @param {Map<string, Entry>} records
 * @param {Pending[]} outbox
 * @param {string} householdId
 * @returns {Map<string, Entry>} a new map; `records` is not changed
 */
export function withPending(records, outbox, householdId) {
  const view = new Map(records);
  for (const pending of [...outbox].sort((a, b) => a.id - b.id)) {
    if (pending.householdId === householdId) applyOp(view, householdId, pending.op);
  }
  return view;
}

/**
 * The one op of a ClientOp: its name and its argument.
 * @param {Record<string, any>} op
 * @returns {[string, any]}
 */
export function opEntry(op) {
  const [entry] = Object.entries(op);
  return entry ?? ["", {}];
}

/**
 * The record a mutation changes (type and id), for batching and conflicts.
 * @param {Record<string, any>} op
 * @returns {{type: string, id: string} | null}
 */
export function target(op) {
  const [name, arg] = opEntry(op);
  switch (name) {
    case "createTask": case "createEvent": return { type: "TASK", id: arg.input.id };
    case "updateTask": case "completeTask": case "skipOccurrence": case "reopenTask": case "deleteTask": return { type: "TASK", id: arg.id };
    case "addSubtask": case "reorderSubtasks": case "snoozeReminder": return { type: "TASK", id: arg.taskId };
    case "createLabel": case "updateLabel": case "deleteLabel": return { type: "LABEL", id: arg.id };
    default: return null;
  }
}

/**
 * Applies one ClientOp to records, as the server will (optimistically); unknown records are left alone.
 * @param {Map<string, Entry>} view
 * @param {string} householdId
 * @param {Record<string, any>} op
 */
export function applyOp(view, householdId, op) {
  const [name, arg] = opEntry(op);
  /** @param {string} id */
  const taskKey = (id) => keyOf(householdId, "TASK", id);
  /**
   * @param {string} key
   * @param {(record: any) => any} change
   */
  const edit = (key, change) => {
    const entry = view.get(key);
    if (entry) view.set(key, { ...entry, record: change(structuredClone(entry.record)) });
  };
  switch (name) {
    case "createTask":
    case "createEvent": {
      const input = arg.input;
      const key = taskKey(input.id);
      if (view.has(key)) return;
      const event = name === "createEvent";
      const startsAt = event ? input.startsAt ?? (input.date ? `${input.date}T09:00:00` : null) : null;
      /** @type {Task} */
      const task = {
        id: input.id, version: 0, householdId, kind: event ? "EVENT" : "TASK", title: input.title, notes: input.notes ?? null,
        priority: input.priority ?? "NONE", deadline: input.deadline ?? null, estimateMinutes: input.estimateMinutes ?? null,
        assigneeId: input.assigneeId ?? null, startsAt, endsAt: input.endsAt ?? null, location: input.location ?? null,
        occursAt: event ? startsAt : input.deadline ?? null, completed: false, completedAt: null, remindAt: input.remindAt ?? null,
        reminderDueAt: null, labels: (input.labelIds ?? []).map((/** @type {string} */ id) => ({ id })),
        subtasks: (input.subtasks ?? []).map((/** @type {string} */ title, /** @type {number} */ position) => ({ id: `${input.id}-${position}`, title, done: false, position })),
        occurrence: input.repeat ? (event ? startsAt : input.deadline ?? null) : null, upcoming: [],
        repeat: input.repeat ? { from: "SCHEDULE", exceptions: [], ...input.repeat, start: event ? startsAt : input.deadline ?? null } : null,
        rotation: input.rotation?.length ? { memberIds: input.rotation, current: input.assigneeId ?? input.rotation[0] } : null,
        lastCompletion: null,
      };
      if (task.rotation) task.assigneeId = task.rotation.current;
      view.set(key, { key, householdId, type: "TASK", id: input.id, version: 0, record: task });
      return;
    }
    case "updateTask":
      edit(taskKey(arg.id), (task) => {
        for (const [field, value] of Object.entries(arg.input)) {
          if (field === "labelIds") task.labels = (value ?? []).map((/** @type {string} */ id) => ({ id }));
          else if (field === "repeat") {
            task.repeat = value ? { from: "SCHEDULE", exceptions: [], ...value, start: task.kind === "EVENT" ? task.startsAt : task.deadline } : null;
            task.occurrence = value ? task.repeat.start : null;
            task.upcoming = [];
          } else if (field === "rotation") {
            const ids = /** @type {string[] | null} */ (value);
            task.rotation = ids?.length ? { memberIds: ids, current: ids.includes(task.assigneeId) ? task.assigneeId : ids[0] } : null;
            if (task.rotation) task.assigneeId = task.rotation.current;
          } else task[field] = value;
        }
        task.occursAt = task.kind === "EVENT" ? task.startsAt : task.deadline;
        return task;
      });
      return;
    case "completeTask":
    case "skipOccurrence":
      edit(taskKey(arg.id), (task) => task.repeat && task.kind === "TASK" ? passOccurrence(task, arg.occurrence, name === "completeTask")
        : { ...task, completed: true, completedAt: new Date().toISOString() });
      return;
    case "reopenTask":
      edit(taskKey(arg.id), (task) => task.repeat ? task : { ...task, completed: false, completedAt: null });
      return;
    case "deleteTask":
      view.delete(taskKey(arg.id));
      return;
    case "addSubtask":
      edit(taskKey(arg.taskId), (task) => {
        if (!task.subtasks.some((/** @type {{id: string}} */ s) => s.id === arg.id)) {
          task.subtasks.push({ id: arg.id, title: arg.title, done: false, position: task.subtasks.length });
        }
        return task;
      });
      return;
    case "updateSubtask":
    case "removeSubtask":
      for (const entry of view.values()) {
        if (entry.type !== "TASK" || !entry.record.subtasks.some((/** @type {{id: string}} */ s) => s.id === arg.id)) continue;
        edit(entry.key, (task) => {
          if (name === "removeSubtask") task.subtasks = task.subtasks.filter((/** @type {{id: string}} */ s) => s.id !== arg.id);
          else task.subtasks = task.subtasks.map((/** @type {any} */ s) => s.id === arg.id
            ? { ...s, title: arg.title ?? s.title, done: arg.done ?? s.done } : s);
          return task;
        });
        return;
      }
      return;
    case "reorderSubtasks":
      edit(taskKey(arg.taskId), (task) => {
        /** @type {string[]} */
        const order = arg.subtaskIds;
        task.subtasks = [...task.subtasks].sort((/** @type {any} */ a, /** @type {any} */ b) => order.indexOf(a.id) - order.indexOf(b.id))
          .map((/** @type {any} */ s, /** @type {number} */ position) => ({ ...s, position }));
        return task;
      });
      return;
    case "createLabel": {
      const key = keyOf(householdId, "LABEL", arg.id);
      if (!view.has(key)) view.set(key, { key, householdId, type: "LABEL", id: arg.id, version: 0,
        record: { id: arg.id, version: 0, householdId, name: arg.name, color: arg.color ?? "gray" } });
      return;
    }
    case "updateLabel":
      edit(keyOf(householdId, "LABEL", arg.id), (label) => ({ ...label, name: arg.name ?? label.name, color: arg.color ?? label.color }));
      return;
    case "deleteLabel": {
      view.delete(keyOf(householdId, "LABEL", arg.id));
      for (const entry of [...view.values()]) {
        if (entry.type === "TASK" && entry.record.labels.some((/** @type {{id: string}} */ l) => l.id === arg.id)) {
          edit(entry.key, (task) => ({ ...task, labels: task.labels.filter((/** @type {{id: string}} */ l) => l.id !== arg.id) }));
        }
      }
      return;
    }
    case "markEventRead":
      edit(keyOf(householdId, "STORE_EVENT", arg.id), (event) => ({ ...event, read: true }));
      return;
    case "markNotificationRead":
      edit(keyOf(householdId, "NOTIFICATION", arg.id), (notification) => ({ ...notification, read: true }));
      return;
    default:
      return;
  }
}

/**
 * A repeating task moved past its occurrence, as the server will: the completion noted (when done),
 * the next date from the dates the server sent ahead (`upcoming`), subtasks unticked, the turn
 * passed on. An occurrence it has passed already changes nothing. Without a known next date (one
 * that repeats from completion) it keeps its date until the server answers.
 * @param {Task} task
 * @param {string | undefined} occurrence
 * @param {boolean} done
 * @returns {Task}
 */
function passOccurrence(task, occurrence, done) {
  if (occurrence && task.occurrence && Date.parse(occurrence) < Date.parse(task.occurrence)) return task;
  const next = task.upcoming?.[0];
  const moved = { ...task };
  if (done) moved.lastCompletion = { occurrence: task.occurrence ?? task.deadline ?? "", completedAt: new Date().toISOString(), completedBy: null };
  if (!next) return moved;
  Object.assign(moved, { deadline: next, occurrence: next, occursAt: next, upcoming: task.upcoming?.slice(1) ?? [],
    subtasks: task.subtasks.map((subtask) => ({ ...subtask, done: false })) });
  const members = task.rotation?.memberIds ?? [];
  if (done && members.length) {
    const turn = members[(members.indexOf(task.assigneeId ?? "") + 1) % members.length];
    moved.assigneeId = turn;
    moved.rotation = { memberIds: members, current: turn };
  }
  return moved;
}

/**
 * The next push: pending mutations in order, at most `max`, ending before a second versioned
 * mutation of one record (its expected version is rebased on the first one's result).
 * @param {Pending[]} outbox
 * @param {number} max
 * @returns {Pending[]}
 */
export function planBatch(outbox, max = 100) {
  const batch = [];
  const versioned = new Set();
  for (const pending of [...outbox].sort((a, b) => a.id - b.id)) {
    if (pending.state !== "pending") continue;
    const [, arg] = opEntry(pending.op);
    const record = target(pending.op);
    const key = record ? `${record.type}|${record.id}` : null;
    if (key && arg.expectedVersion != null) {
      if (versioned.has(key)) break;
      versioned.add(key);
    }
    batch.push(pending);
    if (batch.length >= max) break;
  }
  return batch;
}

/**
 * Reads a push's results. APPLIED and DUPLICATE wait as `sent` until a pull shows them (so the view
 * never flickers back); a later mutation of the same record that expected the same version now
 * expects the new one. CONFLICT waits for the person; REJECTED is dropped, its message returned.
 * @param {Pending[]} outbox
 * @param {PushedMutation[]} results
 * @param {(pending: Pending, fields: string[]) => import("../types.js").ConflictField[]} describe the values of a conflict
 * @returns {{update: Pending[], remove: number[], rejected: {pending: Pending, message: string}[], conflicts: Pending[]}}
 */
export function readResults(outbox, results, describe) {
  const byId = new Map(outbox.map((pending) => [pending.id, structuredClone(pending)]));
  const ordered = [...byId.values()].sort((a, b) => a.id - b.id);
  /** @type {Pending[]} */
  const conflicts = [];
  /** @type {{pending: Pending, message: string}[]} */
  const rejected = [];
  /** @type {Set<number>} */
  const changed = new Set();
  for (const result of results) {
    const pending = byId.get(result.id);
    if (!pending) continue;
    changed.add(pending.id);
    if (result.status === "APPLIED" || result.status === "DUPLICATE") {
      pending.state = "sent";
      const [, arg] = opEntry(pending.op);
      const record = target(pending.op);
      if (result.version != null && record) {
        for (const later of ordered) {
          if (later.id <= pending.id || later.state !== "pending") continue;
          const laterTarget = target(later.op);
          const [, laterArg] = opEntry(later.op);
          if (laterTarget?.id === record.id && laterArg.expectedVersion != null && laterArg.expectedVersion === (arg.expectedVersion ?? laterArg.expectedVersion)) {
            laterArg.expectedVersion = result.version;
            changed.add(later.id);
          }
        }
      }
    } else if (result.status === "CONFLICT") {
      pending.state = "conflict";
      pending.conflict = { message: result.message ?? "Someone else changed this meanwhile.", fields: describe(pending, result.fields ?? []) };
      conflicts.push(pending);
    } else {
      rejected.push({ pending, message: result.message ?? "Hearth refused this change." });
    }
  }
  const rejectedIds = new Set(rejected.map((r) => r.pending.id));
  return {
    update: [...changed].filter((id) => !rejectedIds.has(id)).map((id) => /** @type {Pending} */ (byId.get(id))),
    remove: [...rejectedIds],
    rejected,
    conflicts,
  };
}

/**
 * Mutations a finished pull has shown: sent ones at or below the server's last processed id.
 * @param {Pending[]} outbox
 * @param {number} lastMutationId
 */
export function confirmed(outbox, lastMutationId) {
  return outbox.filter((pending) => pending.state === "sent" && pending.id <= lastMutationId).map((pending) => pending.id);
}

/**
 * The field values of a conflict: the person's (from their mutation) and the other one (from the replica).
 * @param {Pending} pending
 * @param {string[]} fields
 * @param {Entry | undefined} current
 * @returns {import("../types.js").ConflictField[]}
 */
export function conflictFields(pending, fields, current) {
  const [, arg] = opEntry(pending.op);
  const input = arg.input ?? arg;
  return fields.map((field) => ({ field, mine: input[field] ?? null, theirs: current?.record?.[field] ?? null }));
}

/**
 * "Keep mine": the same change again, expecting the version now known; "take theirs": dropped (null).
 * @param {Pending} pending
 * @param {"mine" | "theirs"} choice
 * @param {number | undefined} version the record's version in the replica now
 * @returns {Record<string, any> | null} the op to queue again
 */
export function resolveConflict(pending, choice, version) {
  if (choice === "theirs") return null;
  const op = structuredClone(pending.op);
  const [, arg] = opEntry(op);
  if (version != null && "expectedVersion" in arg) arg.expectedVersion = version;
  return op;
}
