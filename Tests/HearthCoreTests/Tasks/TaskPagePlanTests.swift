import Foundation
import HearthTestSupport
import PostgresNIO
import Testing

@testable import HearthCore

/// PostgreSQL keeps one plan for the first page of a household's tasks: a prepared statement is
/// planned for its first five calls on a connection, then runs a generic plan when that costs no
/// more than the plans made for the values. A page's size bound as `LIMIT $n` was costed at a
/// tenth of the household's rows in the generic plan, so every call was planned again.
@Suite struct TaskPagePlanTests {
    @Test func aFirstPageOfTasksRunsOneGenericPlan() async throws {
        try await TaskServiceTests.withFixture { f in
            // The dashboard benchmark's household: 2 000 tasks, of which a page shows 50.
            _ = try await f.database.client.query("""
                INSERT INTO task_items (id, household_id, kind, title, priority, deadline, created_at, updated_at, create_digest, reminder_id)
                SELECT gen_random_uuid(), \(f.household), 'TASK', 'Task ' || i, 'NONE', now() + i * interval '72 minutes', now(), now(), 'plan', gen_random_uuid()
                FROM generate_series(1, 2000) AS i
                """, logger: f.database.logger)
            _ = try await f.database.client.query("ANALYZE task_items", logger: f.database.logger)
            typealias FirstPage = TaskService.FirstItemPages<TaskSummaryRow, TaskService.ByDeadline>
            let statement = FirstPage(households: [f.household], kind: nil, completed: nil, limit: 51)
            try await f.database.client.withConnection { connection in
                for _ in 0..<8 {
                    let rows = try await connection.execute(statement, logger: f.database.logger).rows(as: KeyedRow<TaskSummaryRow>.self)
                    #expect(rows.count == 51)
                }
                let plans = try await connection.query(
                    "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = \(FirstPage.name)", logger: f.database.logger)
                var found: [(generic: Int64, custom: Int64)] = []
                for try await (generic, custom) in plans.decode((Int64, Int64).self) { found.append((generic, custom)) }
                #expect(found.count == 1)
                // Five plans made for the values, then the generic one for the other three calls.
                #expect(found.first?.generic == 3)
                #expect(found.first?.custom == 5)
            }
        }
    }
}
