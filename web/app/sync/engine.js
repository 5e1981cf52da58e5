// The sync engine, run by one tab per person (the leader): pushes the outbox in order, pulls each
// household from its cursor (every household after a push), and pulls again when the server pokes
// (`syncAvailable`; not for a poke of this device's own pushes), the browser comes back online, the
// window gets focus or the socket returns.

import { ApiError } from "../api/graphql.js";
import { HOUSEHOLD_SIZE, PUSH, SYNC, SYNC_AVAILABLE } from "../api/operations.js";
import { applyChanges, confirmed, conflictFields, keyOf, planBatch, readResults, target } from "./rebase.js";

/** @typedef {import("../api/graphql.js").GraphQLClient} GraphQLClient */
/** @typedef {import("../api/socket.js").PokeSocket} PokeSocket */
/** @typedef {import("../store/replica.js").Replica} Replica */
/** @typedef {import("../types.js").SyncChange} SyncChange */

const PAGE = 1000;

export class SyncEngine extends EventTarget {
  /**
   * @param {GraphQLClient} api
   * @param {PokeSocket} socket
   * @param {Replica} replica
   */
  constructor(api, socket, replica) {
    super();
    this.api = api;
    this.socket = socket;
    this.replica = replica;
    /** @type {Map<string, () => void>} pokes subscribed, by household */
    this.pokes = new Map();
    /** @type {Promise<void> | null} */
    this.running = null;
    this.again = false;
    /** @type {{syncing: boolean, progress: string | null, error: string | null}} */
    this.status = { syncing: false, progress: null, error: null };
    this.stopped = false;
    // Back online: the socket (closed when the browser went offline) opens again, and the queue goes out.
    this.onOnline = () => { this.socket.start(); this.socket.retryNow(); void this.sync(); };
    this.onOffline = () => this.socket.stop();
    this.onFocus = () => void this.sync();
  }

  /** Starts syncing the given households, and listens for the moments worth a sync. */
  start() {
    addEventListener("online", this.onOnline);
    addEventListener("offline", this.onOffline);
    addEventListener("focus", this.onFocus);
    this.socket.addEventListener("open", () => void this.sync());
    if (navigator.onLine) this.socket.start();
  }

  stop() {
    this.stopped = true;
    removeEventListener("online", this.onOnline);
    removeEventListener("offline", this.onOffline);
    removeEventListener("focus", this.onFocus);
    for (const end of this.pokes.values()) end();
    this.socket.stop();
  }

  /**
   * Subscribes to pokes for exactly these households.
   * @param {string[]} householdIds
   */
  watch(householdIds) {
    for (const [id, end] of this.pokes) {
      if (!householdIds.includes(id)) { end(); this.pokes.delete(id); }
    }
    for (const id of householdIds) {
      if (this.pokes.has(id)) continue;
      // A poke of this device's own pushes only is skipped: the pull after the push brought them.
      // A subscription the server ends means access may be gone: a pull finds out (NOT_FOUND removes the household).
      const poked = (/** @type {any} */ data) => { if (!data?.syncAvailable?.fromYourPush) void this.sync([id]); };
      this.pokes.set(id, this.socket.subscribe(SYNC_AVAILABLE, { household: id, client: this.replica.clientId }, poked, () => {
        this.pokes.delete(id);
        void this.sync([id]);
      }));
    }
    if (navigator.onLine && !this.stopped) this.socket.start();
  }

