// A repeating event's occurrences in a range of days, worked out here so the agenda shows them
// offline: the rules the app's repeat picker writes (every N days, weeks on chosen weekdays, months
// on a day, the nth or last weekday or the last day, years; COUNT, UNTIL, exceptions), at the
// first date's wall time in the household's zone. A rule outside these answers null: the caller
// falls back to the dates the server sent (`upcoming`).

const CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const DAY = 86_400_000;

/**
 * Monday 0 … Sunday 6 of a day counted from 1970-01-01 (a Thursday).
 * @param {number} day
 */
function weekdayOf(day) {
  return ((day + 3) % 7 + 7) % 7;
}

/** @type {Map<string, Intl.DateTimeFormat>} */
const clocks = new Map();

/**
 * The wall clock of an instant in a zone.
 * @param {number} time
 * @param {string} zone
 */
function wall(time, zone) {
  let clock = clocks.get(zone);
  if (!clock) {
    clock = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric",
      hour: "numeric", minute: "numeric", second: "numeric" });
    clocks.set(zone, clock);
  }
  /** @type {Record<string, number>} */
  const parts = {};
  for (const part of clock.formatToParts(new Date(time))) if (part.type !== "literal") parts[part.type] = Number(part.value);
  return { year: parts.year, month: parts.month, day: parts.day, seconds: (parts.hour % 24) * 3600 + parts.minute * 60 + parts.second };
}

/**
 * How far a zone's clock is ahead of UTC at an instant (ms).
 * @param {number} time
 * @param {string} zone
 */
function offset(time, zone) {
  const shown = wall(time, zone);
  return Date.UTC(shown.year, shown.month - 1, shown.day) + shown.seconds * 1000 - Math.floor(time / 1000) * 1000;
}

/**
 * The instant a zone's wall clock shows `seconds` into a day (days since 1970): a time the day
 * skips moves forward by the gap, one it shows twice is its first showing (RFC 5545 3.3.5).
 * @param {number} day
 * @param {number} seconds
 * @param {string} zone
 */
function instant(day, seconds, zone) {
  const local = day * DAY + seconds * 1000;
  const before = offset(local - DAY, zone), after = offset(local + DAY, zone);
  const early = local - before;
  if (before === after || offset(early, zone) === before) return early;
  const late = local - after;
  return offset(late, zone) === after ? late : early;
}

/**
 * Start times (ms) of the occurrences of `rule` from `start` that begin in `from..<to` (ms), or null
 * when the rule has a part this reader does not know.
 * @param {{rule: string, exceptions?: string[]}} repeat
 * @param {string} start the series' first date
 * @param {string} zone
 * @param {number} from
 * @param {number} to
 * @returns {number[] | null}
 */
