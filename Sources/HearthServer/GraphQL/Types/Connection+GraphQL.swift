import GraphQLEngine
import HearthCore

/// `…Connection`, `…Edge` and `PageInfo`: a ``Page`` of any item, read as the Relay shape.
enum ConnectionFields {
    /// One edge of a page, by its place in the page's items: two words, so the engine holds it
    /// without a box of its own (an edge copied out of the page would be one allocation each).
    struct Edge<Item: Sendable>: Sendable {
        let items: [(cursor: String, item: Item)]
        let index: Int
    }

    /// `hasNextPage` and `endCursor` of a page, the parent of `PageInfo`.
    struct PageInfo: Sendable {
        let hasNextPage: Bool
        let endCursor: String?
    }

    /// The field tables of the connection type `name` + "Connection" and its edge type, whose nodes are `Item`s.
    static func register<Item: Sendable>(_ resolvers: inout Resolvers, _ name: String, of item: Item.Type) {
        resolvers.object(name + "Connection", Page<Item>.self) { connection in
            connection.field("edges") { page in .list(page.items.indices.map { .object(Edge(items: page.items, index: $0)) }) }
            connection.field("pageInfo") { .object(PageInfo(hasNextPage: $0.hasNextPage, endCursor: $0.items.last?.cursor)) }
            connection.field("totalCount") { .int($0.totalCount) }
        }
        resolvers.object(name + "Edge", Edge<Item>.self) { edge in
            edge.field("node") { .object($0.items[$0.index].item) }
            edge.field("cursor") { .string($0.items[$0.index].cursor) }
        }
    }

    static func registerPageInfo(_ resolvers: inout Resolvers) {
        resolvers.object("PageInfo", PageInfo.self) { info in
            info.field("hasNextPage") { .bool($0.hasNextPage) }
            info.field("endCursor") { .string(orNull: $0.endCursor) }
        }
    }
}
