import HearthCore

/// Decides whether this instance should receive traffic: the database answers and every
/// migration this build knows is applied, with no changed or missing migration.
public struct ReadinessCheck: Sendable {
    public let database: Database
    public let migrator: Migrator

    public init(database: Database, migrator: Migrator) {
        self.database = database
        self.migrator = migrator
    }

    /// `nil` when ready, else the reasons it is not. Reading the migration state is the
    /// reachability check too: a database that cannot answer it is unreachable for Hearth.
    public func notReadyReasons() async -> [String]? {
        if database.status.isKnownDown { return ["database unreachable: the embedded PostgreSQL server is being started again"] }
        let client = database.client
        let migrator = self.migrator
        let status: Migrator.Status
        do {
            status = try await withTimeout(database.healthCheckTimeout) { try await migrator.status(client) }
        } catch {
            return ["database unreachable: \(ErrorText.oneLine(error))"]
        }
        var reasons = status.problems.map(\.description)
        if !status.pending.isEmpty {
            reasons.append("migrations not applied yet: \(status.pending.map(String.init).joined(separator: ", "))")
        }
        return reasons.isEmpty ? nil : reasons
    }
}