export function occurrencesBetween(repeat, start, zone, from, to) {
  const parts = new Map(repeat.rule.split(";").filter(Boolean).map((p) => /** @type {[string, string]} */ (p.split("=", 2))));
  const known = new Set(["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "BYMONTHDAY"]);
  if ([...parts.keys()].some((key) => !known.has(key))) return null;
  const frequency = parts.get("FREQ") ?? "";
  if (!["DAILY", "WEEKLY", "MONTHLY", "YEARLY"].includes(frequency)) return null;
  const interval = Number(parts.get("INTERVAL") ?? "1");
  const count = parts.has("COUNT") ? Number(parts.get("COUNT")) : Infinity;
  const untilText = parts.get("UNTIL") ?? "";
  const until = !untilText ? Infinity : untilText.endsWith("Z")
    ? Date.UTC(+untilText.slice(0, 4), +untilText.slice(4, 6) - 1, +untilText.slice(6, 8), +untilText.slice(9, 11), +untilText.slice(11, 13), +untilText.slice(13, 15))
    : null;
  if (until === null) return null;
  const byDay = (parts.get("BYDAY") ?? "").split(",").filter(Boolean);
  const monthDay = parts.has("BYMONTHDAY") ? Number(parts.get("BYMONTHDAY")) : null;
  if (frequency === "YEARLY" && (byDay.length || monthDay !== null)) return null;
  if (frequency === "DAILY" && (byDay.length || monthDay !== null)) return null;
  if (frequency === "WEEKLY" && (monthDay !== null || byDay.some((d) => !CODES.includes(d)))) return null;
  if (frequency === "MONTHLY" && (byDay.length > 1 || (byDay.length && monthDay !== null))) return null;
  const first = Date.parse(start);
  const clock = wall(first, zone);
  const startDay = Math.floor(Date.UTC(clock.year, clock.month - 1, clock.day) / DAY);
  const exceptions = new Set((repeat.exceptions ?? []).map((e) => Math.floor(Date.parse(e) / 1000)));
  /** @param {number} day days since 1970 */
  const matches = (day) => {
    const date = new Date(day * DAY);
    const [year, month, dom, weekday] = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), (date.getUTCDay() + 6) % 7];
    const monthLength = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    const months = (year - clock.year) * 12 + month - (clock.month - 1);
    switch (frequency) {
      case "DAILY": return (day - startDay) % interval === 0;
      case "WEEKLY": {
        // Weeks start on Monday (WKST's default): count them between the two days' Mondays.
        const weeks = (day - weekday - (startDay - weekdayOf(startDay))) / 7;
        const days = byDay.length ? byDay : [CODES[weekdayOf(startDay)]];
        return weeks % interval === 0 && days.includes(CODES[weekday]);
      }
      case "MONTHLY": {
        if (months % interval !== 0) return false;
        if (monthDay !== null) return monthDay > 0 ? dom === monthDay : dom === monthLength + 1 + monthDay;
        if (byDay.length) {
          const match = /^(-?\d)?([A-Z]{2})$/.exec(byDay[0]);
          if (!match || CODES[weekday] !== match[2]) return false;
          const nth = Number(match[1] ?? "0");
          return nth > 0 ? Math.ceil(dom / 7) === nth : nth < 0 ? dom + 7 * -nth > monthLength && dom + 7 * (-nth - 1) <= monthLength : true;
        }
        return dom === clock.day;
      }
      default: return (year - clock.year) % interval === 0 && month === clock.month - 1 && dom === clock.day;
    }
  };
  /** @type {number[]} */
  const found = [];
  let seen = 0;
  const lastDay = Math.floor(to / DAY) + 1;
  for (let day = startDay; day <= lastDay && seen < count; day++) {
    // Every day is read only while COUNT needs counting; otherwise the range's days alone.
    if (count === Infinity && day < Math.floor(from / DAY) - 1) day = Math.floor(from / DAY) - 1;
    if (day !== startDay && !matches(day)) continue;
    const time = instant(day, clock.seconds, zone);
    if (time > until) break;
    seen += 1;
    if (time >= from && time < to && !exceptions.has(Math.floor(time / 1000))) found.push(time);
  }
  return found;
}

/**
 * @typedef {{occurrence: number, startsAt: number, endsAt: number, title?: string | null, notes?: string | null,
 *   location?: string | null}} ListedOccurrence
 */

/**
 * A repeating event's occurrences that overlap `from..<to` (ms), by start: each its original start
 * (`occurrence`), its own start and end, and the title, notes and place of a changed one (a
 * RECURRENCE-ID override); a changed occurrence is listed where it moved to. `times` are the
 * series' starts from `from - length` (``occurrencesBetween`` or the server's dates).
 * @param {{overrides?: {occurrence: string, startsAt: string, endsAt: string, title?: string | null, notes?: string | null,
 *   location?: string | null}[]}} repeat
 * @param {number[]} times
 * @param {number} length the series' length (ms)
 * @param {number} from
 * @param {number} to
 * @returns {ListedOccurrence[]}
 */
export function eventOccurrences(repeat, times, length, from, to) {
  /** @param {number} start @param {number} end */
  const overlaps = (start, end) => start < to && (end === start ? start >= from : end > from);
  const changed = new Map((repeat.overrides ?? []).map((o) => [Math.floor(Date.parse(o.occurrence) / 1000), o]));
  /** @type {ListedOccurrence[]} */
  const listed = times.filter((time) => !changed.has(Math.floor(time / 1000)) && overlaps(time, time + length))
    .map((time) => ({ occurrence: time, startsAt: time, endsAt: time + length }));
  for (const o of changed.values()) {
    const startsAt = Date.parse(o.startsAt), endsAt = Date.parse(o.endsAt);
    if (overlaps(startsAt, endsAt)) {
      listed.push({ occurrence: Date.parse(o.occurrence), startsAt, endsAt, title: o.title, notes: o.notes, location: o.location });
    }
  }
  return listed.sort((a, b) => a.startsAt - b.startsAt);
}
