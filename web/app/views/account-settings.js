// The person's own settings on the Settings screen (online only: they live on the server): profile
// and password, theme and time zone, notifications (per kind and change type, thresholds, quiet
// hours), channels (ntfy, webhooks with their secret shown once, test, log, remove), access tokens
// (created with scopes and expiry, shown once, revoked), and preferences exported or imported.

import { field, h, replace } from "../ui/dom.js";
import { copyButton, reportingTo, submitting } from "../ui/forms.js";
import { ago, zones } from "../ui/format.js";

/** @typedef {import("../areas/account.js").Preferences} Preferences */

const KINDS = /** @type {const} */ ([["enabled", "Notifications on"], ["reminders", "Reminders"], ["taskAssigned", "Tasks assigned to me"],
  ["membership", "Membership changes"]]);
const CHANGES = /** @type {const} */ ([["priceDropped", "Price drops"], ["priceIncreased", "Price increases"], ["backInStock", "Back in stock"],
  ["outOfStock", "Out of stock"], ["newProduct", "New products"], ["productRemoved", "Products that left"], ["imagesChanged", "New pictures"]]);
const THRESHOLDS = [["ANY", "Any change"], ["AT_LEAST_5", "At least 5 (store currency)"], ["AT_LEAST_10", "At least 10"],
  ["AT_LEAST_25", "At least 25"], ["AT_LEAST_10_PERCENT", "At least 10 %"], ["AT_LEAST_25_PERCENT", "At least 25 %"]];
const THEMES = [["SYSTEM", "As the system"], ["LIGHT", "Light"], ["DARK", "Dark"]];

/**
 * The sections, filled once the server answers (an offline note until then).
 * @param {import("../app.js").App} app
 * @param {(text: string) => void} notify
 */
export function accountSettings(app, notify) {
  const element = h("div", { class: "account-settings" });
  const state = h("p", { class: "hint", role: "status" });
  element.append(state);
  let loaded = false, loading = false;
  async function load() {
    if (loaded || loading) return;
    if (!app.online) return void (state.textContent = "You are offline: your profile, notifications, channels and tokens show once you are back online.");
    state.textContent = "Loading your settings…";
    loading = true;
    try {
      const profile = await app.account.profile();
      loaded = true;
      state.textContent = "";
      replace(element, state, profileSection(app, profile.displayName, notify), preferencesSection(app, profile.preferences, notify),
        channelsSection(app, notify), tokensSection(app, notify), transferSection(app, notify));
    } catch (error) {
      state.textContent = `Your settings could not be read: ${error instanceof Error ? error.message : error}`;
    } finally {
      loading = false;
    }
  }
  void load();
  return { element, reload: () => void load() };
}

/**
 * @param {import("../app.js").App} app
 * @param {string} displayName
 * @param {(text: string) => void} notify
 */
function profileSection(app, displayName, notify) {
  const name = field("Your name", { name: "displayName", required: true, maxlength: 80, value: displayName, autocomplete: "name" });
  const nameError = h("p", { class: "form-error", role: "alert" });
  const nameForm = h("form", {}, name.wrapper, nameError, h("button", { type: "submit" }, "Save name"));
  submitting(nameForm, { displayName: name }, nameError, async () => {
    await app.account.rename(name.control.value.trim());
    await app.refreshAccount();
    notify("Name saved.");
  });
  const current = field("Current password", { type: "password", name: "currentPassword", autocomplete: "current-password", required: true });
  const next = field("New password", { type: "password", name: "newPassword", autocomplete: "new-password", required: true, minlength: 8 });
  const passwordError = h("p", { class: "form-error", role: "alert" });
  const revoke = h("input", { type: "checkbox", name: "revokeAccessTokens", checked: true });
  const passwordForm = h("form", {}, h("h3", {}, "Password"), current.wrapper, next.wrapper,
    h("label", { class: "check" }, revoke, " Also revoke my access tokens and calendar feed links (calendar apps and assistants must be set up again)"),
    passwordError, h("button", { type: "submit" }, "Change password"));
  submitting(passwordForm, { currentPassword: current, newPassword: next }, passwordError, async () => {
    const revoked = revoke.checked;
    await app.account.changePassword(current.control.value, next.control.value, revoked);
    current.control.value = next.control.value = "";
    notify(revoked ? "Password changed: your other devices are signed out, your access tokens and calendar feed links revoked."
      : "Password changed: your other devices are signed out.");
  });
  return h("section", { class: "card", "aria-labelledby": "profile-heading" }, h("h2", { id: "profile-heading" }, "Profile"), nameForm, passwordForm);
}

