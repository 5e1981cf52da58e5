// Tasks: quick add (Enter), filters (open/done, label, assignee, due), the list.

import { field, h, replace } from "../ui/dom.js";
import { taskItem } from "../ui/task-item.js";

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
      await app.createTask(title);
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
  for (const control of [state.control, label.control, assignee.control, due.control]) control.addEventListener("change", () => update());
  const element = h("section", { "aria-labelledby": "tasks-heading" },
    h("h1", { id: "tasks-heading" }, "Tasks"), mayCreate ? add : null, filters, list, empty);

  /** @param {HTMLInputElement} select @param {[string, string][]} options */
  function fill(select, options) {
    const chosen = select.value;
    replace(select, options.map(([value, text]) => h("option", { value, selected: value === chosen }, text)));
  }

  function update() {
    fill(label.control, [["", "Any label"], ...app.labels.map((l) => /** @type {[string, string]} */ ([l.id, l.name]))]);
    fill(assignee.control, [["", "Anyone"], ...app.members.map((m) => /** @type {[string, string]} */ ([m.user.id, m.user.displayName]))]);
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
    }).sort((a, b) => (a.occursAt ?? "9999").localeCompare(b.occursAt ?? "9999") || a.title.localeCompare(b.title));
    replace(list, tasks.map((task) => taskItem(app, task, { overdue: !task.completed && !!task.occursAt && Date.parse(task.occursAt) < now })));
    empty.textContent = tasks.length === 0 ? "Nothing here." : "";
  }
  update();
  return { element, update, focus: mayCreate ? quick.control : null };
}
