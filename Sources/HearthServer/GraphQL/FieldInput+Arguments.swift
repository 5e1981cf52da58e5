import Foundation
import GraphQLEngine
import HearthCore

/// `id: UUID!`, the argument of every field that reads or changes one thing.
struct IDArgument: Decodable { var id: UUID }

/// `id: UUID!` with `expectedVersion: Int` (optimistic concurrency: a stale version is a conflict).
struct VersionedID: Decodable { var id: UUID, expectedVersion: Int? }

/// `householdId: UUID!`, the argument of every root field about one household.
struct HouseholdArgument: Decodable { var householdId: UUID }

/// `id: ID!` of a store event: a number written as text (any other text names no event).
struct EventIDArgument: Decodable {
    var id: String
    var event: Int64? { Int64(id) }
}

/// `first` and `after`, the page arguments of every connection.
struct PageArguments: Decodable { var first: Int?, after: String? }

extension FieldInput {
    /// `first` and `after` as a page request: the total counted only when the selection asks for
    /// `totalCount`, cursors made only when it asks for an edge's `cursor` or the `pageInfo`.
    func page() throws -> PageRequest {
        let page = try arguments(PageArguments.self)
        return try PageRequest(first: page.first, after: page.after, countsTotal: info.selects("totalCount"),
                               makesCursors: info.selects(path: ["edges", "cursor"]) || info.selects("pageInfo"))
    }
}

extension InputPatch where Value == String {
    /// An update's field that may be left out but not cleared: its value, nil when absent, and
    /// `BAD_USER_INPUT` naming `field` for an explicit null.
    func notNull(_ field: String) throws(ServiceError) -> String? {
        switch self {
        case .set(let value): value
        case .unchanged: nil
        case .cleared: throw ServiceError.invalidInput(field: field, message: "\(field) cannot be null.")
        }
    }
}
