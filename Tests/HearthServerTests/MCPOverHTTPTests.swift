import AsyncHTTPClient
import FixtureShop
import Foundation
import HearthCore
import HearthServer
import HearthTestSupport
import NIOCore
import Testing

/// The assistants' tools at `/mcp`, driven by the official Python MCP client (`mcp` on PyPI, in
/// `.build/python-mcp`) over Streamable HTTP with personal access tokens; what the tools do is
/// checked through GraphQL.
@Suite struct MCPOverHTTPTests {
    typealias Server = UsersOverHTTPTests.Server
    static let script = DeliveryCryptoTests.root.appendingPathComponent("scripts/clients/mcp-client.py").path
    /// The interpreter with `mcp` installed; `HEARTH_MCP_PYTHON` overrides it.
    static let python = ProcessInfo.processInfo.environment["HEARTH_MCP_PYTHON"]
        ?? DeliveryCryptoTests.root.appendingPathComponent(".build/python-mcp/bin/python").path
    static let hasClient = ChildProcess.succeeds(python, ["-c", "import mcp, httpx2, jsonschema"])

    /// The client's report of one session: the server's name, the tools and each call's result.
    static func session(_ plan: [String: Any]) async throws -> [String: Any] {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: plan), as: UTF8.self)
        let result = try await ChildProcess.run(python, [script, json])
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.text.prefix(3000))")
        // A run that could not begin reports its failure (the caller checks it) and exits 1.
        #expect(result.status == (report["failure"] == nil ? 0 : 1), "\(report)")
        return report
    }

    /// The calls' results of one session at `port` with `token`.
    static func call(_ port: Int, _ token: String, _ calls: [(String, [String: Any])]) async throws -> [[String: Any]] {
        let report = try await session(["url": "http://127.0.0.1:\(port)/mcp", "token": token,
                                        "calls": calls.map { ["tool": $0.0, "arguments": $0.1] }])
        return try #require(report["results"] as? [[String: Any]], "\(report)")
    }

    /// `YYYY-MM-DD` of the day `days` after `date` in `zone`.
    static func day(_ days: Int, after date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: days, to: date) ?? date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// That day at `hour`:00 in `zone`.
    static func moment(_ day: String, hour: Int, in zone: TimeZone) throws -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = day.split(separator: "-").compactMap { Int($0) }
        return try #require(calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: hour)))
    }

    @Test(.enabled(if: hasClient || DeliveryCryptoTests.isCI, "SKIPPED: needs mcp in .build/python-mcp (make test installs it)"))
    func anAssistantUsesTheToolsWithinItsTokensScopesAndItsOwnersRoles() async throws {
        try #require(Self.hasClient, "mcp is missing from \(Self.python) (make test installs it)")
        try await StoresOverHTTPTests.withShops { server, shop in
            let port = try #require(server.client.port)
            let (owner, member, viewer, home) = try await HouseholdsOverHTTPTests.householdOfThree(server, ("Olive", "Max", "Vera"))
            let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
            let write = try await AccessTokensOverHTTPTests.token(server, member, "Claude", scopes: ["READ", "WRITE"])

            // A price drop for recent_store_changes.
            shop.addShop("alpha", products: 5)
            let store = try #require(try await StoresOverHTTPTests.add(server, owner, home, "alpha.test", name: "Alpha")["id"] as? String)
            _ = try await StoresOverHTTPTests.sync(server, owner, store)
            let catalog = try #require(shop.catalog("alpha"))
            _ = shop.update("alpha") { $0.setPrice(product: 2, to: catalog.products[2].variants[0].price / 2) }
            _ = try await StoresOverHTTPTests.sync(server, owner, store)

            let tomorrow = Self.day(1, after: server.clock.now, in: berlin), later = Self.day(2, after: server.clock.now, in: berlin)
            let report = try await Self.session(["url": "http://127.0.0.1:\(port)/mcp", "token": write.token, "calls": [
                ["tool": "create_task", "arguments": ["title": "Buy oat milk", "labels": "Groceries, Urgent", "deadline": "\(tomorrow)T09:00"]],
                ["tool": "create_event", "arguments": ["title": "Dentist", "start": later, "household": "Home"]],
                ["tool": "agenda", "arguments": [:]],
                ["tool": "recent_store_changes", "arguments": ["types": "PRICE_DROPPED"]],
                ["tool": "find_tasks", "arguments": ["text": "oat", "label": "groceries"]],
                ["tool": "create_task", "arguments": ["title": "x", "household": "Nowhere"]],
                ["tool": "household_members", "arguments": [:]],
                ["tool": "search_products", "arguments": ["text": catalog.products[2].title, "max_price": String(Double(catalog.products[2].variants[0].price / 2) / 100 + 0.01)]],
            ]])
            #expect(report["server"] as? String == "hearth")
            let tools = try #require(report["tools"] as? [[String: Any]])
            #expect(Set(tools.compactMap { $0["name"] as? String }) == [
                "create_task", "create_event", "create_label", "complete_task", "snooze_reminder", "update_task", "list_households",
                "household_members", "agenda", "find_tasks", "recent_store_changes", "search_products",
            ])
            #expect(tools.allSatisfy { $0["hasOutputSchema"] as? Bool == true })
            let results = try #require(report["results"] as? [[String: Any]])
            try #require(results.count == 8, "\(report)")
            #expect(results[0..<5].allSatisfy { $0["isError"] as? Bool == false }, "\(results)")
            let created = try #require((results[0]["structured"] as? [String: Any])?["task"] as? [String: Any])
            let taskID = try #require(created["id"] as? String)
            let event = try #require((results[1]["structured"] as? [String: Any])?["task"] as? [String: Any])
            let eventID = try #require(event["id"] as? String)

            // Through GraphQL, in the household's time zone: the task and its labels, the event at 09:00–10:00.
            let read = "query($id: UUID!) { task(id: $id) { title deadline startsAt endsAt labels { name } createdBy } }"
            let task = try #require(try await server.data(read, ["id": taskID], token: owner.token)["task"] as? [String: Any])
            #expect(task["createdBy"] as? String == member.id, "created as the token's owner")
            #expect(task["title"] as? String == "Buy oat milk" && (task["labels"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Groceries", "Urgent"])
            #expect(DateTimeScalar.date(from: task["deadline"] as? String ?? "") == (try Self.moment(tomorrow, hour: 9, in: berlin)), "\(task)")
            let dentist = try #require(try await server.data(read, ["id": eventID], token: owner.token)["task"] as? [String: Any])
            #expect(DateTimeScalar.date(from: dentist["startsAt"] as? String ?? "") == (try Self.moment(later, hour: 9, in: berlin)))
            #expect(DateTimeScalar.date(from: dentist["endsAt"] as? String ?? "") == (try Self.moment(later, hour: 10, in: berlin)))

            let agenda = try #require((results[2]["structured"] as? [String: Any])?["items"] as? [[String: Any]])
            #expect(agenda.compactMap { $0["title"] as? String } == ["Buy oat milk", "Dentist"], "\(agenda)")
            let changes = try #require((results[3]["structured"] as? [String: Any])?["changes"] as? [[String: Any]])
            #expect(changes.count == 1 && changes.first?["product"] as? String == catalog.products[2].title && changes.first?["type"] as? String == "PRICE_DROPPED",
                    "\(changes)")
            #expect((results[4]["structured"] as? [String: Any])?["total"] as? Int == 1)
            // A user's mistake is a tool error that says what was wrong and where.
            #expect(results[5]["isError"] as? Bool == true && (results[5]["text"] as? String)?.contains("household") == true, "\(results[5])")
            #expect((results[6]["text"] as? String)?.contains("Max (member)") == true)
            let found = try #require((results[7]["structured"] as? [String: Any])?["products"] as? [[String: Any]], "\(results[7])")
            #expect(found.map { $0["title"] as? String } == [catalog.products[2].title] && found.first?["store"] as? String == "Alpha", "\(found)")

            // Snooze the event's reminder, complete the task.
            let second = try await Self.call(port, write.token, [
                ("snooze_reminder", ["task_id": eventID, "minutes": "30"]), ("update_task", ["task_id": taskID, "priority": "high", "assignee": "olive"]),
                ("complete_task", ["task_id": taskID]),
            ])
            #expect(second.allSatisfy { $0["isError"] as? Bool == false }, "\(second)")
            let updated = (second[1]["structured"] as? [String: Any])?["task"] as? [String: Any]
            #expect(updated?["priority"] as? String == "HIGH" && updated?["title"] as? String == "Buy oat milk", "\(second[1])")
            #expect(((second[2]["structured"] as? [String: Any])?["task"] as? [String: Any])?["completed"] as? Bool == true)
            let done = try await server.data("query($id: UUID!) { task(id: $id) { completedAt assigneeId } }", ["id": taskID], token: owner.token)
            #expect((done["task"] as? [String: Any])?["completedAt"] is String && (done["task"] as? [String: Any])?["assigneeId"] as? String == owner.id, "\(done)")

            // A READ token's create_task and a viewer's are tool errors, not protocol errors.
            let readOnly = try await AccessTokensOverHTTPTests.token(server, member, "reader", scopes: ["READ"])
            let refused = try await Self.call(port, readOnly.token, [("create_task", ["title": "x"]), ("list_households", [:])])
            #expect(refused[0]["isError"] as? Bool == true && (refused[0]["text"] as? String)?.contains("WRITE") == true, "\(refused)")
            #expect(refused[1]["isError"] as? Bool == false)
            let viewerToken = try await AccessTokensOverHTTPTests.token(server, viewer, "viewer's", scopes: ["READ", "WRITE"])
            let viewerTry = try await Self.call(port, viewerToken.token, [("create_task", ["title": "x"])])
            #expect(viewerTry[0]["isError"] as? Bool == true, "\(viewerTry)")
            let count = try await server.data("query($h: UUID!) { tasks(householdId: $h, filter: {completed: null}) { totalCount } }", ["h": home], token: owner.token)
            #expect((count["tasks"] as? [String: Any])?["totalCount"] as? Int == 2)

            // Revoked between two calls of one session: the next call is refused with 401.
            let revoke = "mutation($id: UUID!) { revokeAccessToken(id: $id) { id } }"
            let revoked = try await Self.session(["url": "http://127.0.0.1:\(port)/mcp", "token": readOnly.token, "calls": [
                ["tool": "list_households", "arguments": [:]],
                ["graphql": revoke, "variables": ["id": readOnly.id], "token": member.token],
                ["tool": "list_households", "arguments": [:]],
            ]])
            let steps = try #require(revoked["results"] as? [[String: Any]], "\(revoked)")
            #expect(steps.count == 3 && steps[0]["isError"] as? Bool == false, "\(steps)")
            #expect((steps[2]["error"] as? String)?.contains("is not valid") == true, "\(steps)")
            // A browser page from another origin cannot even initialize.
            let foreign = try await Self.session(["url": "http://127.0.0.1:\(port)/mcp", "token": write.token, "origin": "http://evil.example", "calls": []])
            #expect((foreign["failure"] as? String)?.contains("Forbidden: requests from the origin http://evil.example") == true, "\(foreign)")
        }
    }

    /// The same client over stdio, through `hearth mcp --url` forwarding to the server: the
    /// token comes from the environment; a revoked one makes each call a JSON-RPC error.
    @Test(.enabled(if: hasClient || DeliveryCryptoTests.isCI, "SKIPPED: needs mcp in .build/python-mcp (make test installs it)"))
    func theToolsWorkOverStdioThroughHearthMCP() async throws {
        try #require(Self.hasClient, "mcp is missing from \(Self.python) (make test installs it)")
        try await UsersOverHTTPTests.withServer { server in
            let port = try #require(server.client.port)
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann)
            let token = try await AccessTokensOverHTTPTests.token(server, ann, "Claude Desktop", scopes: ["READ", "WRITE"])
            let command = [HearthProcess.binary, "mcp", "--url", "http://127.0.0.1:\(port)"]
            let report = try await Self.session(["stdio": command, "env": ["HEARTH_TOKEN": token.token], "calls": [
                ["tool": "create_label", "arguments": ["name": "Garden", "color": "green"]],
                ["tool": "create_task", "arguments": ["title": "Water the tomatoes", "labels": ["Garden"], "estimate_minutes": 15]],
                ["tool": "find_tasks", "arguments": ["label": "Garden"]],
            ]])
            #expect(report["server"] as? String == "hearth" && (report["tools"] as? [Any])?.count == 12, "\(report)")
            let results = try #require(report["results"] as? [[String: Any]], "\(report)")
            #expect(results.count == 3 && results.allSatisfy { $0["isError"] as? Bool == false }, "\(results)")
            #expect(((results[0]["structured"] as? [String: Any])?["label"] as? [String: Any])?["color"] as? String == "#34C759")
            let tasks = try await server.data("query($h: UUID!) { tasks(householdId: $h) { edges { node { title estimateMinutes labels { name } } } } }",
                                              ["h": home], token: ann.token)
            let node = ((tasks["tasks"] as? [String: Any])?["edges"] as? [[String: Any]])?.first?["node"] as? [String: Any]
            #expect(node?["title"] as? String == "Water the tomatoes" && node?["estimateMinutes"] as? Int == 15, "\(tasks)")
            // Each call is logged with the token's id, never the token, and counted.
            let logged = server.log.lines.withLock { $0.filter { $0.contains("tool call") } }
            #expect(logged.contains { $0.contains("tool=create_label") && $0.contains("token=\(token.id.uppercased())") }, "\(logged)")
            #expect(!server.log.lines.withLock { $0.contains { $0.contains(token.token) } }, "the token is never logged")
            let metrics = try await UsersOverHTTPTests.Server.http.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/metrics"), timeout: .seconds(120))
            let text = String(buffer: try await metrics.body.collect(upTo: 1 << 24))
            #expect(text.contains(#"hearth_mcp_tool_calls_total{tool="create_label",outcome="ok"}"#), "\(text.prefix(200))")

            // Revoked: the server refuses, and `hearth mcp` answers the host's request with an error saying so.
            _ = try await server.data("mutation($id: UUID!) { revokeAccessToken(id: $id) { id } }", ["id": token.id], token: ann.token)
            let plan = try JSONSerialization.data(withJSONObject: ["stdio": command, "env": ["HEARTH_TOKEN": token.token], "calls": []])
            let refused = try await ChildProcess.run(Self.python, [Self.script, String(decoding: plan, as: UTF8.self)])
            #expect(refused.status == 1 && refused.text.contains("401"), "\(refused.text.prefix(2000))")
        }
    }

    /// A raw POST to `/mcp`: its status, headers and body.
    static func post(_ port: Int, _ body: String, token: String?, session: String? = nil, origin: String? = nil) async throws
        -> (status: Int, headers: [String: String], body: String)
    {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/mcp")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json, text/event-stream")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let session {
            request.headers.add(name: "Mcp-Session-Id", value: session)
            request.headers.add(name: "Mcp-Protocol-Version", value: "2025-06-18")
        }
        if let origin { request.headers.add(name: "Origin", value: origin) }
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await UsersOverHTTPTests.Server.http.execute(request, timeout: .seconds(120))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        return (Int(response.status.code), Dictionary(response.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first }), text)
    }

    static let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#

    /// Without a token 401 with a challenge; a revoked token 401 on the next call of its open
    /// session; another person's session 404; an origin not allowed 403.
    @Test func theEndpointRefusesWhatItMust() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let port = try #require(server.client.port)
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let bob = try await HouseholdsOverHTTPTests.person(server, "Bob")
            let anonymous = try await Self.post(port, Self.initialize, token: nil)
            #expect(anonymous.status == 401 && anonymous.headers["www-authenticate"]?.hasPrefix("Bearer") == true, "\(anonymous)")
            let foreign = try await Self.post(port, Self.initialize, token: ann.token, origin: "http://evil.example")
            #expect(foreign.status == 403 && foreign.body.contains("origin"), "\(foreign)")

            let token = try await AccessTokensOverHTTPTests.token(server, ann, "assistant", scopes: ["READ"])
            let opened = try await Self.post(port, Self.initialize, token: token.token)
            #expect(opened.status == 200 && opened.body.contains("\"hearth\""), "\(opened)")
            let session = try #require(opened.headers["mcp-session-id"])
            let list = #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#
            let listed = try await Self.post(port, list, token: token.token, session: session)
            #expect(listed.status == 200 && listed.body.contains("create_task"), "\(listed)")
            // Bob cannot use Ann's session.
            #expect(try await Self.post(port, list, token: bob.token, session: session).status == 404)
            _ = try await server.data("mutation($id: UUID!) { revokeAccessToken(id: $id) { id } }", ["id": token.id], token: ann.token)
            let revoked = try await Self.post(port, list, token: token.token, session: session)
            #expect(revoked.status == 401 && revoked.headers["www-authenticate"]?.contains("invalid_token") == true, "\(revoked)")
        }
    }
}
