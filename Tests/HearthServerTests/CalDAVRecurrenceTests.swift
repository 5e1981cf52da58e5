import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// Repeating items over CalDAV with the `caldav` library (PyPI, in `.build/python-caldav`): a
/// repeating VTODO completed in place (Tasks.org, DAVx5) and one completed by a RECURRENCE-ID
/// override (Thunderbird, Evolution) each move the task on once, a stale completed copy sent again
/// too; a repeating VEVENT with an EXDATE, a cancelled occurrence and moved ones round-trips, and
/// `recurring-ical-events` expands what Hearth serves to exactly the occurrences `agenda` lists.
@Suite struct CalDAVRecurrenceTests {
    static let python = CalendarFeedOverHTTPTests.python
    static let script = DeliveryCryptoTests.root.appendingPathComponent("scripts/clients/caldav_repeating.py").path
    static let hasClient = ChildProcess.succeeds(python, ["-c", "import caldav, recurring_ical_events"])

    static func run(_ arguments: [String]) async throws -> [String: Any] {
        let run = try await ChildProcess.run(python, [script] + arguments)
        #expect(run.status == 0, "\(run.text.suffix(4000))")
        return try #require(try? JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "\(run.text.suffix(4000))")
    }

    @Test(.enabled(if: hasClient || DeliveryCryptoTests.isCI, "SKIPPED: needs caldav and recurring-ical-events in .build/python-caldav (make test installs them)"))
    func repeatingTasksCompletedEitherWayMoveOnOnce() async throws {
        try #require(Self.hasClient, "caldav or recurring-ical-events is missing from \(Self.python) (make test installs them)")
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Elm Street")  // Europe/Berlin
            let token = try await CalDAVOverHTTPTests.token(server, ann, scopes: "READ, WRITE")
            let port = try #require(server.client.port)
            let base = ["http://127.0.0.1:\(port)/dav/", "ann@example.org", token, home]
            for (uid, mode) in [("inplace@example.org", "inplace"), ("override@example.org", "override")] {
                let seen = try await Self.run(["todo"] + base + [uid, mode])
                #expect((seen["saved"] as? [String: Any])?["due"] as? String == "2030-01-01T06:00:00Z", "\(mode): \(seen)")
                #expect((seen["saved"] as? [String: Any])?["rrule"] as? String == "FREQ=WEEKLY", "\(mode): \(seen)")
                for step in ["completed", "again"] {
                    let task = try #require(seen[step] as? [String: Any], "\(mode) \(step): \(seen)")
                    #expect(task["due"] as? String == "2030-01-08T06:00:00Z" && task["status"] as? String == "NEEDS-ACTION",
                            "\(mode) \(step): the next occurrence, open: \(task)")
                }
            }
            // Each completed once, as GraphQL sees them.
            let tasks = try await server.data("""
                query($h: UUID!) { tasks(householdId: $h) { edges { node { title deadline completed completions { totalCount edges { node { occurrence } } } } } } }
                """, ["h": home], token: ann.token)
            let nodes = (((tasks["tasks"] as? [String: Any])?["edges"] as? [[String: Any]]) ?? []).compactMap { $0["node"] as? [String: Any] }
            #expect(nodes.count == 2)
            for node in nodes {
                let completions = node["completions"] as? [String: Any]
                #expect(completions?["totalCount"] as? Int == 1 && node["deadline"] as? String == "2030-01-08T06:00:00.000Z", "\(node)")
                #expect(((completions?["edges"] as? [[String: Any]])?.first?["node"] as? [String: Any])?["occurrence"] as? String
                        == "2030-01-01T06:00:00.000Z", "\(node)")
            }
        }
    }

    @Test(.enabled(if: hasClient || DeliveryCryptoTests.isCI, "SKIPPED: needs caldav and recurring-ical-events in .build/python-caldav (make test installs them)"))
    func aRepeatingEventRoundTripsAndExpandsAsTheAgendaLists() async throws {
        try #require(Self.hasClient, "caldav or recurring-ical-events is missing from \(Self.python) (make test installs them)")
        try await UsersOverHTTPTests.withServer { server in
            let ann = try await HouseholdsOverHTTPTests.person(server, "Ann")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, ann, name: "Elm Street")  // Europe/Berlin
            let token = try await CalDAVOverHTTPTests.token(server, ann, scopes: "READ, WRITE")
            let port = try #require(server.client.port)
            let seen = try await Self.run(["event", "http://127.0.0.1:\(port)/dav/", "ann@example.org", token, home,
                                           "20300101T000000Z", "20300301T000000Z"])
            // As the library hands it over (its lines ended by LF).
            let body = try #require(seen["body"] as? String).replacingOccurrences(of: "\r\n", with: "\n")
            #expect(body.contains("RRULE:FREQ=WEEKLY;COUNT=6\n") && body.contains("EXDATE;TZID=Europe/Berlin:20300113T180000\n")
                    && body.contains("EXDATE;TZID=Europe/Berlin:20300127T180000\n"), "the cancelled occurrence is an EXDATE: \(body)")
            let rehearsal = ["20300120T180000 Europe/Berlin", "20300121T190000 Europe/Berlin", "20300121T213000 Europe/Berlin",
                             "Choir (dress rehearsal)", "Town hall"]
            #expect(seen["firstOverrides"] as? [[String]] == [rehearsal], "the moved occurrence is kept and served as an override: \(seen["firstOverrides"] ?? "none")")
            #expect(seen["overrides"] as? [[String]] == [rehearsal, ["20300203T180000 Europe/Berlin", "20300204T180000 Europe/Berlin",
                                                                     "20300204T200000 Europe/Berlin", "Choir", ""]],
                    "one moved by the app round-trips beside it: \(seen["overrides"] ?? "none")")
            let agenda = try await server.data("""
                query($h: UUID!) { agenda(householdId: $h, from: "2030-01-01T00:00:00Z", to: "2030-03-01T00:00:00Z") { title startsAt occurrence location } }
                """, ["h": home], token: ann.token)
            let choir = ((agenda["agenda"] as? [[String: Any]]) ?? []).filter { ($0["title"] as? String)?.hasPrefix("Choir") == true }
            func utc(_ value: Any?) -> String? { (value as? String)?.replacingOccurrences(of: ".000Z", with: "Z") }
            let listed = choir.compactMap { utc($0["startsAt"]) }
            #expect(listed == ["2030-01-06T17:00:00Z", "2030-01-21T18:00:00Z", "2030-02-04T17:00:00Z", "2030-02-10T17:00:00Z"], "\(agenda)")
            #expect(choir.compactMap { utc($0["occurrence"]) }
                    == ["2030-01-06T17:00:00Z", "2030-01-20T17:00:00Z", "2030-02-03T17:00:00Z", "2030-02-10T17:00:00Z"], "\(agenda)")
            #expect(choir.compactMap { $0["title"] as? String } == ["Choir", "Choir (dress rehearsal)", "Choir", "Choir"], "\(agenda)")
            #expect(seen["starts"] as? [String] == listed, "recurring-ical-events over what Hearth serves: \(seen["starts"] ?? "none")")
            #expect(seen["titles"] as? [String] == choir.compactMap { $0["title"] as? String }, "\(seen["titles"] ?? "none")")
            #expect((seen["movedExpanded"] as? [[String]]) == [["2030-01-21T18:00:00Z", "2030-01-20T17:00:00Z"]],
                    "expand gives the moved occurrence on its new day, named by its original start: \(seen["movedExpanded"] ?? "none")")
            #expect((seen["february"] as? [String])?.count == 1, "a time-range search finds the series by its February occurrences: \(seen)")
            #expect((seen["farFuture"] as? [String])?.count == 1, "a series with no end is found 45 years on: \(seen["farFuture"] ?? "none")")
            #expect(seen["expanded"] as? [String] == ["2030-02-12T12:00:00Z"], "expand gives the occurrence: \(seen["expandedBody"] ?? "none")")
        }
    }
}
