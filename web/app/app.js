// The app's state and commands: who is signed in, their replica and ability, the household on screen.
// Changes that `push` carries are queued in the outbox (they work offline); the rest go to the API
// directly and need a connection. Knows nothing of the DOM.

import { Account } from "./account.js";
import { ApiError, GraphQLClient } from "./api/graphql.js";
import * as ops from "./api/operations.js";
import { Ability } from "./permissions.js";
import { clearSession, loadSession, saveSession } from "./session.js";
import { deleteDatabase } from "./store/db.js";
import { Replica } from "./store/replica.js";
import { keyOf, resolveConflict, target, withPending } from "./sync/rebase.js";
import { newId } from "./ids.js";

/** @typedef {import("./types.js").Household} Household */
/** @typedef {import("./types.js").Task} Task */
/** @typedef {import("./types.js").Entry} Entry */

export class App extends EventTarget {
  constructor() {
    super();
    this.session = loadSession();
    this.api = new GraphQLClient(() => this.session?.token ?? null);
    /** The person's own settings (online only). */
    this.account = new Account(this.api);
    /** @type {Replica | null} */
    this.replica = null;
    this.ability = new Ability([]);
    /** @type {{id: string, email: string, displayName: string, isAdmin?: boolean, preferences: {timeZone: string | null, lastHouseholdId: string | null, theme?: string}} | null} */
    this.me = null;
    /** @type {Household[]} */
    this.households = [];
    /** @type {string | null} */
    this.householdId = null;
    /** @type {Map<string, Entry>} the current household's records with pending changes applied */
    this.view = new Map();
    /** @type {Task[]} */
    this.taskList = [];
    /** @type {import("./types.js").Label[]} by name */
    this.labelList = [];
    /** @type {import("./types.js").Member[]} by joining */
    this.memberList = [];
    /** @type {Map<string, import("./types.js").Label>} */
    this.labelById = new Map();
    /** @type {Map<string, import("./types.js").Member>} by user id */
    this.memberById = new Map();
    /** @type {import("./types.js").Store[]} by name */
    this.storeList = [];
    /** @type {Map<string, import("./types.js").Product[]>} current products by store, by title */
    this.productsByStore = new Map();
    /** @type {Map<string, import("./types.js").Product>} */
    this.productById = new Map();
    /** @type {import("./types.js").Product[]} the records the product lists were built from */
    this.productSource = [];
    /** @type {import("./types.js").Store[]} */
    this.storeSource = [];
    /** @type {import("./types.js").StoreEvent[]} newest first */
    this.eventList = [];
    /** @type {Map<string, number>} the household's unread store changes, by store */
    this.unreadByStore = new Map();
    /** The household's unread store changes. */
    this.unreadChanges = 0;
    /** The person's unread notifications (every household). */
    this.unreadNotifications = 0;
    /** @type {import("./types.js").AppNotification[]} newest first */
    this.notificationList = [];
    /** @type {{syncing: boolean, progress: string | null, error: string | null}} */
    this.syncStatus = { syncing: false, progress: null, error: null };
    /** @type {string | null} an invitation code to accept once signed in */
    this.pendingJoin = null;
    /** @type {Set<string>} tasks deleted a moment ago: hidden while their undo is offered */
    this.deleting = new Set();
  }

  get signedIn() {
    return this.session !== null;
  }

  get online() {
    return navigator.onLine;
  }

  /** The household on screen. */
  get household() {
    return this.households.find((h) => h.id === this.householdId) ?? null;
  }

  /** Tells the views to draw again. */
  changed() {
    this.dispatchEvent(new Event("change"));
  }

  /** Opens the signed-in person's replica and reads what it holds (works offline). */
  async open() {
    if (!this.session) return;
    this.replica = await Replica.open(this.session.userId);
    this.replica.addEventListener("change", (event) => void this.hear(/** @type {any} */ (event).message));
    this.me = (await this.replica.meta("me")) ?? null;
    this.ability = Ability.fromPacked((await this.replica.meta("permissions")) ?? []);
    this.households = await this.replica.households();
    this.householdId = (await this.replica.meta("householdId")) ?? this.households[0]?.id ?? null;
    await this.refreshView();
    void navigator.storage?.persist?.();
  }

