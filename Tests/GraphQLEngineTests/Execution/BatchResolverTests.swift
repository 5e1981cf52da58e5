import Synchronization
import Testing

@testable import GraphQLEngine

/// Batched fields: the positions one planned field reaches in a level are resolved by one call
/// (the parents in order, their shared arguments), each position gets its own answer, a thrown
/// error fails each position (and only those), and an answer of the wrong length is internal.
@Suite struct BatchResolverTests {
    struct Shop: Sendable {
        var name: String
        var prices: [Int]
    }

    /// What each call of the batched field received: the parents' names and the argument.
    final class Calls: Sendable {
        let seen = Mutex<[[String]]>([])
        var all: [[String]] { seen.withLock { $0 } }
    }

    struct Under: Decodable, Sendable { var limit: Int }

    static let sdl = """
        type Query { shops: [Shop!]!, more: [Shop!]! }
        type Shop { name: String!, cheapest(limit: Int! = 1000): Int, broken: Int, miscounted: Int }
        """

    static func harness(_ calls: Calls) throws -> ExecutionHarness {
        var resolvers = Resolvers()
        let shops = [Shop(name: "Corner", prices: [300, 120]), Shop(name: "Market", prices: [90, 500]), Shop(name: "Kiosk", prices: [])]
        resolvers.field("Query.shops") { _ in .objects(shops) }
        resolvers.field("Query.more") { _ in .objects(shops.reversed()) }
        resolvers.object("Shop", Shop.self) { shop in
            shop.field("name") { .string($0.name) }
            shop.resolveBatch("cheapest", arguments: Under.self) { parents, under, _ in
                calls.seen.withLock { $0.append(parents.map(\.name) + ["< \(under.limit)"]) }
                return parents.map { parent in parent.prices.filter { $0 < under.limit }.min().map(Resolved.int) ?? .null }
            }
            shop.resolveBatch("broken") { _, _ in throw FieldError("The till is closed.", code: "UNAVAILABLE") }
            shop.resolveBatch("miscounted") { parents, _ in parents.dropFirst().map { _ in .int(1) } }
        }
        return try ExecutionHarness(sdl, resolvers: resolvers)
    }

    @Test func oneCallPerPlannedFieldWithTheParentsInOrder() async throws {
        let calls = Calls()
        let harness = try Self.harness(calls)
        let response = try await harness.plain("{ shops { name cheapest low: cheapest(limit: 100) } more { cheapest } }")
        #expect(response == json("""
            {"data":{"shops":[{"name":"Corner","cheapest":120,"low":null},{"name":"Market","cheapest":90,"low":90},\
            {"name":"Kiosk","cheapest":null,"low":null}],"more":[{"cheapest":null},{"cheapest":90},{"cheapest":120}]}}
            """))
        // Three planned fields (two aliases under `shops`, one under `more`): three calls, not nine.
        #expect(calls.all.sorted { $0.joined() < $1.joined() } == [
            ["Corner", "Market", "Kiosk", "< 100"], ["Corner", "Market", "Kiosk", "< 1000"], ["Kiosk", "Market", "Corner", "< 1000"],
        ])
    }

    @Test func aThrownErrorFailsEachPositionOfThatFieldOnly() async throws {
        let harness = try Self.harness(Calls())
        let response = try await harness.run("{ shops { name broken } }")
        #expect(ExecutionHarness.messages(response) == Array(repeating: "The till is closed.", count: 3))
        #expect(ExecutionHarness.codes(response) == Array(repeating: "UNAVAILABLE", count: 3))
        #expect(response["data"] == ["shops": [["name": "Corner", "broken": nil], ["name": "Market", "broken": nil], ["name": "Kiosk", "broken": nil]]])
    }

    @Test func anAnswerOfTheWrongLengthIsInternal() async throws {
        let harness = try Self.harness(Calls())
        let response = try await harness.run("{ shops { miscounted } }")
        #expect(ExecutionHarness.codes(response) == Array(repeating: "INTERNAL_SERVER_ERROR", count: 3))
    }
}
