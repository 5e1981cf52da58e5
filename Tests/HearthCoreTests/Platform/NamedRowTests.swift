import Foundation
import HearthTestSupport
import PostgresNIO
import Testing

@testable import HearthCore

/// Rows read by column name: any order of the SELECT list gives the same values, and a name the
/// statement does not return is an error that names it.
@Suite struct NamedRowTests {
    @Test func cellsAreReadByNameWhateverTheirOrder() async throws {
        try await withTestDatabase { database, _ in
            for statement in ["SELECT 7 AS size, 'oak' AS name, NULL::text AS note", "SELECT NULL::text AS note, 'oak' AS name, 7 AS size"] {
                var read: [String] = []
                for try await raw in try await database.client.query(PostgresQuery(unsafeSQL: statement)) {
                    let row = NamedRow(raw)
                    let note: String? = try row("note")
                    read.append("\(try row("name", as: String.self)) \(try row("size", as: Int.self)) \(note ?? "-")")
                    #expect(throws: NamedRow.MissingColumn.self) { try row("colour", as: String.self) }
                    #expect(throws: (any Error).self) { try row("name", as: Int.self) }
                }
                #expect(read == ["oak 7 -"])
            }
        }
    }

    @Test func textColumnsReadAsEnums() async throws {
        try await withTestDatabase { database, _ in
            for try await raw in try await database.client.query("SELECT 'HIGH' AS known, 'LOUD' AS unknown") {
                let row = NamedRow(raw)
                #expect(try row("known", as: TaskPriority.self) == .high)
                let error = try #require(throws: NamedRow.UnknownValue.self) { try row("unknown", as: TaskPriority.self) }
                #expect(error.description == "the column unknown holds \"LOUD\", which is not a TaskPriority")
            }
        }
        #expect(NamedRow.MissingColumn(name: "colour").description == "the statement returns no column named colour")
    }

    /// jsonb and json cells are read as documents (no text round trip), and one that is not the
    /// shape asked for is an error naming its column, not an empty default.
    @Test func jsonColumnsAreDocumentsThatFailLoudly() async throws {
        try await withTestDatabase { database, _ in
            for try await raw in try await database.client.query(
                #"SELECT '{"name": 3, "title": 7}'::jsonb AS versions, '{"name": 3}'::json AS plain, '[1, 2]'::jsonb AS list"#
            ) {
                let row = NamedRow(raw)
                #expect(try row("versions", as: JSONColumn.self).decode([String: Int].self, column: "versions") == ["name": 3, "title": 7])
                #expect(try row("plain", as: JSONColumn.self).decode([String: Int].self, column: "plain") == ["name": 3])
                let list = try row("list", as: JSONColumn.self)
                #expect(try list.decode([Int].self, column: "list") == [1, 2])
                let error = try #require(throws: JSONColumn.Malformed.self) { try list.decode([String: Int].self, column: "labels.field_versions") }
                #expect(error.description.hasPrefix("the labels.field_versions column holds JSON Hearth cannot read: "))
            }
        }
    }
}