  /**
   * @param {{kind: string, householdId?: string, detail?: any, remote?: boolean}} message
   */
  async hear(message) {
    if (!this.replica) return;
    if (message.kind === "signed-out") {
      return this.dispatchEvent(new CustomEvent("signed-out", { detail: { keepCopy: Boolean(message.detail?.keepCopy) } }));
    }
    if (message.kind === "status") this.syncStatus = message.detail;
    if (message.kind === "households") {
      this.households = await this.replica.households();
      if (!this.households.some((h) => h.id === this.householdId)) this.householdId = this.households[0]?.id ?? null;
    }
    if (message.kind === "me") {
      this.me = (await this.replica.meta("me")) ?? null;
      this.ability = Ability.fromPacked((await this.replica.meta("permissions")) ?? []);
    }
    if (message.kind === "rejected" || message.kind === "removed") {
      const text = message.kind === "rejected" ? `Hearth refused a change: ${message.detail.message} It was undone here.`
        : `You are no longer a member of ${message.detail.name}: its copy was removed from this device.`;
      this.dispatchEvent(new CustomEvent("notice", { detail: text }));
    }
    if (message.kind === "records" || message.kind === "outbox" || message.kind === "households") await this.refreshView();
    this.changed();
  }

  /** Reads the household on screen again, and what the views list from it (once, not per row). */
  async refreshView() {
    const replica = this.replica, householdId = this.householdId;
    const view = replica && householdId ? await replica.view(householdId) : new Map();
    // A person's notifications come from every household they belong to (each syncs its own): the
    // others' are read by key range, without loading those households.
    /** @type {Entry[]} */
    const notifying = [...view.values()].filter((entry) => entry.type === "NOTIFICATION");
    for (const household of replica ? this.households : []) {
      if (!replica || household.id === householdId) continue;
      const entries = await replica.recordsOfType(household.id, "NOTIFICATION");
      notifying.push(...withPending(new Map(entries.map((entry) => [entry.key, entry])), replica.outbox, household.id).values());
    }
    // Everything read: what follows does not wait, so a later refresh cannot be overtaken by this one's lists.
    this.view = view;
    const tasks = [], labels = [], members = [], stores = [], products = [], events = [];
    for (const entry of view.values()) {
      if (entry.type === "TASK") tasks.push(entry.record);
      else if (entry.type === "LABEL") labels.push(entry.record);
      else if (entry.type === "MEMBER") members.push(entry.record);
      else if (entry.type === "STORE") stores.push(entry.record);
      else if (entry.type === "PRODUCT") products.push(entry.record);
      else if (entry.type === "STORE_EVENT") events.push({ ...entry.record, id: entry.id });
    }
    this.storeList = stores.sort((a, b) => a.name.localeCompare(b.name));
    // A store's products can be many thousands: sorted and grouped again only when one of them (or a store) changed.
    if (!sameItems(products, this.productSource) || !sameItems(stores, this.storeSource)) {
      /** @type {Map<string, import("./types.js").Product[]>} */
      const byStore = new Map(stores.map((store) => [store.id, []]));
      for (const product of [...products].sort((a, b) => a.title.localeCompare(b.title))) byStore.get(product.storeId)?.push(product);
      this.productsByStore = byStore;
      this.productById = new Map(products.map((product) => [product.id, product]));
    }
    this.productSource = products;
    this.storeSource = [...stores];
    this.eventList = events.sort(newestFirst);
    /** @type {Map<string, number>} */
    const unread = new Map();
    for (const event of events) if (!event.read) unread.set(event.storeId, (unread.get(event.storeId) ?? 0) + 1);
    this.unreadByStore = unread;
    this.unreadChanges = [...unread.values()].reduce((sum, count) => sum + count, 0);
    this.notificationList = notifying.map((entry) => entry.record).sort(newestFirst);
    this.unreadNotifications = this.notificationList.filter((notification) => !notification.read).length;
    this.taskList = tasks;
    this.labelList = labels.sort((a, b) => a.name.localeCompare(b.name));
    this.memberList = members.sort((a, b) => a.joinedAt.localeCompare(b.joinedAt));
    this.labelById = new Map(this.labelList.map((label) => [label.id, label]));
    this.memberById = new Map(this.memberList.map((member) => [member.user.id, member]));
  }

