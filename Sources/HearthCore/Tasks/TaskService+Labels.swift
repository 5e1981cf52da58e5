import Foundation
import Logging
import PostgresNIO

extension TaskService {
    /// Creates a label; a name the household uses already (case aside) is a `conflict`.
    public func createLabel(_ caller: Caller, householdID: UUID, name: String, color: String) async throws -> TaskLabel {
        let write = try await database.transaction(logger: logger) { connection in
            try await self.createLabel(caller, householdID: householdID, id: UUID(), name: name, color: color, on: connection)
        }
        await forgetLabels(of: householdID)
        return try await readableLabel(caller, write.id)
    }

    /// Inserts label `id`. The same id again with the same content changes nothing (a retried
    /// create); with other content, or once deleted, it is a `conflict`.
    func createLabel(_ caller: Caller, householdID: UUID, id: UUID, name rawName: String, color rawColor: String,
                     on connection: PostgresConnection) async throws -> (id: UUID, version: Int) {
        _ = try await households.readableHousehold(caller, householdID, on: connection)
        try caller.authorize("create", .ofHousehold("Label", householdID))
        let name = try TaskDraft.labelName(rawName, field: "name")
        let color = try LabelColor.parse(rawColor)
        let existing = try await Self.decodeLabels(try await connection.query(
            "SELECT \(unescaped: Self.labelColumns) FROM labels WHERE id = \(id)", logger: logger)).first
        if let existing {
            guard existing.householdID == householdID, existing.name == name, existing.color == color else {
                throw ServiceError.conflict("A label with id \(id.lowercasedString) exists with other content; use a new id for a new label.")
            }
            return (id, existing.version)
        }
        if try await Self.tombstone("LABEL", id.lowercasedString, caller: caller, subject: "Label", on: connection, logger: logger) != nil {
            throw ServiceError.conflict("The label with id \(id.lowercasedString) was deleted; use a new id for a new label.")
        }
        try await Self.requireRoomForLabels(1, householdID: householdID, on: connection, logger: logger)
        let version = try await Self.uniqueName(name) {
            let rows = try await connection.query("""
                INSERT INTO labels (id, household_id, name, color, created_at)
                VALUES (\(id), \(householdID), \(name), \(color), \(self.clock.now))
                ON CONFLICT (household_id, lower(name)) DO NOTHING RETURNING version
                """, logger: self.logger)
            for try await version in rows.decode(Int.self) { return Optional(version) }
            return nil
        }
        guard let version else { throw Self.nameTaken(name) }
        return (id, version)
    }

    static func nameTaken(_ name: String) -> ServiceError {
        .conflict("The household has a label named \"\(name)\" already (names are compared case aside).")
    }

