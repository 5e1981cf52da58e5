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

    /// `nil` when ready, else the reasons it is not.
    public func notReadyReasons() async -> [String]? {
        do {
            try await database.ping()
        } catch {
            return ["database unreachable: \(Database.describe(error))"]
        }
        do {
            let client = database.client
            let migrator = self.migrator
            let status = try await withTimeout(database.healthCheckTimeout) { try await migrator.status(client) }
            var reasons = status.problems.map(\.description)
            if !status.pending.isEmpty {
                reasons.append("migrations not applied yet: \(status.pending.map(String.init).joined(separator: ", "))")
            }
            return reasons.isEmpty ? nil : reasons
        } catch {
            return ["cannot read migration state: \(Database.describe(error))"]
        }
    }
}