  /** Reads the person, their ability and their households from the server into the replica. */
  async refreshAccount() {
    if (!this.replica) return;
    /** @type {{me: any}} */
    const data = await this.api.request(ops.ME);
    if (!data.me) throw new ApiError("UNAUTHENTICATED", "Your session has ended: please sign in again.");
    const { permissions, ...me } = data.me;
    if (!me.preferences.timeZone) {
      // An account that never chose a zone takes this browser's on its first sign-in here.
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (zone) me.preferences.timeZone = (await this.api.request(ops.SET_TIME_ZONE, { zone }).catch(() => null)) ? zone : null;
    }
    await this.replica.setMeta("me", me);
    await this.replica.setMeta("permissions", permissions);
    this.replica.announce({ kind: "me" });
    /** @type {{households: {edges: {node: Household}[]}}} */
    const list = await this.api.request(ops.HOUSEHOLDS);
    const households = list.households.edges.map((edge) => edge.node);
    const known = new Set(households.map((h) => h.id));
    for (const gone of (await this.replica.households()).filter((h) => !known.has(h.id))) {
      await this.replica.removeHousehold(gone.id);
      this.replica.announce({ kind: "removed", householdId: gone.id, detail: { name: gone.name } });
    }
    await this.replica.setHouseholds(households);
    if (!this.householdId || !known.has(this.householdId)) {
      await this.selectHousehold(me.preferences.lastHouseholdId && known.has(me.preferences.lastHouseholdId) ? me.preferences.lastHouseholdId : households[0]?.id ?? null);
    }
  }

  /** @param {string | null} id */
  async selectHousehold(id) {
    this.householdId = id;
    await this.replica?.setMeta("householdId", id);
    await this.refreshView();
    this.changed();
    if (id && this.online) this.api.request(ops.SET_LAST_HOUSEHOLD, { id }).catch(() => {});
  }

  // Accounts (online only) -------------------------------------------------------------------

  /**
   * @param {{displayName: string, email: string, password: string, invitationCode?: string}} input
   */
  async signUp(input) {
    /** @type {{signUp: {token: string, user: {id: string, email: string, displayName: string}}}} */
    const data = await this.api.request(ops.SIGN_UP, { input: { ...input, invitationCode: input.invitationCode || undefined } });
    await this.begin(data.signUp);
    await this.refreshAccount();
  }

  /**
   * @param {string} email
   * @param {string} password
   */
  async signIn(email, password) {
    /** @type {{signIn: {token: string, user: {id: string, email: string, displayName: string}}}} */
    const data = await this.api.request(ops.SIGN_IN, { email, password, device: deviceName() });
    await this.begin(data.signIn);
    await this.refreshAccount();
  }

  /** @param {{token: string, user: {id: string, email: string, displayName: string}}} auth */
  async begin(auth) {
    this.session = { token: auth.token, userId: auth.user.id, email: auth.user.email, displayName: auth.user.displayName };
    saveSession(this.session);
    await this.open();
  }

  /**
   * Signs out on this device: the server forgets the session when it can be reached, and this browser
   * forgets the person: their local copy (every tab closes it first) and their session.
   * @param {boolean} [everywhere]
   */
  async signOut(everywhere = false) {
    if (everywhere) await this.api.request(ops.SIGN_OUT_EVERYWHERE);
    else await this.api.request(ops.SIGN_OUT).catch(() => {});
    await this.forget();
  }

  /**
   * Drops what this browser keeps of the person (also when another tab signed out). `keepCopy`: their
   * session ended while changes wait, so the local copy stays (unread until they sign in again, when
   * the changes go out); signing out always deletes it.
   * @param {boolean} [keepCopy]
   */
  async forget(keepCopy = false) {
    const userId = this.session?.userId;
    this.replica?.announce({ kind: "signed-out", detail: { keepCopy } });
    this.replica?.close();
    this.replica = null;
    this.session = null;
    this.me = null;
    this.households = [];
    this.householdId = null;
    this.view = new Map();
    clearSession();
    if (userId && !keepCopy) await deleteDatabase(userId);
    this.dispatchEvent(new CustomEvent("signed-out", { detail: { keepCopy } }));
  }

  // Households (online only) -------------------------------------------------------------------

  /**
   * @param {string} name
   * @param {string} timeZone
   */
  async createHousehold(name, timeZone) {
    /** @type {{createHousehold: {id: string}}} */
    const data = await this.api.request(ops.CREATE_HOUSEHOLD, { input: { name, timeZone } });
    await this.refreshAccount();
    await this.selectHousehold(data.createHousehold.id);
    this.dispatchEvent(new Event("sync-wanted"));
  }

