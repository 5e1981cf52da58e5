// The app's state: who is signed in (their session, account and ability), their replica and the
// household on screen with what the views list from it, and the sync status. Each area's calls and
// queued changes live in `areas/` (views import them); this holds what they share. Knows nothing of
// the DOM.

import { Account } from "./areas/account.js";
import { ApiError, GraphQLClient } from "./api/graphql.js";
import * as ops from "./api/operations.js";
import { Ability } from "./permissions.js";
import { clearSession, deviceName, loadSession, saveSession } from "./session.js";
import { deleteDatabase } from "./store/db.js";
import { buildLists, emptyLists } from "./store/lists.js";
import { Replica } from "./store/replica.js";
import { withPending } from "./sync/rebase.js";

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
    /** What the views list from the household on screen (``buildLists``). */
    this.lists = emptyLists();
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
    this.lists = buildLists(view, notifying, this.lists);
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

  /** @param {{displayName: string, email: string, password: string, invitationCode?: string}} input */
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
    this.lists = emptyLists();
    clearSession();
    if (userId && !keepCopy) await deleteDatabase(userId);
    this.dispatchEvent(new CustomEvent("signed-out", { detail: { keepCopy } }));
  }

  /** Asks the sync engine for a pull now (after an online call changed what the replica holds). */
  wantSync() {
    this.dispatchEvent(new Event("sync-wanted"));
  }

  /**
   * Queues a change in the outbox of `householdId` (works offline); `push` carries it.
   * @param {Record<string, any>} op
   * @param {string} [householdId]
   */
  async queue(op, householdId = this.householdId ?? "") {
    if (!this.replica) throw new Error("not signed in");
    await this.replica.enqueue(householdId, op);
  }

  /**
   * The household's tasks, but those deleted a moment ago (while their undo is offered).
   * @returns {Task[]}
   */
  get tasks() {
    const tasks = this.lists.tasks;
    return this.deleting.size === 0 ? tasks : tasks.filter((task) => !this.deleting.has(task.id));
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
