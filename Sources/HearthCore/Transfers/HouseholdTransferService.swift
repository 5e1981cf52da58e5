import Foundation
import Logging
import PostgresNIO

/// Moving a household between servers: its owners export it as a ``HouseholdExport``, and anyone
/// signed in imports one as a new household of theirs — new ids, every member the document lists
/// invited (never added: an import joins nobody to a household but its importer), all in one
/// transaction: the whole household or nothing.
public struct HouseholdTransferService: Sendable {
    let database: Database
    let households: HouseholdService
    let clock: any HearthClock
    let logger: Logger

    public init(database: Database, households: HouseholdService, clock: any HearthClock, logger: Logger) {
        self.database = database
        self.households = households
        self.clock = clock
        self.logger = logger
    }

    // MARK: Export

    /// The household as a document (its owners only), read from one snapshot.
    public func export(_ caller: Caller, householdID: UUID) async throws -> HouseholdExport {
        let household = try await households.readableHousehold(caller, householdID)
        try caller.authorize("export", household.subject)
        let logger = self.logger
        let exported = try await database.readingOneSnapshot { connection in
            try await Self.read(household, on: connection, logger: logger)
        }
        return HouseholdExport(format: HouseholdExport.formatName, version: HouseholdExport.currentVersion, exportedAt: clock.now,
                               household: exported.household, members: exported.members, labels: exported.labels, items: exported.items,
                               stores: exported.stores)
    }

    private struct ItemRow: TypedRow {
        let id: UUID
        private(set) var item: HouseholdExport.Item

        init(_ row: inout RowCells) throws {
            id = try row("id")
            item = HouseholdExport.Item(
                kind: try row("kind"), title: try row("title"), notes: try row("notes"), priority: try row("priority"), deadline: try row("deadline"),
                estimateMinutes: try row("estimate_minutes"), assignee: try row("assignee"), startsAt: try row("starts_at"), endsAt: try row("ends_at"),
                location: try row("location"), remindAt: try row("remind_at"), reminderDueAt: try row("reminder_due_at"),
                completedAt: try row("completed_at"), completedBy: try row("completed_by"), createdAt: try row("created_at"), labels: [], subtasks: [])
            if let (repetition, position) = try RepeatColumns.series(&row) {
                item.repeat = HouseholdExport.Repeat(rule: repetition.rule, from: repetition.from, exceptions: repetition.exceptions,
                                                     start: position.start, occurrence: position.occurrence, passed: position.passed,
                                                     overrides: repetition.overrides.isEmpty ? nil : repetition.overrides.map(HouseholdExport.Override.init))
            }
            item.rotation = try row("rotation", as: [String]?.self)
        }
    }

