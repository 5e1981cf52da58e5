/// Validates executable documents against a schema with graphql-js's `specifiedRules`, in one
/// walk over the document: each node is visited once, and every rule that asked for that kind
/// of node sees it, in graphql-js's rule order (so errors come out in the same order).
public enum Validator {
    /// A rule, by graphql-js's name.
    public struct Rule: Sendable, Hashable {
        let type: ValidationRule.Type
        public let name: String

        init(_ type: ValidationRule.Type, _ name: String) {
            self.type = type
            self.name = name
        }

        public static func == (lhs: Rule, rhs: Rule) -> Bool { lhs.name == rhs.name }
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// graphql-js 16.11's `specifiedRules`, in its order.
    public static let specifiedRules: [Rule] = [
        Rule(ExecutableDefinitionsRule.self, "ExecutableDefinitions"),
        Rule(UniqueOperationNamesRule.self, "UniqueOperationNames"),
        Rule(LoneAnonymousOperationRule.self, "LoneAnonymousOperation"),
        Rule(SingleFieldSubscriptionsRule.self, "SingleFieldSubscriptions"),
        Rule(KnownTypeNamesRule.self, "KnownTypeNames"),
        Rule(FragmentsOnCompositeTypesRule.self, "FragmentsOnCompositeTypes"),
        Rule(VariablesAreInputTypesRule.self, "VariablesAreInputTypes"),
        Rule(ScalarLeafsRule.self, "ScalarLeafs"),
        Rule(FieldsOnCorrectTypeRule.self, "FieldsOnCorrectType"),
        Rule(UniqueFragmentNamesRule.self, "UniqueFragmentNames"),
        Rule(KnownFragmentNamesRule.self, "KnownFragmentNames"),
        Rule(NoUnusedFragmentsRule.self, "NoUnusedFragments"),
        Rule(PossibleFragmentSpreadsRule.self, "PossibleFragmentSpreads"),
        Rule(NoFragmentCyclesRule.self, "NoFragmentCycles"),
        Rule(UniqueVariableNamesRule.self, "UniqueVariableNames"),
        Rule(NoUndefinedVariablesRule.self, "NoUndefinedVariables"),
        Rule(NoUnusedVariablesRule.self, "NoUnusedVariables"),
        Rule(KnownDirectivesRule.self, "KnownDirectives"),
        Rule(UniqueDirectivesPerLocationRule.self, "UniqueDirectivesPerLocation"),
        Rule(KnownArgumentNamesRule.self, "KnownArgumentNames"),
        Rule(UniqueArgumentNamesRule.self, "UniqueArgumentNames"),
        Rule(ValuesOfCorrectTypeRule.self, "ValuesOfCorrectType"),
        Rule(ProvidedRequiredArgumentsRule.self, "ProvidedRequiredArguments"),
        Rule(VariablesInAllowedPositionRule.self, "VariablesInAllowedPosition"),
        Rule(OverlappingFieldsCanBeMergedRule.self, "OverlappingFieldsCanBeMerged"),
        Rule(UniqueInputFieldNamesRule.self, "UniqueInputFieldNames"),
        Rule(MaxIntrospectionDepthRule.self, "MaxIntrospectionDepth"),
    ]

    /// graphql-js's optional `NoSchemaIntrospectionCustomRule`: added when introspection is off.
    public static let noSchemaIntrospection = Rule(NoSchemaIntrospectionCustomRule.self, "NoSchemaIntrospectionCustom")

    /// The rules with these graphql-js names (for tests and tools that run a few).
    public static func rules(named names: String...) -> [Rule] {
        specifiedRules.filter { names.contains($0.name) }
    }

    /// Every problem in `document` against `schema`, at most `maxErrors` (then a final
    /// "Too many validation errors" error), each with its message and locations.
    public static func validate(
        _ document: Document, against schema: GraphQLSchema, rules: [Rule] = specifiedRules, maxErrors: Int = 100
    ) -> [GraphQLError] {
        validate(document, against: schema, rules: rules == specifiedRules ? .specified : RuleSet(rules), maxErrors: maxErrors)
    }

    /// The same with a prepared ``RuleSet`` (what a server validating many documents keeps).
    public static func validate(
        _ document: Document, against schema: GraphQLSchema, rules: RuleSet, maxErrors: Int = 100
    ) -> [GraphQLError] {
        let context = ValidationContext(schema: schema, document: document, maxErrors: maxErrors)
        var walker = DocumentWalker(context: context, rules: rules)
        walker.walk(document)
        return context.errors
    }

    /// Rules with, per visiting event, the positions of the rules that handle it: worked out
    /// once, so that a validation only makes the rules' instances.
    public struct RuleSet: Sendable {
        public let rules: [Rule]
        /// The rules' types, in order.
        let types: [ValidationRule.Type]
        /// Indexed by an event's bit: the rules (positions in `rules`) handling it, in rule order.
        let byEvent: [[Int]]

        public init(_ rules: [Rule]) {
            self.rules = rules
            self.types = rules.map(\.type)
            byEvent = (0..<32).map { bit in
                rules.indices.filter { rules[$0].type.events.contains(ValidationEvents(rawValue: 1 << bit)) }
            }
        }

        /// graphql-js's `specifiedRules`.
        public static let specified = RuleSet(specifiedRules)
    }
}
