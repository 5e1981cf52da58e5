// `/notifications/<id>`, the address delivered notifications carry: the notification from the local
// copy (of any of the person's households).

import { h } from "../ui/dom.js";

/**
 * @param {import("../app.js").App} app
 * @param {string} id
 */
export function notificationView(app, id) {
  const body = h("div", {});
  const element = h("section", { "aria-labelledby": "notification-heading" }, h("h1", { id: "notification-heading" }, "Notification"), body);
  function update() {
    const found = app.lists.notificationList.find((n) => n.id === id);
    body.replaceChildren(found
      ? h("article", {}, h("h2", {}, found.title), h("p", {}, found.body),
        found.taskId ? h("p", {}, h("a", { href: `/tasks/${found.taskId}`, onclick: () => {
          // The task lives in the notification's household: that one goes on screen.
          if (found.householdId !== app.householdId) void app.selectHousehold(found.householdId);
        } }, "Open the task")) : null)
      : h("p", {}, "This notification is not on this device (yet). ", h("a", { href: "/notifications" }, "All notifications")));
  }
  update();
  return { element, update };
}
