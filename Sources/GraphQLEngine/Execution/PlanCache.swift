import Synchronization

/// The selection plans of a prepared document's operations, built once and shared by every
/// execution of the document, so a repeated request skips field collection and planning.
///
/// Only plans no request can change are shared: operations whose `@skip`/`@include` take no
/// variables. A shared plan is complete (the sub-plan of every field, for every object type an
/// abstract field may return) and nothing writes to it after it is built, so concurrent executions
/// read it freely. One too large to build in full (past ``maxFields``) is not shared. A plan is
/// built for sharing at an operation's second execution: a document run once (not cached, or
/// seen once) costs nothing more than lazy planning.
final class PlanCache: Sendable {
    /// Most planned fields a shared plan may hold (abstract types multiply them).
    static let maxFields = 5_000

    private let plans = Mutex<(built: [Int: SharedPlan], seen: SeenOperations)>(([:], SeenOperations()))

    /// The operations executed once, keyed by where they start: the first kept apart, since most
    /// documents have one operation, and a Set for it was an allocation per uncached request.
    private struct SeenOperations {
        private var first: Int?
        private var others: Set<Int> = []

        /// Records `key`; true when it had not been seen.
        mutating func insert(_ key: Int) -> Bool {
            guard let first else {
                self.first = key
                return true
            }
            return key != first && others.insert(key).inserted
        }
    }

    /// A plan tree nothing changes once built (see ``PlanCache``); nil when the operation's plan is not shared.
    private struct SharedPlan: @unchecked Sendable {
        let root: SelectionPlan?
    }

    /// The shared root plan of `operation` (keyed by where it starts in the document): nil at its
    /// first execution, then the plan `build` makes once.
    func root(of operation: OperationDefinition, build: () -> SelectionPlan?) -> SelectionPlan? {
        let key = operation.range.start
        let found: SharedPlan?? = plans.withLock { plans in
            if let found = plans.built[key] { return .some(found) }
            return plans.seen.insert(key) ? .some(nil) : nil
        }
        switch found {
        case .some(.some(let shared)): return shared.root
        case .some(.none): return nil
        case .none: break
        }
        let built = SharedPlan(root: build())
        return plans.withLock { plans in
            if let found = plans.built[key] { return found.root }
            plans.built[key] = built
            return built.root
        }
    }
}

extension FieldCollector {
    /// The complete plan of `operation` on `root` for sharing, or nil when a request's variables
    /// could change it (a variable `@skip`/`@include`) or it is too large.
    func sharedPlan(of operation: OperationDefinition, on root: GraphQLNamedType, source: Source) -> SelectionPlan? {
        var visited: Set<String> = []
        guard !hasVariableDirective(operation.selectionSet, visited: &visited) else { return nil }
        var budget = PlanCache.maxFields
        return completePlan([operation.selectionSet], on: root, source: source, budget: &budget)
    }

    /// A plan with every sub-plan built, each field's info and locations made and the tree marked shared.
    private func completePlan(_ selectionSets: [SelectionSet], on type: GraphQLNamedType, source: Source, budget: inout Int) -> SelectionPlan? {
        let plan = plan(selectionSets, on: type)
        budget -= plan.fields.count
        guard budget >= 0 else { return nil }
        let graph = schema.schema
        for field in plan.fields {
            _ = field.info
            _ = field.locations(in: source)
            let named = graph[field.returnType.namedType]
            let sets = field.nodes.compactMap(\.selectionSet)
            switch named.kind {
            case .object:
                guard let sub = completePlan(sets, on: named, source: source, budget: &budget) else { return nil }
                field.subPlans[named.id] = sub
                field.lastSubPlan = sub
            case .interface, .union:
                for possible in named.possibleTypes {
                    guard let sub = completePlan(sets, on: graph[possible], source: source, budget: &budget) else { return nil }
                    field.subPlans[possible] = sub
                }
            default:
                break
            }
            field.isShared = true
        }
        return plan
    }

    /// Whether a `@skip` or `@include` in `selectionSet` (or the fragments it spreads) takes a variable.
    private func hasVariableDirective(_ selectionSet: SelectionSet, visited: inout Set<String>) -> Bool {
        func variable(_ directives: [Directive]) -> Bool {
            directives.contains { directive in
                (directive.name.value == "skip" || directive.name.value == "include")
                    && directive.arguments.contains { Self.containsVariable($0.value) }
            }
        }
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                if variable(field.directives) { return true }
                if let sub = field.selectionSet, hasVariableDirective(sub, visited: &visited) { return true }
            case .inlineFragment(let fragment):
                if variable(fragment.directives) || hasVariableDirective(fragment.selectionSet, visited: &visited) { return true }
            case .fragmentSpread(let spread):
                if variable(spread.directives) { return true }
                let name = spread.name.value
                guard visited.insert(name).inserted, let fragment = fragments[name] else { continue }
                if hasVariableDirective(fragment.selectionSet, visited: &visited) { return true }
            }
        }
        return false
    }
}
