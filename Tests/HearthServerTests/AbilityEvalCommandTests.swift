import Foundation
import Testing

/// `hearth ability eval`, run as a process: one JSON line in, one JSON line out.
@Suite struct AbilityEvalCommandTests {
    @Test func answersEachLine() async throws {
        let lines = [
            #"{"rules": [{"action": "read", "subject": "Post"}], "action": "read", "subject": "Post"}"#,
            #"{"rules": [{"action": "read", "subject": "Post", "conditions": {"authorId": 1}}], "action": "read", "subject": {"__caslSubjectType__": "Post", "authorId": 2}}"#,
            "",
            #"{"rules": [{"action": "modify", "subject": "all"}], "options": {"aliases": {"modify": ["update"]}}, "action": "update", "subject": null}"#,
            #"{"rules": [{"action": "read", "subject": "User", "fields": ["id"]}], "action": "read", "subject": "User", "field": "email"}"#,
            #"{"rules": [{"action": "read", "subject": "Post", "conditions": {"a": {"$where": "x"}}}], "action": "read", "subject": "Post"}"#,
            "not json",
            #"{"rules": [], "subject": "Post"}"#,
            // CASL v7: empty conditions match everything and decide checks on the type too.
            #"{"rules": [{"action": "manage", "subject": "User", "conditions": {}}, {"action": "update", "subject": "User", "fields": ["admin"], "conditions": {}, "inverted": true}], "action": "update", "subject": "User", "field": "admin"}"#,
            #"{"rules": [{"action": "read", "subject": "Post"}, {"action": "read", "subject": "Post", "inverted": true, "conditions": {}}], "action": "read", "subject": "Post"}"#,
        ]
        let process = try HearthProcess(["ability", "eval"], input: lines.joined(separator: "\n") + "\n")
        #expect(try await process.waitForExit().status == 0)
        let output = process.stdout.split(separator: "\n").map(String.init)
        #expect(output.count == 9)
        guard output.count == 9 else { return }
        #expect(output[0] == #"{"allowed":true}"#)
        #expect(output[1] == #"{"allowed":false}"#)
        #expect(output[2] == #"{"allowed":true}"#)
        #expect(output[3] == #"{"allowed":false}"#)
        #expect(output[4].contains(#"{"error":"rule 0: unsupported operator \"$where\""#))
        #expect(output[5] == #"{"error":"the line is not a JSON object"}"#)
        #expect(output[6] == #"{"error":"\"action\" must be a string"}"#)
        #expect(output[7] == #"{"allowed":false}"#)
        #expect(output[8] == #"{"allowed":false}"#)
    }
}
