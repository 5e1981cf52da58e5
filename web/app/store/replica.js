// The person's local copy: records at their versions, a cursor per household, the outbox, and the
// device's clientId and next mutation id. Shared by every tab through IndexedDB; tabs hear of each
// other's writes over a BroadcastChannel. Knows nothing of the network or of views.

import { committed, openDatabase, result } from "./db.js";
import { keyOf, withPending } from "../sync/rebase.js";
import { newId } from "../ids.js";

/** @typedef {import("../types.js").Entry} Entry */
/** @typedef {import("../types.js").Pending} Pending */
/** @typedef {import("../types.js").Household} Household */

/** A change a tab made or heard: `records` (a household's data), `outbox`, `households`, `status`, `signed-out`. */
export class ReplicaChange extends Event {
  /** @param {{kind: string, householdId?: string, detail?: any, remote?: boolean}} message */
  constructor(message) {
    super("change");
    this.message = message;
  }
}

export class Replica extends EventTarget {
  /**
   * @param {string} userId
   * @param {IDBDatabase} db
   */
  constructor(userId, db) {
    super();
    this.userId = userId;
    this.db = db;
    this.channel = new BroadcastChannel(`hearth-${userId}`);
    this.channel.onmessage = (event) => void this.hear(event.data);
    /** @type {Map<string, Map<string, Entry>>} records by household, loaded on first use */
    this.cache = new Map();
    /** @type {Pending[]} */
    this.outbox = [];
    this.clientId = "";
  }

  /**
   * Opens the person's replica; makes the device's clientId on first use.
   * @param {string} userId
   */
  static async open(userId) {
    const replica = new Replica(userId, await openDatabase(userId));
    const tx = replica.db.transaction(["meta", "outbox"], "readwrite");
    const meta = tx.objectStore("meta");
    const client = await result(meta.get("clientId"));
    replica.clientId = client?.value ?? newId();
    if (!client) meta.put({ name: "clientId", value: replica.clientId });
    replica.outbox = await result(tx.objectStore("outbox").getAll());
    await committed(tx);
    return replica;
  }

  /**
   * Another tab's news: drop what it made stale, then tell this tab's listeners.
   * @param {{kind: string, householdId?: string, detail?: any}} message
   */
  async hear(message) {
    if (message.kind === "records" && message.householdId) this.cache.delete(message.householdId);
    if (message.kind === "outbox") await this.reloadOutbox().catch(() => {});
    this.dispatchEvent(new ReplicaChange({ ...message, remote: true }));
  }

  close() {
    this.channel.close();
    this.db.close();
  }

  /**
   * Tells this tab and the others.
   * @param {{kind: string, householdId?: string, detail?: any}} message
   * @param {boolean} [others] also the other tabs
   */
  announce(message, others = true) {
    if (others) this.channel.postMessage(message);
    this.dispatchEvent(new ReplicaChange(message));
  }

  /**
   * A meta value (`me`, `households`, …).
   * @param {string} name
   */
  async meta(name) {
    const row = await result(this.db.transaction("meta").objectStore("meta").get(name));
    return row?.value;
  }

  /**
   * @param {string} name
   * @param {unknown} value
   */
  async setMeta(name, value) {
    const tx = this.db.transaction("meta", "readwrite");
    tx.objectStore("meta").put({ name, value });
    await committed(tx);
  }

  /** @returns {Promise<Household[]>} */
  async households() {
    return (await this.meta("households")) ?? [];
  }

  /** @param {Household[]} households */
  async setHouseholds(households) {
    await this.setMeta("households", households);
    this.announce({ kind: "households" });
  }

  /**
   * A household's records as the server last sent them.
   * @param {string} householdId
   * @returns {Promise<Map<string, Entry>>}
   */
  async records(householdId) {
    const cached = this.cache.get(householdId);
    if (cached) return cached;
    /** @type {Entry[]} */
    const entries = await result(this.db.transaction("records").objectStore("records").index("household").getAll(householdId));
    const records = new Map(entries.map((entry) => [entry.key, entry]));
    this.cache.set(householdId, records);
    return records;
  }

  /**
   * A household's records of one type (its notifications, say), without loading the household when
   * it is not loaded: its keys (`household|type|id`) are read as one range.
   * @param {string} householdId
   * @param {string} type
   * @returns {Promise<Entry[]>}
   */
  async recordsOfType(householdId, type) {
    const cached = this.cache.get(householdId);
    if (cached) return [...cached.values()].filter((entry) => entry.type === type);
    const prefix = keyOf(householdId, type, "");
    return result(this.db.transaction("records").objectStore("records").getAll(IDBKeyRange.bound(prefix, `${prefix}\uffff`)));
  }

