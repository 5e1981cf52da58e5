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
                #expect(try row("known", or: TaskPriority.none) == .high)
                #expect(try row("unknown", or: TaskPriority.none) == TaskPriority.none)
            }
        }
        #expect(NamedRow.MissingColumn(name: "colour").description == "the statement returns no column named colour")
    }
}
