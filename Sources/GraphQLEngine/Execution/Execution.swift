/// One execution of an operation (the spec's ExecuteQuery / ExecuteMutation / ExecuteSubscriptionEvent).
///
/// Synchronous resolvers are called inline while the selection is walked depth-first, so a fully
/// synchronous query never suspends. A suspending resolver leaves a `.pending` slot; once the walk
/// is done, all pending fields run concurrently (one child task each), and once the level has
/// answered, their results are completed in field order, queueing the next level. Not `Sendable`:
/// it lives in the executing task; only resolver calls leave it.
final class Execution {
    let executable: ExecutableSchema
    let schema: GraphQLSchema
    let source: Source
    let collector: FieldCollector
    let variables: GraphQLObject
    let context: any Sendable
    /// The request's loaders and their scheduler, made when the first resolver runs.
    private(set) lazy var scope = RequestScope()
    let onInternalError: (@Sendable (InternalErrorReport) -> Void)?
    /// The host's client-facing form of an error no resolver made reportable, if it has one.
    let reportable: (@Sendable (any Error) -> (any GraphQLReportableError)?)?
    /// The operation's plan shared by every execution of the document, when it has one.
    let sharedRoot: SelectionPlan?

    // Only this execution's own task touches these (see the type's comment), so the runtime's
    // exclusivity checks, paid on every slot write, are left out.
    @exclusivity(unchecked) var slots: [ResultSlot] = []
    @exclusivity(unchecked) var errors: [GraphQLError] = []
    @exclusivity(unchecked) private var path: [Step] = []
    /// The operation's plan, held for the whole execution: every planned field a path step names,
    /// and every plan a slot names (slots do not hold theirs), is reachable from it, even after a
    /// null clears its slot (a field keeps the sub-plans made for it; a shared plan was built with
    /// every one it can need, see ``PlanCache``).
    private var rootPlan: SelectionPlan?
    /// Plans made for a shared plan's field that had none for the type (a shared plan is never
    /// added to), kept here for the slots that name them.
    private var unsharedPlans: [SelectionPlan] = []
    /// The composite positions above the current one, nearest last; the root (slot 0, nullable)
    /// is below them all, implicitly.
    @exclusivity(unchecked) private var chain: [Link] = []
    @exclusivity(unchecked) private var pending: [Pending] = []
    /// The paths and composite ancestors of the pending fields, one after another (each field keeps
    /// its ranges): copying them here costs no allocation per field, where an array per field would
    /// cost one for itself and one more when the walk next changes its own (shared) path.
    @exclusivity(unchecked) private var pendingSteps: [Step] = []
    @exclusivity(unchecked) private var pendingLinks: [Link] = []
    /// The same for the level being finished (the two pairs take turns, keeping their capacity).
    @exclusivity(unchecked) private var roundSteps: [Step] = []
    @exclusivity(unchecked) private var roundLinks: [Link] = []

    /// One step of the current position's path, without reference counting: a field is named by its
    /// planned field (kept alive by its plan for the whole execution), turned into a response key
    /// only when an error or a suspended field needs the path.
    enum Step {
        case field(Unmanaged<PlannedField>)
        case index(Int)

        var element: GraphQLError.PathElement {
            switch self {
            case .field(let field): .key(field.takeUnretainedValue().responseKey)
            case .index(let index): .index(index)
            }
        }
    }

    /// The current position's path as responses give it.
    private var reportedPath: [GraphQLError.PathElement] { path.map(\.element) }

    /// A composite position above the current one: its slot and whether it may become null.
    struct Link {
        var slot: Int32
        var nullable: Bool
    }

    struct Pending {
        var resolve: Resolve
        var input: FieldInput
        var slot: Int
        var field: PlannedField
        /// The field's path and composite ancestors: ranges of the level's steps and links.
        var path: Range<Int>
        var chain: Range<Int>
    }

    /// How a pending field is resolved: alone, or with the other positions of its planned field.
    enum Resolve: Sendable {
        case single(@Sendable (FieldInput) async throws -> Resolved)
        case batch(@Sendable ([FieldInput]) async throws -> [Resolved])
    }

    /// A batch resolver answered a different number of values than it was given inputs.
    struct BatchCountMismatch: Error, CustomStringConvertible {
        let coordinate: String
        let given: Int
        let answered: Int
        var description: String { "the batch resolver of \(coordinate) answered \(answered) values for \(given) parents" }
    }

