// Watched stores: adding, renaming, removing and syncing one go to the API (online only); their
// products and changes are read from the replica, and marking changes read is queued (works offline).

import { ApiError } from "../api/graphql.js";
import * as ops from "../api/operations.js";

/** @typedef {import("../app.js").App} App */
/** @typedef {import("../types.js").Product} Product */

/**
 * Starts watching a store; the server imports its feed before it answers.
 * @param {App} app
 * @param {string} domain
 */
export async function addStore(app, domain) {
  /** @type {{addStore: {id: string}}} */
  const data = await app.api.request(ops.ADD_STORE, { household: app.householdId, domain });
  app.wantSync();
  return data.addStore.id;
}

/**
 * @param {App} app
 * @param {string} id
 * @param {string} name
 */
export async function renameStore(app, id, name) {
  await app.api.request(ops.RENAME_STORE, { id, name });
  app.wantSync();
}

/**
 * @param {App} app
 * @param {string} id
 */
export async function removeStore(app, id) {
  await app.api.request(ops.REMOVE_STORE, { id });
  app.wantSync();
}

/**
 * Syncs a store now; a refusal for the once-a-minute limit carries how long to wait.
 * @param {App} app
 * @param {string} id
 */
export async function syncStore(app, id) {
  await app.api.request(ops.SYNC_STORE, { id });
  app.wantSync();
}

/**
 * Products that left the store's feed (the local copy keeps only current ones): read among the
 * store's products most recently changed first (a removal is a change), at most `limit` of them;
 * `complete` says whether every product was looked at.
 * @param {App} app
 * @param {string} storeId
 * @param {number} [limit]
 * @returns {Promise<{products: Product[], complete: boolean}>}
 */
export async function removedProducts(app, storeId, limit = 5000) {
  /** @type {Product[]} */
  const found = [];
  /** @type {string | null} */
  let after = null;
  for (let read = 0; read < limit; read += 100) {
    /** @type {{store: {products: {pageInfo: {hasNextPage: boolean, endCursor: string | null}, edges: {node: Product}[]}} | null}} */
    const data = await app.api.request(ops.REMOVED_PRODUCTS, { store: storeId, after });
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
 * @param {App} app
 * @param {string} id
 */
export async function markEventRead(app, id) {
  await app.queue({ markEventRead: { id } });
}

/**
 * Every change of the household (or of one store) marked read: one request when online, else one
 * queued mark per unread change.
 * @param {App} app
 * @param {string | null} [storeId]
 */
export async function markAllRead(app, storeId = null) {
  const unread = app.lists.eventList.filter((event) => !event.read && (!storeId || event.storeId === storeId));
  if (app.online) {
    try {
      await app.api.request(ops.MARK_ALL_READ, { household: app.householdId, store: storeId });
      app.wantSync();
      return;
    } catch (error) {
      if (!(error instanceof ApiError) || !error.unreachable) throw error;
    }
  }
  for (const event of unread) await markEventRead(app, event.id);
}
