extension Ability {
    /// CASL's `rulesToCondition`: the rules deciding `action` on `subjectType` folded into one
    /// boolean condition over the subject's fields — each `can` bounded by every higher `cannot`
    /// before it, ORed together. Nil when nothing can be allowed (answer empty, run no query).
    ///
    /// `convert` turns a rule's conditions into the target form (throwing what it throws: nothing,
    /// for a fold that cannot fail); `not`, `and` and `or` combine it.
    /// Rules restricted to fields count as they do in CASL's check without a field.
    public func rulesToCondition<Result, Failure: Error>(
        _ action: String, subjectType: String,
        convert: (PermissionRule) throws(Failure) -> Result,
        not: (Result) -> Result, and: ([Result]) -> Result, or: ([Result]) -> Result
    ) throws(Failure) -> Result? {
        var higherCannots: [Result] = []
        var alternatives: [Result] = []
        var unconditionalCan = false
        for rule in rulesFor(action, subjectType: subjectType) {
            if rule.inverted {
                if rule.conditions == nil { break }  // an unconditional cannot ends the search
                higherCannots.append(not(try convert(rule)))
            } else {
                if rule.conditions == nil {
                    unconditionalCan = true
                    break
                }
                let condition = try convert(rule)
                alternatives.append(higherCannots.isEmpty ? condition : and([condition] + higherCannots))
            }
        }
        if unconditionalCan {
            if higherCannots.isEmpty { return and([]) }
            if alternatives.isEmpty { return and(higherCannots) }
            alternatives.append(and(higherCannots))
        }
        return alternatives.isEmpty ? nil : or(alternatives)
    }

    /// The rules as a SQL `WHERE` condition over `columns`, with bound parameters; nil when
    /// nothing is allowed. Throws when a rule names a field `columns` lacks, or uses an operator
    /// SQL cannot express the same way (`$elemMatch`, regular expression flags other than `i`).
    public func sqlCondition(_ action: String, subjectType: String, columns: SQLColumns) throws(PermissionRuleError) -> SQLCondition? {
        try rulesToCondition(
            action, subjectType: subjectType,
            convert: { rule throws(PermissionRuleError) in
                guard let condition = rule.condition else { return .and([]) }
                return try condition.sql(columns: columns, subjectType: subjectType)
            },
            not: { .not($0) }, and: { .and($0) }, or: { .or($0) })
    }
}
