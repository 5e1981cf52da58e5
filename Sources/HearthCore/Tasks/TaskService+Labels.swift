import Foundation
import Logging
import PostgresNIO

extension TaskService {
    /// Creates a label; a name the household uses already (case aside) is a `conflict`.
    public func createLabel(actor: UUID, householdID: UUID, name rawName: String, color rawColor: String) async throws -> TaskLabel {
        let caller = try await households.ability(for: actor)
        _ = try await households.readableHousehold(caller, householdID)
        try HouseholdService.authorize(caller, "create", .ofHousehold("Label", householdID))
        let name = try TaskDraft.labelName(rawName, field: "name")
        let color = try LabelColor.parse(rawColor)
        let label = TaskLabel(id: UUID(), householdID: householdID, name: name, color: color, createdAt: clock.now)
        let logger = self.logger
        do {
            try await database.transaction(logger: logger) { connection in
                try await Self.requireRoomForLabels(1, householdID: householdID, on: connection, logger: logger)
                try await connection.query("""
                    INSERT INTO labels (id, household_id, name, color, created_at)
                    VALUES (\(label.id), \(householdID), \(name), \(color), \(label.createdAt))
                    """, logger: logger)
            }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw ServiceError.conflict("The household has a label named \"\(name)\" already (names are compared case aside).")
        }
        await forgetLabels(of: householdID)
        return label
    }

    /// The household's labels by name.
    public func labels(actor: UUID, householdID: UUID) async throws -> [TaskLabel] {
        let caller = try await households.ability(for: actor)
        _ = try await households.readableHousehold(caller, householdID)
        return try await labels(caller: caller, households: [householdID])[householdID] ?? []
    }

    /// The labels of several households the caller was shown (not read again; households whose
    /// labels they may not read have none), from the cache or, for the rest, one statement.
    public func labels(actor: UUID, households ids: [UUID]) async throws -> [UUID: [TaskLabel]] {
        try await labels(caller: try await households.ability(for: actor), households: ids)
    }

    private func labels(caller: CallerAbility, households ids: [UUID]) async throws -> [UUID: [TaskLabel]] {
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
    /// created gray, which takes the right to create labels.
    static func resolveLabels(names: [String], ids: [UUID], householdID: UUID, caller: CallerAbility, now: Date,
                              on connection: PostgresConnection, logger: Logger) async throws -> [TaskLabel] {
        var found: [TaskLabel] = []
        if !ids.isEmpty {
            found = try await decodeLabels(try await connection.query(
                "SELECT \(unescaped: labelColumns) FROM labels WHERE household_id = \(householdID) AND id = ANY(\(ids))", logger: logger))
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
                "SELECT \(unescaped: labelColumns) FROM labels WHERE household_id = \(householdID) AND lower(name) = ANY(\(lowered))", logger: logger))
            return Dictionary(labels.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        }
        var labels = try await byName()
        let missing = wanted.filter { labels[$0.lowercased()] == nil }
        if !missing.isEmpty {
            try HouseholdService.authorize(caller, "create", .ofHousehold("Label", householdID))
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
    /// household's row lock first, so two creates cannot both take the last places.
    static func requireRoomForLabels(_ adding: Int, householdID: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT 1 FROM households WHERE id = \(householdID) FOR UPDATE", logger: logger)
        let rows = try await connection.query("SELECT count(*) FROM labels WHERE household_id = \(householdID)", logger: logger)
        var count = 0
        for try await value in rows.decode(Int.self) { count = value }
        guard count + adding <= maximumLabelsPerHousehold else {
            throw ServiceError.conflict(
                "A household has at most \(maximumLabelsPerHousehold) labels and this one has \(count); delete labels it no longer uses first.")
        }
    }

    /// The columns ``decodeLabel(_:)`` reads.
    static let labelColumns = "id, household_id, name, color, created_at"

    static func decodeLabels(_ rows: PostgresRowSequence) async throws -> [TaskLabel] {
        var labels: [TaskLabel] = []
        for try await row in rows { labels.append(try decodeLabel(NamedRow(row))) }
        return labels
    }

    /// One row holding ``labelColumns``.
    static func decodeLabel(_ row: NamedRow) throws -> TaskLabel {
        TaskLabel(id: try row("id"), householdID: try row("household_id"), name: try row("name"), color: try row("color"),
                  createdAt: try row("created_at"))
    }
}

extension TaskService {
    /// Renames or recolours a label (each only when given); names stay unique case aside.
    public func updateLabel(actor: UUID, id: UUID, name rawName: String?, color rawColor: String?) async throws -> TaskLabel {
        let caller = try await households.ability(for: actor)
        let label = try await readableLabel(caller, id)
        try HouseholdService.authorize(caller, "update", label.subject)
        let name = try rawName.map { text throws(ServiceError) in try TaskDraft.labelName(text, field: "name") }
        let color = try rawColor.map { text throws(ServiceError) in try LabelColor.parse(text) }
        do {
            try await database.client.query(
                "UPDATE labels SET name = COALESCE(\(name), name), color = COALESCE(\(color), color) WHERE id = \(id)", logger: logger)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw ServiceError.conflict("The household has a label named \"\(name ?? label.name)\" already (names are compared case aside).")
        }
        await forgetLabels(of: label.householdID)
        return try await readableLabel(caller, id)
    }

    /// Deletes a label; items lose it (admins and owners).
    public func deleteLabel(actor: UUID, id: UUID) async throws -> TaskLabel {
        let caller = try await households.ability(for: actor)
        let label = try await readableLabel(caller, id)
        try HouseholdService.authorize(caller, "delete", label.subject)
        try await database.client.query("DELETE FROM labels WHERE id = \(id)", logger: logger)
        await forgetLabels(of: label.householdID)
        return label
    }

    func readableLabel(_ caller: CallerAbility, _ id: UUID) async throws -> TaskLabel {
        let rows = try await database.client.query("SELECT \(unescaped: Self.labelColumns) FROM labels WHERE id = \(id)", logger: logger)
        guard let label = try await Self.decodeLabels(rows).first, caller.ability.can("read", label.subject) else {
            throw ServiceError.notFound("Label")
        }
        return label
    }
}
