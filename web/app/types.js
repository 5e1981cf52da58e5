// Shapes shared by the store, the sync engine and the views (JSDoc only: nothing runs here).

/**
 * @typedef {{id: string, title: string, done: boolean, position: number}} Subtask
 * @typedef {{
 *   id: string, version: number, householdId: string, kind: "TASK" | "EVENT", title: string, notes: string | null,
 *   priority: string, deadline: string | null, estimateMinutes: number | null, assigneeId: string | null,
 *   startsAt: string | null, endsAt: string | null, location: string | null, occursAt: string | null,
 *   completed: boolean, completedAt: string | null, remindAt: string | null, reminderDueAt: string | null,
 *   labels: {id: string}[], subtasks: Subtask[], occurrence?: string | null, upcoming?: string[],
 *   repeat?: Recurrence | null, rotation?: {memberIds: string[], current: string | null} | null,
 *   lastCompletion?: {occurrence: string, completedAt: string, completedBy: string | null} | null
 * }} Task
 * @typedef {{rule: string, from: "SCHEDULE" | "COMPLETION", exceptions?: string[], start?: string, overrides?: OccurrenceOverride[]}} Recurrence
 * @typedef {{occurrence: string, startsAt: string, endsAt: string, title?: string | null, notes?: string | null,
 *   location?: string | null}} OccurrenceOverride
 * @typedef {{id: string, version: number, householdId: string, name: string, color: string}} Label
 * @typedef {{version: number, role: Role, joinedAt: string, awayUntil?: string | null, user: {id: string, displayName: string}}} Member
 * @typedef {{id: string, version: number, name: string, description: string, timeZone: string, myRole: Role}} Household
 * @typedef {"OWNER" | "ADMIN" | "MEMBER" | "VIEWER"} Role
 * @typedef {{code: string, message: string, suggestion: string}} SyncError
 * @typedef {{
 *   id: string, version: number, householdId: string, name: string, domain: string, currency: string | null, url: string,
 *   createdAt: string, syncStatus: {state: "NEVER_SYNCED" | "SYNCING" | "SYNCED" | "FAILED", lastSyncedAt: string | null,
 *   nextSyncAt: string, lastError: SyncError | null}
 * }} Store
 * @typedef {{id: string, title: string, price: string, compareAtPrice: string | null, available: boolean}} Variant
 * @typedef {{
 *   id: string, version: number, storeId: string, title: string, handle: string, url: string, vendor: string,
 *   productType: string, tags: string[], images: {src: string}[], minPrice: string, maxPrice: string, available: boolean,
 *   lastChangedAt: string, removedAt: string | null, variants: Variant[]
 * }} Product
 * @typedef {"PRICE_DROPPED" | "PRICE_INCREASED" | "BACK_IN_STOCK" | "OUT_OF_STOCK" | "NEW_PRODUCT" | "PRODUCT_REMOVED" | "IMAGES_CHANGED"} StoreEventType
 * @typedef {{
 *   id: string, version: number, storeId: string, storeName: string, productId: string, productTitle: string,
 *   variantTitle: string | null, type: StoreEventType, oldPrice: string | null, newPrice: string | null,
 *   priceDelta: string | null, magnitude: "SMALL" | "MEDIUM" | "LARGE" | null, createdAt: string, read: boolean
 * }} StoreEvent
 * @typedef {{
 *   id: string, version: number, householdId: string, notificationStoreId: string | null, title: string, body: string,
 *   notificationKind: "STORE_CHANGES" | "REMINDER" | "TASK_ASSIGNED" | "MEMBERSHIP", taskId: string | null, read: boolean, createdAt: string
 * }} AppNotification
 * @typedef {{name: string, isHealthy: boolean, lastChecked: string, errors: string[], responseTimeMs: number, details: Record<string, unknown> | null}} ServiceHealth
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
