// One task or event in a list: a checkbox ("Done: <title>"), its title (opens it), when, labels, assignee.

import { h } from "./dom.js";
import { when } from "./format.js";
import { setDone } from "../areas/tasks.js";

/**
 * @param {import("../app.js").App} app
 * @param {import("../types.js").Task} task
 * @param {{overdue?: boolean}} [options]
 */
export function taskItem(app, task, options = {}) {
  const zone = app.household?.timeZone ?? "UTC";
  const labels = app.lists.labelById;
  const assignee = task.assigneeId ? app.lists.memberById.get(task.assigneeId)?.user.displayName : null;
  const mayComplete = app.can("complete", "Task");
  // A repeating event's occurrences come and go with their dates: nothing to tick.
  const series = task.kind === "EVENT" && Boolean(task.repeat);
  const box = series ? null : h("input", {
    type: "checkbox", checked: task.completed, "aria-label": `Done: ${task.title}`, disabled: !mayComplete,
    onchange: () => void setDone(app, task.id, /** @type {HTMLInputElement} */ (box).checked),
  });
  return h("li", { class: `task${task.completed ? " done" : ""}${options.overdue ? " overdue" : ""}`, "data-id": task.id },
    box,
    h("div", { class: "task-main" },
      h("a", { href: `/tasks/${task.id}`, class: "task-title" }, task.title),
      h("div", { class: "task-meta" },
        task.kind === "EVENT" ? h("span", { class: "kind" }, "Event") : null,
        task.occursAt ? h("time", { datetime: task.occursAt }, (options.overdue ? "Overdue · " : "") + when(task.occursAt, zone)) : null,
        task.location ? h("span", {}, task.location) : null,
        task.repeat ? h("span", { class: "repeats" }, "Repeats") : null,
        ...task.labels.map((ref) => labels.get(ref.id)).filter(/** @returns {l is import("../types.js").Label} */ (l) => l !== undefined)
          .map((label) => labelChip(label)),
        assignee ? h("span", { class: "assignee" }, `→ ${assignee}`) : null)));
}

/**
 * Everything `taskItem` shows of a task, for `reconcile`: `shared` is what every row shares (labels, members, rights).
 * @param {import("../types.js").Task} task
 * @param {boolean} overdue
 * @param {string} shared
 */
export function taskSignature(task, overdue, shared) {
  return JSON.stringify([task.title, task.completed, task.occursAt, task.kind, task.location, task.labels, task.assigneeId, overdue,
    task.repeat?.rule ?? null]) + shared;
}

/**
 * What every row of a list shares, once per drawing.
 * @param {import("../app.js").App} app
 */
export function sharedSignature(app) {
  return JSON.stringify([app.household?.timeZone, app.lists.labels.map((l) => [l.id, l.name, l.color]),
    app.lists.members.map((m) => [m.user.id, m.user.displayName]), app.can("complete", "Task")]);
}

/**
 * A label's chip in its colour (set through the CSSOM: the page allows no inline style).
 * @param {import("../types.js").Label} label
 */
export function labelChip(label) {
  const chip = h("span", { class: "label" }, label.name);
  chip.style.setProperty("--label-color", label.color);
  return chip;
}
