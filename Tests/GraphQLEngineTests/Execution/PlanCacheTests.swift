import Testing

@testable import GraphQLEngine

/// Selection plans shared by the executions of a cached document: built at an operation's second
/// execution, complete for every type an abstract field may return, and never shared when a
/// variable `@skip`/`@include` could change them.
@Suite struct PlanCacheTests {
    static let sdl = """
        type Query { pets: [Pet], owner(name: String): Person }
        interface Pet { name: String }
        type Dog implements Pet { name: String, barks: Boolean }
        type Cat implements Pet { name: String, lives: Int }
        type Person { name: String, pets: [Pet] }
        """

    static let root: GraphQLValue = [
        "pets": [["__typename": "Dog", "name": "Rex", "barks": true], ["__typename": "Cat", "name": "Tom", "lives": 9]],
        "owner": ["name": "Ada", "pets": [["__typename": "Cat", "name": "Tom", "lives": 9]]],
    ]

    static func harness() throws -> ExecutionHarness {
        try ExecutionHarness(sdl, configuration: ExecutorConfiguration(documentCacheCapacity: 10))
    }

    @Test func aRepeatedQueryAnswersTheSameFromItsSharedPlan() async throws {
        let harness = try Self.harness()
        let query = """
            query Pets { pets { name ... on Dog { barks } ...CatFields } owner(name: "Ada") { name pets { __typename name } } }
            fragment CatFields on Cat { lives }
            """
        let expected = json(#"""
            {"data":{"pets":[{"name":"Rex","barks":true},{"name":"Tom","lives":9}],"owner":{"name":"Ada","pets":[{"__typename":"Cat","name":"Tom"}]}}}
            """#)
        // The first run plans as it goes; the second builds the shared plan; later ones reuse it.
        for _ in 0..<4 { #expect(try await harness.plain(query, root: Self.root) == expected) }
        let prepared = harness.executor.prepare(query)
        let operation = try #require(prepared.chosenOperation(named: nil))
        let shared = try #require(prepared.plans.root(of: operation) { nil })
        #expect(shared.fields.map(\.responseKey) == ["pets", "owner"])
        #expect(shared.fields.allSatisfy { $0.isShared })
        // Both object types a Pet may be have their plan, whichever the data held.
        let pets = try #require(shared.fields.first)
        #expect(Set(pets.subPlans.values.map(\.type.name)) == ["Dog", "Cat"])
    }

    @Test func eachOperationOfADocumentIsSharedFromItsOwnSecondExecution() async throws {
        let harness = try Self.harness()
        let query = """
            query A { pets { name } }
            query B { owner(name: "Ada") { name } }
            query C { pets { __typename } }
            """
        let prepared = harness.executor.prepare(query)
        let operations = try ["A", "B", "C"].map { try #require(prepared.chosenOperation(named: $0)) }
        var builds = 0
        func root(_ index: Int) -> SelectionPlan? {
            prepared.plans.root(of: operations[index]) {
                builds += 1
                return nil
            }
        }
        // Seen once each (the first operation is kept apart from the others): nothing built.
        for index in 0..<3 { #expect(root(index) == nil) }
        #expect(builds == 0)
        // The second time, each is built once; a third time builds nothing more.
        for index in [1, 0, 2, 1, 0, 2] { _ = root(index) }
        #expect(builds == 3)
    }

    @Test func concurrentExecutionsShareOnePlan() async throws {
        let harness = try Self.harness()
        let query = "{ pets { name ... on Cat { lives } } }"
        let expected = json(#"{"data":{"pets":[{"name":"Rex"},{"name":"Tom","lives":9}]}}"#)
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<64 { group.addTask { try await harness.plain(query, root: Self.root) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 64)
        #expect(answers.allSatisfy { $0 == expected })
    }

    @Test func aVariableSkipOrIncludeKeepsPlansPerRequest() async throws {
        let harness = try Self.harness()
        let query = "query ($withLives: Boolean!) { pets { name ... on Cat { lives @include(if: $withLives) } } }"
        for withLives in [true, false, true, false] {
            let lives = withLives ? #","lives":9"# : ""
            #expect(try await harness.plain(query, root: Self.root, variables: ["withLives": .bool(withLives)])
                == json(#"{"data":{"pets":[{"name":"Rex"},{"name":"Tom"\#(lives)}]}}"#))
        }
        let prepared = harness.executor.prepare(query)
        let operation = try #require(prepared.chosenOperation(named: nil))
        #expect(prepared.plans.root(of: operation) { nil } == nil)
    }
}