  /** @param {{name?: string, description?: string, timeZone?: string}} input */
  async updateHousehold(input) {
    await this.api.request(ops.UPDATE_HOUSEHOLD, { id: this.householdId, input });
    await this.refreshAccount();
    this.dispatchEvent(new Event("sync-wanted"));
  }

  async deleteHousehold() {
    const id = this.householdId;
    await this.api.request(ops.DELETE_HOUSEHOLD, { id });
    if (id) await this.replica?.removeHousehold(id);
    await this.refreshAccount();
  }

  async leaveHousehold() {
    const id = this.householdId;
    await this.api.request(ops.LEAVE_HOUSEHOLD, { id });
    if (id) await this.replica?.removeHousehold(id);
    await this.refreshAccount();
  }

  /** @param {string} userId */
  async transferOwnership(userId) {
    await this.api.request(ops.TRANSFER, { id: this.householdId, user: userId });
    await this.refreshAccount();
    this.dispatchEvent(new Event("sync-wanted"));
  }

  /**
   * @param {string} userId
   * @param {string} role
   */
  async changeRole(userId, role) {
    await this.api.request(ops.CHANGE_ROLE, { id: this.householdId, user: userId, role });
    this.dispatchEvent(new Event("sync-wanted"));
  }

  /** @param {string} userId */
  async removeMember(userId) {
    await this.api.request(ops.REMOVE_MEMBER, { id: this.householdId, user: userId });
    this.dispatchEvent(new Event("sync-wanted"));
  }

  /** @returns {Promise<{id: string, role: string, state: string, expiresAt: string}[]>} */
  async invitations() {
    /** @type {{invitations: {edges: {node: any}[]}}} */
    const data = await this.api.request(ops.INVITATIONS, { id: this.householdId });
    return data.invitations.edges.map((edge) => edge.node);
  }

  /**
   * An invitation's link (its code is shown this once).
   * @param {string} role
   */
  async invite(role = "MEMBER") {
    /** @type {{createInvitation: {code: string}}} */
    const data = await this.api.request(ops.CREATE_INVITATION, { id: this.householdId, role });
    return `${location.origin}/join/${encodeURIComponent(data.createInvitation.code)}`;
  }

  /** @param {string} id */
  async revokeInvitation(id) {
    await this.api.request(ops.REVOKE_INVITATION, { id });
  }

  /** @param {string} code */
  async acceptInvitation(code) {
    /** @type {{acceptInvitation: {id: string}}} */
    const data = await this.api.request(ops.ACCEPT_INVITATION, { code });
    await this.refreshAccount();
    await this.selectHousehold(data.acceptInvitation.id);
    this.dispatchEvent(new Event("sync-wanted"));
  }

  // Stores (online only, but read from the local copy) -------------------------------------------

  /**
   * Starts watching a store; the server imports its feed before it answers.
   * @param {string} domain
   */
  async addStore(domain) {
    /** @type {{addStore: {id: string}}} */
    const data = await this.api.request(ops.ADD_STORE, { household: this.householdId, domain });
    this.dispatchEvent(new Event("sync-wanted"));
    return data.addStore.id;
  }

  /**
   * @param {string} id
   * @param {string} name
   */
  async renameStore(id, name) {
    await this.api.request(ops.RENAME_STORE, { id, name });
    this.dispatchEvent(new Event("sync-wanted"));
  }

  /** @param {string} id */
  async removeStore(id) {
    await this.api.request(ops.REMOVE_STORE, { id });
    this.dispatchEvent(new Event("sync-wanted"));
  }

  /**
   * Syncs a store now; a refusal for the once-a-minute limit carries how long to wait.
   * @param {string} id
   */
  async syncStore(id) {
    await this.api.request(ops.SYNC_STORE, { id });
    this.dispatchEvent(new Event("sync-wanted"));
  }