    init(
        executable: ExecutableSchema, document: Document, fragments: [String: FragmentDefinition], variables: GraphQLObject,
        context: any Sendable, onInternalError: (@Sendable (InternalErrorReport) -> Void)?,
        reportable: (@Sendable (any Error) -> (any GraphQLReportableError)?)? = nil, sharedRoot: SelectionPlan? = nil,
        slots: [ResultSlot] = []
    ) {
        self.slots = slots
        self.reportable = reportable
        self.sharedRoot = sharedRoot
        self.executable = executable
        self.schema = executable.schema
        self.source = document.source
        self.collector = FieldCollector(schema: executable, fragments: fragments, variables: variables)
        self.variables = variables
        self.context = context
        self.onInternalError = onInternalError
    }

    // MARK: - Operations

    /// Executes `selectionSet` on the root type; slot 0 holds the data afterwards.
    func run(_ selectionSet: SelectionSet, on root: GraphQLNamedType, rootValue: Resolved, serially: Bool) async {
        if serially {
            await runSerially(selectionSet, on: root, rootValue: rootValue)
        } else if runSynchronousPart(selectionSet, on: root, rootValue: rootValue) {
            await drain()
        }
    }

    /// Lays out the root object and runs every field that does not suspend; true when suspended
    /// fields are left for ``drain()`` (a fully synchronous query never awaits).
    private func runSynchronousPart(_ selectionSet: SelectionSet, on root: GraphQLNamedType, rootValue: Resolved) -> Bool {
        let first = layOutRoot(selectionSet, on: root)
        guard case .object(let plan, _) = slots[0] else { return false }
        if !executeFields(plan.takeUnretainedValue(), source: rootValue, plain: rootValue.plainObject, first: first) {
            slots[0] = .null
            return false
        }
        return !pending.isEmpty
    }

    /// Mutations: each root field (and everything it suspends on) finishes before the next starts.
    private func runSerially(_ selectionSet: SelectionSet, on root: GraphQLNamedType, rootValue: Resolved) async {
        let first = layOutRoot(selectionSet, on: root)
        guard case .object(let laidOut, _) = slots[0] else { return }
        let plan = laidOut.takeUnretainedValue()
        let plain = rootValue.plainObject
        for index in plan.fields.indices {
            path = [.field(Unmanaged.passUnretained(plan.fields[index]))]
            let ok = executeField(plan.fields[index], in: plan, source: rootValue, plain: plain, slot: first + index)
            path.removeAll()
            if !ok {
                slots[0] = .null
                return
            }
            if !pending.isEmpty { await drain() }
            if slots[0].isNull { return }
        }
    }

    /// Slot 0 as the root object with its fields' slots after it; returns the first field's slot.
    private func layOutRoot(_ selectionSet: SelectionSet, on root: GraphQLNamedType) -> Int {
        let plan = sharedRoot ?? collector.plan([selectionSet], on: root)
        rootPlan = plan
        slots.reserveCapacity(64)
        slots.append(.null)
        let first = reserve(plan.fields.count)
        slots[0] = .object(Unmanaged.passUnretained(plan), first: Int32(first))
        chain = []
        return first
    }

    // MARK: - Fields

    private func reserve(_ count: Int) -> Int {
        let first = slots.count
        slots.append(contentsOf: repeatElement(.null, count: count))
        return first
    }

    /// Executes a plan's fields into consecutive slots; false when a non-null field failed
    /// (the enclosing position must become null). `plain` is the source's object when it is plain
    /// data, found once for all the fields (each look into `source` copies it).
    private func executeFields(_ plan: SelectionPlan, source: Resolved, plain: GraphQLObject?, first: Int) -> Bool {
        let fields = plan.fields
        for index in fields.indices {
            let field = fields[index]
            path.append(.field(Unmanaged.passUnretained(field)))
            let ok = executeField(field, in: plan, source: source, plain: plain, slot: first + index)
            path.removeLast()
            if !ok { return false }
        }
        return true
    }

