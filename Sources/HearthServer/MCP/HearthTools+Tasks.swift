import Foundation
import HearthCore
import MCP

extension HearthTools {
    /// Creating and changing tasks, events and labels (the WRITE scope).
    static let taskTools: [Definition] = [createTask, createEvent, createLabel, completeTask, snoozeReminder, updateTask]

    static let taskFields: [String: Value] = [
        "household": householdArgument,
        "title": string("What to do, in a few words."),
        "notes": string("Details, optional."),
        "deadline": string("When it is due: 2026-11-25T09:00 (the household's time), 2026-11-25T08:00:00Z, or a date 2026-11-25 (09:00 that day)."),
        "estimate_minutes": string("How many minutes it takes, e.g. \"30\".", or: "integer"),
        "priority": enumeration(TaskPriority.allCases.map(\.rawValue), "NONE (default), LOW, MEDIUM or HIGH."),
        "labels": string("Label names, comma-separated (\"Groceries, Urgent\") or a list; missing labels are made.", or: "array"),
        "subtasks": string("Steps, comma-separated (\"oat milk, bread\") or a list.", or: "array"),
        "assignee": string("Who does it: a member's name or id."),
        "remind_at": string("When to remind, like deadline; default: at the deadline."),
        "repeat": string("How it comes back: an RFC 5545 RRULE, e.g. FREQ=WEEKLY;BYDAY=TU (bins every Tuesday), FREQ=MONTHLY;BYMONTHDAY=1, FREQ=DAILY;INTERVAL=3; \"none\" stops it."),
        "repeat_from": enumeration(RepeatFrom.allCases.map(\.rawValue), "SCHEDULE (default: the rule's own dates) or COMPLETION (counted from when it was last done)."),
        "rotation": string("Who takes turns, in order: member names or ids, comma-separated or a list; the assignee (else the first) goes first.", or: "array"),
    ]

    /// The repetition the arguments ask for: nil when they name none, `.some(nil)` for "none".
    static func repetition(_ arguments: ToolArguments) throws(ServiceError) -> Repetition?? {
        guard let rule = arguments.string("repeat") else { return nil }
        if rule.lowercased() == "none" { return .some(nil) }
        var from = RepeatFrom.schedule
        if let text = arguments.string("repeat_from") {
            guard let asked = RepeatFrom(rawValue: text.uppercased()) else {
                throw .invalidInput(field: "repeat_from", message: "repeat_from must be SCHEDULE or COMPLETION; \"\(text.prefix(20))\" is neither.")
            }
            from = asked
        }
        return .some(Repetition(rule: rule, from: from))
    }

    /// The rotation's members by name or id.
    static func rotation(_ arguments: ToolArguments, members: [HouseholdMember], of household: Household) throws -> [UUID]? {
        guard arguments.givesList("rotation") else { return nil }
        return try arguments.list("rotation").map { try member($0, among: members, of: household, field: "rotation").user.id }
    }

    static let taskAnswer = object(["task": summarySchema], required: ["task"])

    static let createTask = Definition(
        tool: Tool(name: "create_task", title: "Create a task",
                   description: "Adds a task (something to do) to a household, with an optional deadline, labels, steps and assignee. Answers the new task and its id.",
                   inputSchema: object(taskFields, required: ["title"]), annotations: .init(readOnlyHint: false, destructiveHint: false),
                   outputSchema: taskAnswer),
        scope: .write) { tools, arguments, caller in
        let household = try await tools.household(arguments, caller)
        let zone = timeZone(of: household)
        var draft = TaskDraft(kind: .task, title: try arguments.required("title"), notes: arguments.string("notes"),
                              priority: try priority(arguments), deadline: try arguments.date("deadline", in: zone),
                              estimateMinutes: try arguments.int("estimate_minutes"), labelNames: arguments.list("labels"),
                              remindAt: try arguments.date("remind_at", in: zone), subtasks: arguments.list("subtasks"))
        let members = try await tools.members(of: household, caller)
        if let assignee = arguments.string("assignee") { draft.assigneeID = try member(assignee, among: members, of: household, field: "assignee").user.id }
        draft.repetition = try repetition(arguments) ?? nil
        draft.rotation = try rotation(arguments, members: members, of: household)
        let item = try await tools.services.tasks.createItem(caller, householdID: household.id, draft: draft)
        var text = "Created task “\(item.title)” in \(household.name)"
        if let deadline = item.deadline { text += ", due \(words(deadline, in: zone))" }
        if let rule = item.repetition?.rule { text += ", repeating \(rule)" }
        if !item.labels.isEmpty { text += ", labelled \(item.labels.map(\.name).joined(separator: ", "))" }
        return Answer(text: text + ". Its id is \(item.id.lowercasedString).", structured: .object(["task": summary(item, household: household, members: members)]))
    }

