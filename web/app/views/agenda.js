// Agenda: overdue items first, then today and the next 7 days, by day in the household's zone.

import { field, h, reconcile } from "../ui/dom.js";
import { dayHeading, dayOf, fromLocalInput } from "../ui/format.js";
import { sharedSignature, taskItem, taskSignature } from "../ui/task-item.js";
import { createEvent } from "../areas/tasks.js";
import { eventOccurrences, occurrencesBetween } from "../store/recurrence.js";

/** Rows drawn at first; "Show more" adds as many again. */
const PAGE = 200;

/** @param {import("../app.js").App} app */
export function agendaView(app) {
  const body = h("div", {});
  const empty = h("p", { class: "empty" });
  let limit = PAGE;
  const more = h("button", { type: "button", onclick: () => { limit += PAGE; update(); } }, "Show more");
  const element = h("section", { "aria-labelledby": "agenda-heading" }, h("h1", { id: "agenda-heading" }, "Agenda"),
    app.can("create", "Task") ? eventForm(app) : null, body, empty, more);
  /** @type {Map<string, {section: HTMLElement, heading: HTMLElement, list: HTMLElement}>} a group per day, kept between drawings */
  const groups = new Map();

  function update() {
    const zone = app.household?.timeZone ?? "UTC";
    const now = new Date();
    const today = dayOf(now, zone);
    const last = dayOf(new Date(now.getTime() + 7 * 86_400_000), zone);
    /** @type {Map<string, import("../types.js").Task[]>} overdue first, then each day */
    const days = new Map([["overdue", []]]);
    // A repeating event is shown once per occurrence in the week (worked out here, so offline too).
    const window = [now.getTime() - 86_400_000, now.getTime() + 9 * 86_400_000];
    const dated = app.tasks.flatMap((task) => occurrencesOf(task, zone, window[0], window[1])).filter((task) => task.occursAt)
      .sort((a, b) => (String(a.occursAt) < String(b.occursAt) ? -1 : 1));
    for (const task of dated) {
      const day = dayOf(new Date(String(task.occursAt)), zone);
      if (day < today) {
        if (!task.completed && task.kind === "TASK") days.get("overdue")?.push(task);
      } else if (day <= last) {
        days.set(day, [...(days.get(day) ?? []), task]);
      }
    }
    const shared = sharedSignature(app);
    let left = limit, total = 0;
    /** @type {HTMLElement[]} */
    const sections = [];
    for (const [day, tasks] of days) {
      total += tasks.length;
      if (tasks.length === 0 || left <= 0) continue;
      let group = groups.get(day);
      if (!group) {
        const heading = h("h2", { id: `day-${day}` });
        const list = h("ul", { class: "tasks" });
        group = { section: h("section", { class: "day", "aria-labelledby": `day-${day}` }, heading, list), heading, list };
        groups.set(day, group);
      }
      const title = day === "overdue" ? "Overdue" : dayHeading(day, today);
      if (group.heading.textContent !== title) group.heading.textContent = title;
      const late = day === "overdue";
      const shown = tasks.slice(0, left);
      left -= shown.length;
      reconcile(group.list, shown, (task) => `${task.id}@${task.occursAt}`, (task) => taskSignature(task, late, shared),
        (task) => taskItem(app, task, { overdue: late }));
      sections.push(group.section);
    }
    if (body.children.length !== sections.length || sections.some((s, i) => body.children[i] !== s)) body.replaceChildren(...sections);
    empty.textContent = total === 0 ? "Nothing due this week. Add tasks with a deadline to see them here." : "";
    more.hidden = total <= limit;
    more.textContent = `Show more (${(total - limit).toLocaleString()} not shown)`;
  }
  update();
  return { element, update };
}

/**
 * A repeating event's occurrences between two times, each the event at its own start and end;
 * any other item as it is.
 * @param {import("../types.js").Task} task
 * @param {string} zone
 * @param {number} from
 * @param {number} to
 * @returns {import("../types.js").Task[]}
 */
function occurrencesOf(task, zone, from, to) {
  if (task.kind !== "EVENT" || !task.repeat || !task.startsAt) return [task];
  const length = Date.parse(task.endsAt ?? task.startsAt) - Date.parse(task.startsAt);
  const times = occurrencesBetween(task.repeat, task.repeat.start ?? task.startsAt, zone, from - length, to)
    ?? (task.upcoming ?? []).map((date) => Date.parse(date)).filter((time) => time >= from - length && time < to);
  return eventOccurrences(task.repeat, times, length, from, to).map((listed) => {
    const startsAt = new Date(listed.startsAt).toISOString();
    return { ...task, startsAt, occursAt: startsAt, occurrence: new Date(listed.occurrence).toISOString(),
      endsAt: new Date(listed.endsAt).toISOString(), title: listed.title ?? task.title, notes: listed.notes ?? task.notes,
      location: listed.location ?? task.location };
  });
}

/**
 * A new event: title, start, end (optional), location (optional); queued like every task change.
 * @param {import("../app.js").App} app
 */
function eventForm(app) {
  const title = field("Event title", { name: "title", required: true, maxlength: 500, autocomplete: "off" });
  const starts = field("Starts", { name: "startsAt", type: "datetime-local", required: true });
  const ends = field("Ends", { name: "endsAt", type: "datetime-local" });
  const location = field("Location", { name: "location", maxlength: 500 });
  const form = h("form", { class: "event-form" }, title.wrapper, starts.wrapper, ends.wrapper, location.wrapper,
    h("button", { type: "submit", class: "primary" }, "Add event"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const startsAt = fromLocalInput(starts.control.value);
    const endsAt = fromLocalInput(ends.control.value);
    if (!title.control.value.trim()) return title.fail("An event needs a title.");
    if (!startsAt) return starts.fail("When does it start?");
    if (endsAt && endsAt < startsAt) return ends.fail("It cannot end before it starts.");
    for (const f of [title, starts, ends]) f.fail("");
    await createEvent(app, { title: title.control.value.trim(), startsAt, endsAt, location: location.control.value.trim() || null });
    form.reset();
    details.open = false;
  });
  const details = h("details", { class: "card" }, h("summary", {}, "New event"), form);
  return details;
}
