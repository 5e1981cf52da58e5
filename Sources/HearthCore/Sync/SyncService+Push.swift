import Foundation
import Logging
import PostgresNIO

extension SyncService {
    /// Mutations one push takes at most.
    public static let maximumPushSize = 500

    /// Applies a device's queued mutations in order, each in its own transaction that also
    /// records it as the client's last processed mutation: a crash between them can neither lose
    /// nor repeat one. A mutation at or below the last processed id is DUPLICATE; a refused one is
    /// CONFLICT or REJECTED and counts as processed. A malformed push applies nothing.
    public func push(_ caller: Caller, clientID: UUID, mutations: [ClientMutation]) async throws -> PushResult {
        guard mutations.count <= Self.maximumPushSize else {
            throw ServiceError.invalidInput(field: "mutations",
                                            message: "A push takes at most \(Self.maximumPushSize) mutations; this one has \(mutations.count). Send the rest in another push.")
        }
        for (index, mutation) in mutations.enumerated() {
            guard mutation.id >= 1 else {
                throw ServiceError.invalidInput(field: "mutations[\(index)].id", message: "Mutation ids start at 1; mutations[\(index)] has \(mutation.id).")
            }
            if index > 0, mutation.id <= mutations[index - 1].id {
                throw ServiceError.invalidInput(field: "mutations[\(index)].id",
                                                message: "Mutation ids must increase within a push: mutations[\(index)] has \(mutation.id) after \(mutations[index - 1].id).")
            }
        }
        var last = try await claim(clientID, caller)
        var results: [PushedMutation] = []
        for mutation in mutations {
            let (result, applied) = try await database.transaction(logger: logger) { connection in
                try await self.process(mutation, clientID: clientID, caller: caller, on: connection)
            }
            results.append(result)
            last = max(last, mutation.id)
            if let applied { await announce(applied, caller) }
        }
        return PushResult(lastMutationID: last, results: results)
    }

    /// Makes the client id the caller's on first use; another person's id is `FORBIDDEN`.
    /// Returns its last processed mutation id.
    private func claim(_ clientID: UUID, _ caller: Caller) async throws -> Int {
        let now = clock.now
        try await database.client.query("""
            INSERT INTO sync_clients (id, user_id, created_at, updated_at) VALUES (\(clientID), \(caller.userID), \(now), \(now))
            ON CONFLICT (id) DO NOTHING
            """, logger: logger)
        let rows = try await database.client.query("SELECT user_id, last_mutation_id FROM sync_clients WHERE id = \(clientID)", logger: logger)
        for (owner, last) in try await rows.columns(("user_id", UUID.self), ("last_mutation_id", Int.self)) {
            guard owner == caller.userID else {
                throw ServiceError(.forbidden, "This clientId belongs to another person's device; each device makes its own.", field: "clientId")
            }
            return last
        }
        throw ServiceError.notFound("Client")
    }

    /// What an applied mutation leaves to do once committed.
    enum Applied {
        case task(TaskWrite)
        case labels(UUID)
    }

    /// One mutation in the given transaction: skipped when processed already, else applied
    /// (or refused, its writes rolled back to the savepoint) and counted as processed.
    private func process(_ mutation: ClientMutation, clientID: UUID, caller: Caller,
                         on connection: PostgresConnection) async throws -> (PushedMutation, Applied?) {
        // The log's trigger names this client in the commit's poke (for this transaction only).
        try await connection.query("SELECT set_config('hearth.sync_client', \(clientID.lowercasedString), true)", logger: logger)
        // Counted as processed first (the row lock orders this client's concurrent pushes); the
        // count commits or rolls back with the mutation.
        let counted = try await connection.query("""
            UPDATE sync_clients SET last_mutation_id = \(mutation.id), updated_at = \(clock.now)
            WHERE id = \(clientID) AND last_mutation_id < \(mutation.id) RETURNING id
            """, logger: logger)
        var isNew = false
        for try await _ in counted.decode(UUID.self) { isNew = true }
        guard isNew else { return (PushedMutation(id: mutation.id, status: .duplicate), nil) }
        try await connection.query("SAVEPOINT client_mutation", logger: logger)
        var result: PushedMutation
        var applied: Applied?
        do {
            let (version, effect) = try await apply(mutation.op, caller: caller, on: connection)
            // A repeating task's occurrence another device completed first is that device's change, not this one's.
            let done = if case .task(let write)? = effect, write.duplicate { true } else { false }
            result = PushedMutation(id: mutation.id, status: done ? .duplicate : .applied, version: version)
            applied = effect
        } catch let error as ServiceError {
            try await connection.query("ROLLBACK TO SAVEPOINT client_mutation", logger: logger)
            let conflict = error.kind == .conflict
            let fields = conflict ? error.conflictingFields : error.field.map { [$0] }
            result = PushedMutation(id: mutation.id, status: conflict ? .conflict : .rejected, code: error.kind.rawValue, message: error.message,
                                    fields: fields)
        }
        return (result, applied)
    }

