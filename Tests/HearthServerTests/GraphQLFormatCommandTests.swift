import Foundation
import HearthTestSupport
import Testing

/// `hearth graphql format`, run as a process on real files.
@Suite struct GraphQLFormatCommandTests {
    @Test func printsCanonicalFormAndRewritesInPlace() async throws {
        try await withTemporaryDirectory { path throws in
            let dir = URL(fileURLWithPath: path)
            let query = dir.appendingPathComponent("query.graphql")
            try Data("query Q($a:Int=1){a(x:$a){b ...F}} fragment F on T{c}".utf8).write(to: query)
            let expected = "query Q($a: Int = 1) {\n  a(x: $a) {\n    b\n    ...F\n  }\n}\n\nfragment F on T {\n  c\n}\n"

            let printing = try HearthProcess(["graphql", "format", query.path])
            #expect(try await printing.waitForExit().status == 0)
            #expect(printing.stdout == expected)

            let writing = try HearthProcess(["graphql", "format", "--write", query.path])
            #expect(try await writing.waitForExit().status == 0)
            #expect(String(decoding: try Data(contentsOf: query), as: UTF8.self) == expected)
        }
    }

    @Test func syntaxErrorsAreQuotedWithTheFileNameAndExitOne() async throws {
        try await withTemporaryDirectory { path throws in
            let dir = URL(fileURLWithPath: path)
            let broken = dir.appendingPathComponent("broken.graphql")
            let original = "type T {\n  a: [Int\n}\n"
            try Data(original.utf8).write(to: broken)
            let process = try HearthProcess(["graphql", "format", "--write", broken.path])
            #expect(try await process.waitForExit().status == 1)
            #expect(process.stderr.contains("Syntax Error: Expected \"]\", found \"}\"."))
            #expect(process.stderr.contains("\(broken.path):3:1\n2 |   a: [Int\n3 | }\n  | ^"))
            // A file that does not parse is left as it was.
            #expect(String(decoding: try Data(contentsOf: broken), as: UTF8.self) == original)
        }
    }

    @Test func missingFilesAreNamed() async throws {
        let process = try HearthProcess(["graphql", "format", "/nonexistent/schema.graphql"])
        #expect(try await process.waitForExit().status == 1)
        #expect(process.stderr.contains("cannot read /nonexistent/schema.graphql"))
    }
}
