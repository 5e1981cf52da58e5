import Foundation
import GraphQLEngine

extension Resolvers {
    /// A mutation that deletes what its `id` argument names, as the signed-in caller, and answers that id.
    mutating func deletion(_ coordinate: String, _ delete: @escaping @Sendable (_ actor: UUID, _ id: UUID) async throws -> Void) {
        field(coordinate) { input in
            let actor = try input.signedIn().user.id
            let id = try input.id("id")
            try await delete(actor, id)
            return .id(id)
        }
    }
}