    /// Runs the op exactly as its ordinary mutation does, on the push's connection.
    private func apply(_ op: ClientOp, caller: Caller, on connection: PostgresConnection) async throws -> (Int, Applied?) {
        func task(_ write: TaskWrite) -> (Int, Applied?) { (write.version, .task(write)) }
        switch op {
        case .createTask(let household, let draft), .createEvent(let household, let draft):
            guard draft.id != nil else { throw ServiceError.invalidInput(field: "input.id", message: "A pushed create needs the client's id for the item (input.id).") }
            return task(try await tasks.createItem(caller, householdID: household, draft: draft, on: connection))
        case .updateTask(let id, let expected, let patch):
            return task(try await tasks.updateItem(caller, id: id, patch: patch, expectedVersion: expected, on: connection))
        case .completeTask(let id, let expected, let occurrence):
            return task(try await tasks.setCompleted(true, caller, id: id, expectedVersion: expected, occurrence: occurrence, on: connection))
        case .skipOccurrence(let id, let expected, let occurrence):
            return task(try await tasks.skipOccurrence(caller, id: id, occurrence: occurrence, expectedVersion: expected, on: connection))
        case .updateEventOccurrence(let id, let expected, let occurrence, let change):
            return task(try await tasks.updateEventOccurrence(caller, id: id, occurrence: occurrence, change: change,
                                                              expectedVersion: expected, on: connection))
        case .cancelEventOccurrence(let id, let expected, let occurrence):
            return task(try await tasks.cancelEventOccurrence(caller, id: id, occurrence: occurrence, expectedVersion: expected, on: connection))
        case .reopenTask(let id, let expected):
            return task(try await tasks.setCompleted(false, caller, id: id, expectedVersion: expected, on: connection))
        case .deleteTask(let id, let expected):
            return task(try await tasks.deleteItem(caller, id: id, expectedVersion: expected, on: connection))
        case .addSubtask(let taskID, let id, let title):
            return task(try await tasks.addSubtask(caller, taskID: taskID, id: id, title: title, on: connection))
        case .updateSubtask(let id, let title, let done):
            return task(try await tasks.updateSubtask(caller, id: id, title: title, done: done, on: connection))
        case .removeSubtask(let id):
            return task(try await tasks.removeSubtask(caller, id: id, on: connection))
        case .reorderSubtasks(let taskID, let ids):
            return task(try await tasks.reorderSubtasks(caller, taskID: taskID, ids: ids, on: connection))
        case .snoozeReminder(let taskID, let minutes):
            return task(try await tasks.snoozeReminder(caller, taskID: taskID, minutes: minutes, on: connection))
        case .createLabel(let household, let id, let name, let color):
            let created = try await tasks.createLabel(caller, householdID: household, id: id, name: name, color: color, on: connection)
            return (created.version, .labels(household))
        case .updateLabel(let id, let expected, let name, let color):
            let label = try await tasks.updateLabel(caller, id: id, name: name, color: color, expectedVersion: expected, on: connection)
            return (label.version, .labels(label.householdID))
        case .deleteLabel(let id, let expected):
            let (household, version) = try await tasks.deleteLabel(caller, id: id, expectedVersion: expected, on: connection)
            return (version, .labels(household))
        case .markEventRead(let id):
            return (try await stores.markEventRead(caller, id: id, on: connection), nil)
        case .markNotificationRead(let id):
            return (try await notifications.markRead(caller, id: id, on: connection).version, nil)
        }
    }

    /// After a mutation committed: subscribers hear of it, cached labels go. It is applied
    /// already, so a failure to tell is logged, not thrown.
    private func announce(_ applied: Applied, _ caller: Caller) async {
        switch applied {
        case .task(let write):
            do {
                try await tasks.announce(write, caller, needsItem: false)
            } catch {
                logger.warning("pushed change not announced", metadata: ["task": "\(write.taskID)", "error": "\(error)"])
            }
        case .labels(let household): await tasks.forgetLabels(of: household)
        }
    }
}
