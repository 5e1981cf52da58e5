import Foundation

/// A household as a document to keep or to move to another server (`GET /households/<id>/export`,
/// `POST /households/import`, `hearth household import`): the household, its members by email, labels,
/// tasks and events with their subtasks, reminders and completion, and the stores it watches (their
/// products come back by syncing). Ids are not carried: an import makes new ones, and items name
/// labels and people by label name and email. Read state and history are left out. Its JSON Schema
/// is `docs/household-export.schema.json`.
public struct HouseholdExport: Codable, Sendable, Equatable {
    /// Always ``formatName``.
    public var format: String
    /// The document's version; a larger one than ``currentVersion`` is from a newer Hearth.
    public var version: Int
    public var exportedAt: Date
    public var household: Household
    public var members: [Member]
    public var labels: [Label]
    public var items: [Item]
    public var stores: [Store]

    public static let formatName = "hearth-household"
    public static let currentVersion = 1

    public init(format: String = HouseholdExport.formatName, version: Int = HouseholdExport.currentVersion, exportedAt: Date, household: Household,
                members: [Member], labels: [Label], items: [Item], stores: [Store]) {
        (self.format, self.version, self.exportedAt, self.household) = (format, version, exportedAt, household)
        (self.members, self.labels, self.items, self.stores) = (members, labels, items, stores)
    }

    public struct Household: Codable, Sendable, Equatable {
        public var name: String
        public var description: String
        public var timeZone: String

        public init(name: String, description: String, timeZone: String) {
            (self.name, self.description, self.timeZone) = (name, description, timeZone)
        }
    }

    public struct Member: Codable, Sendable, Equatable {
        public var name: String
        public var email: String
        public var role: HouseholdRole

        public init(name: String, email: String, role: HouseholdRole) {
            (self.name, self.email, self.role) = (name, email, role)
        }
    }

    public struct Label: Codable, Sendable, Equatable {
        public var name: String
        /// `#RRGGBB`.
        public var color: String

        public init(name: String, color: String) {
            (self.name, self.color) = (name, color)
        }
    }

    public struct Item: Codable, Sendable, Equatable {
        public var kind: TaskKind
        public var title: String
        public var notes: String?
        public var priority: TaskPriority
        public var deadline: Date?
        public var estimateMinutes: Int?
        /// The assignee's email (a member's).
        public var assignee: String?
        public var startsAt: Date?
        public var endsAt: Date?
        public var location: String?
        /// The reminder's explicit time (without one it fires when the item occurs).
        public var remindAt: Date?
        /// When the reminder fires next (nil: nothing pending); an import arms it when still ahead.
        public var reminderDueAt: Date?
        public var completedAt: Date?
        /// Who completed it (an email), when known.
        public var completedBy: String?
        public var createdAt: Date
        /// Label names.
        public var labels: [String]
        public var subtasks: [Subtask]
        /// How it repeats and where its series stands (nil: it happens once).
        public var `repeat`: Repeat?
        /// Who takes turns, by email, in order.
        public var rotation: [String]?

        public init(kind: TaskKind, title: String, notes: String? = nil, priority: TaskPriority = .none, deadline: Date? = nil,
                    estimateMinutes: Int? = nil, assignee: String? = nil, startsAt: Date? = nil, endsAt: Date? = nil, location: String? = nil,
                    remindAt: Date? = nil, reminderDueAt: Date? = nil, completedAt: Date? = nil, completedBy: String? = nil, createdAt: Date,
                    labels: [String] = [], subtasks: [Subtask] = []) {
            (self.kind, self.title, self.notes, self.priority, self.deadline, self.estimateMinutes) = (kind, title, notes, priority, deadline, estimateMinutes)
            (self.assignee, self.startsAt, self.endsAt, self.location, self.remindAt) = (assignee, startsAt, endsAt, location, remindAt)
            (self.reminderDueAt, self.completedAt, self.completedBy, self.createdAt) = (reminderDueAt, completedAt, completedBy, createdAt)
            (self.labels, self.subtasks) = (labels, subtasks)
        }
    }

    /// A repeating item's rule and place in its series. Completions are history and stay behind.
    public struct Repeat: Codable, Sendable, Equatable {
        /// An RFC 5545 RRULE value.
        public var rule: String
        public var from: RepeatFrom
        public var exceptions: [Date]
        /// The series' first date (DTSTART).
        public var start: Date
        /// The occurrence the item stands at.
        public var occurrence: Date
        /// Occurrences done or skipped so far.
        public var passed: Int
        /// An event's changed occurrences; nil (absent) when none.
        public var overrides: [Override]?