    /// Runs `body`, a write that may break the one-name-per-household rule, answering that as a `conflict`.
    static func uniqueName<T>(_ name: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw nameTaken(name)
        }
    }

    /// The household's labels by name.
    public func labels(_ caller: Caller, householdID: UUID) async throws -> [TaskLabel] {
        _ = try await households.readableHousehold(caller, householdID)
        return try await labels(caller, households: [householdID])[householdID] ?? []
    }

    /// The labels of several households the caller was shown (not read again; households whose
    /// labels they may not read have none), from the cache or, for the rest, one statement.
    public func labels(_ caller: Caller, households ids: [UUID]) async throws -> [UUID: [TaskLabel]] {
        var result: [UUID: [TaskLabel]] = [:]
        var missing: [UUID] = []
        for id in ids where caller.ability.can("read", .ofHousehold("Label", id)) {
            if let cached = labelCache.value(for: id) { result[id] = cached } else { missing.append(id) }
        }
        guard !missing.isEmpty else { return result }
        let ticket = labelCache.beginRead()
        let found = Dictionary(grouping: try await Self.decodeLabels(try await database.client.query(
            "SELECT \(unescaped: Self.labelColumns) FROM labels WHERE household_id = ANY(\(missing)) ORDER BY household_id, lower(name), id",
            logger: logger))) { $0.householdID }
        for id in missing {
            let labels = found[id] ?? []
            labelCache.store(labels, for: id, readSince: ticket)
            result[id] = labels
        }
        return result
    }

    static let labelsTopic = "task-labels"

    /// Drops a household's cached labels after a label write, here and in the other instances.
    func forgetLabels(of householdID: UUID) async {
        labelCache.remove(householdID)
        await database.bus.publish(Self.labelsTopic, householdID)
    }

    /// The labels an item names: by id (of this household), and by name — found case aside or
    /// created gray, which takes the right to create labels. The labels found are locked (`FOR KEY
    /// SHARE`) until the write commits: a label deleted meanwhile is either not found (a refusal naming
    /// it) or waits for this write, never a foreign-key failure when the item links it.
    static func resolveLabels(names: [String], ids: [UUID], householdID: UUID, caller: Caller, now: Date,
                              on connection: PostgresConnection, logger: Logger) async throws -> [TaskLabel] {
        var found: [TaskLabel] = []
        if !ids.isEmpty {
            found = try await decodeLabels(try await connection.query(
                "SELECT \(unescaped: labelColumns) FROM labels WHERE household_id = \(householdID) AND id = ANY(\(ids)) FOR KEY SHARE",
                logger: logger))
            if let missing = ids.first(where: { id in !found.contains { $0.id == id } }) {
                throw ServiceError.invalidInput(field: "labelIds", message: "labelIds names \(missing.lowercasedString), not a label of this household.")
            }
        }
        var wanted: [String] = []
        for name in names where !wanted.contains(where: { $0.lowercased() == name.lowercased() }) { wanted.append(name) }
        guard !wanted.isEmpty else { return found }
        let lowered = wanted.map { $0.lowercased() }
        func byName() async throws -> [String: TaskLabel] {
            let labels = try await decodeLabels(try await connection.query(
                "SELECT \(unescaped: labelColumns) FROM labels WHERE household_id = \(householdID) AND lower(name) = ANY(\(lowered)) FOR KEY SHARE",
                logger: logger))
            return Dictionary(labels.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        }
        var labels = try await byName()
        let missing = wanted.filter { labels[$0.lowercased()] == nil }
        if !missing.isEmpty {
            try caller.authorize("create", .ofHousehold("Label", householdID))
            try await requireRoomForLabels(missing.count, householdID: householdID, on: connection, logger: logger)
            let gray = LabelColor.named.first { $0.name == "gray" }?.hex ?? "#8E8E93"
            // ON CONFLICT: another create made the same label meanwhile; it is read back below.
            try await connection.query("""
                INSERT INTO labels (id, household_id, name, color, created_at)
                SELECT gen_random_uuid(), \(householdID), n, \(gray), \(now) FROM unnest(\(missing)) AS n
                ON CONFLICT (household_id, lower(name)) DO NOTHING
                """, logger: logger)
            labels = try await byName()
        }
        for name in wanted {
            if let label = labels[name.lowercased()], !found.contains(where: { $0.id == label.id }) { found.append(label) }
        }
        return found
    }

    /// A household has at most this many labels, so its label list stays a plain, bounded list.
    public static let maximumLabelsPerHousehold = 500

    /// Refuses (`CONFLICT`) `adding` more labels past ``maximumLabelsPerHousehold``. Takes the
    /// household's row lock first, so two creates cannot both take the last places — in the mode
    /// (`FOR NO KEY UPDATE`) that does not wait for the key-share locks this very transaction and
    /// other writers hold on the household from inserting rows that reference it (an item), which
    /// `FOR UPDATE` would, two such writers then waiting on each other: a deadlock.
    static func requireRoomForLabels(_ adding: Int, householdID: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await HouseholdService.lockHousehold(householdID, on: connection, logger: logger)
        let rows = try await connection.query("SELECT count(*) FROM labels WHERE household_id = \(householdID)", logger: logger)
        var count = 0
        for try await value in rows.decode(Int.self) { count = value }
        guard count + adding <= maximumLabelsPerHousehold else {
            throw ServiceError.conflict(
                "A household has at most \(maximumLabelsPerHousehold) labels and this one has \(count); delete labels it no longer uses first.")
        }
    }

    /// A label's columns (a ``TaskLabelRow``).
    static let labelColumns = "id, household_id, name, color, created_at, version"

    static func decodeLabels(_ rows: PostgresRowSequence) async throws -> [TaskLabel] {
        try await rows.rows(as: TaskLabelRow.self).map(\.label)
    }
}

extension TaskService {
    /// Renames or recolours a label (each only when given); names stay unique case aside. With
    /// `expectedVersion`, refused (`CONFLICT`) when a field it names changed since.
    public func updateLabel(_ caller: Caller, id: UUID, name: String?, color: String?, expectedVersion: Int? = nil) async throws -> TaskLabel {
        let label = try await database.transaction(logger: logger) { connection in
            try await self.updateLabel(caller, id: id, name: name, color: color, expectedVersion: expectedVersion, on: connection)
        }
        await forgetLabels(of: label.householdID)
        return label
    }

