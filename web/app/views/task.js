// One task or event: its details, subtasks (add, tick, reorder, remove), done / reopen, delete with undo, snooze.
// Save sends only the fields the person changed; fields they have not touched follow other people's changes live.

import { field, h, replace } from "../ui/dom.js";
import { fromLocalInput, localInput, shortDay, when } from "../ui/format.js";
import { repeatPicker } from "../ui/repeat-picker.js";
import { labelChip } from "../ui/task-item.js";
import { addSubtask, deleteTask, previewRepeat, removeSubtask, reorderSubtasks, setDone, skipOccurrence, snooze, updateSubtask, updateTask }
  from "../areas/tasks.js";

/** @typedef {import("../types.js").Task} Task */

const PRIORITIES = ["NONE", "LOW", "MEDIUM", "HIGH"];

/**
 * @param {import("../app.js").App} app
 * @param {string} id
 * @param {(path: string) => void} navigate
 * @param {(text: string, undo?: () => void) => void} notify
 */
export function taskView(app, id, navigate, notify) {
  const find = () => app.tasks.find((task) => task.id === id) ?? null;
  const mayEdit = app.can("update", "Task");
  const title = field("Title", { name: "title", required: true, maxlength: 500, disabled: !mayEdit });
  const notes = field("Notes", { name: "notes", rows: 4, maxlength: 10000, disabled: !mayEdit }, "textarea");
  const deadline = field("Deadline", { name: "deadline", type: "datetime-local", disabled: !mayEdit });
  const startsAt = field("Starts", { name: "startsAt", type: "datetime-local", disabled: !mayEdit });
  const endsAt = field("Ends", { name: "endsAt", type: "datetime-local", disabled: !mayEdit });
  const location = field("Location", { name: "location", maxlength: 500, disabled: !mayEdit });
  const priority = field("Priority", { name: "priority", disabled: !mayEdit }, "select",
    PRIORITIES.map((p) => h("option", { value: p }, p[0] + p.slice(1).toLowerCase())));
  const estimate = field("Estimate (minutes)", { name: "estimateMinutes", type: "number", min: 0, max: 100000, disabled: !mayEdit });
  const assignee = field("Assignee", { name: "assigneeId", disabled: !mayEdit }, "select");
  const labelBox = h("fieldset", { class: "labels" }, h("legend", {}, "Labels"));
  const picker = repeatPicker({ disabled: !mayEdit, forTasks: find()?.kind !== "EVENT" });
  const turns = h("fieldset", { class: "turns" }, h("legend", {}, "Whose turn"));
  const general = h("p", { class: "form-error", role: "alert" });
  const heading = h("h1", { id: "task-heading" });
  const meta = h("p", { class: "hint" });
  const form = h("form", { class: "task-form" }, title.wrapper, notes.wrapper, deadline.wrapper, startsAt.wrapper, endsAt.wrapper,
    location.wrapper, priority.wrapper, estimate.wrapper, assignee.wrapper, picker.element, turns, labelBox, general,
    mayEdit ? h("button", { type: "submit", class: "primary" }, "Save") : null);
  const subtaskList = h("ul", { class: "subtasks", "aria-label": "Subtasks" });
  const newSubtask = field("New subtask", { name: "subtask", autocomplete: "off", maxlength: 500 });
  const subtaskForm = h("form", { class: "quick-add" }, newSubtask.wrapper);
  const actions = h("div", { class: "actions" });
  const missing = h("p", {}, "This task is not in this household (it may have been deleted).");
  const element = h("section", { "aria-labelledby": "task-heading" },
    h("p", {}, h("a", { href: "/tasks" }, "← All tasks")), heading, meta, form,
    h("h2", {}, "Subtasks"), subtaskList, mayEdit ? subtaskForm : null, actions);

  /** The values the form was last filled with: a field still equal to its one follows the store. */
  /** @type {Record<string, string>} */
  let filled = {};
  /** The labels last shown ticked, sorted and joined: ticks the person changed since stay as they are. */
  let filledLabels = "";
  /** The repetition last shown (rule and from) and the rotation last shown: untouched, they follow the store. */
  let filledRepeat = "";
  let filledTurns = "";
  /** @type {Record<string, HTMLInputElement>} */
  const controls = { title: title.control, notes: notes.control, deadline: deadline.control, startsAt: startsAt.control,
    endsAt: endsAt.control, location: location.control, priority: priority.control, estimateMinutes: estimate.control, assigneeId: assignee.control };

  /** @param {Task} task @returns {Record<string, string>} */
  function valuesOf(task) {
    return {
      title: task.title, notes: task.notes ?? "", deadline: localInput(task.deadline), startsAt: localInput(task.startsAt),
      endsAt: localInput(task.endsAt), location: task.location ?? "", priority: task.priority,
      estimateMinutes: task.estimateMinutes == null ? "" : String(task.estimateMinutes), assigneeId: task.assigneeId ?? "",
    };
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const task = find();
    if (!task) return;
    /** @type {Record<string, unknown>} */
    const changes = {};
    for (const [name, control] of Object.entries(controls)) {
      if (control.value === filled[name]) continue;
      const value = control.value;
      if (name === "title" && !value.trim()) return title.fail("A task needs a title.");
      if (name === "deadline" || name === "startsAt" || name === "endsAt") changes[name] = fromLocalInput(value);
      else if (name === "estimateMinutes") changes[name] = value === "" ? null : Number(value);
      else if (name === "notes" || name === "location" || name === "assigneeId") changes[name] = value === "" ? null : value;
      else changes[name] = value;
    }
    const chosen = [...labelBox.querySelectorAll("input:checked")].map((box) => /** @type {HTMLInputElement} */ (box).value).sort();
    if (chosen.join() !== task.labels.map((l) => l.id).sort().join()) changes.labelIds = chosen;
    const rule = picker.rule();
    if (repeatValue() !== filledRepeat) {
      const dated = task.kind === "EVENT" || ("deadline" in changes ? changes.deadline : task.deadline);
      if (rule && !dated && picker.from() === "SCHEDULE") return deadline.fail("A repeating task needs a deadline: its first date.");
      changes.repeat = rule ? { rule, from: picker.from() } : null;
    }
    const order = turnsValue();
    if (order !== filledTurns) changes.rotation = order ? order.split(",") : null;
    if (changes.rotation && "assigneeId" in changes && !order.split(",").includes(String(changes.assigneeId))) delete changes.assigneeId;
    title.fail("");
    deadline.fail("");
    await updateTask(app, id, changes);
    filled = { ...filled, ...Object.fromEntries(Object.entries(controls).map(([n, c]) => [n, c.value])) };
    filledRepeat = repeatValue();
    filledTurns = turnsValue();
    notify(Object.keys(changes).length ? "Saved." : "Nothing changed.");
  });

  subtaskForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = newSubtask.control.value.trim();
    if (!text) return;
    newSubtask.control.value = "";
    await addSubtask(app, id, text);
  });

  /** The picker's rule and where it counts from, as one value to compare. */
  const repeatValue = () => `${picker.rule()}|${picker.from()}`;
  /** The members ticked under "Whose turn", in the household's order, joined. */
  const turnsValue = () => [...turns.querySelectorAll("input:checked")].map((box) => /** @type {HTMLInputElement} */ (box).value).join();

  /** The next dates of what the picker shows: asked of the server when online, else the ones it sent with the task. */
  let previewed = "";
  async function showPreview() {
    const task = find();
    const rule = picker.rule();
    const start = fromLocalInput((task?.kind === "EVENT" ? startsAt : deadline).control.value) ?? task?.occursAt ?? new Date().toISOString();
    const key = `${rule}|${start}`;
    if (key === previewed) return;
    previewed = key;
    const zone = app.household?.timeZone ?? "UTC";
    if (!rule) { picker.preview.textContent = ""; return; }
    let dates = repeatValue() === filledRepeat ? [task?.occursAt ?? "", ...(task?.upcoming ?? [])].filter(Boolean).slice(0, 3) : [];
    if (app.online) dates = await previewRepeat(app, rule, start).catch(() => dates);
    if (previewed !== key) return;
    picker.preview.textContent = dates.length ? `Next: ${dates.map((d) => shortDay(d, zone)).join(", ")}` : "";
  }
  for (const control of [...picker.controls, deadline.control, startsAt.control]) control.addEventListener("change", () => void showPreview());

  function update() {
    const task = find();
    if (!task) {
      heading.textContent = "Task not found";
      form.hidden = true;
      replace(actions, missing);
      return;
    }
    form.hidden = false;
    heading.textContent = task.title;
    const zone = app.household?.timeZone ?? "UTC";
    const turn = task.rotation && task.assigneeId ? app.lists.memberById.get(task.assigneeId)?.user.displayName : null;
    meta.textContent = [task.kind === "EVENT" ? "Event" : "Task", task.completed ? "done" : "open", task.repeat ? "repeats" : "",
      turn ? `${turn}’s turn` : "", task.reminderDueAt ? `reminder ${when(task.reminderDueAt, zone)}` : ""].filter(Boolean).join(" · ");
    for (const f of [deadline]) f.wrapper.hidden = task.kind === "EVENT";
    for (const f of [startsAt, endsAt, location]) f.wrapper.hidden = task.kind !== "EVENT";
    const chosenAssignee = assignee.control.value;
    replace(assignee.control, h("option", { value: "" }, "Nobody"),
      app.lists.members.map((m) => h("option", { value: m.user.id, selected: m.user.id === chosenAssignee }, m.user.displayName)));
    const values = valuesOf(task);
    for (const [name, control] of Object.entries(controls)) {
      if (filled[name] === undefined || control.value === filled[name]) control.value = values[name];
    }
    filled = values;
    const ticked = [...labelBox.querySelectorAll("input:checked")].map((box) => /** @type {HTMLInputElement} */ (box).value).sort().join();
    const stored = task.labels.map((l) => l.id).sort().join();
    const checked = new Set((ticked !== filledLabels && labelBox.querySelector("input") ? ticked : stored).split(",").filter(Boolean));
    filledLabels = stored;
    replace(labelBox, h("legend", {}, "Labels"), app.lists.labels.length === 0 ? h("p", { class: "hint" }, "No labels yet: make them under Labels on the Tasks screen.") : null,
      app.lists.labels.map((label) => h("label", { class: "check" },
        h("input", { type: "checkbox", value: label.id, checked: checked.has(label.id), disabled: !mayEdit }), labelChip(label))));
    if (repeatValue() === filledRepeat || !filledRepeat) {
      picker.set(task.repeat, zone, task.kind === "EVENT" ? task.startsAt : task.deadline);
      filledRepeat = repeatValue();
    }
    const taking = new Set((turnsValue() === filledTurns ? task.rotation?.memberIds ?? [] : turnsValue().split(",")).filter(Boolean));
    // A rotation's order is the household's order of members; one set elsewhere in another order keeps its order here.
    const members = [...app.lists.members].sort((a, b) => {
      const order = task.rotation?.memberIds ?? [];
      const [x, y] = [order.indexOf(a.user.id), order.indexOf(b.user.id)];
      return (x < 0 ? order.length : x) - (y < 0 ? order.length : y);
    });
    replace(turns, h("legend", {}, "Whose turn"), members.map((m) => h("label", { class: "check" },
      h("input", { type: "checkbox", value: m.user.id, checked: taking.has(m.user.id), disabled: !mayEdit }), m.user.displayName)));
    filledTurns = task.rotation?.memberIds.join() ?? "";
    void showPreview();
    const subtasks = [...task.subtasks].sort((a, b) => a.position - b.position);
    replace(subtaskList, subtasks.map((subtask, index) => {
      const box = h("input", { type: "checkbox", checked: subtask.done, "aria-label": `Done: ${subtask.title}`, disabled: !mayEdit,
        onchange: () => void updateSubtask(app, subtask.id, { done: box.checked }) });
      const order = subtasks.map((s) => s.id);
      /** @param {number} to */
      const move = (to) => {
        order.splice(to, 0, ...order.splice(index, 1));
        void reorderSubtasks(app, id, order);
      };
      return h("li", {}, box, h("span", {}, subtask.title),
        mayEdit ? h("span", { class: "row-actions" },
          h("button", { type: "button", disabled: index === 0, onclick: () => move(index - 1), "aria-label": `Move up: ${subtask.title}` }, "↑"),
          h("button", { type: "button", disabled: index === subtasks.length - 1, onclick: () => move(index + 1), "aria-label": `Move down: ${subtask.title}` }, "↓"),
          h("button", { type: "button", onclick: () => void removeSubtask(app, subtask.id), "aria-label": `Remove: ${subtask.title}` }, "✕")) : null);
    }));
    const repeating = Boolean(task.repeat) && task.kind === "TASK";
    replace(actions,
      app.can("complete", "Task") ? h("button", { type: "button", onclick: () => void done(task) }, task.completed ? "Reopen" : "Mark done") : null,
      repeating && !task.completed && app.can("complete", "Task")
        ? h("button", { type: "button", onclick: () => void skipOccurrence(app, id).then(() => notify(`Skipped — next: ${shortDay(find()?.deadline, zone)}`)) },
          "Skip this time") : null,
      task.reminderDueAt && mayEdit ? h("button", { type: "button", onclick: () => void snooze(app, id, 60).then(() => notify("Reminder snoozed for an hour.")) }, "Snooze reminder") : null,
      app.can("delete", "Task") ? h("button", { type: "button", class: "danger", onclick: () => remove(task) }, "Delete") : null);
  }

  /**
   * Done (or open again). A repeating task moves on to its next date at once: said so, so nobody takes it for a failure.
   * @param {Task} task
   */
  async function done(task) {
    await setDone(app, id, !task.completed);
    if (!task.repeat || task.kind !== "TASK" || task.completed) return;
    const next = find();
    const zone = app.household?.timeZone ?? "UTC";
    notify(next && next.deadline !== task.deadline ? `Done — next: ${shortDay(next.deadline, zone)}` : "Done — the next date comes with the next sync.");
  }

  /**
   * Hidden at once; deleted unless undone within a few seconds.
   * @param {Task} task
   */
  function remove(task) {
    app.deleting.add(task.id);
    app.changed();
    const timer = setTimeout(() => { app.deleting.delete(task.id); void deleteTask(app, task.id); }, 6000);
    notify(`Deleted “${task.title}”.`, () => { clearTimeout(timer); app.deleting.delete(task.id); app.changed(); });
    navigate("/tasks");
  }

  update();
  return { element, update, focus: heading };
}
