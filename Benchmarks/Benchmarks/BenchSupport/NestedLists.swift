import GraphQLEngine

/// The 10 × 10 × 10 nested-lists case of the execution benchmarks (graphql-js's is in
/// scripts/bench/graphql-js-execution.js): a list of ten objects, each with ten children, each with
/// ten children, the children made by resolvers that answer at once, suspend first, or load
/// through a DataLoader.
public enum NestedLists {
    public static let sdl =
        "type Query { items: [A] } type A { id: Int, children: [B] } type B { id: Int, children: [C] } type C { id: Int, name: String }"
    public static let query = "{ items { id children { id children { id name } } } }"

    public enum Resolution: String, Sendable, CaseIterable {
        case sync, async, dataloader
    }

    /// The resolvers of the three list fields, resolving as `resolution` says.
    public static func resolvers(_ resolution: Resolution) -> Resolvers {
        var resolvers = Resolvers(defaultResolution: .everywhere)
        switch resolution {
        case .sync:
            resolvers.field("Query.items") { _ in children(of: 0) }
            resolvers.field("A.children") { input in children(of: parentID(input)) }
            resolvers.field("B.children") { input in children(of: parentID(input)) }
        case .async:
            resolvers.field("Query.items") { _ in await Task.yield(); return children(of: 0) }
            resolvers.field("A.children") { input in await Task.yield(); return children(of: parentID(input)) }
            resolvers.field("B.children") { input in await Task.yield(); return children(of: parentID(input)) }
        case .dataloader:
            resolvers.field("Query.items") { input in try await load(input) }
            resolvers.field("A.children") { input in try await load(input) }
            resolvers.field("B.children") { input in try await load(input) }
        }
        return resolvers
    }

    @Sendable static func children(of id: Int) -> Resolved {
        .list((0..<10).map { .value(["id": .int(id * 10 + $0), "name": "n"]) })
    }

    @Sendable static func parentID(_ input: FieldInput) -> Int {
        if case .value(let data) = input.source, case .int(let id)? = data["id"] { return id }
        return 0
    }

    @Sendable static func load(_ input: FieldInput) async throws -> Resolved {
        let loader = input.request.loader("children") { (ids: [Int]) -> [Result<Resolved, any Error>] in
            ids.map { .success(children(of: $0)) }
        }
        return try await loader.load(parentID(input))
    }
}