/**
 * @param {import("../app.js").App} app
 * @param {Preferences} preferences
 * @param {(text: string) => void} notify
 */
function preferencesSection(app, preferences, notify) {
  const error = h("p", { class: "form-error", role: "alert" });
  const run = reportingTo(error);
  /** @param {Record<string, unknown>} input @param {string} said */
  const save = (input, said) => run(async () => {
    Object.assign(preferences, await app.account.updatePreferences(input));
    await app.refreshAccount();
    notify(said);
  });
  const theme = field("Theme", { name: "theme" }, "select", THEMES.map(([value, text]) => h("option", { value, selected: value === preferences.theme }, text)));
  theme.control.addEventListener("change", () => void save({ theme: theme.control.value }, "Theme saved."));
  const zone = field("Your time zone", { name: "timeZone" }, "select",
    zones().map((z) => h("option", { value: z, selected: z === preferences.timeZone }, z)));
  zone.control.addEventListener("change", () => void save({ timeZone: zone.control.value }, "Time zone saved."));

  /** @param {readonly (readonly [string, string])[]} list @param {string} legend */
  const switches = (list, legend) => h("fieldset", { class: "switches" }, h("legend", {}, legend), list.map(([key, text]) =>
    h("label", { class: "check" }, h("input", { type: "checkbox", name: key, checked: preferences.notifications[key],
      onchange: (/** @type {Event} */ e) => void save({ notifications: { [key]: /** @type {HTMLInputElement} */ (e.target).checked } },
        `${text}: ${/** @type {HTMLInputElement} */ (e.target).checked ? "on" : "off"}.`) }), text)));
  /** @param {string} key @param {string} label */
  const threshold = (key, label) => {
    const control = field(label, { name: key }, "select",
      THRESHOLDS.map(([value, text]) => h("option", { value, selected: value === /** @type {any} */ (preferences)[key] }, text)));
    control.control.addEventListener("change", () => void save({ [key]: control.control.value }, `${label}: saved.`));
    return control.wrapper;
  };
  const quietOn = h("input", { type: "checkbox", name: "quiet", checked: preferences.quietHours !== null });
  const from = field("Quiet from", { type: "time", name: "from", value: preferences.quietHours?.from ?? "22:00" });
  const to = field("Quiet until", { type: "time", name: "to", value: preferences.quietHours?.to ?? "07:00" });
  const saveQuiet = () => void save({ quietHours: quietOn.checked ? { from: from.control.value, to: to.control.value } : null },
    quietOn.checked ? `Quiet hours ${from.control.value}–${to.control.value}.` : "No quiet hours.");
  quietOn.addEventListener("change", saveQuiet);
  from.control.addEventListener("change", () => { if (quietOn.checked) saveQuiet(); });
  to.control.addEventListener("change", () => { if (quietOn.checked) saveQuiet(); });
  return h("section", { class: "card", "aria-labelledby": "preferences-heading" }, h("h2", { id: "preferences-heading" }, "Preferences"),
    error, h("div", { class: "filters" }, theme.wrapper, zone.wrapper),
    h("h3", {}, "Notifications"), switches(KINDS, "What notifies me"), switches(CHANGES, "Store changes that notify me"),
    h("div", { class: "filters" }, threshold("priceDropThreshold", "Price drops from"), threshold("priceIncreaseThreshold", "Price increases from")),
    h("fieldset", { class: "switches" }, h("legend", {}, "Quiet hours"),
      h("label", { class: "check" }, quietOn, "Only urgent notifications during quiet hours"), h("div", { class: "filters" }, from.wrapper, to.wrapper)));
}

/**
 * @param {import("../app.js").App} app
 * @param {(text: string) => void} notify
 */
