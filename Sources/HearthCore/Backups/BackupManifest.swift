import Foundation

/// What a backup holds, stored readable at the start of its file (authenticated by the backup key
/// when the backup is encrypted): which Hearth made it, at which migration, when, how much, and
/// the dump's size and SHA-256.
public struct BackupManifest: Codable, Sendable, Equatable {
    /// The file format this Hearth writes; a file with a larger one is from a newer Hearth. 2: each
    /// encrypted archive under its own key (a salt in the file); 1 (still read): under the backup key.
    public static let currentFormat = 2

    public var format: Int
    /// Hearth's release version that made it.
    public var hearthVersion: String
    /// The newest migration applied to the database (its number).
    public var migration: Int
    public var createdAt: Date
    public var households: Int
    public var people: Int
    public var tasks: Int
    public var products: Int
    /// The PostgreSQL dump (`pg_dump --format=custom`): its size and SHA-256 (lowercase hex).
    public var dumpBytes: Int
    public var dumpSHA256: String
    /// The backup key's identifier when encrypted; nil for a backup made with `--no-encrypt`.
    public var keyIdentifier: String?

    public init(hearthVersion: String, migration: Int, createdAt: Date, households: Int, people: Int, tasks: Int, products: Int,
                dumpBytes: Int, dumpSHA256: String, keyIdentifier: String?, format: Int = BackupManifest.currentFormat) {
        self.format = format
        self.hearthVersion = hearthVersion
        self.migration = migration
        self.createdAt = createdAt
        self.households = households
        self.people = people
        self.tasks = tasks
        self.products = products
        self.dumpBytes = dumpBytes
        self.dumpSHA256 = dumpSHA256
        self.keyIdentifier = keyIdentifier
    }

    public var isEncrypted: Bool { keyIdentifier != nil }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
