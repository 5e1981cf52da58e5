// `/explorer`: the API explorer. A query with variables and an operation name runs over HTTP with
// the signed-in session (a subscription over the WebSocket); the answer shows in the Result region;
// the schema's documentation and field completion come from introspection (kept for offline use);
// the last queries are kept on this device.

import { PokeSocket } from "../api/socket.js";
import { INTROSPECTION, Schema, stripNoise } from "../explorer/schema.js";
import { field, h, replace } from "../ui/dom.js";

const HISTORY_KEY = "hearth.explorer.history";
const SCHEMA_KEY = "hearth.explorer.schema";
const HISTORY_SIZE = 20;
const SUGGESTIONS = 8;
const EXAMPLE = "query Me {\n  me {\n    displayName\n    currentHousehold { name }\n  }\n  serverInfo { version }\n}\n";

/** @typedef {{query: string, variables: string, operationName: string, at: string}} HistoryEntry */

/**
 * @param {import("../app.js").App} app
 */
export function explorerView(app) {
  const history = readHistory();
  const query = field("Query", { name: "query", rows: 12, spellcheck: false, autocomplete: "off", class: "code",
    "aria-autocomplete": "list", "aria-controls": "explorer-suggestions" }, "textarea");
  query.control.value = history[0]?.query ?? EXAMPLE;
  const variables = field("Variables (JSON)", { name: "variables", rows: 4, spellcheck: false, class: "code" }, "textarea");
  variables.control.value = history[0]?.variables ?? "";
  const operation = field("Operation name", { name: "operationName", autocomplete: "off" });
  operation.control.value = history[0]?.operationName ?? "";
  const suggestions = h("ul", { id: "explorer-suggestions", role: "listbox", "aria-label": "Fields", class: "suggestions", hidden: true });
  const run = h("button", { type: "submit", class: "primary" }, "Run");
  const stop = h("button", { type: "button", hidden: true, onclick: () => endSubscription("Stopped.") }, "Stop");
  const output = h("pre", { class: "code result-text", tabindex: "0" });
  const resultState = h("p", { class: "hint", role: "status" });
  const result = h("section", { role: "region", "aria-label": "Result", class: "result" }, h("h2", {}, "Result"), resultState, output);
  const historyList = h("ul", { class: "history", "aria-label": "Recent queries" });
  const docsSearch = field("Search types", { type: "search", name: "types", autocomplete: "off" });
  const typeList = h("ul", { class: "type-list", "aria-label": "Types" });
  const typeDoc = h("div", { class: "type-doc", "aria-live": "polite" });
  const docsState = h("p", { class: "hint" });

  const form = h("form", { class: "explorer-form" }, query.wrapper, suggestions, variables.wrapper, operation.wrapper,
    h("div", { class: "actions" }, run, stop));
  const element = h("section", { "aria-labelledby": "explorer-heading", class: "explorer" },
    h("h1", { id: "explorer-heading" }, "API explorer"),
    h("p", { class: "hint" }, "Runs GraphQL against this Hearth as you (with your session). Ctrl+Space suggests fields."),
    form, result,
    h("details", { class: "card" }, h("summary", {}, "History"), historyList),
    h("section", { class: "card", "aria-labelledby": "docs-heading" }, h("h2", { id: "docs-heading" }, "Schema documentation"),
      docsState, docsSearch.wrapper, typeList, typeDoc));

  /** @type {Schema | null} */
  let schema = readSchema();
  /** @type {(() => void) | null} */
  let ending = null;
  /** @type {PokeSocket | null} */
  let socket = null;
  /** @type {import("../explorer/schema.js").Field[]} */
  let offered = [];
  let active = 0;
  let offeredPrefix = "";

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void execute();
  });

  async function execute() {
    endSubscription("");
    closeSuggestions();
    const text = query.control.value;
    /** @type {Record<string, unknown>} */
    let vars = {};
    if (variables.control.value.trim()) {
      try {
        vars = JSON.parse(variables.control.value);
        if (typeof vars !== "object" || vars === null || Array.isArray(vars)) throw new Error("they must be an object, such as {\"id\": \"…\"}");
      } catch (error) {
        return variables.fail(`The variables are not JSON: ${error instanceof Error ? error.message : error}`);
      }
    }
    variables.fail("");
    const name = operation.control.value.trim() || undefined;
    remember({ query: text, variables: variables.control.value, operationName: name ?? "", at: new Date().toISOString() });
    if (operationKind(text, name) === "subscription") return subscribe(text, vars, name);
    run.setAttribute("aria-busy", "true");
    resultState.textContent = "Running…";
    const started = performance.now();
    try {
      const answer = await app.api.raw(text, vars, name);
      resultState.textContent = `HTTP ${answer.status} in ${Math.round(performance.now() - started)} ms.`;
      output.textContent = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body, null, 2);
    } catch (error) {
      resultState.textContent = error instanceof Error ? error.message : String(error);
      output.textContent = "";
    } finally {
      run.removeAttribute("aria-busy");
    }
  }

  /**
   * @param {string} text
   * @param {Record<string, unknown>} vars
   * @param {string | undefined} name
   */
  function subscribe(text, vars, name) {
    socket = new PokeSocket(() => app.session?.token ?? null);
    /** @type {unknown[]} */
    const events = [];
    output.textContent = "";
    resultState.textContent = "Subscribed: events appear here as they come.";
    stop.hidden = false;
    const end = socket.subscribe(text, vars, (_data, payload) => {
      events.unshift(payload);
      resultState.textContent = `${events.length} ${events.length === 1 ? "event" : "events"} (newest first).`;
      output.textContent = JSON.stringify(events.slice(0, 50), null, 2);
    }, (errors) => endSubscription(errors ? "The server ended the subscription." : "The subscription completed.", errors), name);
    socket.start();
    ending = end;
  }

  /**
   * @param {string} message
   * @param {unknown[]} [errors]
   */
  function endSubscription(message, errors) {
    if (!socket) return;
    ending?.();
    socket.stop();
    socket = null;
    ending = null;
    stop.hidden = true;
    if (message) resultState.textContent = message;
    if (errors) output.textContent = JSON.stringify({ errors }, null, 2);
  }

  // Completion ------------------------------------------------------------------------------------

  query.control.addEventListener("input", () => suggest(false));
  query.control.addEventListener("blur", () => setTimeout(closeSuggestions, 150));
  query.control.addEventListener("keydown", (event) => {
    if (event.key === " " && event.ctrlKey) { event.preventDefault(); return suggest(true); }
    if (suggestions.hidden) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      active = (active + (event.key === "ArrowDown" ? 1 : offered.length - 1)) % offered.length;
      drawSuggestions();
    } else if (event.key === "Enter" || event.key === "Tab") {
      event.preventDefault();
      accept(offered[active]);
    } else if (event.key === "Escape") {
      event.preventDefault();
      closeSuggestions();
    }
  });

  /** @param {boolean} asked Ctrl+Space: offer even before a letter is typed */
  function suggest(asked) {
    if (!schema) return closeSuggestions();
    const found = schema.completions(query.control.value, query.control.selectionStart ?? query.control.value.length);
    if ((!asked && found.prefix.length === 0) || found.fields.length === 0) return closeSuggestions();
    offered = found.fields.slice(0, SUGGESTIONS);
    offeredPrefix = found.prefix;
    active = 0;
    drawSuggestions();
  }

  function drawSuggestions() {
    replace(suggestions, offered.map((f, index) => h("li", { role: "option", id: `suggestion-${index}`, "aria-selected": String(index === active),
      onmousedown: (/** @type {Event} */ e) => { e.preventDefault(); accept(f); } },
      h("strong", {}, f.name), h("span", { class: "hint" }, `: ${Schema.show(f.type)}`))));
    suggestions.hidden = false;
    query.control.setAttribute("aria-activedescendant", `suggestion-${active}`);
  }

  function closeSuggestions() {
    suggestions.hidden = true;
    offered = [];
    query.control.removeAttribute("aria-activedescendant");
  }

  /** @param {import("../explorer/schema.js").Field | undefined} chosen */
  function accept(chosen) {
    if (!chosen) return;
    const at = query.control.selectionStart ?? query.control.value.length;
    const text = query.control.value;
    query.control.value = text.slice(0, at - offeredPrefix.length) + chosen.name + text.slice(at);
    const caret = at - offeredPrefix.length + chosen.name.length;
    query.control.setSelectionRange(caret, caret);
    closeSuggestions();
  }

  // History ---------------------------------------------------------------------------------------

  /** @param {HistoryEntry} entry */
  function remember(entry) {
    const kept = [entry, ...readHistory().filter((e) => e.query !== entry.query || e.variables !== entry.variables)].slice(0, HISTORY_SIZE);
    localStorage.setItem(HISTORY_KEY, JSON.stringify(kept));
    drawHistory(kept);
  }

  /** @param {HistoryEntry[]} entries */
  function drawHistory(entries) {
    replace(historyList, entries.length === 0 ? h("li", { class: "hint" }, "No queries yet.") : entries.map((entry) => h("li", {},
      h("button", { type: "button", class: "link", onclick: () => {
        query.control.value = entry.query;
        variables.control.value = entry.variables;
        operation.control.value = entry.operationName;
        query.control.focus();
      } }, firstLine(entry.query)), h("span", { class: "hint" }, ` ${new Date(entry.at).toLocaleString()}`))));
  }

  // Documentation ---------------------------------------------------------------------------------

  async function loadSchema() {
    if (!app.online) {
      docsState.textContent = schema ? "Offline: the schema as this device last read it." : "Offline: the schema's documentation shows once you are back online.";
      return;
    }
    try {
      /** @type {{__schema: import("../explorer/schema.js").IntrospectedSchema}} */
      const data = await app.api.request(INTROSPECTION);
      schema = new Schema(data.__schema);
      localStorage.setItem(SCHEMA_KEY, JSON.stringify(data.__schema));
      docsState.textContent = "";
    } catch (error) {
      docsState.textContent = `The schema could not be read: ${error instanceof Error ? error.message : error}`;
    }
    drawTypes();
  }

  function drawTypes() {
    if (!schema) return;
    const words = docsSearch.control.value.trim().toLowerCase();
    const types = schema.documentedTypes.filter((type) => !words || type.name.toLowerCase().includes(words));
    replace(typeList, types.map((type) => h("li", {}, h("button", { type: "button", class: "link", onclick: () => showType(type.name) }, type.name))));
  }

  /** @param {string} name */
  function showType(name) {
    const type = schema?.types.get(name);
    if (!type) return;
    /** @param {import("../explorer/schema.js").TypeRef} ref */
    const link = (ref) => h("button", { type: "button", class: "link", onclick: () => showType(Schema.named(ref)) }, Schema.show(ref));
    replace(typeDoc, h("article", { "aria-labelledby": "type-doc-heading" },
      h("h3", { id: "type-doc-heading", tabindex: "-1" }, `${type.name} `, h("span", { class: "hint" }, kindName(type.kind))),
      type.description ? h("p", {}, type.description) : null,
      type.fields ? h("dl", { class: "fields" }, type.fields.flatMap((f) => [
        h("dt", {}, h("code", {}, f.name), f.args.length ? h("span", {}, "(", f.args.flatMap((a, i) => [i ? ", " : "", `${a.name}: `, link(a.type)]), ")") : null, ": ", link(f.type),
          f.isDeprecated ? h("span", { class: "hint" }, " (deprecated)") : null),
        h("dd", {}, f.description ?? "", f.deprecationReason ? ` Deprecated: ${f.deprecationReason}` : ""),
      ])) : null,
      type.inputFields ? h("dl", { class: "fields" }, type.inputFields.flatMap((f) => [
        h("dt", {}, h("code", {}, f.name), ": ", link(f.type), f.defaultValue ? ` = ${f.defaultValue}` : ""), h("dd", {}, f.description ?? "")])) : null,
      type.enumValues ? h("ul", {}, type.enumValues.map((v) => h("li", {}, h("code", {}, v.name), v.description ? ` — ${v.description}` : ""))) : null,
      type.possibleTypes?.length ? h("p", {}, "One of: ", type.possibleTypes.flatMap((t, i) => [i ? ", " : "", link(t)])) : null));
    /** @type {HTMLElement | null} */ (typeDoc.querySelector("h3"))?.focus();
  }

  docsSearch.control.addEventListener("input", drawTypes);
  drawHistory(history);
  drawTypes();
  void loadSchema();
  return { element, update: () => { if (!schema && app.online) void loadSchema(); }, focus: query.control };
}

/**
 * The kind of the operation that runs: the named one, else the first.
 * @param {string} text
 * @param {string | undefined} name
 */
export function operationKind(text, name) {
  const pattern = /(^|[\s}])(query|mutation|subscription)\b\s*([_A-Za-z][_0-9A-Za-z]*)?/g;
  for (const match of stripNoise(text).matchAll(pattern)) {
    if (!name || match[3] === name) return match[2];
  }
  return "query";
}

/** @param {string} kind */
const kindName = (kind) => kind.toLowerCase().replace("_", " ");

/** @param {string} text */
const firstLine = (text) => text.trim().split("\n")[0].slice(0, 80) || "(empty)";

/** @returns {HistoryEntry[]} */
function readHistory() {
  try {
    const parsed = JSON.parse(localStorage.getItem(HISTORY_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((e) => typeof e?.query === "string").slice(0, HISTORY_SIZE) : [];
  } catch {
    return [];
  }
}

function readSchema() {
  try {
    const raw = localStorage.getItem(SCHEMA_KEY);
    return raw ? new Schema(JSON.parse(raw)) : null;
  } catch {
    return null;
  }
}
