import Synchronization
import Testing

@testable import GraphQLEngine

/// Field collection, null propagation, error paths, serial mutations, abstract types, resolver
/// errors and binding (behaviour cross-checked with graphql-js 16).
@Suite struct ExecutionTests {
    @Test func nonNullErrorsNullTheNearestNullableParentInNestedLists() async throws {
        let harness = try ExecutionHarness("""
            type Query { rows: [[Cell!]], strict: [[Cell!]!]!, other: Int }
            type Cell { v: Int! }
            """)
        let root: GraphQLValue = ["rows": [[["v": 1], ["v": nil]], [["v": 3]]], "other": 9]
        // The null cell nulls its (nullable) inner list; siblings stay.
        #expect(try await harness.plain("{ rows { v } other }", root: root) == json("""
            {"errors":[{"message":"Cannot return null for non-nullable field Cell.v.","locations":[{"line":1,"column":10}],"path":["rows",0,1,"v"]}],
             "data":{"rows":[null,[{"v":3}]],"other":9}}
            """))
        // With every level non-null the error reaches the root: data is null.
        let strict: GraphQLValue = ["strict": [[["v": 1]], [["v": "x"]]]]
        #expect(try await harness.plain("{ strict { v } }", root: strict) == json("""
            {"errors":[{"message":"Int cannot represent non-integer value: \\"x\\"","locations":[{"line":1,"column":12}],"path":["strict",1,0,"v"]}],"data":null}
            """))
    }

    @Test func fieldsKeepDocumentOrderAcrossFragmentsAndAliases() async throws {
        let harness = try ExecutionHarness("type Query { a: Int, b: Int, c: Int }")
        let query = "{ c ...F b x: a ... on Query { a c } } fragment F on Query { a b }"
        #expect(try await harness.plain(query, root: ["a": 1, "b": 2, "c": 3]) == json(#"{"data":{"c":3,"a":1,"b":2,"x":1}}"#))
    }

    @Test func skipAndIncludeFollowLiteralsAndVariables() async throws {
        let harness = try ExecutionHarness("type Query { a: Int, b: Int, c: Int, d: Int }")
        let query = """
            query ($yes: Boolean!, $no: Boolean!) {
              a @skip(if: $yes) b @include(if: $yes) c @include(if: $no) @skip(if: false)
              ... on Query @skip(if: $no) { d }
            }
            """
        let response = try await harness.plain(query, root: ["a": 1, "b": 2, "c": 3, "d": 4], variables: ["yes": true, "no": false])
        #expect(response == json(#"{"data":{"b":2,"d":4}}"#))
    }

    @Test func errorsCarryPathsWithListIndicesAndEveryLocationOfAMergedField() async throws {
        let harness = try ExecutionHarness("type Query { list: [Item] } type Item { n: Int }")
        let response = try await harness.plain("{ list { n } list { n } }", root: ["list": [["n": 1], ["n": 1.5]]])
        #expect(response == json("""
            {"errors":[{"message":"Int cannot represent non-integer value: 1.5","locations":[{"line":1,"column":10},{"line":1,"column":21}],"path":["list",1,"n"]}],
             "data":{"list":[{"n":1},{"n":null}]}}
            """))
    }

    @Test func abstractTypesResolveByTypeResolverTypenameOrTypeNamedHosts() async throws {
        struct Robot: GraphQLTypeNamed, Sendable {
            var name: String
            var graphQLTypeName: String { "Robot" }
        }
        let sdl = """
            interface Named { name: String }
            type Person implements Named { name: String, age: Int }
            type Robot implements Named { name: String }
            union Thing = Person | Robot
            type Query { named: [Named], things: [Thing], host: Named }
            """
        var resolvers = Resolvers(defaultResolution: .everywhere)
        resolvers.typeResolver("Thing") { value, _ in
            if case .value(let data) = value, data["age"] != nil { return "Person" }
            return "Robot"
        }
        resolvers.field("Query.host") { _ in .object(Robot(name: "R2")) }
        let harness = try ExecutionHarness(sdl, resolvers: resolvers)
        let root: GraphQLValue = [
            "named": [["__typename": "Person", "name": "Ann", "age": 30], ["__typename": "Thing", "name": "?"], ["name": "no type"]],
            "things": [["name": "Bo", "age": 4], ["name": "K9"]],
        ]
        let query = "{ named { __typename name ... on Person { age } } things { ... on Person { age } ... on Robot { name } } host { __typename name } }"
        let response = try await harness.run(query, root: root)
        #expect(ExecutionHarness.messages(response) == [
            "Abstract type \"Named\" was resolved to a non-object type \"Thing\".",
            "Abstract type \"Named\" must resolve to an Object type at runtime for field \"Query.named\". Either the \"Named\" type should provide a \"resolveType\" function or each possible type should provide an \"isTypeOf\" function.",
        ])
        #expect(response["data"] == [
            "named": [["__typename": "Person", "name": "Ann", "age": 30], nil, nil],
            "things": [["age": 4], ["name": "K9"]],
            "host": ["__typename": "Robot", "name": "R2"],
        ])
    }

    /// Resolvers that stop at a gate until the test lets them through, so the test sees which
    /// ones run at the same time: no timing involved.
    final class Gate: Sendable {
        private let held = Mutex<[String: CheckedContinuation<Void, Never>]>([:])
        let arrivals: AsyncStream<String>
        private let arrived: AsyncStream<String>.Continuation

        init() { (arrivals, arrived) = AsyncStream.makeStream(of: String.self) }

        /// Waits here until released.
        func pass(_ name: String) async {
            await withCheckedContinuation { continuation in
                held.withLock { $0[name] = continuation }
                arrived.yield(name)
            }
        }

        var waiting: Set<String> { held.withLock { Set($0.keys) } }

        func release(_ name: String) { held.withLock { $0.removeValue(forKey: name) }?.resume() }
    }

    @Test func mutationsRunTopLevelFieldsSeriallyAndQueriesConcurrently() async throws {
        let gate = Gate()
        var resolvers = Resolvers(defaultResolution: .everywhere)
        for name in ["first", "second", "third"] {
            for type in ["Query", "Mutation"] {
                resolvers.field("\(type).\(name)") { _ in
                    await gate.pass(name)
                    return .string(name)
                }
            }
        }
        let harness = try ExecutionHarness(
            "type Query { first: String, second: String, third: String } type Mutation { first: String, second: String, third: String }",
            resolvers: resolvers)
        var arrivals = gate.arrivals.makeAsyncIterator()

        // A mutation's fields run one at a time, in document order: each is alone at the gate.
        let mutation = Task { try await harness.plain("mutation { third first second }") }
        for expected in ["third", "first", "second"] {
            #expect(await arrivals.next() == expected)
            #expect(gate.waiting == [expected], "only \(expected) runs")
            gate.release(expected)
        }
        #expect(try await mutation.value == json(#"{"data":{"third":"third","first":"first","second":"second"}}"#))

        // A query's fields run together: all three reach the gate before any is let through.
        let query = Task { try await harness.plain("{ first second third }") }
        var seen: Set<String> = []
        for _ in 0..<3 { if let name = await arrivals.next() { seen.insert(name) } }
        #expect(seen == ["first", "second", "third"])
        #expect(gate.waiting == ["first", "second", "third"])
        for name in ["third", "second", "first"] { gate.release(name) }
        // The result keeps field order whatever order they finished in.
        #expect(try await query.value == json(#"{"data":{"first":"first","second":"second","third":"third"}}"#))
    }

    @Test func aFailedMutationFieldStopsTheRestWhenItIsNonNull() async throws {
        let calls = Mutex(0)
        var resolvers = Resolvers(defaultResolution: .everywhere)
        resolvers.field("Mutation.fail") { _ in throw FieldError("nope", code: "FORBIDDEN") }
        resolvers.field("Mutation.count") { _ in calls.withLock { $0 += 1 }; return .int(1) }
        let harness = try ExecutionHarness("type Query { a: Int } type Mutation { fail: Int!, count: Int }", resolvers: resolvers)
        let response = try await harness.run("mutation { fail count }")
        #expect(ExecutionHarness.stripExtensions(response) == json(#"{"errors":[{"message":"nope","locations":[{"line":1,"column":12}],"path":["fail"]}],"data":null}"#))
        #expect(ExecutionHarness.codes(response) == ["FORBIDDEN"])
        #expect(calls.withLock { $0 } == 0)
    }

    @Test func internalErrorsAreHiddenFromClientsAndReportedToTheHost() async throws {
        struct Secret: Error {}
        let reported = Mutex<[String]>([])
        var resolvers = Resolvers(defaultResolution: .everywhere)
        resolvers.field("Query.boom") { _ in throw Secret() }
        resolvers.field("Query.slow") { _ in
            try await Task.sleep(for: .milliseconds(1))
            throw FieldError("not yours", code: "FORBIDDEN", extensions: [("retryAfter", .int(3))])
        }
        let harness = try ExecutionHarness(
            "type Query { boom: Int, slow: Int, ok: Int }", resolvers: resolvers,
            configuration: ExecutorConfiguration(onInternalError: { report in
                reported.withLock { $0.append("\(report.coordinate): \(type(of: report.error)) in \(report.context)") }
            }))
        let response = try await harness.run("{ boom slow ok }", root: ["ok": 1], context: "request 7")
        #expect(response.json == json("""
            {"errors":[{"message":"Internal server error","locations":[{"line":1,"column":3}],"path":["boom"],"extensions":{"code":"INTERNAL_SERVER_ERROR"}},
             {"message":"not yours","locations":[{"line":1,"column":8}],"path":["slow"],"extensions":{"code":"FORBIDDEN","retryAfter":3}}],
             "data":{"boom":null,"slow":null,"ok":1}}
            """))
        #expect(reported.withLock { $0 } == ["Query.boom: Secret in request 7"])
    }

    @Test func asyncNonNullFailuresPropagateThroughCompletedParents() async throws {
        var resolvers = Resolvers(defaultResolution: .everywhere)
        resolvers.field("Item.late") { input in
            await Task.yield()
            if case .value(let data) = input.source, data["id"] == 2 { return .null }
            return .int(1)
        }
        let harness = try ExecutionHarness("type Query { items: [Item] } type Item { id: Int, late: Int! }", resolvers: resolvers)
        let response = try await harness.plain("{ items { id late } }", root: ["items": [["id": 1], ["id": 2], ["id": 3]]])
        #expect(response == json("""
            {"errors":[{"message":"Cannot return null for non-nullable field Item.late.","locations":[{"line":1,"column":14}],"path":["items",1,"late"]}],
             "data":{"items":[{"id":1,"late":1},null,{"id":3,"late":1}]}}
            """))
    }

    @Test func aWideLevelOfSuspendedFieldsCompletesEachAndReportsErrorsInFieldOrder() async throws {
        var resolvers = Resolvers(defaultResolution: .everywhere)
        resolvers.field("Item.late") { input in
            guard case .value(let data) = input.source, case .int(let id)? = data["id"] else { return .null }
            // Items answer after none, one or two yields: they finish out of field order.
            for _ in 0..<(id % 3) { await Task.yield() }
            if id % 2_500 == 7 { throw FieldError("late \(id)", code: "FORBIDDEN") }
            return .int(id * 2)
        }
        let harness = try ExecutionHarness("type Query { items: [Item] } type Item { id: Int, late: Int }", resolvers: resolvers)
        let count = 10_000
        let items = GraphQLValue.list((0..<count).map { ["id": .int($0)] })
        let response = try await harness.run("{ items { late } }", root: ["items": items])
        let failed = (0..<count).filter { $0 % 2_500 == 7 }
        let expected: [GraphQLValue] = (0..<count).map { id in failed.contains(id) ? ["late": .null] : ["late": .int(id * 2)] }
        #expect(response["data"]?["items"] == .list(expected))
        #expect(ExecutionHarness.messages(response) == failed.map { "late \($0)" })
    }

    @Test func hostObjectsAreReadThroughFieldReadableOrTheirProperties() async throws {
        struct Household: Sendable {
            var name: String
            var size: Int
            var tags: [String]
            var owner: Person?
        }
        struct Person: GraphQLFieldReadable {
            var first: String
            func graphQLField(_ name: String) -> Resolved { name == "display" ? .string("Dr. " + first) : .null }
        }
        var resolvers = Resolvers(defaultResolution: .everywhere)
        resolvers.field("Query.home") { _ in .object(Household(name: "Elm St", size: 3, tags: ["a", "b"], owner: Person(first: "Jo"))) }
        let harness = try ExecutionHarness(
            "type Query { home: Household } type Household { name: String, size: Int, tags: [String], owner: Person } type Person { display: String }",
            resolvers: resolvers)
        #expect(try await harness.plain("{ home { name size tags owner { display } } }")
            == json(#"{"data":{"home":{"name":"Elm St","size":3,"tags":["a","b"],"owner":{"display":"Dr. Jo"}}}}"#))
    }

    @Test func bindingNamesEveryUnboundFieldAndUnknownCoordinate() throws {
        let schema = try SchemaBuilder.build(sdl: "type Query { households: [Household] } type Household { name: String, members: Int }")
        var resolvers = Resolvers(defaultResolution: .types(["Household"]))
        resolvers.field("Query.houshold") { _ in .null }
        resolvers.typeResolver("Household") { _, _ in nil }
        #expect(throws: ExecutableSchema.BindingError.self) { try ExecutableSchema(schema, resolvers: resolvers) }
        do {
            _ = try ExecutableSchema(schema, resolvers: resolvers)
        } catch {
            #expect(error.problems == [
                "Query.households: no resolver (and the default resolver is not enabled for Query)",
                "Query.houshold: resolver names a field the schema does not define (did you mean Query.households?)",
                "Household: type resolver names a type that is not an interface or union of the schema",
            ])
        }
    }

    @Test func operationSelectionErrors() async throws {
        let harness = try ExecutionHarness("type Query { a: Int }")
        let two = "query A { a } query B { a }"
        #expect(ExecutionHarness.messages(try await harness.run(two)) == ["Must provide operation name if query contains multiple operations."])
        #expect(ExecutionHarness.messages(try await harness.run(two, operationName: "C")) == ["Unknown operation named \"C\"."])
        #expect(try await harness.plain(two, root: ["a": 1], operationName: "B") == json(#"{"data":{"a":1}}"#))
        let syntax = await harness.executor.execute(GraphQLRequest(query: "{ a"))
        #expect(syntax.refusal == .syntax)
        #expect(syntax.errors.first?.code == "GRAPHQL_PARSE_FAILED")
        let invalid = await harness.executor.execute(GraphQLRequest(query: "{ b }"))
        #expect(invalid.refusal == .validation)
        #expect(invalid.jsonText == json(#"{"errors":[{"message":"Cannot query field \"b\" on type \"Query\". Did you mean \"a\"?","locations":[{"line":1,"column":3}],"extensions":{"code":"GRAPHQL_VALIDATION_FAILED"}}]}"#))
    }
}