    static let createEvent = Definition(
        tool: Tool(name: "create_event", title: "Create an event",
                   description: "Adds an event (something at a time) to a household. With only a date it is 09:00–10:00 that day; without an end it lasts an hour. Answers the new event and its id.",
                   inputSchema: object([
                       "household": householdArgument, "title": string("What happens."),
                       "start": string("When it starts: 2026-11-25T18:30 (the household's time), RFC 3339, or a date 2026-11-25 (09:00)."),
                       "end": string("When it ends; default: an hour after the start."),
                       "location": string("Where, optional."), "notes": string("Details, optional."),
                       "labels": string("Label names, comma-separated or a list.", or: "array"),
                   ], required: ["title"]),
                   annotations: .init(readOnlyHint: false, destructiveHint: false), outputSchema: taskAnswer),
        scope: .write) { tools, arguments, caller in
        let household = try await tools.household(arguments, caller)
        let zone = timeZone(of: household)
        var draft = TaskDraft(kind: .event, title: try arguments.required("title"), notes: arguments.string("notes"),
                              labelNames: arguments.list("labels"), endsAt: try arguments.date("end", in: zone, hourForDates: 10),
                              location: arguments.string("location"))
        if let start = arguments.string("start"), ToolArguments.isDate(start) {
            draft.date = start
        } else {
            draft.startsAt = try arguments.date("start", in: zone)
        }
        let item = try await tools.services.tasks.createItem(caller, householdID: household.id, draft: draft)
        var text = "Created event “\(item.title)” in \(household.name)"
        if let start = item.startsAt, let end = item.endsAt { text += ", \(words(start, in: zone))–\(words(end, in: zone).suffix(5))" }
        return Answer(text: text + ". Its id is \(item.id.lowercasedString).", structured: .object(["task": summary(item, household: household)]))
    }

    static let createLabel = Definition(
        tool: Tool(name: "create_label", title: "Create a label",
                   description: "Adds a label to a household, for tagging tasks and events.",
                   inputSchema: object([
                       "household": householdArgument, "name": string("The label's name."),
                       "color": string("A colour name (\(LabelColor.named.map(\.name).joined(separator: ", "))) or #RRGGBB; default gray."),
                   ], required: ["name"]),
                   annotations: .init(readOnlyHint: false, destructiveHint: false),
                   outputSchema: object(["label": object(["id": string("The label's id."), "name": string("Its name."), "color": string("Its colour, #RRGGBB.")],
                                                         required: ["id", "name", "color"])], required: ["label"])),
        scope: .write) { tools, arguments, caller in
        let household = try await tools.household(arguments, caller)
        let label = try await tools.services.tasks.createLabel(caller, householdID: household.id, name: try arguments.required("name"),
                                                               color: arguments.string("color") ?? "gray")
        return Answer(text: "Created label “\(label.name)” (\(label.color)) in \(household.name).",
                      structured: .object(["label": .object(["id": .string(label.id.lowercasedString), "name": .string(label.name), "color": .string(label.color)])]))
    }

    static let completeTask = Definition(
        tool: Tool(name: "complete_task", title: "Complete a task",
                   description: "Marks a task (or event) done; its reminder is cancelled. A repeating task moves to its next occurrence (and the next member's turn) instead.",
                   inputSchema: object(["task_id": string("The task's id (from create_task, find_tasks or agenda).")], required: ["task_id"]),
                   annotations: .init(readOnlyHint: false, destructiveHint: false, idempotentHint: true), outputSchema: taskAnswer),
        scope: .write) { tools, arguments, caller in
        let id = try taskID(arguments)
        let item = try await tools.services.tasks.completeItem(caller, id: id)
        let household = try await tools.services.households.household(caller, id: item.householdID)
        // A repeating task is open again at its next occurrence: say so, so nobody takes it for a failure.
        var text = "Done: “\(item.title)”."
        if item.repetition != nil, !item.isCompleted, let next = item.deadline {
            text += " It repeats: next due \(words(next, in: timeZone(of: household)))."
        }
        let members = item.rotation == nil ? [] : try await tools.members(of: household, caller)
        if let turn = item.rotation.flatMap({ _ in item.assigneeID }), let person = members.first(where: { $0.user.id == turn }) {
            text += " Next turn: \(person.user.displayName)."
        }
        return Answer(text: text, structured: .object(["task": summary(item, household: household, members: members)]))
    }

