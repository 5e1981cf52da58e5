import Crypto
import Logging
import PostgresNIO
import Synchronization

/// Query texts by the SHA-256 of their text (Apollo's automatic persisted queries), stored in
/// PostgreSQL so every instance knows a text once any has seen it, with a bounded in-memory cache
/// in front so a known hash costs no database round trip.
public final class PersistedQueryStore: Sendable {
    private let database: Database
    private let cache: Mutex<RecentTexts>
    /// The longest text stored (longer ones are executed but not persisted).
    public let maxTextBytes: Int

    public init(database: Database, cacheCapacity: Int = 1_000, maxTextBytes: Int = 1 << 20) {
        self.database = database
        self.cache = Mutex(RecentTexts(capacity: cacheCapacity))
        self.maxTextBytes = maxTextBytes
    }

    /// The lowercase hex SHA-256 of `text`'s UTF-8 bytes.
    public static func hash(of text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).lowercaseHex
    }

    /// Whether `hash` has the form of a SHA-256 in lowercase hex (what the table accepts).
    public static func isValidHash(_ hash: String) -> Bool {
        hash.utf8.count == 64 && hash.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The text registered under `hash`, from memory or the database; nil when unknown.
    public func text(forHash hash: String) async throws -> String? {
        if let text = cache.withLock({ $0.text(forHash: hash) }) { return text }
        guard Self.isValidHash(hash) else { return nil }
        let rows = try await database.client.query(
            "SELECT query FROM persisted_queries WHERE sha256 = \(hash)", logger: database.logger)
        for try await text in rows.decode(String.self) {
            cache.withLock { $0.insert(text, forHash: hash) }
            return text
        }
        return nil
    }

    /// Registers `text` under its hash (which the caller has checked); registering twice is harmless.
    public func register(_ text: String, hash: String) async throws {
        guard Self.isValidHash(hash), text.utf8.count <= maxTextBytes else { return }
        cache.withLock { $0.insert(text, forHash: hash) }
        try await database.client.query(
            "INSERT INTO persisted_queries (sha256, query) VALUES (\(hash), \(text)) ON CONFLICT (sha256) DO NOTHING",
            logger: database.logger)
    }
}

/// The texts used most recently, at most `capacity`: two generations of half the capacity each;
/// a hit in the older one moves the entry to the newer, and when the newer is full the older is
/// dropped — a least-recently-used cache without per-entry bookkeeping.
struct RecentTexts {
    let capacity: Int
    private var current: [String: String] = [:]
    private var previous: [String: String] = [:]

    init(capacity: Int) { self.capacity = max(2, capacity) }

    mutating func text(forHash hash: String) -> String? {
        if let text = current[hash] { return text }
        guard let text = previous.removeValue(forKey: hash) else { return nil }
        insert(text, forHash: hash)
        return text
    }

    mutating func insert(_ text: String, forHash hash: String) {
        if current[hash] == nil, current.count >= capacity / 2 {
            previous = current
            current = [:]
        }
        current[hash] = text
    }

    var count: Int { current.count + previous.count }
}
