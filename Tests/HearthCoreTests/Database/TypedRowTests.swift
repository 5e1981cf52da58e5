import Foundation
import HearthTestSupport
import PostgresNIO
import Testing

@testable import HearthCore

/// Typed rows: cells are read in the SELECT list's order, each read naming its column, so a
/// statement and its decoder that disagree fail with both names; enums and JSON fail loudly.
@Suite struct TypedRowTests {
    /// A row type of three columns, as the services declare theirs.
    struct Tree: TypedRow, Equatable {
        let size: Int
        let name: String
        let note: String?

        init(size: Int, name: String, note: String?) { (self.size, self.name, self.note) = (size, name, note) }

        init(_ row: inout RowCells) throws {
            (size, name, note) = (try row("size"), try row("name"), try row("note"))
        }
    }

    @Test func aRowIsReadInItsStatementsOrder() async throws {
        try await withTestDatabase { database, _ in
            let rows = try await database.client.query("SELECT 7 AS size, 'oak' AS name, NULL::text AS note").rows(as: Tree.self)
            #expect(rows == [Tree(size: 7, name: "oak", note: nil)])
        }
    }

    @Test func aStatementThatDisagreesWithItsDecoderFailsNamingBoth() async throws {
        try await withTestDatabase { database, _ in
            let reordered = try await #require(throws: RowCells.Mismatch.self) {
                try await database.client.query("SELECT 'oak' AS name, 7 AS size, NULL::text AS note").rows(as: Tree.self)
            }
            #expect(reordered.description == "the row's next column is name, but its decoder reads size there")
            let short = try await #require(throws: RowCells.Mismatch.self) {
                try await database.client.query("SELECT 7 AS size, 'oak' AS name").rows(as: Tree.self)
            }
            #expect(short.description == "the row has no more columns, but its decoder reads note")
            let long = try await #require(throws: RowCells.Mismatch.self) {
                try await database.client.query("SELECT 7 AS size, 'oak' AS name, NULL::text AS note, 1 AS colour").rows(as: Tree.self)
            }
            #expect(long.description == "the row has a column colour that its decoder does not read")
            let mistyped = try await #require(throws: PostgresDecodingError.self) {
                try await database.client.query("SELECT 'seven' AS size, 'oak' AS name, NULL::text AS note").rows(as: Tree.self)
            }
            #expect(mistyped.columnName == "size")
        }
    }

    @Test func aColumnAfterASharedListIsReadByName() async throws {
        try await withTestDatabase { database, _ in
            let rows = try await database.client.query("SELECT 7 AS size, 'oak' AS name, 'tall' AS note, 'key' AS sort_key")
                .rows(as: Tree.self, then: "sort_key", String.self)
            #expect(rows.map(\.row) == [Tree(size: 7, name: "oak", note: "tall")])
            #expect(rows.map(\.extra) == ["key"])
        }
    }

    @Test func textColumnsReadAsEnumsAndUnknownValuesFailTheRow() async throws {
        try await withTestDatabase { database, _ in
            for try await raw in try await database.client.query("SELECT 'HIGH' AS known, 'LOUD' AS unknown") {
                var row = RowCells(raw)
                #expect(try row("known", as: TaskPriority.self) == .high)
                let error = try #require(throws: PostgresDecodingError.self) { try row("unknown", as: TaskPriority.self) }
                #expect(error.columnName == "unknown")
                #expect(error.code == .failure)
            }
        }
    }

    /// jsonb and json cells are read as documents (no text round trip), and one that is not the
    /// shape asked for is an error naming its column, not an empty default.
    @Test func jsonColumnsAreDocumentsThatFailLoudly() async throws {
        try await withTestDatabase { database, _ in
            for try await raw in try await database.client.query(
                #"SELECT '{"name": 3, "title": 7}'::jsonb AS versions, '{"name": 3}'::json AS plain, '[1, 2]'::jsonb AS list"#
            ) {
                var row = RowCells(raw)
                #expect(try row("versions", as: JSONColumn.self).decode([String: Int].self, column: "versions") == ["name": 3, "title": 7])
                #expect(try row("plain", as: JSONColumn.self).decode([String: Int].self, column: "plain") == ["name": 3])
                let list = try row("list", as: JSONColumn.self)
                #expect(try list.decode([Int].self, column: "list") == [1, 2])
                let error = try #require(throws: JSONColumn.Malformed.self) { try list.decode([String: Int].self, column: "labels.field_versions") }
                #expect(error.description.hasPrefix("the labels.field_versions column holds JSON Hearth cannot read: "))
            }
        }
    }

    /// Two variants of one generic prepared statement whose type names share their first 63
    /// bytes (where PostgreSQL cuts a statement's name) run side by side on one connection.
    @Test func variantsOfAGenericPreparedStatementDoNotShareAName() async throws {
        try await withTestDatabase { database, _ in
            // The name PostgresNIO prepares each under.
            func name<Statement: PostgresPreparedStatement>(_: Statement.Type) -> String { Statement.name }
            let (oak, elm) = (name(LongTreeNamesAreCutByPostgreSQLAfterSixtyThreeBytes<Oaks>.self), name(LongTreeNamesAreCutByPostgreSQLAfterSixtyThreeBytes<Elms>.self))
            #expect(oak != elm)
            #expect(oak.utf8.count <= 63 && elm.utf8.count <= 63)
            try await database.client.withConnection { connection in
                for _ in 0..<2 {
                    let oaks = try await connection.execute(LongTreeNamesAreCutByPostgreSQLAfterSixtyThreeBytes<Oaks>(), logger: TestPostgres.logger)
                    #expect(try await oaks.rows(as: Tree.self).map(\.name) == ["oak"])
                    let elms = try await connection.execute(LongTreeNamesAreCutByPostgreSQLAfterSixtyThreeBytes<Elms>(), logger: TestPostgres.logger)
                    #expect(try await elms.rows(as: Tree.self).map(\.name) == ["elm"])
                }
            }
        }
    }

    protocol Species: Sendable { static var name: String { get } }
    enum Oaks: Species { static let name = "oak" }
    enum Elms: Species { static let name = "elm" }

    struct LongTreeNamesAreCutByPostgreSQLAfterSixtyThreeBytes<Kind: Species>: HearthCore.PreparedQuery {
        typealias Output = Tree
        static var sql: String { "SELECT 7 AS size, '\(Kind.name)'::text AS name, NULL::text AS note" }
        func makeBindings() throws -> PostgresBindings { PostgresBindings() }
    }
}
