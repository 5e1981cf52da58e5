import Foundation

/// A locked record's version and the version at which each of its columns last changed (kept by
/// the `sync_stamp` trigger): what field-level optimistic concurrency compares against.
struct FieldVersions: Sendable {
    /// The record's version now.
    var version: Int
    /// Column → the version that last changed it; a column never changed since the record was made is absent (0).
    var columns: [String: Int]

    /// Reads the `field_versions` column (a JSON object of column → version).
    init(version: Int, json: JSONColumn) throws {
        self.version = version
        self.columns = try json.decode([String: Int].self, column: "field_versions")
    }

    /// Refuses an edit based on `expected` that names a field someone changed since (`CONFLICT`,
    /// naming those fields and the current version); no `expected` is last-writer-wins per field.
    /// `fields` are (API name, column) pairs.
    func refuseStale(_ what: String, expected: Int?, fields: [(name: String, column: String)]) throws(ServiceError) {
        guard let expected else { return }
        let stale = fields.filter { (columns[$0.column] ?? 0) > expected }.map(\.name)
        guard stale.isEmpty else { throw .versionConflict(what, fields: stale, currentVersion: version) }
    }

    /// Refuses a deletion based on `expected` when the record changed since, naming what changed.
    func refuseStaleDeletion(_ what: String, expected: Int?, names: [String: String]) throws(ServiceError) {
        guard let expected, version > expected else { return }
        let changed = columns.filter { $0.value > expected }.compactMap { names[$0.key] }.sorted()
        throw .versionConflict(what, fields: changed, currentVersion: version)
    }
}