        public init(rule: String, from: RepeatFrom, exceptions: [Date], start: Date, occurrence: Date, passed: Int, overrides: [Override]? = nil) {
            (self.rule, self.from, self.exceptions, self.start, self.occurrence, self.passed) = (rule, from, exceptions, start, occurrence, passed)
            self.overrides = overrides
        }
    }

    /// One occurrence of a repeating event, changed (see ``OccurrenceOverride``).
    public struct Override: Codable, Sendable, Equatable {
        public var occurrence: Date
        public var startsAt: Date
        public var endsAt: Date
        public var title: String?
        public var notes: String?
        public var location: String?

        public init(_ change: OccurrenceOverride) {
            (occurrence, startsAt, endsAt) = (change.occurrence, change.startsAt, change.endsAt)
            (title, notes, location) = (change.title, change.notes, change.location)
        }

        var change: OccurrenceOverride {
            OccurrenceOverride(occurrence: occurrence, startsAt: startsAt, endsAt: endsAt, title: title, notes: notes, location: location)
        }
    }

    public struct Subtask: Codable, Sendable, Equatable {
        public var title: String
        public var done: Bool

        public init(title: String, done: Bool) {
            (self.title, self.done) = (title, done)
        }
    }

    public struct Store: Codable, Sendable, Equatable {
        public var domain: String
        public var name: String

        public init(domain: String, name: String) {
            (self.domain, self.name) = (domain, name)
        }
    }

    /// Most of each part an import takes.
    public static let maximumMembers = 1_000
    public static let maximumLabels = 1_000
    public static let maximumItems = 100_000
    public static let maximumStores = 500

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// The document as JSON (UTF-8, keys sorted).
    public func json() throws -> Data { try Self.encoder.encode(self) }

    /// Reads a document in one pass, refusing what is not one (or one from a newer Hearth) in words that
    /// say where. The format and version are read first, and each list's length is checked against
    /// its limit before any of its elements is decoded, so an oversized document costs no more than
    /// its bytes.
    public static func read(_ data: Data) throws(ServiceError) -> HouseholdExport {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(HouseholdExport.self, from: data)
        } catch let error as ServiceError {
            throw error
        } catch let DecodingError.keyNotFound(key, context) {
            throw .invalidInput(field: path(context.codingPath + [key]), message: "This field is missing.")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            guard !context.codingPath.isEmpty else { throw notAnExport }
            throw .invalidInput(field: path(context.codingPath), message: "This value has the wrong type: \(context.debugDescription)")
        } catch let DecodingError.dataCorrupted(context) {
            guard !context.codingPath.isEmpty else { throw notAnExport }
            throw .invalidInput(field: path(context.codingPath), message: "This value is not valid: \(context.debugDescription)")
        } catch {
            throw .invalidInput(field: "document", message: "The export cannot be read: \(error)")
        }
    }

    static var notAnExport: ServiceError {
        .invalidInput(field: "document", message: "This is not a Hearth household export (a JSON object with \"format\": \"\(formatName)\").")
    }

    private enum CodingKeys: String, CodingKey {
        case format, version, exportedAt, household, members, labels, items, stores
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard (try? container.decode(String.self, forKey: .format)) == Self.formatName, let version = try? container.decode(Int.self, forKey: .version) else {
            throw Self.notAnExport
        }
        guard version <= Self.currentVersion else {
            throw ServiceError.invalidInput(field: "version",
                                            message: "This export is version \(version), made by a newer Hearth; this one reads up to \(Self.currentVersion).")
        }
        /// A list, refused by its length before any element is read.
        func list<Element: Decodable>(_ key: CodingKeys, _ maximum: Int) throws -> [Element] {
            var elements = try container.nestedUnkeyedContainer(forKey: key)
            if let count = elements.count, count > maximum {
                throw ServiceError.invalidInput(field: key.rawValue, message: "An import takes at most \(maximum) \(key.rawValue).")
            }
            var decoded: [Element] = []
            decoded.reserveCapacity(elements.count ?? 0)
            while !elements.isAtEnd { decoded.append(try elements.decode(Element.self)) }
            return decoded
        }
        self.init(format: Self.formatName, version: version, exportedAt: try container.decode(Date.self, forKey: .exportedAt),
                  household: try container.decode(Household.self, forKey: .household), members: try list(.members, Self.maximumMembers),
                  labels: try list(.labels, Self.maximumLabels), items: try list(.items, Self.maximumItems), stores: try list(.stores, Self.maximumStores))
    }

    /// `items[3].title`: where in the document.
    static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce("") { path, key in
            if let index = key.intValue { return path + "[\(index)]" }
            return path.isEmpty ? key.stringValue : path + "." + key.stringValue
        }
    }
}
