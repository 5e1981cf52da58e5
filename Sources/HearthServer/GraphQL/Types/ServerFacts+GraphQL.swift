import Foundation
import GraphQLEngine

extension HearthGraphQLSchema.ServerFacts {
    /// `ServerInfo`, read from the facts fixed for the process, and `Heartbeat`.
    static func registerGraphQL(_ resolvers: inout Resolvers) {
        resolvers.object("ServerInfo", HearthGraphQLSchema.ServerFacts.self) { info in
            info.field("version") { .string($0.version) }
            info.field("startedAt") { .date($0.startedAt) }
        }
        resolvers.object("Heartbeat", HearthGraphQLSchema.Heartbeat.self) { beat in
            beat.field("sequence") { .int($0.sequence) }
            beat.field("at") { .date($0.at) }
        }
    }
}