    func updateLabel(_ caller: Caller, id: UUID, name rawName: String?, color rawColor: String?, expectedVersion: Int?,
                     on connection: PostgresConnection) async throws -> TaskLabel {
        let (label, versions) = try await lockedLabel(caller, id, forDeletion: false, on: connection)
        try caller.authorize("update", label.subject)
        let name = try rawName.map { text throws(ServiceError) in try TaskDraft.labelName(text, field: "name") }
        let color = try rawColor.map { text throws(ServiceError) in try LabelColor.parse(text) }
        var named: [(name: String, column: String)] = []
        if name != nil { named.append(("name", "name")) }
        if color != nil { named.append(("color", "color")) }
        try versions.refuseStale("Label", expected: expectedVersion, fields: named)
        // Read within the check: the server reports a broken unique rule as the rows are read.
        let updated = try await Self.uniqueName(name ?? label.name) {
            try await Self.decodeLabels(try await connection.query("""
                UPDATE labels SET name = COALESCE(\(name), name), color = COALESCE(\(color), color) WHERE id = \(id)
                RETURNING \(unescaped: Self.labelColumns)
                """, logger: self.logger)).first
        }
        guard let updated else { throw ServiceError.notFound("Label") }
        return updated
    }

    /// Deletes a label; items lose it (admins and owners). With `expectedVersion`, refused
    /// (`CONFLICT`) when the label changed since.
    public func deleteLabel(_ caller: Caller, id: UUID, expectedVersion: Int? = nil) async throws -> TaskLabel {
        let label = try await readableLabel(caller, id)
        _ = try await database.transaction(logger: logger) { connection in
            try await self.deleteLabel(caller, id: id, expectedVersion: expectedVersion, on: connection)
        }
        await forgetLabels(of: label.householdID)
        return label
    }

    /// Deletes the label (its tasks lose it); deleting one deleted already changes nothing.
    /// Returns the household and the tombstone's version.
    func deleteLabel(_ caller: Caller, id: UUID, expectedVersion: Int?, on connection: PostgresConnection) async throws -> (UUID, Int) {
        let locked: (TaskLabel, FieldVersions)
        do {
            locked = try await lockedLabel(caller, id, forDeletion: true, on: connection)
        } catch let error as ServiceError where error.kind == .notFound {
            if let tombstone = try await Self.tombstone("LABEL", id.lowercasedString, caller: caller, subject: "Label", on: connection, logger: logger) {
                return tombstone
            }
            throw error
        }
        try caller.authorize("delete", locked.0.subject)
        try locked.1.refuseStaleDeletion("Label", expected: expectedVersion, names: ["name": "name", "color": "color"])
        try await connection.query("DELETE FROM labels WHERE id = \(id)", logger: logger)
        let tombstone = try await Self.tombstone("LABEL", id.lowercasedString, caller: caller, subject: "Label", on: connection, logger: logger)
        return (locked.0.householdID, tombstone?.version ?? locked.0.version)
    }

    /// The label locked for the rest of the transaction, with its field versions: for an update
    /// in the mode that lets others link items to it meanwhile (`FOR NO KEY UPDATE`), for a
    /// deletion in the mode the `DELETE` needs (`FOR UPDATE`), so no lock is upgraded later.
    private func lockedLabel(_ caller: Caller, _ id: UUID, forDeletion: Bool, on connection: PostgresConnection) async throws -> (TaskLabel, FieldVersions) {
        let rows = try await connection.query("""
            SELECT \(unescaped: Self.labelColumns), field_versions FROM labels WHERE id = \(id)
            \(unescaped: forDeletion ? "FOR UPDATE" : "FOR NO KEY UPDATE")
            """, logger: logger).rows(as: TaskLabelRow.self, then: "field_versions", JSONColumn.self)
        for (row, fieldVersions) in rows {
            guard caller.ability.can("read", row.label.subject) else { break }
            return (row.label, try FieldVersions(version: row.label.version, json: fieldVersions))
        }
        throw ServiceError.notFound("Label")
    }

    func readableLabel(_ caller: Caller, _ id: UUID) async throws -> TaskLabel {
        let rows = try await database.client.query("SELECT \(unescaped: Self.labelColumns) FROM labels WHERE id = \(id)", logger: logger)
        guard let label = try await Self.decodeLabels(rows).first, caller.ability.can("read", label.subject) else {
            throw ServiceError.notFound("Label")
        }
        return label
    }
}
