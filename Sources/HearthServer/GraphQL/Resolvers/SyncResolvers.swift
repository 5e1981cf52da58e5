import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s sync fields (`sync`, `push`, `syncAvailable`) mapped onto ``SyncService``;
/// the types they answer with are in `Types/SyncChange+GraphQL.swift`.
enum SyncResolvers {
    /// At most one poke per subscriber this often.
    static let pokeSpacing: Duration = .milliseconds(250)

    /// `sync(householdId:after:first:clientId:)`.
    private struct Pull: Decodable { var householdId: UUID, after: String?, first: Int, clientId: UUID? }
    /// `push(clientId:mutations:)`.
    private struct Push: Decodable { var clientId: UUID, mutations: [ClientMutationArguments] }

    static func register(_ resolvers: inout Resolvers, sync: SyncService) {
        resolvers.field("Query.sync", arguments: Pull.self) { input, arguments in
            .object(try await sync.pull(try await input.caller(), householdID: arguments.householdId, after: arguments.after,
                                        first: arguments.first, clientID: arguments.clientId))
        }
        resolvers.field("Mutation.push", arguments: Push.self) { input, arguments in
            let mutations = try arguments.mutations.enumerated().map { index, mutation throws(ServiceError) in
                try mutation.mutation(at: index)
            }
            return .object(try await sync.push(try await input.caller(), clientID: arguments.clientId, mutations: mutations))
        }
        resolvers.subscription("Subscription.syncAvailable") { input in
            let caller = try await input.caller()
            let household = try input.arguments(HouseholdArgument.self).householdId
            // Refused at once when the household cannot be read (NOT_FOUND), as a pull would be.
            try await sync.mayPull(caller, householdID: household)
            let pokes = sync.pokes.subscribe()
            // Pokes arriving while one is spaced out fold into a single trailing one.
            let (wake, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            return AsyncThrowingStream { continuation in
                let listener = Task {
                    for await poked in pokes where poked == household { wakeUp.yield() }
                    wakeUp.finish()
                }
                let sender = Task {
                    var sequence = 0
                    for await _ in wake {
                        // Membership is checked again per poke (the caller made anew): someone removed stops receiving.
                        guard let caller = try? await input.caller(), (try? await sync.mayPull(caller, householdID: household)) != nil else { break }
                        sequence += 1
                        continuation.yield(.object(SyncPoke(householdID: household, sequence: sequence)))
                        try? await Task.sleep(for: pokeSpacing)  // the rate limit, not a wait for an event
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in
                    listener.cancel()
                    sender.cancel()
                }
            }
        }
    }
}

/// One `syncAvailable` message.
struct SyncPoke: Sendable {
    var householdID: UUID
    var sequence: Int
}
