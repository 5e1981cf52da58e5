// What the views list from the household on screen: sorted and grouped once per change of the
// replica, not once per row drawn. Knows nothing of the DOM.

/** @typedef {import("../types.js").Entry} Entry */
/** @typedef {import("../types.js").Product} Product */
/** @typedef {import("../types.js").Store} Store */

/**
 * @typedef {{
 *   tasks: import("../types.js").Task[], labels: import("../types.js").Label[], members: import("../types.js").Member[],
 *   labelById: Map<string, import("../types.js").Label>, memberById: Map<string, import("../types.js").Member>,
 *   stores: Store[], productsByStore: Map<string, Product[]>, productById: Map<string, Product>,
 *   productSource: Product[], storeSource: Store[], eventList: import("../types.js").StoreEvent[],
 *   unreadByStore: Map<string, number>, unreadChanges: number,
 *   notificationList: import("../types.js").AppNotification[], unreadNotifications: number
 * }} Lists
 * Tasks in no order (views sort them), labels and stores by name, members by joining, products by
 * title per store, store changes and notifications newest first; the unread counts are the
 * household's store changes (by store and in all) and the person's notifications in every household.
 */

/** @returns {Lists} */
export function emptyLists() {
  return {
    tasks: [], labels: [], members: [], labelById: new Map(), memberById: new Map(), stores: [], productsByStore: new Map(),
    productById: new Map(), productSource: [], storeSource: [], eventList: [], unreadByStore: new Map(), unreadChanges: 0,
    notificationList: [], unreadNotifications: 0,
  };
}

/**
 * The lists of `view` (the household's records, pending changes applied) and of `notifying` (the
 * person's notifications from every household). A store's products can be many thousands: they are
 * sorted and grouped again only when one of them, or a store, changed since `previous`.
 * @param {Map<string, Entry>} view
 * @param {Entry[]} notifying
 * @param {Lists} previous
 * @returns {Lists}
 */
export function buildLists(view, notifying, previous) {
  const tasks = [], labels = [], members = [], stores = [], products = [], events = [];
  for (const entry of view.values()) {
    if (entry.type === "TASK") tasks.push(entry.record);
    else if (entry.type === "LABEL") labels.push(entry.record);
    else if (entry.type === "MEMBER") members.push(entry.record);
    else if (entry.type === "STORE") stores.push(entry.record);
    else if (entry.type === "PRODUCT") products.push(entry.record);
    else if (entry.type === "STORE_EVENT") events.push({ ...entry.record, id: entry.id });
  }
  let { productsByStore, productById } = previous;
  if (!sameItems(products, previous.productSource) || !sameItems(stores, previous.storeSource)) {
    /** @type {Map<string, Product[]>} */
    const byStore = new Map(stores.map((store) => [store.id, []]));
    for (const product of [...products].sort((a, b) => a.title.localeCompare(b.title))) byStore.get(product.storeId)?.push(product);
    productsByStore = byStore;
    productById = new Map(products.map((product) => [product.id, product]));
  }
  /** @type {Map<string, number>} */
  const unreadByStore = new Map();
  for (const event of events) if (!event.read) unreadByStore.set(event.storeId, (unreadByStore.get(event.storeId) ?? 0) + 1);
  const notificationList = notifying.map((entry) => entry.record).sort(newestFirst);
  const sortedLabels = labels.sort((a, b) => a.name.localeCompare(b.name));
  const sortedMembers = members.sort((a, b) => a.joinedAt.localeCompare(b.joinedAt));
  return {
    tasks, labels: sortedLabels, members: sortedMembers,
    labelById: new Map(sortedLabels.map((label) => [label.id, label])),
    memberById: new Map(sortedMembers.map((member) => [member.user.id, member])),
    stores: [...stores].sort((a, b) => a.name.localeCompare(b.name)), productsByStore, productById,
    productSource: products, storeSource: stores, eventList: events.sort(newestFirst),
    unreadByStore, unreadChanges: [...unreadByStore.values()].reduce((sum, count) => sum + count, 0),
    notificationList, unreadNotifications: notificationList.filter((notification) => !notification.read).length,
  };
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
