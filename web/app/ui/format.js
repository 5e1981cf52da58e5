// Dates and times in a household's zone, as the person's browser writes them.

/** @type {Map<string, Intl.DateTimeFormat>} formatters by kind and zone: making one costs far more than using it */
const formatters = new Map();

/**
 * @param {string} kind
 * @param {string} timeZone
 * @param {Intl.DateTimeFormatOptions} options
 * @param {string | undefined} [locale]
 */
function formatter(kind, timeZone, options, locale = undefined) {
  const key = `${kind}|${timeZone}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formatters.set(key, found);
  }
  return found;
}

/**
 * @param {string | null} iso
 * @param {string} timeZone
 */
export function when(iso, timeZone) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return formatter("when", timeZone, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }).format(date);
}

/**
 * The calendar day (YYYY-MM-DD) of an instant in a zone.
 * @param {Date} date
 * @param {string} timeZone
 */
export function dayOf(date, timeZone) {
  return formatter("day", timeZone, { year: "numeric", month: "2-digit", day: "2-digit" }, "en-CA").format(date);
}

/**
 * A day's heading ("Today", "Tomorrow", "Friday 27 November").
 * @param {string} day YYYY-MM-DD
 * @param {string} today
 */
export function dayHeading(day, today) {
  if (day === today) return "Today";
  const date = new Date(`${day}T12:00:00Z`);
  const tomorrow = new Date(new Date(`${today}T12:00:00Z`).getTime() + 86_400_000).toISOString().slice(0, 10);
  if (day === tomorrow) return "Tomorrow";
  return formatter("heading", "UTC", { weekday: "long", day: "numeric", month: "long" }).format(date);
}

/** The browser's zone, which new households and accounts take. */
export function browserZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** Every IANA zone the browser knows (its own first when it cannot list them). */
export function zones() {
  /** @type {string[]} */
  const listed = /** @type {any} */ (Intl).supportedValuesOf?.("timeZone") ?? [];
  return listed.includes(browserZone()) ? listed : [browserZone(), ...listed];
}

/**
 * A value for `<input type="datetime-local">` from an instant (the browser's zone).
 * @param {string | null} iso
 */
export function localInput(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  const offset = date.getTimezoneOffset() * 60_000;
  return new Date(date.getTime() - offset).toISOString().slice(0, 16);
}

/**
 * An RFC 3339 instant from `<input type="datetime-local">`'s value, or null when empty.
 * @param {string} value
 */
export function fromLocalInput(value) {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** @type {Map<string, Intl.NumberFormat>} */
const moneyFormatters = new Map();

/**
 * A price in the store's currency ("€12.50"); a plain number when the shop names none.
 * @param {string | number | null | undefined} amount a Decimal as the API sends it
 * @param {string | null} currency ISO 4217
 */
export function money(amount, currency) {
  if (amount === null || amount === undefined || amount === "") return "";
  const value = Number(amount);
  if (!Number.isFinite(value)) return String(amount);
  const key = currency ?? "";
  let found = moneyFormatters.get(key);
  if (!found) {
    try {
      found = currency ? new Intl.NumberFormat(undefined, { style: "currency", currency }) : new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    } catch {
      found = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    moneyFormatters.set(key, found);
  }
  return found.format(value);
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/**
 * How long ago or how soon an instant is, in words ("5 minutes ago", "in 2 hours").
 * @param {string | null} iso
 * @param {number} [now]
 */
export function ago(iso, now = Date.now()) {
  if (!iso) return "";
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (!Number.isFinite(seconds)) return "";
  const size = Math.abs(seconds);
  if (size < 60) return relative.format(seconds, "second");
  if (size < 3600) return relative.format(Math.round(seconds / 60), "minute");
  if (size < 86_400) return relative.format(Math.round(seconds / 3600), "hour");
  return relative.format(Math.round(seconds / 86_400), "day");
}

/**
 * A count with its noun ("1 store", "3 stores").
 * @param {number} count
 * @param {string} one
 * @param {string} [many]
 */
export function plural(count, one, many = `${one}s`) {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

/**
 * A short day ("Tue 3 Dec") of an instant in a zone.
 * @param {string | null | undefined} iso
 * @param {string} timeZone
 */
export function shortDay(iso, timeZone) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const parts = formatter("shortDay", timeZone, { weekday: "short", day: "numeric", month: "short" }).formatToParts(date);
  /** @param {string} type */
  const part = (type) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("weekday")} ${part("day")} ${part("month")}`;
}
