// Sign in, sign up (an invitation link prefills its code), and joining by link.

import { field, h } from "../ui/dom.js";
import { submitting } from "../ui/forms.js";
import { acceptInvitation } from "../areas/households.js";

/** @typedef {import("../app.js").App} App */
/** @typedef {{element: HTMLElement, update?: () => void}} View */

/**
 * @param {App} app
 * @param {(path: string) => void} navigate
 * @returns {View}
 */
export function signInView(app, navigate) {
  const email = field("Email", { type: "email", name: "email", autocomplete: "username", required: true });
  const password = field("Password", { type: "password", name: "password", autocomplete: "current-password", required: true });
  const general = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "card narrow" },
    h("h1", {}, "Sign in to Hearth"), email.wrapper, password.wrapper, general,
    h("button", { type: "submit", class: "primary" }, "Sign in"),
    h("p", {}, "New here? ", h("a", { href: "/signup" }, "Create an account")));
  submitting(form, { email: email, password }, general, async () => {
    await app.signIn(email.control.value, password.control.value);
    navigate(app.pendingJoin ? `/join/${app.pendingJoin}` : "/");
  });
  if (!app.online) general.textContent = "You are offline: signing in needs a connection.";
  return { element: form };
}

/**
 * @param {App} app
 * @param {(path: string) => void} navigate
 * @param {string} [code] an invitation code from a `/join/<code>` link
 * @returns {View}
 */
export function signUpView(app, navigate, code = "") {
  const name = field("Name", { name: "name", autocomplete: "name", required: true, maxlength: 80 });
  const email = field("Email", { type: "email", name: "email", autocomplete: "email", required: true });
  const password = field("Password", { type: "password", name: "password", autocomplete: "new-password", required: true, minlength: 8 });
  const invitation = field("Invitation code", { name: "invitationCode", value: code, autocomplete: "off" });
  const general = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "card narrow" },
    h("h1", {}, code ? "Join your household on Hearth" : "Create your Hearth account"),
    name.wrapper, email.wrapper, password.wrapper, invitation.wrapper, general,
    h("button", { type: "submit", class: "primary" }, "Create account"),
    h("p", {}, "Have an account? ", h("a", { href: "/signin" }, "Sign in")));
  submitting(form, { displayName: name, email, password, invitationCode: invitation }, general, async () => {
    await app.signUp({ displayName: name.control.value, email: email.control.value, password: password.control.value,
      invitationCode: invitation.control.value.trim() });
    app.pendingJoin = null;
    navigate("/");
  });
  if (!app.online) general.textContent = "You are offline: creating an account needs a connection.";
  return { element: form };
}

/**
 * `/join/<code>`: signed in, a button joins; signed out, sign-up with the code (or sign in, then join).
 * @param {App} app
 * @param {(path: string) => void} navigate
 * @param {string} code
 * @returns {View}
 */
export function joinView(app, navigate, code) {
  if (!app.signedIn) {
    app.pendingJoin = code;
    return signUpView(app, navigate, code);
  }
  const general = h("p", { class: "form-error", role: "alert" });
  const form = h("form", { class: "card narrow" },
    h("h1", {}, "Join a household"),
    h("p", {}, "Someone invited you to their household on Hearth."), general,
    h("button", { type: "submit", class: "primary" }, "Join household"));
  submitting(form, {}, general, async () => {
    await acceptInvitation(app, code);
    app.pendingJoin = null;
    navigate("/tasks");
  });
  return { element: form };
}
