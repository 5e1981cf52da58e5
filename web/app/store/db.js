// IndexedDB, as promises: one database per signed-in person.

export const VERSION = 1;

/** @param {string} userId */
export function databaseName(userId) {
  return `hearth-${userId}`;
}

/**
 * Opens (creating on first use) the person's database.
 * @param {string} userId
 * @returns {Promise<IDBDatabase>}
 */
export function openDatabase(userId) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(databaseName(userId), VERSION);
    open.onupgradeneeded = () => {
      const db = open.result;
      const records = db.createObjectStore("records", { keyPath: "key" });
      records.createIndex("household", "householdId");
      db.createObjectStore("cursors", { keyPath: "householdId" });
      db.createObjectStore("meta", { keyPath: "name" });
      db.createObjectStore("outbox", { keyPath: "id" });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
    open.onblocked = () => reject(new Error("Hearth's local copy is being upgraded in another tab: close the other Hearth tabs."));
  });
}

/**
 * @template T
 * @param {IDBRequest<T>} request
 * @returns {Promise<T>}
 */
export function result(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * Resolves when the transaction commits; rejects with its error (a full disk is a QuotaExceededError).
 * @param {IDBTransaction} transaction
 * @returns {Promise<void>}
 */
export function committed(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onabort = () => reject(transaction.error ?? new Error("the local copy could not be written"));
    transaction.onerror = () => reject(transaction.error ?? new Error("the local copy could not be written"));
  });
}

/**
 * Deletes a person's database; waits while other tabs still hold it open (they close it when told).
 * @param {string} userId
 * @returns {Promise<void>}
 */
export function deleteDatabase(userId) {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(databaseName(userId));
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}