    private func executeField(
        _ field: PlannedField, in plan: SelectionPlan, source: Resolved, plain: GraphQLObject?, slot: Int
    ) -> Bool {
        let value: Resolved
        switch field.kind {
        case .typename:
            slots[slot] = .string(plan.type.name)
            return true
        case .schema:
            value = .object(Introspection.SchemaValue())
        case .type:
            guard let arguments = arguments(field) else { return failField(field, slot) }
            if case .string(let name) = arguments["name"], let type = schema.type(named: name) {
                value = .object(Introspection.TypeValue(type: .named(type.id)))
            } else {
                value = .null
            }
        case .binding(let binding):
            switch binding {
            case .property:
                if let leaf = field.leaf, field.definition.arguments.isEmpty, let object = plain {
                    // Plain data under a built-in scalar: most leaves of most responses.
                    if let raw = object[field.name] {
                        if let result = leaf.slot(for: raw) {
                            slots[slot] = result
                            return true
                        }
                    } else if !field.returnType.isNonNull {
                        slots[slot] = .null
                        return true
                    }
                }
                if !field.definition.arguments.isEmpty, arguments(field) == nil { return failField(field, slot) }
                value = DefaultResolver.resolve(field.name, of: source)
            case .event:
                value = source
            case .introspection(let introspection):
                guard let arguments = arguments(field) else { return failField(field, slot) }
                value = Introspection.resolve(introspection, source: source, arguments: arguments, schema: schema)
            case .resolver(.sync(let resolve)):
                guard let arguments = arguments(field) else { return failField(field, slot) }
                do {
                    value = try resolve(input(field, source, arguments))
                } catch {
                    recordResolverError(error, field)
                    return failField(field, slot)
                }
            case .resolver(.read(let read)):
                // Arguments are not passed, but a field's arguments still have to coerce.
                if !field.definition.arguments.isEmpty, arguments(field) == nil { return failField(field, slot) }
                do {
                    value = try read(source)
                } catch {
                    recordResolverError(error, field)
                    return failField(field, slot)
                }
            case .resolver(.async(let resolve)):
                guard let arguments = arguments(field) else { return failField(field, slot) }
                suspend(.single(resolve), input(field, source, arguments), field, slot)
                return true
            case .resolver(.batch(let resolve)):
                guard let arguments = arguments(field) else { return failField(field, slot) }
                suspend(.batch(resolve), input(field, source, arguments), field, slot)
                return true
            }
        }
        return completeField(field, value, slot: slot)
    }

    /// Leaves `slot` pending on a suspending resolver, with the current path and ancestors.
    private func suspend(_ resolve: Resolve, _ input: FieldInput, _ field: PlannedField, _ slot: Int) {
        slots[slot] = .pending
        let path = pendingSteps.count..<pendingSteps.count + self.path.count
        pendingSteps.append(contentsOf: self.path)
        let chain = pendingLinks.count..<pendingLinks.count + self.chain.count
        pendingLinks.append(contentsOf: self.chain)
        // A level starts with room for sixteen fields instead of growing from one: each doubling
        // reallocated and copied these large records (retaining what each holds).
        if pending.capacity == 0 { pending.reserveCapacity(16) }
        pending.append(Pending(resolve: resolve, input: input, slot: slot, field: field, path: path, chain: chain))
    }

    private func input(_ field: PlannedField, _ source: Resolved, _ arguments: GraphQLObject) -> FieldInput {
        FieldInput(source: source, arguments: arguments, context: context, info: field.info, request: scope)
    }

    /// The field's coerced arguments, or nil after recording why they could not be coerced.
    private func arguments(_ field: PlannedField) -> GraphQLObject? {
        do throws(ArgumentCoercion.ArgumentError) {
            return try field.arguments(variables: variables)
        } catch {
            errors.append(GraphQLError(
                error.message, source: source, positions: [error.position], path: reportedPath,
                extensions: [("code", .string("BAD_USER_INPUT"))]))
            return nil
        }
    }

    /// A field whose resolution failed (error recorded): null when it may be, else propagate.
    private func failField(_ field: PlannedField, _ slot: Int) -> Bool {
        if field.returnType.isNonNull { return false }
        slots[slot] = .null
        return true
    }

    private func completeField(_ field: PlannedField, _ value: Resolved, slot: Int) -> Bool {
        let type = field.returnType
        if field.holdsPositions { chain.append(Link(slot: Int32(slot), nullable: !type.isNonNull)) }
        let ok = complete(type, field, value, slot: slot)
        if field.holdsPositions { chain.removeLast() }
        return ok ? true : failField(field, slot)
    }

    // MARK: - Completion

