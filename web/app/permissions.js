// What the person may do, from `me.permissions`: CASL rules in packed form (`packRules`), read as
// CASL reads them. Later rules win over earlier ones; an inverted rule forbids. Conditions use the
// MongoDB operators Hearth's rules use; one this does not know matches nothing (the control stays hidden).

/** @typedef {{actions: string[], subjects: string[], conditions: Record<string, any> | null, inverted: boolean}} Rule */

/**
 * @param {unknown} packed `[actions, subjects, conditions|0, inverted?1:0, fields|0, reason]` per rule
 * @returns {Rule[]}
 */
export function unpackRules(packed) {
  if (!Array.isArray(packed)) return [];
  return packed.filter(Array.isArray).map((rule) => ({
    actions: String(rule[0] ?? "").split(","),
    subjects: String(rule[1] ?? "").split(","),
    conditions: rule[2] && typeof rule[2] === "object" ? rule[2] : null,
    inverted: rule[3] === 1,
  }));
}

/**
 * @param {Record<string, any>} object
 * @param {string} path a field, dotted for nested ones
 */
function read(object, path) {
  return path.split(".").reduce((/** @type {any} */ value, key) => (value == null ? undefined : value[key]), object);
}

/**
 * Whether `value` satisfies a condition's test (a value, or an object of operators).
 * @param {unknown} value
 * @param {unknown} test
 */
function satisfies(value, test) {
  if (test === null || typeof test !== "object" || Array.isArray(test)) return value === test;
  return Object.entries(test).every(([operator, operand]) => {
    switch (operator) {
      case "$eq": return value === operand;
      case "$ne": return value !== operand;
      case "$in": return Array.isArray(operand) && operand.includes(value);
      case "$nin": return Array.isArray(operand) && !operand.includes(value);
      case "$lt": return /** @type {any} */ (value) < /** @type {any} */ (operand);
      case "$lte": return /** @type {any} */ (value) <= /** @type {any} */ (operand);
      case "$gt": return /** @type {any} */ (value) > /** @type {any} */ (operand);
      case "$gte": return /** @type {any} */ (value) >= /** @type {any} */ (operand);
      case "$exists": return (value !== undefined) === Boolean(operand);
      default: return false;
    }
  });
}

export class Ability {
  /** @param {Rule[]} rules */
  constructor(rules) {
    this.rules = rules;
  }

  /** @param {unknown} packed */
  static fromPacked(packed) {
    return new Ability(unpackRules(packed));
  }

  /**
   * Whether `action` on a `subject` with these fields is allowed (CASL's `can`).
   * @param {string} action
   * @param {string} subject
   * @param {Record<string, any>} [object] the record's fields the conditions look at
   */
  can(action, subject, object) {
    for (let index = this.rules.length - 1; index >= 0; index--) {
      const rule = this.rules[index];
      if (!rule.actions.includes(action) && !rule.actions.includes("manage")) continue;
      if (!rule.subjects.includes(subject) && !rule.subjects.includes("all")) continue;
      const matches = !rule.conditions || !object
        || Object.entries(rule.conditions).every(([path, test]) => satisfies(read(object, path), test));
      if (matches) return !rule.inverted;
    }
    return false;
  }
}
