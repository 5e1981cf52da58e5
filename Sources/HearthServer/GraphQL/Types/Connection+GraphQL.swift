import GraphQLEngine
import HearthCore

/// `…Connection`, `…Edge` and `PageInfo`: a ``Page`` of any item, read as the Relay shape.
enum ConnectionFields {
    /// One entry of a page, the parent of an edge.
    typealias Entry<Item> = (cursor: String, item: Item)

    /// `hasNextPage` and `endCursor` of a page, the parent of `PageInfo`.
    struct PageInfo: Sendable {
        let hasNextPage: Bool
        let endCursor: String?
    }

    /// The field tables of the connection type `name` + "Connection" and its edge type, whose nodes are `Item`s.
    static func register<Item: Sendable>(_ resolvers: inout Resolvers, _ name: String, of item: Item.Type) {
        resolvers.object(name + "Connection", Page<Item>.self) { connection in
            // Held by their places in the page (see `Resolved.objects`): no box an edge.
            connection.field("edges") { .objects($0.items as [Entry<Item>]) }
            connection.field("pageInfo") { .object(PageInfo(hasNextPage: $0.hasNextPage, endCursor: $0.items.last?.cursor)) }
            connection.field("totalCount") { .int($0.totalCount) }
        }
        resolvers.object(name + "Edge", Entry<Item>.self) { edge in
            edge.field("node") { .object($0.item) }
            edge.field("cursor") { .string($0.cursor) }
        }
    }

    static func registerPageInfo(_ resolvers: inout Resolvers) {
        resolvers.object("PageInfo", PageInfo.self) { info in
            info.field("hasNextPage") { .bool($0.hasNextPage) }
            info.field("endCursor") { .string(orNull: $0.endCursor) }
        }
    }
}
