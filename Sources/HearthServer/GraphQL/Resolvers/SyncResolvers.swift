import Foundation
import GraphQLEngine
import HearthCore
import Synchronization

/// `schema.graphql`'s sync fields (`sync`, `push`, `syncAvailable`) mapped onto ``SyncService``;
/// the types they answer with are in `Types/SyncChange+GraphQL.swift`.
enum SyncResolvers {
    /// At most one poke per subscriber this often.
    static let pokeSpacing: Duration = .milliseconds(250)

    /// `sync(householdId:after:first:clientId:)`.
    private struct Pull: Decodable { var householdId: UUID, after: String?, first: Int, clientId: UUID? }
    /// `push(clientId:mutations:)`.
    private struct Push: Decodable { var clientId: UUID, mutations: [ClientMutationArguments] }
    /// `syncAvailable(householdId:clientId:)`.
    private struct Poke: Decodable { var householdId: UUID, clientId: UUID? }

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
            let arguments = try input.arguments(Poke.self)
            let (household, client) = (arguments.householdId, arguments.clientId)
            // Refused at once when the household cannot be read (NOT_FOUND), as a pull would be.
            try await sync.mayPull(caller, householdID: household)
            let pokes = sync.pokes.subscribe()
            // Pokes arriving while one is spaced out fold into a single trailing one, which is the
            // subscriber's own only when every commit folded into it was its client's push.
            let (wake, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let othersSinceLastPoke = CommitOrigins()
            return AsyncThrowingStream { continuation in
                let listener = Task {
                    for await commit in pokes where commit.householdID == household {
                        if client == nil || commit.clientID != client { othersSinceLastPoke.noteOthers() }
                        wakeUp.yield()
                    }
                    wakeUp.finish()
                }
                let sender = Task {
                    var sequence = 0
                    for await _ in wake {
                        // Membership is checked again per poke (the caller made anew): someone removed stops receiving.
                        guard let caller = try? await input.caller(), (try? await sync.mayPull(caller, householdID: household)) != nil else { break }
                        sequence += 1
                        let others = othersSinceLastPoke.takeOthers()
                        continuation.yield(.object(SyncPoke(householdID: household, sequence: sequence, fromYourPush: !others)))
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

/// Whether a commit not pushed by a subscription's client arrived since its last poke.
private final class CommitOrigins: Sendable {
    private let others = Atomic<Bool>(false)

    func noteOthers() { others.store(true, ordering: .sequentiallyConsistent) }

    /// Whether one did, forgetting it.
    func takeOthers() -> Bool { others.exchange(false, ordering: .sequentiallyConsistent) }
}

/// One `syncAvailable` message.
struct SyncPoke: Sendable {
    var householdID: UUID
    var sequence: Int
    /// Every commit it announces was a push by the subscriber's `clientId`.
    var fromYourPush: Bool
}
