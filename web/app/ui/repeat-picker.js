// The repeat picker: how often (Repeat, Every), on which days (On), until when (Ends), and for tasks
// whether it counts from when it was done. It reads and writes an RFC 5545 RRULE; a rule it cannot
// show (written by a calendar app) is kept as it is unless the person picks another.

import { field, h } from "./dom.js";
import { dayOf } from "./format.js";

const FREQUENCIES = [["", "Never"], ["DAILY", "Every day"], ["WEEKLY", "Every week"], ["MONTHLY", "Every month"], ["YEARLY", "Every year"]];
const UNITS = { DAILY: ["day", "days"], WEEKLY: ["week", "weeks"], MONTHLY: ["month", "months"], YEARLY: ["year", "years"] };
const WEEKDAYS = [["MO", "Mon"], ["TU", "Tue"], ["WE", "Wed"], ["TH", "Thu"], ["FR", "Fri"], ["SA", "Sat"], ["SU", "Sun"]];
const ORDINALS = ["first", "second", "third", "fourth", "fifth"];

/**
 * The weekday code (MO…SU), day of month and place in the month (1–5, and whether it is the last)
 * of an instant in a zone.
 * @param {string} iso
 * @param {string} zone
 */
export function dayParts(iso, zone) {
  const date = new Date(iso);
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "short", day: "numeric", month: "numeric", year: "numeric" })
    .formatToParts(date);
  /** @param {string} type */
  const part = (type) => parts.find((p) => p.type === type)?.value ?? "";
  const day = Number(part("day"));
  const month = Number(part("month"));
  const year = Number(part("year"));
  const code = part("weekday").slice(0, 2).toUpperCase();
  const monthLength = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { weekday: code, day, nth: Math.ceil(day / 7), last: day + 7 > monthLength };
}

/**
 * @param {{disabled?: boolean, forTasks: boolean}} options
 */
