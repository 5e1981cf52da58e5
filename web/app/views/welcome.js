// A person with no household yet: create the first one (its zone is the browser's, changeable).

import { field, h } from "../ui/dom.js";
import { submitting } from "../ui/forms.js";
import { browserZone, zones } from "../ui/format.js";
import { createHousehold } from "../areas/households.js";

/**
 * @param {import("../app.js").App} app
 * @param {(path: string) => void} navigate
 * @param {boolean} [first] whether this is the person's first household
 */
export function createHouseholdView(app, navigate, first = true) {
  const name = field("Household name", { name: "name", required: true, maxlength: 80 });
  const zone = field("Time zone", { name: "timeZone" }, "select",
    zones().map((z) => h("option", { value: z, selected: z === browserZone() }, z)));
  const general = h("p", { class: "form-error", role: "alert" });
  const offline = !app.online;
  const form = h("form", { class: "card narrow" },
    h("h1", {}, first ? "Welcome to Hearth" : "A new household"),
    first ? h("p", {}, "A household shares tasks, events and watched stores. Start one, or open an invitation link someone sent you.") : null,
    name.wrapper, zone.wrapper, general,
    h("button", { type: "submit", class: "primary", disabled: offline }, "Create household"),
    offline ? h("p", { class: "hint" }, "Creating a household needs a connection.") : null);
  submitting(form, { name, timeZone: zone }, general, async () => {
    await createHousehold(app, name.control.value, zone.control.value);
    navigate("/agenda");
  });
  return { element: form };
}
