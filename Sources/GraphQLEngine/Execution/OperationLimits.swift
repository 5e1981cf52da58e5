/// Limits on the shape of an operation, checked right after parsing (before validation, whose
/// overlapping-fields rule costs more than linear time), so a hostile document cannot make the
/// server do unbounded work.
public struct OperationLimits: Sendable, Hashable {
    /// The deepest nesting of fields (`{ a { b } }` is 2), fragments expanded.
    public var maxDepth: Int
    /// The most field selections after fragment expansion.
    public var maxFields: Int
    /// The most aliased fields after fragment expansion.
    public var maxAliases: Int

    /// Hearth's defaults: depth 15 (the introspection query needs 13), 2 000 fields, 100 aliases.
    public init(maxDepth: Int = 15, maxFields: Int = 2_000, maxAliases: Int = 100) {
        self.maxDepth = maxDepth
        self.maxFields = maxFields
        self.maxAliases = maxAliases
    }

    /// No limits (for trusted tools).
    public static let unlimited = OperationLimits(maxDepth: .max, maxFields: .max, maxAliases: .max)

    /// What an operation selects: its depth, fields and aliases with every fragment expanded.
    public struct Measure: Sendable, Hashable {
        public var depth = 0
        public var fields = 0
        public var aliases = 0
    }

    /// Measures `operation`; fragments are measured once each (cycles, which validation rejects, count as empty).
    public static func measure(_ operation: OperationDefinition, fragments: [String: FragmentDefinition]) -> Measure {
        var memo: [String: Measure] = [:]
        var visiting: Set<String> = []
        return measure(operation.selectionSet, fragments, &memo, &visiting)
    }

    private static func measure(
        _ selectionSet: SelectionSet, _ fragments: [String: FragmentDefinition], _ memo: inout [String: Measure],
        _ visiting: inout Set<String>
    ) -> Measure {
        var total = Measure()
        func add(_ part: Measure, depthOffset: Int) {
            total.depth = max(total.depth, part.depth &+ depthOffset)
            total.fields = add(total.fields, part.fields)
            total.aliases = add(total.aliases, part.aliases)
        }
        func add(_ a: Int, _ b: Int) -> Int {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? .max : sum
        }
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                var own = Measure(depth: 1, fields: 1, aliases: field.alias == nil ? 0 : 1)
                if let sub = field.selectionSet {
                    let inner = measure(sub, fragments, &memo, &visiting)
                    own.depth = 1 + inner.depth
                    own.fields = add(own.fields, inner.fields)
                    own.aliases = add(own.aliases, inner.aliases)
                }
                add(own, depthOffset: 0)
            case .inlineFragment(let fragment):
                add(measure(fragment.selectionSet, fragments, &memo, &visiting), depthOffset: 0)
            case .fragmentSpread(let spread):
                let name = spread.name.value
                if let known = memo[name] {
                    add(known, depthOffset: 0)
                } else if let fragment = fragments[name], !visiting.contains(name) {
                    visiting.insert(name)
                    let measured = measure(fragment.selectionSet, fragments, &memo, &visiting)
                    visiting.remove(name)
                    memo[name] = measured
                    add(measured, depthOffset: 0)
                }
            }
        }
        return total
    }

    /// The errors (code `QUERY_TOO_COMPLEX`) for an operation that exceeds these limits.
    func check(_ operation: OperationDefinition, fragments: [String: FragmentDefinition], source: Source) -> [GraphQLError] {
        if self == .unlimited { return [] }
        let measured = Self.measure(operation, fragments: fragments)
        var messages: [String] = []
        if measured.depth > maxDepth {
            messages.append("The operation is nested \(measured.depth) levels deep; the maximum is \(maxDepth).")
        }
        if measured.fields > maxFields {
            messages.append("The operation selects \(measured.fields) fields once fragments are expanded; the maximum is \(maxFields).")
        }
        if measured.aliases > maxAliases {
            messages.append("The operation uses \(measured.aliases) aliases once fragments are expanded; the maximum is \(maxAliases).")
        }
        return messages.map {
            GraphQLError($0, source: source, positions: [operation.range.start], extensions: [("code", .string("QUERY_TOO_COMPLEX"))])
        }
    }
}