    private static func read(_ household: Household, on connection: PostgresConnection, logger: Logger) async throws -> HouseholdExport {
        let id = household.id
        var members: [HouseholdExport.Member] = []
        for (name, email, role) in try await connection.query("""
            SELECT u.display_name, u.email, m.role FROM household_members m JOIN users u ON u.id = m.user_id
            WHERE m.household_id = \(id) ORDER BY m.joined_at, u.email
            """, logger: logger).columns(("display_name", String.self), ("email", String.self), ("role", HouseholdRole.self)) {
            members.append(.init(name: name, email: email, role: role))
        }
        var labels: [HouseholdExport.Label] = []
        for (name, color) in try await connection.query(
            "SELECT name, color FROM labels WHERE household_id = \(id) ORDER BY lower(name)", logger: logger).columns(("name", String.self), ("color", String.self)) {
            labels.append(.init(name: name, color: color))
        }
        let rows = try await connection.query("""
            SELECT t.id, t.kind, t.title, t.notes, t.priority, t.deadline, t.estimate_minutes, a.email AS assignee, t.starts_at, t.ends_at,
                   t.location, t.remind_at, t.reminder_due_at, t.completed_at, c.email AS completed_by, t.created_at,
                   t.repeat_rule, t.repeat_from, t.repeat_exceptions, t.repeat_overrides, t.repeat_start, t.occurrence, t.occurrences_passed,
                   (SELECT array_agg(u.email ORDER BY r.place) FROM unnest(t.rotation) WITH ORDINALITY AS r(member, place)
                    JOIN users u ON u.id = r.member) AS rotation
            FROM task_items t LEFT JOIN users a ON a.id = t.assignee_id LEFT JOIN users c ON c.id = t.completed_by
            WHERE t.household_id = \(id) ORDER BY t.created_at, t.id
            """, logger: logger).rows(as: ItemRow.self)
        var items = rows.map(\.item)
        let index = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($0.element.id, $0.offset) })
        for (task, name) in try await connection.query("""
            SELECT tl.task_id, l.name FROM task_labels tl JOIN labels l ON l.id = tl.label_id
            WHERE l.household_id = \(id) ORDER BY lower(l.name)
            """, logger: logger).columns(("task_id", UUID.self), ("name", String.self)) {
            if let at = index[task] { items[at].labels.append(name) }
        }
        for (task, title, done) in try await connection.query("""
            SELECT s.task_id, s.title, s.done FROM subtasks s JOIN task_items t ON t.id = s.task_id
            WHERE t.household_id = \(id) ORDER BY s.task_id, s.position
            """, logger: logger).columns(("task_id", UUID.self), ("title", String.self), ("done", Bool.self)) {
            if let at = index[task] { items[at].subtasks.append(.init(title: title, done: done)) }
        }
        var stores: [HouseholdExport.Store] = []
        for (domain, name) in try await connection.query(
            "SELECT domain, name FROM stores WHERE household_id = \(id) ORDER BY created_at, domain", logger: logger).columns(("domain", String.self), ("name", String.self)) {
            stores.append(.init(domain: domain, name: name))
        }
        return HouseholdExport(format: HouseholdExport.formatName, version: HouseholdExport.currentVersion, exportedAt: Date(),
                               household: .init(name: household.name, description: household.description, timeZone: household.timeZone),
                               members: members, labels: labels, items: items, stores: stores)
    }

    // MARK: Import

    /// What an import made. It has the same shape whether or not the people it names have accounts
    /// here: it tells nothing about who does.
    public struct Imported: Sendable {
        public var household: Household
        /// Everyone the document lists but the importer: an invitation each with the role the
        /// document gives (its code is shown once, here).
        public var invitations: [(email: String, role: HouseholdRole, code: String)]
        /// Assignments and completions that named someone other than the importer (the only member):
        /// left out of the items.
        public var dropped: [Dropped]
        public var labels: Int
        public var items: Int
        public var stores: Int
    }

    /// An item's assignee or completer the import left out: not a member of the new household.
    public struct Dropped: Sendable, Equatable {
        /// The item's place in the document's `items`.
        public var item: Int
        /// `assignee` or `completedBy`.
        public var field: String
        public var email: String
    }

    /// Makes the document's household anew, owned by the caller; nothing is written when any part is
    /// refused. `limited` counts it against the person's imports (``HouseholdsConfiguration/importsPerPerson``);
    /// an operator's `hearth household import` is not.
    public func importHousehold(_ caller: Caller, _ document: HouseholdExport, limited: Bool = true) async throws -> Imported {
        try caller.authorize("create", .type("Household"))
        let checked = try Self.checked(document)
        if limited {
            let configuration = households.configuration
            _ = try await AttemptLimiter(database: database, clock: clock, logger: logger).record(
                keys: [(scope: "import", key: caller.userID.lowercasedString)], limit: configuration.importsPerPerson,
                window: configuration.importWindow, action: "household import", refusal: ServiceError.tooManyImports)
        }
        let now = clock.now
        let logger = self.logger
        let lifetime = households.configuration.defaultInvitationLifetime
        let imported = try await database.transaction(logger: logger) { connection in
            try await Self.write(checked, owner: caller.userID, now: now, invitationLifetime: lifetime, households: households, on: connection, logger: logger)
        }
        await households.forget(users: [caller.userID])
        logger.info("household imported", metadata: [
            "household": "\(imported.household.id)", "user": "\(caller.userID)", "items": "\(imported.items)",
            "invited": "\(imported.invitations.count)", "dropped": "\(imported.dropped.count)",
        ])
        return imported
    }

    /// The document with every field checked as the API checks it (trimmed, limits); a refusal names where (`items[3].title`).
    static func checked(_ raw: HouseholdExport) throws(ServiceError) -> HouseholdExport {
        var document = raw
        func at(_ path: String, _ check: () throws(ServiceError) -> Void) throws(ServiceError) {
            do {
                try check()
            } catch {
                var error = error
                error.field = path + (error.field.map { $0.isEmpty || $0 == "document" ? "" : "." + $0 } ?? "")
                throw error
            }
        }
        func limit(_ count: Int, _ maximum: Int, _ field: String) throws(ServiceError) {
            guard count <= maximum else { throw .invalidInput(field: field, message: "An import takes at most \(maximum) \(field).") }
        }
        try limit(raw.members.count, HouseholdExport.maximumMembers, "members")
        try limit(raw.labels.count, HouseholdExport.maximumLabels, "labels")
        try limit(raw.items.count, HouseholdExport.maximumItems, "items")
        try limit(raw.stores.count, HouseholdExport.maximumStores, "stores")
        try at("household") { () throws(ServiceError) in
            document.household.name = try UserInput.text(raw.household.name, field: "name", maxLength: 80)
            document.household.description = try HouseholdService.description(raw.household.description) ?? ""
            document.household.timeZone = try UserInput.timeZone(raw.household.timeZone)
        }
        for (index, member) in raw.members.enumerated() {
            try at("members[\(index)]") { () throws(ServiceError) in document.members[index].email = try UserInput.email(member.email) }
        }
        for (index, label) in raw.labels.enumerated() {
            try at("labels[\(index)]") { () throws(ServiceError) in
                document.labels[index].name = try TaskDraft.labelName(label.name, field: "name")
                document.labels[index].color = try LabelColor.parse(label.color)
            }
        }
        for (index, item) in raw.items.enumerated() {
            try at("items[\(index)]") { () throws(ServiceError) in
                let draft = try TaskDraft(kind: item.kind, title: item.title, notes: item.notes, priority: item.priority, deadline: item.deadline,
                                          estimateMinutes: item.estimateMinutes, labelNames: item.labels, startsAt: item.startsAt, endsAt: item.endsAt,
                                          location: item.location, remindAt: item.remindAt, subtasks: item.subtasks.map(\.title)).validated()
                if item.kind == .event, draft.startsAt == nil || draft.endsAt == nil {
                    throw .invalidInput(field: "startsAt", message: "An event needs startsAt and endsAt.")
                }
                document.items[index].title = draft.title
                document.items[index].notes = draft.notes
                document.items[index].location = draft.location
                document.items[index].labels = draft.labelNames
                for (position, title) in draft.subtasks.enumerated() { document.items[index].subtasks[position].title = title }
                document.items[index].assignee = try item.assignee.map { email throws(ServiceError) in try UserInput.email(email, field: "assignee") }
                document.items[index].completedBy = item.completedBy.flatMap { try? UserInput.email($0, field: "completedBy") }
                if let repeating = item.repeat {
                    let checked = try Repetition.checked(rule: repeating.rule, from: repeating.from, exceptions: repeating.exceptions,
                                                         overrides: (repeating.overrides ?? []).map(\.change), kind: item.kind)
                    guard repeating.passed >= 0 else { throw .invalidInput(field: "repeat.passed", message: "repeat.passed must not be negative.") }
                    document.items[index].repeat?.rule = checked.rule
                    document.items[index].repeat?.exceptions = checked.exceptions
                    // Changed occurrences that are occurrences of the series (in the household's zone).
                    let fitting = checked.fitting(checked.overrides, start: repeating.start,
                                                  zone: TimeZone(identifier: document.household.timeZone) ?? .gmt)
                    document.items[index].repeat?.overrides = fitting.isEmpty ? nil : fitting.map(HouseholdExport.Override.init)
                }
                document.items[index].rotation = try item.rotation.map { emails throws(ServiceError) in
                    try emails.map { email throws(ServiceError) in try UserInput.email(email, field: "rotation") }
                }
            }
        }
        // Labels items name but the list lacks are made too: the cap is on all of them.
        let named = Set(document.labels.map { $0.name.lowercased() } + document.items.flatMap(\.labels).map { $0.lowercased() })
        guard named.count <= HouseholdExport.maximumLabels else {
            throw .invalidInput(field: "labels", message: """
                An import makes at most \(HouseholdExport.maximumLabels) labels; the document's labels and the ones its items name are \(named.count).
                """)
        }
        var domains = Set<String>()
        for (index, store) in raw.stores.enumerated() {
            try at("stores[\(index)]") { () throws(ServiceError) in
                let domain = try StoreDomain(store.domain).host
                guard domains.insert(domain).inserted else { throw .invalidInput(field: "domain", message: "\(domain) is in the export twice.") }
                document.stores[index].domain = domain
                document.stores[index].name = try StoreService.name(store.name, default: domain)
            }
        }
        return document
    }

    /// Writes the checked document in the caller's transaction.
    private static func write(_ document: HouseholdExport, owner: UUID, now: Date, invitationLifetime: TimeInterval, households: HouseholdService,
                              on connection: PostgresConnection, logger: Logger) async throws -> Imported {
        let household = Household(id: UUID(), name: document.household.name, description: document.household.description,
                                  timeZone: document.household.timeZone, createdAt: now, updatedAt: now)
        try await households.insert(household, owner: owner, on: connection)

        // Members: everyone listed but the importer is invited, account or not; nobody is added.
        var ownerEmail = ""
        for try await email in try await connection.query("SELECT email FROM users WHERE id = \(owner)", logger: logger).decode(String.self) {
            ownerEmail = email
        }
        var invitations: [(email: String, role: HouseholdRole, code: String)] = []
        var invited: Set<String> = [ownerEmail]
        for member in document.members where invited.insert(member.email).inserted {
            let code = SessionToken.generate()
            try await households.insertInvitation(id: UUID(), householdID: household.id, role: member.role, code: code, by: owner, at: now,
                                                  expiresAt: now.addingTimeInterval(invitationLifetime), maxUses: 1, on: connection)
            invitations.append((member.email, member.role, code))
        }
        // Items name people by email: only the importer is a member, so only they keep an assignment or a completion.
        var dropped: [Dropped] = []
        for (index, item) in document.items.enumerated() {
            if let email = item.assignee, email != ownerEmail { dropped.append(Dropped(item: index, field: "assignee", email: email)) }
            if item.completedAt != nil, let email = item.completedBy, email != ownerEmail {
                dropped.append(Dropped(item: index, field: "completedBy", email: email))
            }
            for email in item.rotation ?? [] where email != ownerEmail { dropped.append(Dropped(item: index, field: "rotation", email: email)) }
        }

        // Labels, and any an item names that the list lacks (gray, as a create makes them).
        var labelIDs: [String: UUID] = [:]
        var labelRows: [(id: UUID, name: String, color: String)] = []
        let gray = LabelColor.named.first { $0.name == "gray" }?.hex ?? "#8E8E93"
        for label in document.labels + document.items.flatMap(\.labels).map({ HouseholdExport.Label(name: $0, color: gray) })
        where labelIDs[label.name.lowercased()] == nil {
            let id = UUID()
            labelIDs[label.name.lowercased()] = id
            labelRows.append((id, label.name, label.color))
        }
        if !labelRows.isEmpty {
            try await connection.query("""
                INSERT INTO labels (id, household_id, name, color, created_at)
                SELECT l.id, \(household.id), l.name, l.color, \(now) FROM unnest(\(labelRows.map(\.id)), \(labelRows.map(\.name)), \(labelRows.map(\.color))) AS l(id, name, color)
                """, logger: logger)
        }

        // Items in one statement per table, however many.
        let items = document.items
        let ids = items.map { _ in UUID() }
        if !items.isEmpty {
            func text(_ values: [String?]) -> [String] { values.map { $0 ?? "" } }
            // Times cross as seconds since 1970 (a double keeps microseconds), NaN for none.
            func time(_ values: [Date?]) -> [Double] { values.map { $0?.timeIntervalSince1970 ?? .nan } }
            let mine = owner.lowercasedString
            let assignees = items.map { $0.assignee == ownerEmail ? mine : "" }
            let completers = items.map { $0.completedAt != nil && $0.completedBy == ownerEmail ? mine : "" }
            let reminders = items.map { item in item.completedAt == nil ? TaskService.armedReminder(at: item.reminderDueAt, now: now) : nil }
            try await connection.query("""
                INSERT INTO task_items (id, household_id, kind, title, notes, priority, deadline, estimate_minutes, assignee_id, starts_at, ends_at,
                                        location, completed_at, completed_by, created_by, created_at, updated_by, updated_at, create_digest,
                                        reminder_id, remind_at, reminder_due_at, repeat_rule, repeat_from, repeat_exceptions, repeat_start,
                                        occurrence, occurrences_passed, rotation, repeat_overrides)
                SELECT i.id, \(household.id), i.kind, i.title, NULLIF(i.notes, ''), i.priority, to_timestamp(NULLIF(i.deadline, 'NaN')), NULLIF(i.estimate, 0),
                       NULLIF(i.assignee, '')::uuid, to_timestamp(NULLIF(i.starts_at, 'NaN')), to_timestamp(NULLIF(i.ends_at, 'NaN')), NULLIF(i.location, ''),
                       to_timestamp(NULLIF(i.completed_at, 'NaN')), NULLIF(i.completed_by, '')::uuid, \(owner), to_timestamp(i.created_at), \(owner), \(now),
                       'import', gen_random_uuid(), to_timestamp(NULLIF(i.remind_at, 'NaN')), to_timestamp(NULLIF(i.reminder_due_at, 'NaN')),
                       NULLIF(i.repeat_rule, ''), NULLIF(i.repeat_from, ''),
                       ARRAY(SELECT to_timestamp(e) FROM unnest(string_to_array(NULLIF(i.repeat_exceptions, ''), ',')::float8[]) AS e ORDER BY e),
                       to_timestamp(NULLIF(i.repeat_start, 'NaN')), to_timestamp(NULLIF(i.occurrence, 'NaN')), i.passed,
                       CASE WHEN i.rotates THEN ARRAY[\(owner)]::uuid[] END, i.overrides::jsonb
                FROM unnest(\(ids), \(items.map(\.kind.rawValue)), \(items.map(\.title)), \(text(items.map(\.notes))), \(items.map(\.priority.rawValue)),
                            \(time(items.map(\.deadline))), \(items.map { $0.estimateMinutes ?? 0 }), \(assignees), \(time(items.map(\.startsAt))),
                            \(time(items.map(\.endsAt))), \(text(items.map(\.location))), \(time(items.map(\.completedAt))), \(completers),
                            \(time(items.map(\.createdAt))), \(time(items.map(\.remindAt))), \(time(reminders)),
                            \(items.map { $0.repeat?.rule ?? "" }), \(items.map { $0.repeat?.from.rawValue ?? "" }),
                            \(items.map { ($0.repeat?.exceptions ?? []).map { String($0.timeIntervalSince1970) }.joined(separator: ",") }),
                            \(time(items.map(\.repeat?.start))), \(time(items.map(\.repeat?.occurrence))), \(items.map { $0.repeat?.passed ?? 0 }),
                            \(items.map { $0.rotation?.contains(ownerEmail) ?? false }),
                            \(items.map { OccurrenceOverride.column(($0.repeat?.overrides ?? []).map(\.change)) }))
                     AS i(id, kind, title, notes, priority, deadline, estimate, assignee, starts_at, ends_at, location, completed_at, completed_by,
                          created_at, remind_at, reminder_due_at, repeat_rule, repeat_from, repeat_exceptions, repeat_start, occurrence, passed,
                          rotates, overrides)
                """, logger: logger)
            let links = zip(ids, items).flatMap { id, item in Set(item.labels.compactMap { labelIDs[$0.lowercased()] }).map { (id, $0) } }
            if !links.isEmpty {
                try await connection.query(
                    "INSERT INTO task_labels (task_id, label_id) SELECT * FROM unnest(\(links.map(\.0)), \(links.map(\.1)))", logger: logger)
            }
            let subtasks = zip(ids, items).flatMap { id, item in item.subtasks.enumerated().map { (id, $0.offset, $0.element) } }
            if !subtasks.isEmpty {
                try await connection.query("""
                    INSERT INTO subtasks (id, task_id, position, title, done, created_at)
                    SELECT gen_random_uuid(), s.task, s.position, s.title, s.done, \(now)
                    FROM unnest(\(subtasks.map(\.0)), \(subtasks.map(\.1)), \(subtasks.map(\.2.title)), \(subtasks.map(\.2.done))) AS s(task, position, title, done)
                    """, logger: logger)
            }
        }

        // Stores: due at once; their first sync brings the products back (as an add does, without changes to report).
        if !document.stores.isEmpty {
            try await connection.query("""
                INSERT INTO stores (id, household_id, domain, name, created_by, created_at, next_sync_at)
                SELECT gen_random_uuid(), \(household.id), s.domain, s.name, \(owner), \(now), \(now)
                FROM unnest(\(document.stores.map(\.domain)), \(document.stores.map(\.name))) AS s(domain, name)
                """, logger: logger)
        }
        return Imported(household: household, invitations: invitations, dropped: dropped, labels: labelRows.count, items: items.count,
                        stores: document.stores.count)
    }
}