  /**
   * Products that left the store's feed (the local copy keeps only current ones): read among the
   * store's products most recently changed first (a removal is a change), at most `limit` of them;
   * `complete` says whether every product was looked at.
   * @param {string} storeId
   * @param {number} [limit]
   * @returns {Promise<{products: import("./types.js").Product[], complete: boolean}>}
   */
  async removedProducts(storeId, limit = 5000) {
    /** @type {import("./types.js").Product[]} */
    const found = [];
    /** @type {string | null} */
    let after = null;
    for (let read = 0; read < limit; read += 100) {
      /** @type {{store: {products: {pageInfo: {hasNextPage: boolean, endCursor: string | null}, edges: {node: import("./types.js").Product}[]}} | null}} */
      const data = await this.api.request(ops.REMOVED_PRODUCTS, { store: storeId, after });
      const products = data.store?.products;
      if (!products) return { products: found, complete: true };
      found.push(...products.edges.map((edge) => edge.node).filter((product) => product.removedAt));
      if (!products.pageInfo.hasNextPage) return { products: found, complete: true };
      after = products.pageInfo.endCursor;
    }
    return { products: found, complete: false };
  }

  /**
   * A change marked read (queued: works offline).
   * @param {string} id
   */
  async markEventRead(id) {
    await this.queue({ markEventRead: { id } });
  }

  /**
   * Every change of the household (or of one store) marked read: one request when online, else one
   * queued mark per unread change.
   * @param {string | null} [storeId]
   */
  async markAllRead(storeId = null) {
    const unread = this.eventList.filter((event) => !event.read && (!storeId || event.storeId === storeId));
    if (this.online) {
      try {
        await this.api.request(ops.MARK_ALL_READ, { household: this.householdId, store: storeId });
        this.dispatchEvent(new Event("sync-wanted"));
        return;
      } catch (error) {
        if (!(error instanceof ApiError) || !error.unreachable) throw error;
      }
    }
    for (const event of unread) await this.markEventRead(event.id);
  }

  /**
   * A notification marked read, in its household's queue (works offline).
   * @param {import("./types.js").AppNotification} notification
   */
  async markNotificationRead(notification) {
    await this.queue({ markNotificationRead: { id: notification.id } }, notification.householdId);
  }

  /** Every service's health (instance administrators only). */
  async health() {
    /** @type {{health: import("./types.js").ServiceHealth[]}} */
    const data = await this.api.request(ops.HEALTH);
    return data.health;
  }

  /** The server's version and Web Push key. */
  async serverInfo() {
    /** @type {{serverInfo: {version: string, startedAt: string, webPushPublicKey: string | null}}} */
    const data = await this.api.request(ops.SERVER_INFO);
    return data.serverInfo;
  }

  /**
   * Registers this browser's push subscription as one of the person's channels.
   * @param {PushSubscriptionJSON} subscription
   */
  async registerPush(subscription) {
    const keys = subscription.keys ?? {};
    await this.api.request(ops.REGISTER_PUSH, { input: {
      endpoint: subscription.endpoint, keys: { p256dh: keys.p256dh ?? "", auth: keys.auth ?? "" }, deviceName: deviceName(),
    } });
  }

  // Tasks, events and labels (queued: they work offline) -----------------------------------------

  /**
   * @param {Record<string, any>} op
   * @param {string} [householdId]
   */
  async queue(op, householdId = this.householdId ?? "") {
    if (!this.replica) throw new Error("not signed in");
    await this.replica.enqueue(householdId, op);
  }

  /**
   * @param {string} title
   * @param {string} [id] the client-made id (a new one when not given)
   */
  async createTask(title, id = newId()) {
    await this.queue({ createTask: { householdId: this.householdId, input: { id, title } } });
    return id;
  }

  /**
   * @param {{title: string, startsAt: string, endsAt?: string | null, location?: string | null}} input
   */
  async createEvent(input) {
    const id = newId();
    await this.queue({ createEvent: { householdId: this.householdId, input: { id, ...input } } });
    return id;
  }

  /**
   * Sends only the fields that changed, expecting the version the replica holds (field-level merge).
   * @param {string} id
   * @param {Record<string, unknown>} changes
   */
  async updateTask(id, changes) {
    if (Object.keys(changes).length === 0) return;
    const version = this.serverVersion("TASK", id);
    await this.queue({ updateTask: { id, input: changes, ...(version ? { expectedVersion: version } : {}) } });
  }

  /**
   * @param {string} id
   * @param {boolean} done
   */
  async setDone(id, done) {
    await this.queue(done ? { completeTask: { id } } : { reopenTask: { id } });
  }

