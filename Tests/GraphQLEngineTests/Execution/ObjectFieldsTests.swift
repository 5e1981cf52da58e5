import Testing

@testable import GraphQLEngine

/// Field tables of typed parents: reads get the parent already typed, resolvers get it with their
/// input, a wrong parent is an internal error naming the field, and a table's gaps fail binding.
@Suite struct ObjectFieldsTests {
    struct Shop: Sendable {
        var name: String
        var prices: [Int]
    }

    struct Price: Sendable {
        var cents: Int
    }

    static let sdl = """
        type Query { shop: Shop, notAShop: Shop }
        type Shop { name: String!, shout(times: Int = 1): String!, cheapest(under: Int!): Price, label(style: String! = "plain"): String }
        type Price { cents: Int! }
        """

    static func resolvers() -> Resolvers {
        var resolvers = Resolvers()
        resolvers.field("Query.shop") { _ in .object(Shop(name: "Corner", prices: [300, 120, 450])) }
        resolvers.field("Query.notAShop") { _ in .object(Price(cents: 1)) }
        resolvers.object("Shop", Shop.self) { shop in
            shop.field("name") { .string($0.name) }
            shop.field("label") { .string("[\($0.name)]") }
            shop.resolve("shout") { parent, input in
                guard case .int(let times)? = input[argument: "times"] else { return .null }
                return .string(Array(repeating: parent.name.uppercased(), count: times).joined(separator: " "))
            }
            shop.resolve("cheapest") { parent, input in
                guard case .int(let limit)? = input[argument: "under"] else { return .null }
                return .optional(parent.prices.filter { $0 < limit }.min().map(Price.init(cents:)))
            }
        }
        resolvers.object("Price", Price.self) { price in
            price.field("cents") { .int($0.cents) }
        }
        return resolvers
    }

    @Test func readsAndResolversReceiveTheTypedParent() async throws {
        let harness = try ExecutionHarness(Self.sdl, resolvers: Self.resolvers())
        let response = try await harness.plain(#"{ shop { name label shout(times: 2) cheapest(under: 200) { cents } none: cheapest(under: 100) { cents } } }"#)
        #expect(response == json(#"{"data":{"shop":{"name":"Corner","label":"[Corner]","shout":"CORNER CORNER","cheapest":{"cents":120},"none":null}}}"#))
    }

    @Test func aParentOfAnotherTypeIsAnInternalErrorNamingTheField() async throws {
        let harness = try ExecutionHarness(Self.sdl, resolvers: Self.resolvers())
        let response = try await harness.run("{ notAShop { name } }")
        #expect(ExecutionHarness.messages(response) == ["Internal server error"])
        #expect(ExecutionHarness.codes(response) == ["INTERNAL_SERVER_ERROR"])
        #expect(response["data"] == ["notAShop": nil])
    }

    @Test func aReadFieldsArgumentsStillCoerce() async throws {
        let harness = try ExecutionHarness(Self.sdl, resolvers: Self.resolvers())
                // A nullable variable with a default may fill a non-null argument; an explicit null fails that field alone.
        let response = try await harness.run(#"query ($s: String = "bold") { shop { label(style: $s) } }"#, variables: ["s": nil])
        #expect(ExecutionHarness.codes(response) == ["BAD_USER_INPUT"])
        #expect(response["data"] == ["shop": ["label": nil]])
    }

    @Test func aTableThatMissesAFieldFailsBinding() throws {
        var resolvers = Self.resolvers()
        resolvers.object("Price", Price.self) { price in price.field("euros") { .int($0.cents / 100) } }
        let schema = try SchemaBuilder.build(sdl: Self.sdl)
        do {
            _ = try ExecutableSchema(schema, resolvers: resolvers)
            Issue.record("binding accepted a resolver for a field the schema lacks")
        } catch {
            #expect(error.problems == [
                "Price.euros: resolver names a field the schema does not define",
            ])
        }
    }
}
