import Crypto
import Foundation

/// One forward-only schema change: a file `NNNN_name.sql` in the migrations directory.
public struct Migration: Sendable, Equatable {
    /// The number the file name starts with; migrations apply in this order.
    public var version: Int
    /// The part of the file name after the number.
    public var name: String
    /// The file's name, for messages.
    public var fileName: String
    /// The file's text.
    public var sql: String
    /// Hex SHA-256 of the file's bytes; a changed file no longer matches what was applied.
    public var checksum: String

    public init(version: Int, name: String, fileName: String, sql: String) {
        self.version = version
        self.name = name
        self.fileName = fileName
        self.sql = sql
        self.checksum = SHA256.hash(data: Data(sql.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Reads every `NNNN_name.sql` in `directory`, sorted by number. Other files are ignored;
    /// a malformed `.sql` name or a number used twice is an error.
    public static func load(from directory: String) throws(MigrationError) -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .directoryUnreadable(path: directory)
        }
        var migrations: [Migration] = []
        for fileName in names.sorted() where fileName.hasSuffix(".sql") {
            let stem = fileName.dropLast(4)
            let digits = stem.prefix { $0.isASCII && $0.isNumber }
            guard digits.count >= 4, let version = Int(digits), stem.dropFirst(digits.count).first == "_",
                  stem.count > digits.count + 1 else {
                throw .badFileName(fileName)
            }
            guard let data = FileManager.default.contents(atPath: directory + "/" + fileName),
                  let sql = String(data: data, encoding: .utf8) else {
                throw .unreadableFile(fileName)
            }
            if let clash = migrations.first(where: { $0.version == version }) {
                throw .duplicateVersion(version, clash.fileName, fileName)
            }
            migrations.append(Migration(version: version, name: String(stem.dropFirst(digits.count + 1)),
                                        fileName: fileName, sql: sql))
        }
        return migrations.sorted { $0.version < $1.version }
    }
}

/// Why migrations could not be loaded or applied; each says which file and what to do.
public enum MigrationError: Error, CustomStringConvertible, Sendable, Equatable {
    case directoryUnreadable(path: String)
    case badFileName(String)
    case unreadableFile(String)
    case duplicateVersion(Int, String, String)
    case changed(version: Int, fileName: String, applied: String, now: String)
    case missing(version: Int, name: String)
    case failed(fileName: String, line: Int, message: String)

    public var description: String {
        switch self {
        case .directoryUnreadable(let path):
            return "cannot read the migrations directory \(path); set --migrations-dir or HEARTH_MIGRATIONS_DIR"
        case .badFileName(let name):
            return "migration file \(name) is not named NNNN_name.sql"
        case .unreadableFile(let name):
            return "migration file \(name) cannot be read as UTF-8 text"
        case .duplicateVersion(let version, let first, let second):
            return "migration number \(version) is used by both \(first) and \(second)"
        case .changed(let version, let fileName, let applied, let now):
            return """
                migration \(fileName) (version \(version)) was changed after it was applied \
                (checksum then \(applied.prefix(12))…, now \(now.prefix(12))…); migrations are forward-only: \
                restore the file and put the change in a new migration
                """
        case .missing(let version, let name):
            return """
                migration \(version) (\(name)) was applied to this database but its file is missing; \
                restore the file (this hearth may be older than the database)
                """
        case .failed(let fileName, let line, let message):
            return "migration \(fileName) failed at line \(line): \(message); it was rolled back"
        }
    }
}