    /// Completes `value` as `type` into `slot`; false when the position must become null because
    /// of an error (already recorded).
    private func complete(_ type: GraphQLType, _ field: PlannedField, _ value: Resolved, slot: Int) -> Bool {
        switch type {
        case .nonNull(let inner):
            guard complete(inner, field, value, slot: slot) else { return false }
            if slots[slot].isNull {
                record("Cannot return null for non-nullable field \(field.info.coordinate).", field)
                return false
            }
            return true
        case .list(let item):
            switch value {
            case .null, .value(.null):
                slots[slot] = .null
                return true
            case .list(let items):
                return completeList(item, field, count: items.count, slot: slot) { items[$0] }
            case .value(.list(let values)):
                return completeList(item, field, count: values.count, slot: slot) { .value(values[$0]) }
            default:
                record("Expected Iterable, but did not find one for field \"\(field.info.coordinate)\".", field)
                return false
            }
        case .named(let id):
            // One look into `value` for both the null check and its plain object (each look copies it).
            let plain: GraphQLObject?
            switch value {
            case .null, .value(.null):
                slots[slot] = .null
                return true
            case .value(.object(let object)): plain = object
            default: plain = nil
            }
            let named = schema[id]
            switch named.kind {
            case .object:
                return completeObject(named, field, value, plain: plain, slot: slot)
            case .interface, .union:
                guard let runtime = runtimeType(of: value, abstract: named, field) else { return false }
                return completeObject(runtime, field, value, plain: plain, slot: slot)
            case .enumeration:
                return completeEnum(named, field, value, slot: slot)
            default:
                return completeScalar(named, field, value, slot: slot)
            }
        }
    }

    private func completeList(
        _ item: GraphQLType, _ field: PlannedField, count: Int, slot: Int, _ element: (Int) -> Resolved
    ) -> Bool {
        let first = reserve(count)
        slots[slot] = .list(first: Int32(first), count: Int32(count))
        let composite = item.holdsPositions(in: schema)
        let nonNull = item.isNonNull
        for index in 0..<count {
            path.append(.index(index))
            if composite { chain.append(Link(slot: Int32(first + index), nullable: !nonNull)) }
            let ok = complete(item, field, element(index), slot: first + index)
            if composite { chain.removeLast() }
            path.removeLast()
            if !ok {
                if nonNull { return false }
                slots[first + index] = .null
            }
        }
        return true
    }

    private func completeObject(
        _ type: GraphQLNamedType, _ field: PlannedField, _ value: Resolved, plain: GraphQLObject?, slot: Int
    ) -> Bool {
        let plan: SelectionPlan
        if let last = field.lastSubPlan, last.type === type {
            plan = last
        } else if let cached = field.subPlans[type.id] {
            plan = cached
            if !field.isShared { field.lastSubPlan = cached }
        } else {
            plan = collector.plan(field.nodes.compactMap(\.selectionSet), on: type)
            // A shared plan has every sub-plan already; nothing is added to it.
            if !field.isShared {
                field.subPlans[type.id] = plan
                field.lastSubPlan = plan
            } else {
                unsharedPlans.append(plan)
            }
        }
        let first = reserve(plan.fields.count)
        slots[slot] = .object(Unmanaged.passUnretained(plan), first: Int32(first))
        return executeFields(plan, source: value, plain: plain, first: first)
    }

    private func runtimeType(of value: Resolved, abstract: GraphQLNamedType, _ field: PlannedField) -> GraphQLNamedType? {
        let name: String?
        if let resolveType = executable.typeResolvers[abstract.id] {
            do {
                name = try resolveType(value, FieldInput(source: value, arguments: GraphQLObject(), context: context, info: field.info, request: scope))
            } catch {
                recordResolverError(error, field)
                return nil
            }
        } else {
            name = DefaultResolver.typeName(of: value)
        }
        guard let name else {
            record(
                "Abstract type \"\(abstract.name)\" must resolve to an Object type at runtime for field \"\(field.info.coordinate)\". "
                    + "Either the \"\(abstract.name)\" type should provide a \"resolveType\" function or each possible type should provide an \"isTypeOf\" function.",
                field)
            return nil
        }
        guard let runtime = schema.type(named: name) else {
            record("Abstract type \"\(abstract.name)\" was resolved to a type \"\(name)\" that does not exist inside the schema.", field)
            return nil
        }
        guard runtime.kind == .object else {
            record("Abstract type \"\(abstract.name)\" was resolved to a non-object type \"\(name)\".", field)
            return nil
        }
        guard schema.isSubType(abstract.id, runtime.id) else {
            record("Runtime Object type \"\(name)\" is not a possible type for \"\(abstract.name)\".", field)
            return nil
        }
        return runtime
    }

