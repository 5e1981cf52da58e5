import Foundation
import GraphQLEngine
import HearthCore

extension Resolvers {
    /// A mutation that deletes what its `id` argument names, as the signed-in caller, and answers that id.
    mutating func deletion(_ coordinate: String, _ delete: @escaping @Sendable (_ caller: Caller, _ id: UUID) async throws -> Void) {
        field(coordinate, arguments: IDArgument.self) { input, arguments in
            try await delete(try await input.caller(), arguments.id)
            return .id(arguments.id)
        }
    }
}
