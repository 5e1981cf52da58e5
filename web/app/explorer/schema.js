// The API's schema as introspection gives it, for the explorer's documentation and completion:
// types by name, a field's type unwrapped, and what may be typed at a place in a document.

/** @typedef {{kind: string, name: string | null, ofType: TypeRef | null}} TypeRef */
/** @typedef {{name: string, description: string | null, type: TypeRef, defaultValue?: string | null}} InputValue */
/**
 * @typedef {{name: string, description: string | null, args: InputValue[], type: TypeRef,
 *   isDeprecated: boolean, deprecationReason: string | null}} Field
 * @typedef {{kind: string, name: string, description: string | null, fields: Field[] | null,
 *   inputFields: InputValue[] | null, enumValues: {name: string, description: string | null}[] | null,
 *   interfaces: TypeRef[] | null, possibleTypes: TypeRef[] | null}} FullType
 * @typedef {{queryType: {name: string} | null, mutationType: {name: string} | null,
 *   subscriptionType: {name: string} | null, types: FullType[]}} IntrospectedSchema
 */

const TYPE_REF = "kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }";
export const INTROSPECTION = `query Introspection { __schema {
  queryType { name } mutationType { name } subscriptionType { name }
  types { kind name description
    fields(includeDeprecated: true) { name description isDeprecated deprecationReason
      args { name description defaultValue type { ${TYPE_REF} } } type { ${TYPE_REF} } }
    inputFields { name description defaultValue type { ${TYPE_REF} } }
    enumValues(includeDeprecated: true) { name description }
    interfaces { ${TYPE_REF} } possibleTypes { ${TYPE_REF} } } } }`;

export class Schema {
  /** @param {IntrospectedSchema} schema */
  constructor(schema) {
    this.raw = schema;
    /** @type {Map<string, FullType>} */
    this.types = new Map(schema.types.map((type) => [type.name, type]));
  }

  /** Types a person reads about: the schema's own, not introspection's (`__…`). */
  get documentedTypes() {
    return [...this.types.values()].filter((type) => !type.name.startsWith("__")).sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The root type of an operation kind.
   * @param {string} operation query, mutation or subscription
   */
  root(operation) {
    const name = operation === "mutation" ? this.raw.mutationType?.name : operation === "subscription" ? this.raw.subscriptionType?.name : this.raw.queryType?.name;
    return name ? this.types.get(name) ?? null : null;
  }

  /**
   * A field's type's name, lists and non-nulls taken off.
   * @param {TypeRef} type
   * @returns {string}
   */
  static named(type) {
    return type.ofType ? Schema.named(type.ofType) : type.name ?? "";
  }

  /**
   * A type reference as SDL writes it (`[Task!]!`).
   * @param {TypeRef} type
   * @returns {string}
   */
  static show(type) {
    if (type.kind === "NON_NULL" && type.ofType) return `${Schema.show(type.ofType)}!`;
    if (type.kind === "LIST" && type.ofType) return `[${Schema.show(type.ofType)}]`;
    return type.name ?? "";
  }

  /**
   * The fields that may be typed at `offset` in `document`, and the word typed so far: the selection
   * set the offset is in is followed from the operation's root through each field (aliases,
   * arguments and `... on Type` understood). Empty outside a selection set or at an unknown field.
   * @param {string} document
   * @param {number} offset
   * @returns {{prefix: string, fields: Field[], type: string | null}}
   */
  completions(document, offset) {
    const before = stripNoise(document.slice(0, offset));
    const prefix = /[_A-Za-z][_0-9A-Za-z]*$/.exec(before)?.[0] ?? "";
    /** @type {(FullType | null)[]} */
    const stack = [];
    const operation = /^\s*(query|mutation|subscription|fragment)\b/.exec(before)?.[1] ?? "query";
    let fragmentType = operation === "fragment" ? /^\s*fragment\s+\w+\s+on\s+(\w+)/.exec(before)?.[1] ?? null : null;
    // Tokens: names, braces, and parenthesised arguments (skipped whole).
    const tokens = before.slice(0, before.length - prefix.length).match(/\.\.\.|[_A-Za-z][_0-9A-Za-z]*|[{}():@$]|\S/g) ?? [];
    /** @type {string | null} */
    let lastField = null;
    let onType = false;
    /** @type {string | null} */
    let typeCondition = null;
    let depth = 0;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (token === "(") { depth++; continue; }
      if (token === ")") { depth--; continue; }
      if (depth > 0) continue;
      if (token === "{") {
        const parent = stack.at(-1);
        if (stack.length === 0) stack.push(fragmentType ? this.types.get(fragmentType) ?? null : this.root(operation));
        else if (typeCondition) stack.push(this.types.get(typeCondition) ?? null);
        else if (parent && lastField) {
          const field = parent.fields?.find((f) => f.name === lastField);
          stack.push(field ? this.types.get(Schema.named(field.type)) ?? null : null);
        } else stack.push(null);
        lastField = null;
        typeCondition = null;
        onType = false;
        fragmentType = null;
        continue;
      }
      if (token === "}") { stack.pop(); lastField = null; continue; }
      if (token === "...") { onType = true; continue; }
      if (onType && token === "on") continue;
      if (onType && /^[_A-Za-z]/.test(token)) { typeCondition = token; onType = false; continue; }
      if (token === ":") continue;  // an alias: the next name is the field
      if (token === "@" || token === "$") { i++; continue; }
      if (/^[_A-Za-z]/.test(token)) lastField = token;
    }
    const current = stack.at(-1) ?? null;
    if (!current?.fields) return { prefix, fields: [], type: current?.name ?? null };
    const lower = prefix.toLowerCase();
    return { prefix, type: current.name, fields: current.fields.filter((f) => f.name.toLowerCase().startsWith(lower) && f.name !== prefix) };
  }
}

/**
 * The document with strings and comments blanked (their braces and words are not structure).
 * @param {string} text
 */
export function stripNoise(text) {
  return text.replace(/"""[\s\S]*?(?:"""|$)|"(?:[^"\\\n]|\\.)*(?:"|$)|#[^\n]*/g, (match) => " ".repeat(match.length));
}
