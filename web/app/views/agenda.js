// Agenda: overdue items first, then today and the next 7 days, by day in the household's zone.

import { h, replace } from "../ui/dom.js";
import { dayHeading, dayOf } from "../ui/format.js";
import { taskItem } from "../ui/task-item.js";

/** @param {import("../app.js").App} app */
export function agendaView(app) {
  const body = h("div", {});
  const element = h("section", { "aria-labelledby": "agenda-heading" }, h("h1", { id: "agenda-heading" }, "Agenda"), body);

  function update() {
    const zone = app.household?.timeZone ?? "UTC";
    const now = new Date();
    const today = dayOf(now, zone);
    const last = dayOf(new Date(now.getTime() + 7 * 86_400_000), zone);
    const dated = app.tasks.filter((task) => task.occursAt).sort((a, b) => String(a.occursAt).localeCompare(String(b.occursAt)));
    const overdue = dated.filter((task) => !task.completed && task.kind === "TASK" && Date.parse(String(task.occursAt)) < now.getTime()
      && dayOf(new Date(String(task.occursAt)), zone) < today);
    /** @type {Map<string, import("../types.js").Task[]>} */
    const days = new Map();
    for (const task of dated) {
      const day = dayOf(new Date(String(task.occursAt)), zone);
      if (day < today || day > last) continue;
      days.set(day, [...(days.get(day) ?? []), task]);
    }
    /** @param {string} id @param {string} title @param {import("../types.js").Task[]} tasks @param {boolean} late */
    const group = (id, title, tasks, late) => h("section", { class: "day", "aria-labelledby": id },
      h("h2", { id }, title), h("ul", { class: "tasks" }, tasks.map((task) => taskItem(app, task, { overdue: late }))));
    replace(body,
      overdue.length ? group("overdue", "Overdue", overdue, true) : null,
      [...days].map(([day, tasks]) => group(`day-${day}`, dayHeading(day, today), tasks, false)),
      overdue.length === 0 && days.size === 0 ? h("p", { class: "empty" }, "Nothing due this week. Add tasks with a deadline to see them here.") : null);
  }
  update();
  return { element, update };
}
