import Foundation
import HearthCore
import HearthTestSupport
import PostgresNIO
import Testing

/// A person's notifications read a page at a time: newest first (ties by id), each page after the
/// last one's cursor, filtered by read state and kind, with the total the filter matches.
@Suite struct NotificationPagesTests {
    @Test func pagesFollowEachOtherThroughFiltersAndTies() async throws {
        try await withTestDatabase { database, _ in
            let services = HearthServices(database: database, configuration: .init(users: UsersConfiguration(bcryptCost: 4)))
            let user = try await services.users.signUp(email: "ada@example.org", password: "correct horse", displayName: "Ada", deviceName: nil).user.id
            let caller = try await services.households.caller(for: user)
            let home = try await services.households.createHousehold(caller, name: "Home", description: nil, timeZone: "UTC").id
            // Twelve notifications, three to a second (ties broken by id), every third one read,
            // reminders and store changes by turns.
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            for number in 0..<12 {
                let (kind, read) = (number % 2 == 0 ? "REMINDER" : "STORE_CHANGES", number % 3 == 0)
                let created = start.addingTimeInterval(Double(number / 3))
                try await database.client.query("""
                    INSERT INTO notifications (id, user_id, household_id, title, body, priority, counts, created_at, read_at, kind)
                    VALUES (gen_random_uuid(), \(user), \(home), \("N\(number)"), '', 'NORMAL', '{}', \(created), \(read ? created : nil), \(kind))
                    """, logger: database.logger)
            }
            let expected = try await database.client.query("""
                SELECT title, kind, read_at IS NULL AS unread FROM notifications WHERE user_id = \(user) ORDER BY created_at DESC, id DESC
                """, logger: database.logger).decode((String, String, Bool).self).reduce(into: [(String, String, Bool)]()) { $0.append($1) }
            #expect(expected.count == 12)

            /// Every page of `size` for the filter, followed through the cursors: the titles in order, and each page's total.
            func walk(size: Int, unreadOnly: Bool, kinds: [NotificationKind]) async throws -> (titles: [String], totals: Set<Int>) {
                var (titles, totals, after): ([String], Set<Int>, String?) = ([], [], nil)
                // More pages than twelve notifications can fill means a cursor repeats rows.
                for _ in 0...12 {
                    let page = try await services.notifications.list(caller, unreadOnly: unreadOnly, kinds: kinds, page: try PageRequest(first: size, after: after))
                    titles += page.items.map(\.item.title)
                    totals.insert(page.totalCount)
                    guard page.hasNextPage, let last = page.items.last?.cursor else { return (titles, totals) }
                    after = last
                }
                Issue.record("pages of \(size) did not end")
                return (titles, totals)
            }
            for size in [1, 2, 5, 12] {
                let all = try await walk(size: size, unreadOnly: false, kinds: NotificationKind.allCases)
                #expect(all.titles == expected.map(\.0), "pages of \(size)")
                #expect(all.totals == [12])
                let unreadReminders = try await walk(size: size, unreadOnly: true, kinds: [.reminder])
                let wanted = expected.filter { $0.1 == "REMINDER" && $0.2 }.map(\.0)
                #expect(unreadReminders.titles == wanted, "unread reminders in pages of \(size)")
                #expect(unreadReminders.totals == [wanted.count])
            }
        }
    }
}
