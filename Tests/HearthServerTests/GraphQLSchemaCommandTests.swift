import Foundation
import HearthTestSupport
import Testing

/// `hearth graphql validate` and `hearth graphql print-schema`, run as processes on real files.
@Suite struct GraphQLSchemaCommandTests {
    static let schema = """
        type Query { dog(id: ID!): Dog }
        "A good dog."
        type Dog { name: String barkVolume: Int }
        """

    @Test func validOperationsExitZero() async throws {
        try await withTemporaryDirectory { path throws in
            let dir = URL(fileURLWithPath: path)
            let schema = dir.appendingPathComponent("schema.graphql")
            let query = dir.appendingPathComponent("ok.graphql")
            try Data(Self.schema.utf8).write(to: schema)
            try Data("query Q($id: ID!) { dog(id: $id) { name } }".utf8).write(to: query)
            let process = try HearthProcess(["graphql", "validate", "--schema", schema.path, query.path])
            #expect(try await process.waitForExit().status == 0)
            #expect(process.stdout.isEmpty)
        }
    }

    @Test func problemsArePrintedWithFileLineAndColumnAndExitOne() async throws {
        try await withTemporaryDirectory { path throws in
            let dir = URL(fileURLWithPath: path)
            let schema = dir.appendingPathComponent("schema.graphql")
            let query = dir.appendingPathComponent("bad.graphql")
            try Data(Self.schema.utf8).write(to: schema)
            try Data("{\n  dog(id: 1) { nme }\n}\n".utf8).write(to: query)
            let process = try HearthProcess(["graphql", "validate", "--schema", schema.path, query.path])
            #expect(try await process.waitForExit().status == 1)
            #expect(process.stdout == "\(query.path):2:16: Cannot query field \"nme\" on type \"Dog\". Did you mean \"name\"?\n")

            let json = try HearthProcess(["graphql", "validate", "--json", "--schema", schema.path, query.path])
            #expect(try await json.waitForExit().status == 1)
            let entries = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
            #expect(entries?.count == 1)
            #expect(entries?.first?["file"] as? String == query.path)
            #expect(entries?.first?["message"] as? String == "Cannot query field \"nme\" on type \"Dog\". Did you mean \"name\"?")
            let locations = entries?.first?["locations"] as? [[String: Int]]
            #expect(locations == [["line": 2, "column": 16]])
        }
    }

    @Test func printSchemaIsCanonicalAndSchemaProblemsAreListed() async throws {
        try await withTemporaryDirectory { path throws in
            let dir = URL(fileURLWithPath: path)
            let schema = dir.appendingPathComponent("schema.graphql")
            try Data(Self.schema.utf8).write(to: schema)
            let printing = try HearthProcess(["graphql", "print-schema", schema.path])
            #expect(try await printing.waitForExit().status == 0)
            #expect(printing.stdout == "type Query {\n  dog(id: ID!): Dog\n}\n\n\"\"\"A good dog.\"\"\"\ntype Dog {\n  name: String\n  barkVolume: Int\n}\n")

            let broken = dir.appendingPathComponent("broken.graphql")
            try Data("type Query { a: Foo }\ninterface I { b: Int }\ntype T implements I { c: Int }\n".utf8).write(to: broken)
            let failing = try HearthProcess(["graphql", "print-schema", broken.path])
            #expect(try await failing.waitForExit().status == 1)
            #expect(failing.stderr.contains("\(broken.path):1:17: Unknown type \"Foo\"."))
            // The build stops at the SDL rules: type-system checks run on a schema that builds.
            let contract = dir.appendingPathComponent("contract.graphql")
            try Data("type Query { a: Int }\ninterface I { b: Int }\ntype T implements I { c: Int }\n".utf8).write(to: contract)
            let checking = try HearthProcess(["graphql", "validate", "--schema", contract.path, "-"])
            #expect(try await checking.waitForExit().status == 1)
            #expect(checking.stderr.contains("\(contract.path):2:15: Interface field I.b expected but T does not provide it."))
        }
    }
}
