extension Ability {
    /// The rules in CASL's packed form (`packRules`): `[actions, subjects, conditions|0,
    /// inverted?1:0, fields|0, reason]` with lists joined by commas and trailing falsy entries
    /// dropped; `createMongoAbility(unpackRules(rules))` rebuilds this ability in JavaScript.
    public var packedRules: JSONValue {
        .array(rules.map { rule in
            var packed: [JSONValue] = [
                .string(rule.actions.joined(separator: ",")),
                .string(rule.subjects.joined(separator: ",")),
                rule.conditions ?? .number(0),
                .number(rule.inverted ? 1 : 0),
                rule.fields.map { .string($0.joined(separator: ",")) } ?? .number(0),
                .string(rule.reason ?? ""),
            ]
            while let last = packed.last, Self.isFalsy(last) { packed.removeLast() }
            return .array(packed)
        })
    }

    /// JavaScript's falsiness for the entries packRules writes.
    private static func isFalsy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: true
        case .bool(let flag): !flag
        case .number(let number): number == 0 || number.isNaN
        case .string(let text): text.isEmpty
        case .array, .object: false
        }
    }
}
