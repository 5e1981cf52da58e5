import Foundation
import HearthCore
import MCP

extension HearthTools {
    /// The household a call is about: `household` by id or name (ignoring case), or the only
    /// one the caller belongs to; a missing one among several is refused listing their names.
    func household(_ arguments: ToolArguments, _ caller: Caller) async throws -> Household {
        let households = try await services.households.households(caller, page: PageRequest(first: PageRequest.maximumSize, after: nil))
            .items.map(\.item)
        let names = households.map { "“\($0.name)”" }.joined(separator: ", ")
        guard let wanted = arguments.string("household") else {
            if households.count == 1, let only = households.first { return only }
            if households.isEmpty { throw ServiceError.notFound("Household (you belong to none yet)") }
            throw ServiceError.invalidInput(field: "household", message: "You belong to several households; say which: \(names).")
        }
        if let id = UUID(uuidString: wanted), let found = households.first(where: { $0.id == id }) { return found }
        if let found = households.first(where: { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }) { return found }
        throw ServiceError.invalidInput(field: "household", message: "No household of yours is called “\(wanted)”; yours: \(names.isEmpty ? "none" : names).")
    }

    /// The member of `household` named `wanted` among `members`, by id or display name (ignoring case).
    static func member(_ wanted: String, among members: [HouseholdMember], of household: Household, field: String) throws -> HouseholdMember {
        if let id = UUID(uuidString: wanted), let found = members.first(where: { $0.user.id == id }) { return found }
        if let found = members.first(where: { $0.user.displayName.caseInsensitiveCompare(wanted) == .orderedSame }) { return found }
        let names = members.map { "“\($0.user.displayName)”" }.joined(separator: ", ")
        throw ServiceError.invalidInput(field: field, message: "No member of \(household.name) is called “\(wanted)”; its members: \(names).")
    }

    func members(of household: Household, _ caller: Caller) async throws -> [HouseholdMember] {
        let pages = try await services.households.members(caller, households: [household.id], page: PageRequest(first: PageRequest.maximumSize, after: nil))
        return pages[household.id]?.items.map(\.item) ?? []
    }

    static func timeZone(of household: Household) -> TimeZone { TimeZone(identifier: household.timeZone) ?? .gmt }

    /// `date` as RFC 3339 with the household's UTC offset (what a person there reads).
    static func text(_ date: Date?, in timeZone: TimeZone) -> Value {
        guard let date else { return .null }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = timeZone
        return .string(formatter.string(from: date))
    }

    /// `date` for a sentence: "Tue 25 Nov 09:00".
    static func words(_ date: Date, in timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEE d MMM HH:mm"
        return formatter.string(from: date)
    }

    /// A task or event as structured content.
    static func summary(_ item: TaskItem, household: Household, members: [HouseholdMember] = []) -> Value {
        let zone = timeZone(of: household)
        return .object([
            "id": .string(item.id.lowercasedString), "kind": .string(item.kind.rawValue), "title": .string(item.title),
            "household": .string(household.name), "household_id": .string(household.id.lowercasedString),
            "notes": item.notes.map { .string($0) } ?? .null, "priority": .string(item.priority.rawValue),
            "deadline": text(item.deadline, in: zone), "start": text(item.startsAt, in: zone), "end": text(item.endsAt, in: zone),
            "location": item.location.map { .string($0) } ?? .null, "estimate_minutes": item.estimateMinutes.map { .int($0) } ?? .null,
            "labels": .array(item.labels.map { .string($0.name) }),
            "assignee": item.assigneeID.map { id in .string(members.first { $0.user.id == id }?.user.displayName ?? id.lowercasedString) } ?? .null,
            "completed": .bool(item.isCompleted), "reminder_due_at": text(item.reminderDueAt, in: zone),
            "subtasks": .array(item.subtasks.map { .object(["title": .string($0.title), "done": .bool($0.done)]) }),
            "repeat": item.repetition.map { .object(["rule": .string($0.rule), "from": .string($0.from.rawValue)]) } ?? .null,
            "rotation": item.rotation.map { ids in
                .array(ids.map { id in .string(members.first { $0.user.id == id }?.user.displayName ?? id.lowercasedString) })
            } ?? .null,
        ])
    }

    /// The schema of ``summary(_:household:members:)``.
    static let summarySchema: Value = object([
        "id": string("The item's id (for complete_task, snooze_reminder, update_task)."),
        "kind": enumeration(["TASK", "EVENT"], "A task (to do) or an event (at a time)."),
        "title": string("The title."), "household": string("The household's name."), "household_id": string("The household's id."),
        "notes": string("Notes.", nullable: true), "priority": enumeration(TaskPriority.allCases.map(\.rawValue), "The priority."),
        "deadline": string("When a task is due (RFC 3339, the household's offset).", nullable: true),
        "start": string("When an event starts.", nullable: true), "end": string("When an event ends.", nullable: true),
        "location": string("Where an event is.", nullable: true),
        "estimate_minutes": .object(["type": .array(["integer", "null"]), "description": "How long a task takes."]),
        "labels": array(of: string("A label's name.")), "assignee": string("Who it is assigned to.", nullable: true),
        "completed": .object(["type": "boolean", "description": "Whether it is done."]),
        "reminder_due_at": string("When its reminder fires next.", nullable: true),
        "subtasks": array(of: object(["title": string("The step."), "done": .object(["type": "boolean"])], required: ["title", "done"])),
        "repeat": .object([
            "type": .array(["object", "null"]), "description": "How it repeats (null: once): an RFC 5545 rule, and SCHEDULE or COMPLETION.",
            "properties": .object(["rule": string("The RRULE, e.g. FREQ=WEEKLY;BYDAY=TU."),
                                   "from": enumeration(RepeatFrom.allCases.map(\.rawValue), "Counted from the schedule or from when it was done.")]),
            "required": .array(["rule", "from"]),
        ]),
        "rotation": .object(["type": .array(["array", "null"]), "items": string("A member's name."),
                             "description": "Who takes turns, in order (null: no rotation); the assignee is whose turn it is."]),
    ], required: ["id", "kind", "title", "household", "household_id", "priority", "labels", "completed", "subtasks"])
}
