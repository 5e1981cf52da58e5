// Shapes shared by the store, the sync engine and the views (JSDoc only: nothing runs here).

/**
 * @typedef {{id: string, title: string, done: boolean, position: number}} Subtask
 * @typedef {{
 *   id: string, version: number, householdId: string, kind: "TASK" | "EVENT", title: string, notes: string | null,
 *   priority: string, deadline: string | null, estimateMinutes: number | null, assigneeId: string | null,
 *   startsAt: string | null, endsAt: string | null, location: string | null, occursAt: string | null,
 *   completed: boolean, completedAt: string | null, remindAt: string | null, reminderDueAt: string | null,
 *   labels: {id: string}[], subtasks: Subtask[]
 * }} Task
 * @typedef {{id: string, version: number, householdId: string, name: string, color: string}} Label
 * @typedef {{version: number, role: Role, joinedAt: string, user: {id: string, displayName: string}}} Member
 * @typedef {{id: string, version: number, name: string, description: string, timeZone: string, myRole: Role}} Household
 * @typedef {"OWNER" | "ADMIN" | "MEMBER" | "VIEWER"} Role
 * @typedef {"HOUSEHOLD" | "MEMBER" | "LABEL" | "TASK" | "STORE" | "PRODUCT" | "STORE_EVENT" | "NOTIFICATION"} SyncType
 */

/**
 * One record of the replica, at the version the server last sent.
 * @typedef {{key: string, householdId: string, type: SyncType, id: string, version: number, record: any}} Entry
 */

/**
 * A change as `sync` returns it.
 * @typedef {{type: SyncType, id: string, version: number, deleted: boolean, record: any}} SyncChange
 */

/**
 * A queued change (`ClientMutation`) in the outbox. `sent`: pushed, waiting for a pull to show it;
 * `conflict`: the server refused it for a newer value, the person chooses.
 * @typedef {{field: string, mine: unknown, theirs: unknown}} ConflictField
 * @typedef {{
 *   id: number, householdId: string, op: Record<string, any>, state: "pending" | "sent" | "conflict",
 *   createdAt: number, conflict?: {message: string, fields: ConflictField[]}
 * }} Pending
 */

/**
 * What `push` answers per mutation.
 * @typedef {{id: number, status: "APPLIED" | "DUPLICATE" | "CONFLICT" | "REJECTED", code: string | null,
 *   message: string | null, fields: string[] | null, version: number | null}} PushedMutation
 */

export {};
