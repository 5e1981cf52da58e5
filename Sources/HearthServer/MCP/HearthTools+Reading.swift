import Foundation
import HearthCore
import MCP

extension HearthTools {
    /// Reading households, members and tasks (the READ scope).
    static let readingTools: [Definition] = [listHouseholds, householdMembers, agenda, findTasks]

    static let listHouseholds = Definition(
        tool: Tool(name: "list_households", title: "List households",
                   description: "The households you belong to, with their time zones (dates you give are read in a household's time zone).",
                   inputSchema: object([:]), annotations: .init(readOnlyHint: true),
                   outputSchema: object(["households": array(of: object([
                       "id": string("The household's id."), "name": string("Its name."), "time_zone": string("Its time zone (IANA)."),
                   ], required: ["id", "name", "time_zone"]))], required: ["households"])),
        scope: .read) { tools, _, caller in
        let households = try await tools.services.households.households(caller, page: PageRequest(first: PageRequest.maximumSize, after: nil))
            .items.map(\.item)
        let text = households.isEmpty ? "You belong to no household yet."
            : "Your households: " + households.map { "\($0.name) (\($0.timeZone))" }.joined(separator: "; ") + "."
        return Answer(text: text, structured: .object(["households": .array(households.map {
            .object(["id": .string($0.id.lowercasedString), "name": .string($0.name), "time_zone": .string($0.timeZone)])
        })]))
    }

    static let householdMembers = Definition(
        tool: Tool(name: "household_members", title: "Household members",
                   description: "Who belongs to a household and with which role (OWNER, ADMIN, MEMBER, VIEWER).",
                   inputSchema: object(["household": householdArgument]), annotations: .init(readOnlyHint: true),
                   outputSchema: object([
                       "household": string("The household's name."),
                       "members": array(of: object(["id": string("The person's id."), "name": string("Their display name."),
                                                    "role": enumeration(HouseholdRole.allCases.map(\.rawValue), "Their role.")],
                                                   required: ["id", "name", "role"])),
                   ], required: ["household", "members"])),
        scope: .read) { tools, arguments, caller in
        let household = try await tools.household(arguments, caller)
        let members = try await tools.members(of: household, caller)
        return Answer(text: "\(household.name): " + members.map { "\($0.user.displayName) (\($0.role.rawValue.lowercased()))" }.joined(separator: ", ") + ".",
                      structured: .object(["household": .string(household.name), "members": .array(members.map {
                          .object(["id": .string($0.user.id.lowercasedString), "name": .string($0.user.displayName), "role": .string($0.role.rawValue)])
                      })]))
    }

    static let itemsAnswer = object(["household": string("The household's name."), "items": array(of: summarySchema)], required: ["household", "items"])

    static let agenda = Definition(
        tool: Tool(name: "agenda", title: "Agenda",
                   description: "Tasks due and events happening between two moments (default: from the start of today for 7 days), in time order.",
                   inputSchema: object([
                       "household": householdArgument,
                       "from": string("Start: 2026-11-24, 2026-11-24T08:00 (the household's time) or RFC 3339; default today 00:00."),
                       "to": string("End, like from; default 7 days after from."),
                   ]), annotations: .init(readOnlyHint: true), outputSchema: itemsAnswer),
        scope: .read) { tools, arguments, caller in
        let household = try await tools.household(arguments, caller)
        let zone = timeZone(of: household)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let from = try arguments.date("from", in: zone, hourForDates: 0) ?? calendar.startOfDay(for: tools.services.clock.now)
        let to = try arguments.date("to", in: zone, hourForDates: 0) ?? from.addingTimeInterval(7 * 86_400)
        let items = try await tools.services.tasks.agenda(caller, householdID: household.id, from: from, to: to)
        let members = try await tools.members(of: household, caller)
        let lines = items.map { item in "• \(item.occursAt.map { words($0, in: zone) } ?? "") \(item.title)\(item.isCompleted ? " (done)" : "")" }
        let text = items.isEmpty ? "Nothing in \(household.name)'s agenda from \(words(from, in: zone)) to \(words(to, in: zone))."
            : "\(household.name), \(words(from, in: zone)) to \(words(to, in: zone)):\n" + lines.joined(separator: "\n")
        return Answer(text: text, structured: .object(["household": .string(household.name),
                                                       "items": .array(items.map { summary($0, household: household, members: members) })]))
    }

    static let findTasks = Definition(
        tool: Tool(name: "find_tasks", title: "Find tasks",
                   description: "Searches a household's tasks and events by text, state, due dates and label; at most 50, soonest due first.",
                   inputSchema: object([
                       "household": householdArgument, "text": string("Words in the title or notes."),
                       "status": enumeration(["open", "done", "all"], "open (default), done or all."),
                       "due_before": string("Due before this moment (like agenda's from)."), "due_after": string("Due after this moment."),
                       "label": string("A label's name."),
                   ]), annotations: .init(readOnlyHint: true),
                   outputSchema: object(["household": string("The household's name."), "tasks": array(of: summarySchema),
                                         "total": .object(["type": "integer", "description": "How many match (more than shown when over 50)."])],
                                        required: ["household", "tasks", "total"])),
        scope: .read) { tools, arguments, caller in
        let household = try await tools.household(arguments, caller)
        let zone = timeZone(of: household)
        let completed: Bool?
        switch arguments.string("status")?.lowercased() ?? "open" {
        case "open": completed = false
        case "done": completed = true
        case "all": completed = nil
        case let other: throw ServiceError.invalidInput(field: "status", message: "status must be open, done or all; \"\(other.prefix(20))\" is none of these.")
        }
        var labelIDs: [UUID] = []
        if let name = arguments.string("label") {
            let labels = try await tools.services.tasks.labels(caller, householdID: household.id)
            guard let label = labels.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
                throw ServiceError.invalidInput(field: "label", message: "\(household.name) has no label “\(name)”; its labels: \(labels.map(\.name).joined(separator: ", ")).")
            }
            labelIDs = [label.id]
        }
        let query = try TaskQuery(completed: completed, labelIDs: labelIDs, dueBefore: try arguments.date("due_before", in: zone),
                                  dueAfter: try arguments.date("due_after", in: zone), search: arguments.string("text"))
        let page = try await tools.services.tasks.items(caller, householdID: household.id, query: query, page: PageRequest(first: 50, after: nil))
        let items = page.items.map(\.item)
        let members = try await tools.members(of: household, caller)
        let text = items.isEmpty ? "No matching tasks in \(household.name)."
            : "\(page.totalCount) in \(household.name):\n" + items.map { item in
                "• \(item.title)\(item.deadline.map { ", due \(words($0, in: zone))" } ?? "") (id \(item.id.lowercasedString))"
            }.joined(separator: "\n")
        return Answer(text: text, structured: .object(["household": .string(household.name), "total": .int(page.totalCount),
                                                       "tasks": .array(items.map { summary($0, household: household, members: members) })]))
    }
}
