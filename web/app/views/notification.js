// `/notifications/<id>`, the address delivered notifications carry: the notification from the local copy.

import { h } from "../ui/dom.js";

/**
 * @param {import("../app.js").App} app
 * @param {string} id
 */
export function notificationView(app, id) {
  const body = h("div", {});
  const element = h("section", { "aria-labelledby": "notification-heading" }, h("h1", { id: "notification-heading" }, "Notification"), body);
  function update() {
    const found = app.all("NOTIFICATION").find((n) => n.id === id);
    body.replaceChildren(found
      ? h("article", {}, h("h2", {}, found.title), h("p", {}, found.body),
        found.taskId ? h("p", {}, h("a", { href: `/tasks/${found.taskId}` }, "Open the task")) : null)
      : h("p", {}, "This notification is not in the household on screen. ", h("a", { href: "/agenda" }, "Go to the agenda")));
  }
  update();
  return { element, update };
}