  /** @param {string} id */
  async deleteTask(id) {
    await this.queue({ deleteTask: { id } });
  }

  /**
   * @param {string} taskId
   * @param {string} title
   */
  async addSubtask(taskId, title) {
    await this.queue({ addSubtask: { taskId, id: newId(), title } });
  }

  /**
   * @param {string} id
   * @param {{title?: string, done?: boolean}} changes
   */
  async updateSubtask(id, changes) {
    await this.queue({ updateSubtask: { id, ...changes } });
  }

  /** @param {string} id */
  async removeSubtask(id) {
    await this.queue({ removeSubtask: { id } });
  }

  /**
   * @param {string} taskId
   * @param {string[]} subtaskIds
   */
  async reorderSubtasks(taskId, subtaskIds) {
    await this.queue({ reorderSubtasks: { taskId, subtaskIds } });
  }

  /**
   * @param {string} taskId
   * @param {number} minutes
   */
  async snooze(taskId, minutes = 60) {
    await this.queue({ snoozeReminder: { taskId, minutes } });
  }

  /**
   * @param {string} name
   * @param {string} color
   */
  async createLabel(name, color) {
    await this.queue({ createLabel: { householdId: this.householdId, id: newId(), name, color } });
  }

  /**
   * @param {string} id
   * @param {{name?: string, color?: string}} changes
   */
  async updateLabel(id, changes) {
    const version = this.serverVersion("LABEL", id);
    await this.queue({ updateLabel: { id, ...changes, ...(version ? { expectedVersion: version } : {}) } });
  }

  /** @param {string} id */
  async deleteLabel(id) {
    await this.queue({ deleteLabel: { id } });
  }

  /**
   * The version the server last sent of a record (0 when it only exists here so far).
   * @param {string} type
   * @param {string} id
   */
  serverVersion(type, id) {
    if (!this.replica || !this.householdId) return 0;
    return this.replica.cache.get(this.householdId)?.get(keyOf(this.householdId, type, id))?.version ?? 0;
  }

  /** Changes in conflict, waiting for the person. */
  get conflicts() {
    return (this.replica?.outbox ?? []).filter((p) => p.state === "conflict");
  }

  /**
   * Keep mine (queued again, expecting the version now known) or take theirs (dropped).
   * @param {number} pendingId
   * @param {"mine" | "theirs"} choice
   */
  async resolve(pendingId, choice) {
    const replica = this.replica;
    const pending = replica?.outbox.find((p) => p.id === pendingId);
    if (!replica || !pending) return;
    const record = target(pending.op);
    const version = record ? (await replica.records(pending.householdId)).get(keyOf(pending.householdId, record.type, record.id))?.version : undefined;
    const op = resolveConflict(pending, choice, version);
    await replica.updateOutbox([], [pending.id]);
    if (op) await replica.enqueue(pending.householdId, op);
  }

  /**
   * Records of a type in the current household's view.
   * @param {string} type
   */
  all(type) {
    return [...this.view.values()].filter((entry) => entry.type === type).map((entry) => entry.record);
  }

  /** @returns {Task[]} */
  get tasks() {
    return this.deleting.size === 0 ? this.taskList : this.taskList.filter((task) => !this.deleting.has(task.id));
  }

  get labels() {
    return this.labelList;
  }

  get members() {
    return this.memberList;
  }

  get stores() {
    return this.storeList;
  }


  /**
   * Whether the person may do `action` on `subject` in the current household.
   * @param {string} action
   * @param {string} subject
   * @param {Record<string, any>} [fields]
   */
  can(action, subject, fields = {}) {
    const base = subject === "Household" ? { id: this.householdId } : { householdId: this.householdId };
    return this.ability.can(action, subject, { ...base, ...fields });
  }
}

/**
 * Newest first, by `createdAt` (ISO instants compare as text).
 * @param {{createdAt: string}} a
 * @param {{createdAt: string}} b
 */
const newestFirst = (a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0);

/**
 * Whether two lists hold the same objects in the same order (a record unchanged is the same object).
 * @param {unknown[]} a
 * @param {unknown[]} b
 */
function sameItems(a, b) {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

function deviceName() {
  const platform = /** @type {any} */ (navigator).userAgentData?.platform ?? navigator.platform ?? "";
  return `Hearth app${platform ? ` on ${platform}` : ""}`;
}
