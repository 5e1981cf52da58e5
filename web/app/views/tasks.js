// Tasks: quick add (Enter), filters (open/done, label, assignee, due), the list.

import { field, h, reconcile, replace } from "../ui/dom.js";
import { sharedSignature, taskItem, taskSignature } from "../ui/task-item.js";
import { newId } from "../ids.js";
import { createTask } from "../areas/tasks.js";

/** Rows drawn at first; "Show more" adds as many again. */
const PAGE = 200;

/**
 * @param {import("../app.js").App} app
 */
export function tasksView(app) {
  const mayCreate = app.can("create", "Task");
  const quick = field("New task", { name: "title", autocomplete: "off", maxlength: 500, placeholder: "What needs doing?" });
  const add = h("form", { class: "quick-add" }, quick.wrapper);
  add.addEventListener("submit", async (event) => {
    event.preventDefault();
    const title = quick.control.value.trim();
    if (!title) return quick.fail("A task needs a title.");
    quick.fail("");
    quick.control.value = "";
    try {
      const id = newId();
      added.unshift(id);
      await createTask(app, title, id);
    } catch (error) {
      quick.control.value = title;
      quick.fail(`Not saved: ${error instanceof Error ? error.message : error}`);
    }
  });
  const state = field("Show", { name: "state" }, "select",
    [h("option", { value: "open" }, "Open"), h("option", { value: "done" }, "Done"), h("option", { value: "all" }, "All")]);
  const label = field("Label", { name: "label" }, "select");
  const assignee = field("Assignee", { name: "assignee" }, "select");
  const due = field("Due", { name: "due" }, "select",
    [h("option", { value: "" }, "Any time"), h("option", { value: "overdue" }, "Overdue"), h("option", { value: "week" }, "Next 7 days"), h("option", { value: "none" }, "No date")]);
  const filters = h("div", { class: "filters" }, state.wrapper, label.wrapper, assignee.wrapper, due.wrapper);
  const list = h("ul", { class: "tasks", "aria-label": "Tasks" });
  const empty = h("p", { class: "empty" });
  let limit = PAGE;
  /** @type {string[]} tasks added on this screen: shown first, newest on top, until the screen is left */
  const added = [];
  const more = h("button", { type: "button", onclick: () => { limit += PAGE; update(); } }, "Show more");
  for (const control of [state.control, label.control, assignee.control, due.control]) control.addEventListener("change", () => { limit = PAGE; update(); });
  const element = h("section", { "aria-labelledby": "tasks-heading" },
    h("h1", { id: "tasks-heading" }, "Tasks"), mayCreate ? add : null, filters, list, empty, more);

  /** @param {HTMLInputElement} select @param {[string, string][]} options */
  function fill(select, options) {
    const chosen = select.value;
    replace(select, options.map(([value, text]) => h("option", { value, selected: value === chosen }, text)));
  }

  function update() {
    fill(label.control, [["", "Any label"], ...app.lists.labels.map((l) => /** @type {[string, string]} */ ([l.id, l.name]))]);
    fill(assignee.control, [["", "Anyone"], ...app.lists.members.map((m) => /** @type {[string, string]} */ ([m.user.id, m.user.displayName]))]);
    const now = Date.now();
    const tasks = app.tasks.filter((task) => {
      if (state.control.value === "open" && task.completed) return false;
      if (state.control.value === "done" && !task.completed) return false;
      if (label.control.value && !task.labels.some((l) => l.id === label.control.value)) return false;
      if (assignee.control.value && task.assigneeId !== assignee.control.value) return false;
      const at = task.occursAt ? Date.parse(task.occursAt) : null;
      if (due.control.value === "overdue" && !(at !== null && at < now && !task.completed)) return false;
      if (due.control.value === "week" && !(at !== null && at >= now && at < now + 7 * 86_400_000)) return false;
      if (due.control.value === "none" && at !== null) return false;
      return true;
    }).sort(byWhenThenTitle);
    if (added.length > 0) {
      const rank = new Map(added.map((id, index) => [id, index]));
      /** @param {import("../types.js").Task} task */
      const place = (task) => rank.get(task.id) ?? added.length;
      tasks.sort((a, b) => place(a) - place(b));
    }
    const shared = sharedSignature(app);
    /** @param {import("../types.js").Task} task */
    const overdue = (task) => !task.completed && !!task.occursAt && Date.parse(task.occursAt) < now;
    reconcile(list, tasks.slice(0, limit), (task) => task.id, (task) => taskSignature(task, overdue(task), shared),
      (task) => taskItem(app, task, { overdue: overdue(task) }));
    empty.textContent = tasks.length === 0 ? "Nothing here." : "";
    more.hidden = tasks.length <= limit;
    more.textContent = `Show more (${(tasks.length - limit).toLocaleString()} not shown)`;
  }
  update();
  return { element, update, focus: mayCreate ? quick.control : null };
}

/**
 * Soonest first, undated last, then by title (ISO instants compare as text).
 * @param {import("../types.js").Task} a
 * @param {import("../types.js").Task} b
 */
export function byWhenThenTitle(a, b) {
  const x = a.occursAt ?? "~", y = b.occursAt ?? "~";
  return x < y ? -1 : x > y ? 1 : a.title < b.title ? -1 : a.title > b.title ? 1 : 0;
}