    private func leafValue(_ value: Resolved, _ field: PlannedField) -> GraphQLValue? {
        switch value {
        case .value(let value): return value
        case .null: return .null
        case .list(let items): return .list(items.compactMap { leafValue($0, field) })
        case .object(let object):
            let host = ReflectedValue.unwrap(object)
            if let leaf = host as? any GraphQLLeafRepresentable { return leaf.graphQLValue }
            record("Expected a scalar or enum value for field \"\(field.info.coordinate)\", got \(type(of: host)).", field)
            return nil
        }
    }

    private func completeEnum(_ type: GraphQLNamedType, _ field: PlannedField, _ value: Resolved, slot: Int) -> Bool {
        guard let raw = leafValue(value, field) else { return false }
        guard case .string(let name) = raw, type.enumValue(named: name) != nil else {
            record("Enum \"\(type.name)\" cannot represent value: \(raw.inspected)", field)
            return false
        }
        slots[slot] = .string(name)
        return true
    }

    private func completeScalar(_ type: GraphQLNamedType, _ field: PlannedField, _ value: Resolved, slot: Int) -> Bool {
        guard let raw = leafValue(value, field) else { return false }
        let serialized: GraphQLValue
        do throws(CoercionError) {
            serialized = try type.coercion.serialize(raw)
        } catch {
            record(error.message, field)
            return false
        }
        switch serialized {
        case .null: slots[slot] = .null
        case .bool(let bool): slots[slot] = .bool(bool)
        case .int(let int): slots[slot] = .int(int)
        case .float(let double): slots[slot] = .double(double)
        case .string(let string): slots[slot] = .string(string)
        case .list, .object: slots[slot] = .value(serialized)
        }
        return true
    }

    // MARK: - Errors

    private func record(_ message: String, _ field: PlannedField, code: String = "INTERNAL_SERVER_ERROR") {
        var error = GraphQLError(message, locations: field.locations(in: source), path: reportedPath, extensions: [("code", .string(code))])
        error.source = source
        errors.append(error)
    }

    private func recordResolverError(_ thrown: any Error, _ field: PlannedField) {
        // The host's client-facing form of an error of its own, when it has one.
        let error = thrown is GraphQLError || thrown is any GraphQLReportableError ? thrown : reportable?(thrown) ?? thrown
        var reported: GraphQLError
        switch error {
        case let error as GraphQLError:
            reported = error
            if reported.locations.isEmpty { reported.locations = field.locations(in: source) }
            if reported.path.isEmpty { reported.path = reportedPath }
            if reported.code == nil { reported.extensions.insert(("code", .string("INTERNAL_SERVER_ERROR")), at: 0) }
        case let error as any GraphQLReportableError:
            reported = GraphQLError(
                error.message, locations: field.locations(in: source), path: reportedPath,
                extensions: [("code", .string(error.code))] + error.extraExtensions)
        default:
            onInternalError?(InternalErrorReport(error: error, coordinate: field.info.coordinate, context: context))
            reported = GraphQLError(
                "Internal server error", locations: field.locations(in: source), path: reportedPath,
                extensions: [("code", .string("INTERNAL_SERVER_ERROR"))])
        }
        reported.source = source
        errors.append(reported)
    }

    // MARK: - Suspending fields

    /// Runs pending fields level by level until none is left. Each level's fields run concurrently,
    /// one task per field, except that the positions of one batched field make a single call.
    private func drain() async {
        while !pending.isEmpty {
            let round = pending
            pending.removeAll()
            swap(&roundSteps, &pendingSteps)
            swap(&roundLinks, &pendingLinks)
            pendingSteps.removeAll(keepingCapacity: true)
            pendingLinks.removeAll(keepingCapacity: true)
            await runCalls(Self.units(of: round), of: round)
        }
    }

    /// Runs a level's calls, one task each (the only one in the executing task itself), then
    /// completes their fields in the level's order.
    private func runCalls(_ units: [Unit], of round: [Pending]) async {
        let scheduler = scope.scheduler
        scheduler.expect(units.count)
        let inputs = round.map(\.input)
        if units.count == 1 {
            let outcome = await Self.run(units[0], inputs)
            await scheduler.finished()
            finish(units[0], outcome, of: round)
            return
        }
        var outcomes = [Outcome](repeating: .each([]), count: units.count)
        await Self.concurrently(units.indices, into: &outcomes) { number in
            let outcome = await Self.run(units[number], inputs)
            await scheduler.finished()
            return outcome
        }
        for number in units.indices { finish(units[number], outcomes[number], of: round) }
    }