    static let snoozeReminder = Definition(
        tool: Tool(name: "snooze_reminder", title: "Snooze a reminder",
                   description: "Puts a task's reminder off by some minutes (default 15).",
                   inputSchema: object(["task_id": string("The task's id."), "minutes": string("How many minutes, e.g. \"30\"; default 15.", or: "integer")],
                                       required: ["task_id"]),
                   annotations: .init(readOnlyHint: false, destructiveHint: false), outputSchema: taskAnswer),
        scope: .write) { tools, arguments, caller in
        let id = try taskID(arguments)
        let item = try await tools.services.tasks.snoozeReminder(caller, taskID: id, minutes: try arguments.int("minutes") ?? 15)
        let household = try await tools.services.households.household(caller, id: item.householdID)
        let zone = timeZone(of: household)
        let when = item.reminderDueAt.map { " until \(words($0, in: zone))" } ?? ""
        return Answer(text: "Snoozed the reminder of “\(item.title)”\(when).", structured: .object(["task": summary(item, household: household)]))
    }

    static let updateTask = Definition(
        tool: Tool(name: "update_task", title: "Change a task",
                   description: "Changes a task or event: only the fields given change (labels given replace its labels).",
                   inputSchema: object(taskFields.filter { $0.key != "household" }.merging([
                       "task_id": string("The task's id."), "start": string("An event's new start."), "end": string("An event's new end."),
                       "location": string("An event's new place."),
                   ]) { first, _ in first }, required: ["task_id"]),
                   annotations: .init(readOnlyHint: false, destructiveHint: false, idempotentHint: true), outputSchema: taskAnswer),
        scope: .write) { tools, arguments, caller in
        let id = try taskID(arguments)
        let current = try await tools.services.tasks.item(caller, id: id)
        let household = try await tools.services.households.household(caller, id: current.householdID)
        let zone = timeZone(of: household)
        var patch = TaskPatch()
        patch.title = arguments.string("title")
        if let notes = arguments.string("notes") { patch.notes = .some(notes) }
        if arguments.string("priority") != nil { patch.priority = try priority(arguments) }
        if let deadline = try arguments.date("deadline", in: zone) { patch.deadline = .some(deadline) }
        if let minutes = try arguments.int("estimate_minutes") { patch.estimateMinutes = .some(minutes) }
        if arguments.givesList("labels") { patch.labelNames = arguments.list("labels") }
        if let start = try arguments.date("start", in: zone) { patch.startsAt = .some(start) }
        if let end = try arguments.date("end", in: zone, hourForDates: 10) { patch.endsAt = .some(end) }
        if let location = arguments.string("location") { patch.location = .some(location) }
        if let remindAt = try arguments.date("remind_at", in: zone) { patch.remindAt = .some(remindAt) }
        if let assignee = arguments.string("assignee") {
            patch.assigneeID = .some(try member(assignee, among: try await tools.members(of: household, caller), of: household, field: "assignee").user.id)
        }
        patch.repetition = try repetition(arguments)
        if arguments.givesList("rotation") {
            patch.rotation = .some(try rotation(arguments, members: try await tools.members(of: household, caller), of: household))
        }
        let item = try await tools.services.tasks.updateItem(caller, id: id, patch: patch)
        return Answer(text: "Updated “\(item.title)”.", structured: .object(["task": summary(item, household: household)]))
    }

    static func taskID(_ arguments: ToolArguments) throws(ServiceError) -> UUID {
        guard let id = try arguments.uuid("task_id") else { throw .invalidInput(field: "task_id", message: "task_id is required.") }
        return id
    }

    static func priority(_ arguments: ToolArguments) throws(ServiceError) -> TaskPriority {
        guard let text = arguments.string("priority") else { return .none }
        guard let priority = TaskPriority(rawValue: text.uppercased()) else {
            throw .invalidInput(field: "priority", message: "priority must be NONE, LOW, MEDIUM or HIGH; \"\(text.prefix(20))\" is none of these.")
        }
        return priority
    }
}
