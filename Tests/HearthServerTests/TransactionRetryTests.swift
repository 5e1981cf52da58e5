import Foundation
import HearthCore
import PostgresNIO
import Testing

/// A deadlock or serialization failure is retried, not shown: PostgreSQL raises them here for
/// real (a trigger on the test's own database raises `40P01` or `40001` for chosen titles, a
/// sequence counting the attempts so the rollback cannot undo the count). A create that meets a
/// few succeeds and moves `hearth_db_transaction_retries_total`; one that always meets them is
/// refused with a retryable CONFLICT, and nothing of it is written.
@Suite struct TransactionRetryTests {
    static let failures = ["CREATE SEQUENCE forced_deadlocks", "CREATE SEQUENCE forced_serialization_failures", """
        CREATE FUNCTION force_failure() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.title = 'Deadlocks twice' AND nextval('forced_deadlocks') <= 2 THEN
                RAISE EXCEPTION 'deadlock forced by the test' USING ERRCODE = '40P01';
            ELSIF NEW.title = 'Fails serialization once' AND nextval('forced_serialization_failures') <= 1 THEN
                RAISE EXCEPTION 'serialization failure forced by the test' USING ERRCODE = '40001';
            ELSIF NEW.title = 'Always deadlocks' THEN
                RAISE EXCEPTION 'deadlock forced by the test' USING ERRCODE = '40P01';
            END IF;
            RETURN NEW;
        END $$
        """, "CREATE TRIGGER force_failure BEFORE INSERT ON task_items FOR EACH ROW EXECUTE FUNCTION force_failure()"]

    @Test func deadlocksAndSerializationFailuresAreRetriedAndExhaustionIsARetryableConflict() async throws {
        try await UsersOverHTTPTests.withServer { server in
            let olive = try await HouseholdsOverHTTPTests.person(server, "Olive")
            let home = try await HouseholdsOverHTTPTests.createHousehold(server, olive)
            for statement in Self.failures {
                try await server.database.client.query(PostgresQuery(unsafeSQL: statement))
            }
            let create = "mutation($h: UUID!, $i: TaskInput!) { createTask(householdId: $h, input: $i) { title } }"
            let before = try await ConcurrencyTortureTests.metrics(server)

            let twice = try await server.data(create, ["h": home, "i": ["title": "Deadlocks twice"]], token: olive.token)
            #expect((twice["createTask"] as? [String: Any])?["title"] as? String == "Deadlocks twice")
            let once = try await server.data(create, ["h": home, "i": ["title": "Fails serialization once"]], token: olive.token)
            #expect((once["createTask"] as? [String: Any])?["title"] as? String == "Fails serialization once")

            let refused = try await server.error(create, ["h": home, "i": ["title": "Always deadlocks"]], token: olive.token)
            #expect(refused.code == "CONFLICT", "\(refused)")
            #expect(refused.extensions["retryable"] as? Bool == true)
            #expect(refused.message?.contains("try again") == true, "\(refused.message ?? "")")
            var written = -1
            for try await count in try await server.database.client.query(
                "SELECT count(*) FROM task_items WHERE title = 'Always deadlocks'").decode(Int.self) { written = count }
            #expect(written == 0, "nothing of a refused create is written")

            // The metrics moved by at least what this test forced (other suites in this process may add to them).
            let after = try await ConcurrencyTortureTests.metrics(server)
            func moved(_ name: String) -> Int { ConcurrencyTortureTests.counter(after, name) - ConcurrencyTortureTests.counter(before, name) }
            let attempts = TransactionRetryPolicy().attempts
            #expect(moved(#"hearth_db_transaction_retries_total{reason="deadlock"}"#) >= 2 + attempts - 1)
            #expect(moved(#"hearth_db_transaction_retries_total{reason="serialization"}"#) >= 1)
            #expect(moved(#"hearth_db_transaction_retries_exhausted_total{reason="deadlock"}"#) >= 1)
            // Exhaustion is a warning in the log; the retries before it are debug lines.
            let lines = server.log.lines.withLock { $0 }
            #expect(lines.contains { $0.hasPrefix("warning transaction gave up after repeated deadlocks") && $0.contains("attempts=\(attempts)") })
            #expect(lines.contains { $0.hasPrefix("debug transaction retried") && $0.contains("reason=serialization") })
        }
    }
}
