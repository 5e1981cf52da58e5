// The tab leader: exactly one tab per person syncs. A Web Lock names the leader; the other tabs wait
// in its queue, and when the leader's tab closes (or it resigns) the next one takes over.

/**
 * Runs `lead` in this tab once it holds the person's lock, until `resign()` is called.
 * @param {string} userId
 * @param {() => Promise<() => void>} lead starts leading; returns how to stop
 * @returns {{resign: () => void}}
 */
export function leadWhenChosen(userId, lead) {
  /** @type {(value?: unknown) => void} */
  let resign = () => {};
  const resigned = new Promise((resolve) => { resign = resolve; });
  const run = async () => {
    const stop = await lead();
    await resigned;
    stop();
  };
  // Web Locks exist only in secure contexts: over plain HTTP on the network each tab leads itself
  // (the server takes each change once, whichever tab sends it).
  if (!("locks" in navigator)) run().catch(() => {});
  else navigator.locks.request(`hearth-sync-${userId}`, run).catch(() => {});
  return { resign: () => resign() };
}