  /**
   * Pushes, then pulls (the given households, else all). Runs one at a time: asked while running, it runs once more after.
   * @param {string[]} [householdIds]
   * @returns {Promise<void>}
   */
  sync(householdIds) {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.once(householdIds);
      } while (this.again && !this.stopped);
    })().finally(() => { this.running = null; });
    return this.running;
  }

  /** @param {Partial<{syncing: boolean, progress: string | null, error: string | null}>} change */
  report(change) {
    this.status = { ...this.status, ...change };
    this.replica.announce({ kind: "status", detail: this.status });
  }

  /** @param {string[]} [householdIds] */
  async once(householdIds) {
    if (this.stopped || !navigator.onLine) return;
    this.report({ syncing: true, error: null });
    try {
      const pushed = await this.push();
      // Only households the person still has here (one they just left is not pulled, nor mourned).
      const known = (await this.replica.households()).map((h) => h.id);
      const households = householdIds && !pushed ? householdIds.filter((id) => known.includes(id)) : known;
      for (const id of households) await this.pull(id);
      this.report({ syncing: false, progress: null });
    } catch (error) {
      const message = error instanceof ApiError && error.unreachable ? null : error instanceof Error ? error.message : String(error);
      this.report({ syncing: false, progress: null, error: message });
      if (error instanceof ApiError && error.code === "UNAUTHENTICATED") this.dispatchEvent(new Event("unauthenticated"));
    }
  }

  /** Pushes every pending mutation, batch after batch. Returns whether anything was pushed. */
  async push() {
    let pushed = false;
    for (;;) {
      const batch = planBatch(this.replica.outbox);
      if (batch.length === 0) return pushed;
      pushed = true;
      /** @type {{push: {lastMutationId: number, results: import("../types.js").PushedMutation[]}}} */
      const data = await this.api.request(PUSH, {
        client: this.replica.clientId, mutations: batch.map((pending) => ({ id: pending.id, op: pending.op })),
      });
      const outcome = readResults(this.replica.outbox, data.push.results, (pending, fields) => conflictFields(pending, fields, undefined));
      await this.replica.updateOutbox(outcome.update, outcome.remove);
      for (const { pending, message } of outcome.rejected) {
        this.replica.announce({ kind: "rejected", householdId: pending.householdId, detail: { message, op: pending.op } });
      }
    }
  }

  /**
   * Pulls a household: a snapshot the first time (or when the cursor expired), then from its cursor.
   * @param {string} householdId
   */
  async pull(householdId) {
    const cursor = await this.replica.cursor(householdId);
    try {
      if (cursor === null) await this.snapshot(householdId);
      else await this.incremental(householdId, cursor);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === "SYNC_CURSOR_EXPIRED") return this.snapshot(householdId);
      if (error.code === "NOT_FOUND") return this.gone(householdId);
      throw error;
    }
  }

  /** @param {string} householdId */
  async gone(householdId) {
    const household = (await this.replica.households()).find((h) => h.id === householdId);
    await this.replica.removeHousehold(householdId);
    this.replica.announce({ kind: "removed", householdId, detail: { name: household?.name ?? "a household" } });
  }

  /**
   * Everything there is now, page by page with progress, written in one transaction at the end (the
   * view never shows half a household); the outbox stays.
   * @param {string} householdId
   */
  async snapshot(householdId) {
    const name = (await this.replica.households()).find((h) => h.id === householdId)?.name ?? "your household";
    /** @type {{household: {tasks: {totalCount: number}, members: {totalCount: number}, labels: unknown[]} | null}} */
    const size = await this.api.request(HOUSEHOLD_SIZE, { id: householdId });
    const total = size.household ? size.household.tasks.totalCount + size.household.members.totalCount + size.household.labels.length + 1 : 0;
    /** @type {SyncChange[]} */
    const changes = [];
    /** @type {string | null} */
    let after = null;
    let lastMutationId = 0;
    for (;;) {
      this.report({ progress: `Downloading ${name}… ${changes.length.toLocaleString()} of ${Math.max(total, changes.length).toLocaleString()}` });
      /** @type {{changes: SyncChange[], cursor: string, hasMore: boolean, lastMutationId: number}} */
      const page = await this.page(householdId, after);
      changes.push(...page.changes);
      after = page.cursor;
      lastMutationId = page.lastMutationId;
      if (!page.hasMore) break;
    }
    const records = new Map();
    const { put, householdGone } = applyChanges(records, householdId, changes);
    if (householdGone) return this.gone(householdId);
    await this.replica.writePage(householdId, { put, remove: [], cursor: /** @type {string} */ (after), replace: true });
    await this.settle(householdId, changes, lastMutationId);
  }

  /**
   * @param {string} householdId
   * @param {string} cursor
   */
  async incremental(householdId, cursor) {
    /** @type {string} */
    let after = cursor;
    for (;;) {
      /** @type {{changes: SyncChange[], cursor: string, hasMore: boolean, lastMutationId: number}} */
      const page = await this.page(householdId, after);
      const records = new Map(await this.replica.records(householdId));
      const { put, remove, householdGone } = applyChanges(records, householdId, page.changes);
      if (householdGone) return this.gone(householdId);
      if (page.changes.length > 0 || page.cursor !== after) await this.replica.writePage(householdId, { put, remove, cursor: page.cursor });
      after = page.cursor;
      if (!page.hasMore) return this.settle(householdId, page.changes, page.lastMutationId);
    }
  }

  /**
   * After a pull: the household's record refreshes the list, mutations it shows leave the outbox,
   * and conflicts learn the other value.
   * @param {string} householdId
   * @param {SyncChange[]} changes
   * @param {number} lastMutationId
   */
  async settle(householdId, changes, lastMutationId) {
    const household = changes.find((change) => change.type === "HOUSEHOLD" && !change.deleted)?.record;
    if (household) {
      const households = await this.replica.households();
      await this.replica.setHouseholds(households.map((h) => (h.id === householdId ? { ...h, ...household } : h)));
    }
    const records = await this.replica.records(householdId);
    const conflicts = this.replica.outbox.filter((p) => p.state === "conflict" && p.householdId === householdId && p.conflict)
      .map((p) => {
        const record = target(p.op);
        const current = record ? records.get(keyOf(householdId, record.type, record.id)) : undefined;
        const fields = conflictFields(p, (p.conflict?.fields ?? []).map((f) => f.field), current);
        return { ...p, conflict: { message: p.conflict?.message ?? "", fields } };
      });
    await this.replica.updateOutbox(conflicts, confirmed(this.replica.outbox, lastMutationId));
  }

  /**
   * @param {string} householdId
   * @param {string | null} after
   * @returns {Promise<{changes: SyncChange[], cursor: string, hasMore: boolean, lastMutationId: number}>}
   */
  async page(householdId, after) {
    /** @type {{sync: {changes: SyncChange[], cursor: string, hasMore: boolean, lastMutationId: number}}} */
    const data = await this.api.request(SYNC, { household: householdId, after, first: PAGE, client: this.replica.clientId });
    return data.sync;
  }
}
