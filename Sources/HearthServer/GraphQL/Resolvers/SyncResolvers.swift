import Foundation
import GraphQLEngine
import HearthCore

/// `schema.graphql`'s sync fields (`sync`, `push`, `syncAvailable`) mapped onto ``SyncService``;
/// the types they answer with are in `Types/SyncChange+GraphQL.swift`.
enum SyncResolvers {
    /// At most one poke per subscriber this often.
    static let pokeSpacing: Duration = .milliseconds(250)

    static func register(_ resolvers: inout Resolvers, sync: SyncService) {
        resolvers.field("Query.sync") { input in
            let caller = try await input.caller()
            let page = try await sync.pull(caller, householdID: try input.id("householdId"), after: input[argument: "after"].stringValue,
                                           first: input[argument: "first"].intValue ?? 500, clientID: input[argument: "clientId"].uuidValue)
            return .object(page)
        }
        resolvers.field("Mutation.push") { input in
            let caller = try await input.caller()
            let client = try input.id("clientId")
            let mutations = try (input[argument: "mutations"].listValue ?? []).enumerated().map { index, value throws(ServiceError) in
                try ClientMutationArguments.mutation(value, at: index)
            }
            return .object(try await sync.push(caller, clientID: client, mutations: mutations))
        }
        resolvers.subscription("Subscription.syncAvailable") { input in
            let caller = try await input.caller()
            let household = try input.id("householdId")
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