function channelsSection(app, notify) {
  const list = h("ul", { class: "channels", "aria-label": "Channels" });
  const error = h("p", { class: "form-error", role: "alert" });
  const run = reportingTo(error);
  const secret = h("div", { role: "status" });
  async function draw() {
    const channels = await app.account.channels();
    replace(list, channels.length === 0 ? h("li", { class: "hint" }, "No channels: notifications show in Hearth only.") : channels.map((channel) => {
      const log = h("ul", { class: "log", "aria-label": `Deliveries to ${channel.name}` });
      return h("li", {},
        h("div", {}, h("strong", {}, channel.name), h("span", { class: "task-meta" }, kindName(channel.kind),
          channel.enabled ? (channel.lastFailure ? ` · last failure ${ago(channel.lastFailureAt)}: ${channel.lastFailure}` : channel.lastSuccessAt ? ` · delivered ${ago(channel.lastSuccessAt)}` : "")
            : ` · off: ${channel.disabledReason ?? "too many failures"}`)),
        h("div", { class: "row-actions" },
          h("button", { type: "button", "aria-label": `Test ${channel.name}`, onclick: () => void run(async () => { await app.account.testChannel(channel.id); notify(`A test went to ${channel.name}.`); }) }, "Test"),
          h("button", { type: "button", "aria-label": `Log of ${channel.name}`, onclick: () => void run(async () => {
            const attempts = await app.account.channelLog(channel.id);
            replace(log, attempts.length === 0 ? h("li", { class: "hint" }, "Nothing delivered yet.") : attempts.map((a) => h("li", {},
              `${new Date(a.at).toLocaleString()} · ${a.outcome.toLowerCase()}${a.status ? ` (HTTP ${a.status})` : ""} · ${a.latencyMs} ms${a.error ? ` · ${a.error}` : ""}`)));
          }) }, "Log"),
          h("button", { type: "button", class: "danger", "aria-label": `Remove ${channel.name}`, onclick: () => void run(async () => { await app.account.removeChannel(channel.id); await draw(); }) }, "Remove")),
        log);
    }));
  }
  const server = field("ntfy server", { type: "url", name: "serverUrl", value: "https://ntfy.sh", required: true });
  const topic = field("ntfy topic", { name: "topic", required: true, autocomplete: "off" });
  const ntfyToken = field("ntfy access token (optional)", { name: "accessToken", autocomplete: "off" });
  const ntfyError = h("p", { class: "form-error", role: "alert" });
  const ntfy = h("form", { class: "inline-form" }, server.wrapper, topic.wrapper, ntfyToken.wrapper, ntfyError, h("button", { type: "submit" }, "Add ntfy topic"));
  submitting(ntfy, { serverUrl: server, topic, accessToken: ntfyToken }, ntfyError, async () => {
    await app.account.addNtfy({ serverUrl: server.control.value, topic: topic.control.value, ...(ntfyToken.control.value ? { accessToken: ntfyToken.control.value } : {}) });
    topic.control.value = ntfyToken.control.value = "";
    await draw();
  });
  const url = field("Webhook address", { type: "url", name: "url", required: true, autocomplete: "off" });
  const hookError = h("p", { class: "form-error", role: "alert" });
  const hook = h("form", { class: "inline-form" }, url.wrapper, hookError, h("button", { type: "submit" }, "Add webhook"));
  submitting(hook, { url }, hookError, async () => {
    const signing = await app.account.addWebhook(url.control.value);
    url.control.value = "";
    replace(secret, h("p", {}, "The webhook's signing secret, shown this once: ", h("code", {}, signing), " ",
      copyButton("Copy secret", signing, notify, "Secret copied.")));
    await draw();
  });
  void run(draw);
  return h("section", { class: "card", "aria-labelledby": "channels-heading" }, h("h2", { id: "channels-heading" }, "Channels"),
    h("p", { class: "hint" }, "Where notifications go besides this app. Turn them on for this device on the Notifications screen."),
    error, list, h("h3", {}, "Add an ntfy topic"), ntfy, h("h3", {}, "Add a webhook"), hook, secret);
}

