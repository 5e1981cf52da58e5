/// A subscription selects exactly one top-level field, and not an introspection field.
final class SingleFieldSubscriptionsRule: ValidationRule {
    override class var events: ValidationEvents { [.operation] }
    override class func applies(to features: DocumentFeatures) -> Bool { features.contains(.subscription) }

    override func enterOperation(_ node: OperationDefinition) {
        guard node.operation == .subscription, let subscriptionType = schema.subscriptionType else { return }
        var collector = FieldCollector(context: context)
        collector.collect(node.selectionSet, runtimeType: subscriptionType)
        let groups = collector.keys.compactMap { collector.fields[$0] }
        let subject = node.name.map { "Subscription \"\($0.value)\"" } ?? "Anonymous Subscription"
        if groups.count > 1 {
            context.report("\(subject) must select only one top level field.", groups.dropFirst().flatMap { $0.map(\.range) })
        }
        for group in groups where group[0].name.value.hasPrefix("__") {
            context.report("\(subject) must not select an introspection top level field.", group.map(\.range))
        }
    }

    /// The executor's field collection with no variables: `@skip`/`@include` with literal
    /// conditions are honoured, fragments apply when their type condition matches.
    struct FieldCollector {
        let context: ValidationContext
        var keys: [String] = []
        var fields: [String: [Field]] = [:]
        var visitedFragments: Set<String> = []

        init(context: ValidationContext) { self.context = context }

        mutating func collect(_ selectionSet: SelectionSet, runtimeType: TypeID) {
            for selection in selectionSet.selections {
                switch selection {
                case .field(let field):
                    guard Self.included(field.directives) else { continue }
                    let key = field.responseKey
                    if fields[key] == nil { keys.append(key) }
                    fields[key, default: []].append(field)
                case .inlineFragment(let fragment):
                    guard Self.included(fragment.directives), matches(fragment.typeCondition, runtimeType) else { continue }
                    collect(fragment.selectionSet, runtimeType: runtimeType)
                case .fragmentSpread(let spread):
                    let name = spread.name.value
                    guard !visitedFragments.contains(name), Self.included(spread.directives) else { continue }
                    visitedFragments.insert(name)
                    guard let fragment = context.fragment(named: name), matches(fragment.typeCondition, runtimeType)
                    else { continue }
                    collect(fragment.selectionSet, runtimeType: runtimeType)
                }
            }
        }

        func matches(_ condition: NamedType?, _ runtimeType: TypeID) -> Bool {
            guard let condition else { return true }
            let schema = context.schema
            guard let conditionType = schema.typeID(named: condition.name.value) else { return false }
            if conditionType == runtimeType { return true }
            return schema[conditionType].kind.isAbstract && schema.isSubType(conditionType, runtimeType)
        }

        static func included(_ directives: [Directive]) -> Bool {
            for directive in directives {
                let name = directive.name.value
                guard name == "skip" || name == "include",
                    let condition = directive.arguments.first(where: { $0.name.value == "if" }),
                    case .boolean(let value) = condition.value
                else { continue }
                if name == "skip" && value.value { return false }
                if name == "include" && !value.value { return false }
            }
            return true
        }
    }
}
