// Members and roles; invitations (create for a role → a link to copy, list, revoke). Online only.

import { field, h, replace } from "../ui/dom.js";
import { copyButton, reportingTo } from "../ui/forms.js";
import * as households from "../areas/households.js";

const ROLES = ["OWNER", "ADMIN", "MEMBER", "VIEWER"];
/** @param {string} role */
const roleName = (role) => role[0] + role.slice(1).toLowerCase();

/**
 * @param {import("../app.js").App} app
 * @param {(text: string) => void} notify
 */
export function membersView(app, notify) {
  const list = h("ul", { class: "members", "aria-label": "Members" });
  const invitations = h("ul", { class: "invitations", "aria-label": "Invitations" });
  const link = h("p", { class: "invite-link" });
  const error = h("p", { class: "form-error", role: "alert" });
  const offline = h("p", { class: "hint" });
  const role = field("Role of the invited person", { name: "role" }, "select",
    ROLES.filter((r) => r !== "OWNER").map((r) => h("option", { value: r, selected: r === "MEMBER" }, roleName(r))));
  const inviteButton = h("button", { type: "button", class: "primary", onclick: () => void invite() }, "Invite");
  const inviteSection = h("section", { "aria-labelledby": "invite-heading" },
    h("h2", { id: "invite-heading" }, "Invite someone"), role.wrapper, inviteButton, link, h("h3", {}, "Open invitations"), invitations);
  const element = h("section", { "aria-labelledby": "members-heading" },
    h("h1", { id: "members-heading" }, "Members"), offline, error, list, inviteSection);

  const run = reportingTo(error);

  async function invite() {
    await run(async () => {
      const url = await households.invite(app, role.control.value);
      replace(link, "Send this link: ", h("a", { href: url }, url), " ",
        copyButton("Copy link", url, notify, "Link copied."));
      await loadInvitations();
    });
  }

  async function loadInvitations() {
    if (!app.online) return;
    const open = (await households.invitations(app)).filter((i) => i.state === "ACTIVE");
    replace(invitations, open.length === 0 ? h("li", {}, "None.") : open.map((i) => h("li", {},
      `${roleName(i.role)} · until ${new Date(i.expiresAt).toLocaleDateString()} `,
      h("button", { type: "button", onclick: () => void run(async () => { await households.revokeInvitation(app, i.id); await loadInvitations(); }) }, "Revoke"))));
  }

  function update() {
    const online = app.online;
    offline.textContent = online ? "" : "You are offline: members and invitations can be changed once you are back online.";
    const me = app.session?.userId;
    const myRole = app.household?.myRole;
    replace(list, app.lists.members.map((member) => {
      const manage = online && member.user.id !== me && app.can("update", "Member", { role: member.role });
      const select = h("select", { "aria-label": `Role of ${member.user.displayName}`, disabled: !manage,
        onchange: () => void run(() => households.changeRole(app, member.user.id, select.value)) },
        ROLES.filter((r) => manage ? r !== "OWNER" || myRole === "OWNER" : r === member.role)
          .map((r) => h("option", { value: r, selected: r === member.role }, roleName(r))));
      return h("li", {}, h("span", { class: "member-name" }, member.user.displayName, member.user.id === me ? " (you)" : ""), select,
        manage ? h("button", { type: "button", onclick: () => void run(() => households.removeMember(app, member.user.id)) , "aria-label": `Remove ${member.user.displayName}` }, "Remove") : null,
        online && myRole === "OWNER" && member.user.id !== me && member.role !== "OWNER"
          ? h("button", { type: "button", onclick: () => { if (confirm(`Make ${member.user.displayName} the owner? You become an admin.`)) void run(() => households.transferOwnership(app, member.user.id)); } }, "Make owner")
          : null);
    }));
    const mayInvite = app.can("create", "Invitation", { role: "MEMBER" });
    inviteSection.hidden = !mayInvite;
    inviteButton.disabled = !online;
  }
  update();
  void run(loadInvitations);
  return { element, update };
}
