// Settings: the household (name, description, zone; leave, delete), its labels, the person's own
// settings (see account-settings.js), the API explorer, and signing out.

import { field, h, replace } from "../ui/dom.js";
import { reportingTo, submitting } from "../ui/forms.js";
import { zones } from "../ui/format.js";
import { labelChip } from "../ui/task-item.js";
import { accountSettings } from "./account-settings.js";
import { deleteHousehold, leaveHousehold, updateHousehold } from "../areas/households.js";
import { createLabel, deleteLabel, updateLabel } from "../areas/tasks.js";

/** Hearth's named label colours, as it stores them. */
const COLORS = [["Gray", "#8E8E93"], ["Red", "#FF3B30"], ["Orange", "#FF9500"], ["Yellow", "#FFCC00"], ["Green", "#34C759"],
  ["Teal", "#30B0C7"], ["Blue", "#007AFF"], ["Purple", "#AF52DE"], ["Pink", "#FF2D55"], ["Brown", "#A2845E"]];

/**
 * @param {import("../app.js").App} app
 * @param {(path: string) => void} navigate
 * @param {(text: string) => void} notify
 */
export function settingsView(app, navigate, notify) {
  const household = app.household;
  const name = field("Household name", { name: "name", required: true, maxlength: 80, value: household?.name ?? "" });
  const description = field("Description", { name: "description", maxlength: 1000, value: household?.description ?? "", rows: 2 }, "textarea");
  const zone = field("Time zone", { name: "timeZone" }, "select",
    zones().map((z) => h("option", { value: z, selected: z === household?.timeZone }, z)));
  const general = h("p", { class: "form-error", role: "alert" });
  const mayEdit = app.can("update", "Household");
  const save = h("button", { type: "submit", class: "primary" }, "Save settings");
  const form = h("form", { class: "card" }, h("h2", {}, "Household"), name.wrapper, description.wrapper, zone.wrapper, general, mayEdit ? save : null);
  submitting(form, { name, description, timeZone: zone }, general, async () => {
    await updateHousehold(app, { name: name.control.value, description: description.control.value, timeZone: zone.control.value });
    notify("Household saved.");
  });
  for (const control of [name.control, description.control, zone.control]) control.disabled = !mayEdit;

  const error = h("p", { class: "form-error", role: "alert" });
  const run = reportingTo(error);
  const onlineOnly = h("p", { class: "hint" });
  const leave = h("button", { type: "button", onclick: () => {
    if (confirm(`Leave ${household?.name}? Its tasks disappear from this device.`)) void run(async () => { await leaveHousehold(app); navigate("/"); });
  } }, "Leave household");
  const remove = h("button", { type: "button", class: "danger", onclick: () => {
    if (confirm(`Delete ${household?.name} and everything in it for every member? This cannot be undone.`)) void run(async () => { await deleteHousehold(app); navigate("/"); });
  } }, "Delete household");
  const membership = h("section", { class: "card" }, h("h2", {}, "Membership"), onlineOnly, error,
    h("div", { class: "actions" }, leave, app.can("delete", "Household") ? remove : null,
      h("a", { href: "/households/new", class: "button" }, "New household")));

  const labelList = h("ul", { class: "label-list", "aria-label": "Labels" });
  const labelName = field("Label name", { name: "label", maxlength: 40, autocomplete: "off" });
  const labelColor = field("Colour", { name: "color" }, "select", COLORS.map(([text, hex]) => h("option", { value: hex }, text)));
  const labelForm = h("form", { class: "inline-form" }, labelName.wrapper, labelColor.wrapper, h("button", { type: "submit" }, "Add label"));
  labelForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = labelName.control.value.trim();
    if (!text) return labelName.fail("A label needs a name.");
    if (app.lists.labels.some((l) => l.name.toLowerCase() === text.toLowerCase())) return labelName.fail(`There is a label “${text}” already.`);
    labelName.fail("");
    labelName.control.value = "";
    await createLabel(app, text, labelColor.control.value);
  });
  const labels = h("section", { class: "card" }, h("h2", {}, "Labels"), labelList, app.can("create", "Label") ? labelForm : null);

  const account = h("section", { class: "card" }, h("h2", {}, "Account"),
    h("p", {}, app.session ? `Signed in as ${app.session.email}.` : ""),
    h("div", { class: "actions" },
      h("button", { type: "button", onclick: () => void run(async () => { await app.signOut(); navigate("/signin"); }) }, "Sign out"),
      h("button", { type: "button", onclick: () => void run(async () => { await app.signOut(true); navigate("/signin"); }) }, "Sign out everywhere")),
    h("p", { class: "hint" }, "Signing out removes your household copies from this browser. Signing out everywhere also revokes your access tokens and calendar feed links: calendar apps and assistants must be set up again."),
    h("p", {}, h("a", { href: "/explorer" }, "API explorer"), " — try Hearth's GraphQL API as yourself."));
  const personal = accountSettings(app, notify);

  const element = h("section", { "aria-labelledby": "settings-heading" }, h("h1", { id: "settings-heading" }, "Settings"),
    household ? form : null, household ? labels : null, household ? membership : null, personal.element, account);

  function update() {
    const online = app.online;
    if (online) personal.reload();
    save.disabled = !online;
    leave.disabled = !online;
    remove.disabled = !online;
    onlineOnly.textContent = online ? "" : "You are offline: household settings and membership change once you are back online.";
    const manage = app.can("update", "Label");
    replace(labelList, app.lists.labels.map((label) => h("li", {}, labelChip(label),
      manage ? h("button", { type: "button", "aria-label": `Rename ${label.name}`, onclick: () => {
        const next = prompt(`New name for ${label.name}`, label.name)?.trim();
        if (next && next !== label.name) void updateLabel(app, label.id, { name: next });
      } }, "Rename") : null,
      manage ? h("select", { "aria-label": `Colour of ${label.name}`, onchange: (/** @type {Event} */ e) => void updateLabel(app, label.id, { color: /** @type {HTMLSelectElement} */ (e.target).value }) },
        COLORS.map(([text, hex]) => h("option", { value: hex, selected: hex === label.color }, text)),
        COLORS.some(([, hex]) => hex === label.color) ? null : h("option", { value: label.color, selected: true }, label.color)) : null,
      app.can("delete", "Label") ? h("button", { type: "button", "aria-label": `Delete ${label.name}`, onclick: () => void deleteLabel(app, label.id) }, "Delete") : null)));
  }
  update();
  return { element, update };
}
