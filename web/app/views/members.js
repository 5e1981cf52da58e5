// Members and roles; invitations (create for a role → a link to copy, list, revoke); being away
// (rotations pass over you); who did what (completions of repeating tasks, the last 30 days). Online only.

import { field, h, replace } from "../ui/dom.js";
import { copyButton, reportingTo } from "../ui/forms.js";
import * as households from "../areas/households.js";
import { choreStats, setAway } from "../areas/tasks.js";
import { fromLocalInput, localInput, when } from "../ui/format.js";

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
  const away = field("Away until", { name: "awayUntil", type: "datetime-local" });
  const awayForm = h("form", { class: "away" }, away.wrapper, h("button", { type: "submit" }, "Save"),
    h("button", { type: "button", onclick: () => void run(async () => { await setAway(app, null); away.control.value = ""; notify("Welcome back."); }) },
      "I’m back"));
  awayForm.addEventListener("submit", (event) => {
    event.preventDefault();
    void run(async () => {
      const until = fromLocalInput(away.control.value);
      await setAway(app, until);
      notify(until ? `Away until ${when(until, app.household?.timeZone ?? "UTC")}: your turns pass to others meanwhile.` : "Welcome back.");
    });
  });
  const awaySection = h("section", { "aria-labelledby": "away-heading" }, h("h2", { id: "away-heading" }, "Away"),
    h("p", { class: "hint" }, "While you are away, chores that rotate skip you."), awayForm);
  const chores = h("ul", { "aria-label": "Who did what" });
  const choresSection = h("section", { "aria-labelledby": "chores-heading" }, h("h2", { id: "chores-heading" }, "Who did what"),
    h("p", { class: "hint" }, "Repeating tasks completed in the last 30 days."), chores);
  const element = h("section", { "aria-labelledby": "members-heading" },
    h("h1", { id: "members-heading" }, "Members"), offline, error, list, awaySection, choresSection, inviteSection);

  async function loadChores() {
    if (!app.online) return;
    const stats = await choreStats(app, new Date(Date.now() - 30 * 86_400_000).toISOString());
    const name = (/** @type {string | null} */ id) => (id ? app.lists.memberById.get(id)?.user.displayName : null) ?? "Someone who left";
    replace(chores, stats.byMember.length === 0 ? h("li", {}, "Nothing yet.")
      : stats.byMember.map((m) => h("li", {}, `${name(m.userId)}: ${m.completions.toLocaleString()} done`)));
  }

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
      const awayUntil = member.awayUntil && Date.parse(member.awayUntil) > Date.now() ? member.awayUntil : null;
      if (member.user.id === me && awayUntil && document.activeElement !== away.control) away.control.value = localInput(awayUntil);
      return h("li", {}, h("span", { class: "member-name" }, member.user.displayName, member.user.id === me ? " (you)" : ""),
        awayUntil ? h("span", { class: "hint" }, ` away until ${when(awayUntil, app.household?.timeZone ?? "UTC")}`) : null, select,
        manage ? h("button", { type: "button", onclick: () => void run(() => households.removeMember(app, member.user.id)) , "aria-label": `Remove ${member.user.displayName}` }, "Remove") : null,
        online && myRole === "OWNER" && member.user.id !== me && member.role !== "OWNER"
          ? h("button", { type: "button", onclick: () => { if (confirm(`Make ${member.user.displayName} the owner? You become an admin.`)) void run(() => households.transferOwnership(app, member.user.id)); } }, "Make owner")
          : null);
    }));
    const mayInvite = app.can("create", "Invitation", { role: "MEMBER" });
    inviteSection.hidden = !mayInvite;
    inviteButton.disabled = !online;
    for (const control of awayForm.querySelectorAll("input, button")) /** @type {HTMLInputElement} */ (control).disabled = !online;
  }
  update();
  void run(loadInvitations);
  void run(loadChores);
  return { element, update };
}
