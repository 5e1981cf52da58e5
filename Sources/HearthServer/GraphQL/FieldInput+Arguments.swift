import Foundation
import GraphQLEngine
import HearthCore

/// The arguments Hearth's fields share, read as Swift values; a refusal is `BAD_USER_INPUT`
/// naming the argument.
extension FieldInput {
    /// A required `UUID` argument.
    func id(_ name: String) throws(ServiceError) -> UUID {
        guard let id = self[argument: name].uuidValue else { throw ServiceError.invalidInput(field: name, message: "\(name) must be a UUID.") }
        return id
    }

    /// An optional list of `UUID`s (nil when absent).
    func ids(_ name: String) throws(ServiceError) -> [UUID]? {
        guard let items = self[argument: name].listValue else { return nil }
        var ids: [UUID] = []
        for item in items {
            guard let id = item.uuidValue else { throw ServiceError.invalidInput(field: name, message: "\(name) must hold UUIDs.") }
            ids.append(id)
        }
        return ids
    }

    /// A Boolean argument; false when absent or null.
    func flag(_ name: String) -> Bool { self[argument: name].boolValue ?? false }

    /// `first` and `after` as a page request (counting the total only when the selection asks for `totalCount`).
    func page() throws(PageRequestError) -> PageRequest {
        try PageRequest(first: self[argument: "first"].intValue, after: self[argument: "after"].stringValue, countsTotal: info.selects("totalCount"))
    }

    /// A required `HouseholdRole` argument.
    func role(_ name: String = "role") throws -> HouseholdRole {
        guard let role = self[argument: name].stringValue else { throw ServiceError.invalidInput(field: name, message: "\(name) is required.") }
        return try HouseholdRole.parse(role, field: name)
    }
}