export function repeatPicker(options) {
  const disabled = options.disabled ?? false;
  const repeat = field("Repeat", { name: "repeat", disabled }, "select", FREQUENCIES.map(([value, label]) => h("option", { value }, label)));
  const every = field("Every", { name: "interval", type: "number", min: 1, max: 1000, value: "1", disabled, inputmode: "numeric" });
  const unit = h("span", { class: "hint" });
  every.wrapper.append(unit);
  const weekdays = WEEKDAYS.map(([code, label]) => h("input", { type: "checkbox", value: code, disabled, "aria-label": label }));
  const onDays = h("fieldset", { class: "weekdays" }, h("legend", {}, "On"),
    WEEKDAYS.map(([, label], index) => h("label", { class: "check" }, weekdays[index], label)));
  const onMonth = field("On", { name: "monthly", disabled }, "select");
  const ends = field("Ends", { name: "ends", disabled }, "select",
    [["never", "Never"], ["until", "On a date"], ["count", "After a number of times"]].map(([value, label]) => h("option", { value }, label)));
  const until = field("Last date", { name: "until", type: "date", disabled });
  const count = field("Times", { name: "count", type: "number", min: 1, max: 100000, value: "10", disabled, inputmode: "numeric" });
  const fromDone = h("input", { type: "checkbox", name: "fromCompletion", disabled });
  const fromDoneLabel = h("label", { class: "check" }, fromDone, "From when it was done");
  const custom = h("p", { class: "hint" });
  const preview = h("p", { class: "hint", "aria-live": "polite" });
  const element = h("fieldset", { class: "repeat" }, h("legend", {}, "Repeats"), repeat.wrapper, custom, every.wrapper, onDays,
    onMonth.wrapper, ends.wrapper, until.wrapper, count.wrapper, options.forTasks ? fromDoneLabel : null, preview);
  /** A rule the picker cannot show, kept as it is until another frequency is picked. */
  let kept = "";
  /** The first date the monthly choices are read from. */
  let start = { weekday: "MO", day: 1, nth: 1, last: false };

  function show() {
    const frequency = repeat.control.value;
    const on = frequency !== "" && !kept;
    custom.textContent = kept ? `Repeats by a calendar app's rule: ${kept}` : "";
    custom.hidden = !kept;
    for (const part of [every.wrapper, ends.wrapper]) part.hidden = !on;
    onDays.hidden = !on || frequency !== "WEEKLY";
    onMonth.wrapper.hidden = !on || frequency !== "MONTHLY";
    until.wrapper.hidden = !on || ends.control.value !== "until";
    count.wrapper.hidden = !on || ends.control.value !== "count";
    fromDoneLabel.hidden = frequency === "";
    const units = UNITS[/** @type {keyof typeof UNITS} */ (frequency)];
    unit.textContent = units ? (Number(every.control.value) === 1 ? units[0] : units[1]) : "";
  }

  /** @param {string} zone @param {string | null} first */
  function monthChoices(zone, first) {
    if (first) start = dayParts(first, zone);
    const weekday = WEEKDAYS.find(([code]) => code === start.weekday)?.[1] ?? start.weekday;
    const chosen = onMonth.control.value;
    const choices = [[`day`, `Day ${start.day}`], [`nth`, `The ${ORDINALS[start.nth - 1] ?? "fifth"} ${weekday}`]];
    if (start.last) choices.push([`last`, `The last ${weekday}`]);
    choices.push([`lastday`, `The last day`]);
    onMonth.control.replaceChildren(...choices.map(([value, label]) => h("option", { value, selected: value === chosen }, label)));
  }

  for (const control of [repeat.control, every.control, ends.control]) control.addEventListener("input", () => { if (control === repeat.control) kept = ""; show(); });

  return {
    element, preview,
    /** Every control, to watch for changes. */
    controls: [repeat.control, every.control, ...weekdays, onMonth.control, ends.control, until.control, count.control, fromDone],
    /**
     * Shows a stored repetition (and re-reads the monthly choices from the item's first date).
     * @param {import("../types.js").Recurrence | null | undefined} value
     * @param {string} zone
     * @param {string | null} first the item's date (deadline or start)
     */
    set(value, zone, first) {
      monthChoices(zone, first);
      kept = "";
      const parts = new Map((value?.rule ?? "").split(";").filter(Boolean).map((p) => /** @type {[string, string]} */ (p.split("=", 2))));
      const frequency = parts.get("FREQ") ?? "";
      repeat.control.value = frequency;
      every.control.value = parts.get("INTERVAL") ?? "1";
      const days = (parts.get("BYDAY") ?? "").split(",").filter(Boolean);
      for (const box of weekdays) box.checked = frequency === "WEEKLY" && days.includes(box.value);
      const monthDay = parts.get("BYMONTHDAY");
      onMonth.control.value = monthDay === "-1" ? "lastday" : days[0]?.startsWith("-1") ? "last" : days.length ? "nth" : "day";
      ends.control.value = parts.has("UNTIL") ? "until" : parts.has("COUNT") ? "count" : "never";
      // UNTIL as Hearth stores it is an instant (the end of the chosen day in the household's zone): shown as that day.
      const untilText = parts.get("UNTIL") ?? "";
      const untilDay = `${untilText.slice(0, 4)}-${untilText.slice(4, 6)}-${untilText.slice(6, 8)}`;
      until.control.value = !untilText ? "" : untilText.endsWith("Z")
        ? dayOf(new Date(`${untilDay}T${untilText.slice(9, 11)}:${untilText.slice(11, 13)}:${untilText.slice(13, 15)}Z`), zone) : untilDay;
      count.control.value = parts.get("COUNT") ?? "10";
      fromDone.checked = value?.from === "COMPLETION";
      // What the picker writes back must be the rule it was given (UNTIL aside, which it writes as a day); anything else is kept whole.
      /** @param {string} rule */
      const withoutUntil = (rule) => rule.split(";").filter((p) => !p.startsWith("UNTIL=")).join(";");
      if (value && withoutUntil(this.rule()) !== withoutUntil(value.rule)) kept = value.rule;
      show();
    },
    /** The rule the controls describe ("" when it happens once). */
    rule() {
      if (kept) return kept;
      const frequency = repeat.control.value;
      if (!frequency) return "";
      const parts = [`FREQ=${frequency}`];
      const interval = Math.max(1, Math.floor(Number(every.control.value) || 1));
      if (interval !== 1) parts.push(`INTERVAL=${interval}`);
      if (ends.control.value === "count") parts.push(`COUNT=${Math.max(1, Math.floor(Number(count.control.value) || 1))}`);
      if (ends.control.value === "until" && until.control.value) parts.push(`UNTIL=${until.control.value.replaceAll("-", "")}`);
      if (frequency === "MONTHLY") {
        const choice = onMonth.control.value;
        if (choice === "lastday") parts.push("BYMONTHDAY=-1");
        if (choice === "nth") parts.push(`BYDAY=${start.nth}${start.weekday}`);
        if (choice === "last") parts.push(`BYDAY=-1${start.weekday}`);
      }
      const days = weekdays.filter((box) => box.checked).map((box) => box.value);
      if (frequency === "WEEKLY" && days.length) parts.push(`BYDAY=${days.join(",")}`);
      return parts.join(";");
    },
    /** @returns {"SCHEDULE" | "COMPLETION"} */
    from() { return fromDone.checked && options.forTasks ? "COMPLETION" : "SCHEDULE"; },
  };
}
