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
  navigator.locks.request(`hearth-sync-${userId}`, async () => {
    const stop = await lead();
    await resigned;
    stop();
  }).catch(() => {});
  return { resign: () => resign() };
}