  /**
   * What the views show: the records with the outbox applied on top.
   * @param {string} householdId
   */
  async view(householdId) {
    return withPending(await this.records(householdId), this.outbox, householdId);
  }

  /**
   * @param {string} householdId
   * @returns {Promise<string | null>}
   */
  async cursor(householdId) {
    const row = await result(this.db.transaction("cursors").objectStore("cursors").get(householdId));
    return row?.cursor ?? null;
  }

  /**
   * Writes a pulled page: records put and removed, and the cursor, in one transaction. A snapshot
   * (`replace`) first drops everything the household had.
   * @param {string} householdId
   * @param {{put: Entry[], remove: string[], cursor: string, replace?: boolean}} page
   */
  async writePage(householdId, { put, remove, cursor, replace = false }) {
    const tx = this.db.transaction(["records", "cursors"], "readwrite");
    const store = tx.objectStore("records");
    if (replace) {
      const keys = await result(store.index("household").getAllKeys(householdId));
      for (const key of keys) store.delete(key);
    }
    for (const key of remove) store.delete(key);
    for (const entry of put) store.put(entry);
    tx.objectStore("cursors").put({ householdId, cursor });
    await committed(tx);
    // This tab's copy follows what was written (no reading 2 000 records back); other tabs read theirs again.
    const cached = replace ? new Map() : this.cache.get(householdId);
    if (cached) {
      for (const key of remove) cached.delete(key);
      for (const entry of put) cached.set(entry.key, entry);
      this.cache.set(householdId, cached);
    }
    this.announce({ kind: "records", householdId });
  }

  /**
   * Forgets a household: its records, cursor and queued changes (the person left or was removed).
   * @param {string} householdId
   */
  async removeHousehold(householdId) {
    const tx = this.db.transaction(["records", "cursors", "outbox", "meta"], "readwrite");
    const store = tx.objectStore("records");
    for (const key of await result(store.index("household").getAllKeys(householdId))) store.delete(key);
    tx.objectStore("cursors").delete(householdId);
    for (const pending of this.outbox.filter((p) => p.householdId === householdId)) tx.objectStore("outbox").delete(pending.id);
    const households = (await result(tx.objectStore("meta").get("households")))?.value ?? [];
    tx.objectStore("meta").put({ name: "households", value: households.filter((/** @type {Household} */ h) => h.id !== householdId) });
    await committed(tx);
    this.cache.delete(householdId);
    this.outbox = this.outbox.filter((p) => p.householdId !== householdId);
    this.announce({ kind: "records", householdId });
    this.announce({ kind: "households" });
    this.announce({ kind: "outbox" });
  }

  /** Reads the outbox again (another tab changed it). */
  async reloadOutbox() {
    this.outbox = await result(this.db.transaction("outbox").objectStore("outbox").getAll());
    return this.outbox;
  }

  /**
   * Queues a change: written to IndexedDB (with the next mutation id, taken in the same transaction so
   * tabs never share one) before this resolves. Then every tab shows it.
   * @param {string} householdId
   * @param {Record<string, any>} op one ClientOp
   * @returns {Promise<Pending>}
   */
  async enqueue(householdId, op) {
    const tx = this.db.transaction(["meta", "outbox"], "readwrite");
    const meta = tx.objectStore("meta");
    const next = (await result(meta.get("nextMutationId")))?.value ?? 1;
    meta.put({ name: "nextMutationId", value: next + 1 });
    /** @type {Pending} */
    const pending = { id: next, householdId, op, state: "pending", createdAt: Date.now() };
    tx.objectStore("outbox").put(pending);
    await committed(tx);
    this.outbox = [...this.outbox, pending];
    this.announce({ kind: "outbox", householdId });
    return pending;
  }

  /**
   * Rewrites and removes outbox entries in one transaction.
   * @param {Pending[]} update
   * @param {number[]} remove
   */
  async updateOutbox(update, remove) {
    if (update.length === 0 && remove.length === 0) return;
    const tx = this.db.transaction("outbox", "readwrite");
    const store = tx.objectStore("outbox");
    for (const pending of update) store.put(pending);
    for (const id of remove) store.delete(id);
    await committed(tx);
    const gone = new Set([...remove, ...update.map((p) => p.id)]);
    this.outbox = [...this.outbox.filter((p) => !gone.has(p.id)), ...update].sort((a, b) => a.id - b.id);
    this.announce({ kind: "outbox" });
  }

  /** Changes not yet on the server (conflicts included). */
  get waiting() {
    return this.outbox.filter((pending) => pending.state !== "sent").length;
  }
}