/** @param {string} kind */
const kindName = (kind) => (kind === "WEB_PUSH" ? "Web Push" : kind === "NTFY" ? "ntfy" : "Webhook");

/**
 * @param {import("../app.js").App} app
 * @param {(text: string) => void} notify
 */
function tokensSection(app, notify) {
  const list = h("ul", { class: "channels", "aria-label": "Access tokens" });
  const error = h("p", { class: "form-error", role: "alert" });
  const run = reportingTo(error);
  const shown = h("div", { role: "status" });
  async function draw() {
    const tokens = await app.account.accessTokens();
    replace(list, tokens.length === 0 ? h("li", { class: "hint" }, "No access tokens.") : tokens.map((token) => h("li", {},
      h("div", {}, h("strong", {}, token.name), h("span", { class: "task-meta" },
        `${token.scopes.map((s) => s.toLowerCase()).join(" and ")} · ${Date.parse(token.expiresAt) < Date.now() ? "expired" : `expires ${new Date(token.expiresAt).toLocaleDateString()}`}`,
        token.lastUsedAt ? ` · used ${ago(token.lastUsedAt)}` : " · never used")),
      h("button", { type: "button", class: "danger", "aria-label": `Revoke ${token.name}`, onclick: () => void run(async () => { await app.account.revokeAccessToken(token.id); await draw(); }) }, "Revoke"))));
  }
  const name = field("Token name", { name: "name", required: true, maxlength: 100, autocomplete: "off", placeholder: "Kitchen display" });
  const write = h("input", { type: "checkbox", name: "write" });
  const days = field("Expires after (days)", { type: "number", name: "expiresInDays", min: 1, max: 365, value: 90, required: true });
  const formError = h("p", { class: "form-error", role: "alert" });
  const form = h("form", {}, name.wrapper, h("label", { class: "check" }, write, "May also write (tasks, read marks, syncs)"), days.wrapper, formError,
    h("button", { type: "submit" }, "Create token"));
  submitting(form, { name, expiresInDays: days }, formError, async () => {
    const token = await app.account.createAccessToken({ name: name.control.value.trim(), scopes: write.checked ? ["READ", "WRITE"] : ["READ"],
      expiresInDays: Number(days.control.value) });
    name.control.value = "";
    replace(shown, h("p", {}, "The token, shown this once: ", h("code", {}, token), " ",
      copyButton("Copy token", token, notify, "Token copied.")));
    await draw();
  });
  void run(draw);
  return h("section", { class: "card", "aria-labelledby": "tokens-heading" }, h("h2", { id: "tokens-heading" }, "Access tokens"),
    h("p", { class: "hint" }, "For other programs (a calendar script, a kitchen display) to use Hearth as you, without your password."),
    error, list, form, shown);
}

/**
 * @param {import("../app.js").App} app
 * @param {(text: string) => void} notify
 */
function transferSection(app, notify) {
  const error = h("p", { class: "form-error", role: "alert" });
  const run = reportingTo(error);
  const file = h("input", { type: "file", accept: "application/json,.json", "aria-label": "Preferences file to import" });
  const exporter = h("button", { type: "button", onclick: () => void run(async () => {
    const document = await app.account.exportPreferences();
    const link = h("a", { href: URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: "application/json" })), download: "hearth-preferences.json" });
    link.click();
    URL.revokeObjectURL(link.href);
  }) }, "Export preferences");
  const importer = h("button", { type: "button", onclick: () => void run(async () => {
    const chosen = file.files?.[0];
    if (!chosen) throw new Error("Choose an exported preferences file first.");
    let parsed;
    try {
      parsed = JSON.parse(await chosen.text());
    } catch {
      throw new Error(`${chosen.name} is not a preferences file (it is not JSON).`);
    }
    await app.account.importPreferences(parsed);
    await app.refreshAccount();
    notify("Preferences imported.");
  }) }, "Import preferences");
  return h("section", { class: "card", "aria-labelledby": "transfer-heading" }, h("h2", { id: "transfer-heading" }, "Move preferences"),
    h("p", { class: "hint" }, "Export your preferences to a file, and import them on another Hearth."), error,
    h("div", { class: "actions" }, exporter, file, importer));
}
