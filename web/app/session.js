// The signed-in person on this browser: their token, in localStorage (shared by their tabs).

const KEY = "hearth.session";

/** @typedef {{token: string, userId: string, email: string, displayName: string}} Session */

/** @returns {Session | null} */
export function loadSession() {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? "null");
    return value && typeof value.token === "string" && typeof value.userId === "string" ? value : null;
  } catch {
    return null;
  }
}

/** @param {Session} session */
export function saveSession(session) {
  localStorage.setItem(KEY, JSON.stringify(session));
}

/** Forgets the session and everything else the app kept in localStorage. */
export function clearSession() {
  for (const key of Object.keys(localStorage)) if (key.startsWith("hearth.")) localStorage.removeItem(key);
}

/** How this browser is named among the person's sessions and channels. */
export function deviceName() {
  const platform = /** @type {any} */ (navigator).userAgentData?.platform ?? navigator.platform ?? "";
  return `Hearth app${platform ? ` on ${platform}` : ""}`;
}