    /// `call(index)` for every index of `indexes`, each in an `async let` child task, its result
    /// put at `index`. Such tasks are made in the executing task's own allocator; a task group's
    /// children each cost two heap blocks and a third for their closure.
    private static func concurrently<Value: Sendable>(
        _ indexes: Range<Int>, into results: inout [Value], _ call: @escaping @Sendable (Int) async -> Value
    ) async {
        guard let index = indexes.first else { return }
        async let result = call(index)
        await concurrently(indexes.dropFirst(), into: &results, call)
        results[index] = await result
    }

    /// One call of a level: a single field, or every position of one batched planned field.
    struct Unit: Sendable {
        let resolve: Resolve
        /// The level's pending field this call starts with (for a single field, its only one).
        let first: Int
        /// A batch's further positions: indexes into the level's pending fields, in the order reached.
        var more: [Int] = []
    }

    /// What a call answered: one result, or one per position of a batch.
    enum Outcome: Sendable {
        case one(Result<Resolved, any Error>)
        case each([Result<Resolved, any Error>])
    }

    /// The level's calls: batched positions grouped by their planned field (so by their arguments).
    static func units(of round: [Pending]) -> [Unit] {
        var units: [Unit] = []
        units.reserveCapacity(round.count)
        var batches: [ObjectIdentifier: Int] = [:]
        for (index, item) in round.enumerated() {
            guard case .batch = item.resolve else {
                units.append(Unit(resolve: item.resolve, first: index))
                continue
            }
            let key = ObjectIdentifier(item.field)
            if let unit = batches[key] {
                units[unit].more.append(index)
            } else {
                batches[key] = units.count
                units.append(Unit(resolve: item.resolve, first: index))
            }
        }
        return units
    }

    /// Runs one call with the level's inputs. Inlined into each child task: a single field's
    /// resolver runs in the task's own frame, as it did before batching (no extra frame to allocate).
    @inline(__always)
    static func run(_ unit: Unit, _ inputs: [FieldInput]) async -> Outcome {
        switch unit.resolve {
        case .single(let resolve):
            do { return .one(.success(try await resolve(inputs[unit.first]))) } catch { return .one(.failure(error)) }
        case .batch(let resolve):
            return await runBatch(resolve, unit, inputs)
        }
    }

    /// A batched field's one call for all its positions.
    static func runBatch(
        _ resolve: @Sendable ([FieldInput]) async throws -> [Resolved], _ unit: Unit, _ inputs: [FieldInput]
    ) async -> Outcome {
        do {
            let batch = [inputs[unit.first]] + unit.more.map { inputs[$0] }
            let values = try await resolve(batch)
            guard values.count == batch.count else {
                throw BatchCountMismatch(coordinate: batch[0].info.coordinate, given: batch.count, answered: values.count)
            }
            return .each(values.map { .success($0) })
        } catch {
            return .each(Array(repeating: .failure(error), count: 1 + unit.more.count))
        }
    }

    /// Completes each position of a call with its result.
    private func finish(_ unit: Unit, _ outcome: Outcome, of round: [Pending]) {
        switch outcome {
        case .one(let result):
            finish(round[unit.first], result)
        case .each(let results):
            for (index, result) in zip([unit.first] + unit.more, results) { finish(round[index], result) }
        }
    }

    /// Completes a pending field where it was left: its path and composite ancestors are restored
    /// for the walk (between walks both are empty: every walk pops what it pushes), then emptied
    /// again, keeping their capacity.
    private func finish(_ item: Pending, _ result: Result<Resolved, any Error>) {
        defer {
            path.removeAll(keepingCapacity: true)
            chain.removeAll(keepingCapacity: true)
        }
        path.append(contentsOf: roundSteps[item.path])
        chain.append(contentsOf: roundLinks[item.chain])
        let ok: Bool
        switch result {
        case .success(let value):
            ok = completeField(item.field, value, slot: item.slot)
        case .failure(let error):
            recordResolverError(error, item.field)
            ok = failField(item.field, item.slot)
        }
        if !ok {
            // The nearest nullable position above; the data itself (slot 0) when none is.
            slots[Int(chain.last(where: \.nullable)?.slot ?? 0)] = .null
        }
    }
}
