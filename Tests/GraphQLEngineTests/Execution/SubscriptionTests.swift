import Synchronization
import Testing

@testable import GraphQLEngine

/// Subscriptions: one response per source event, errors, and cancelling the source when the consumer stops.
@Suite struct SubscriptionTests {
    static let sdl = """
        type Query { a: Int }
        type Subscription { ticks(from: Int!): Tick!, plain: Int }
        type Tick { n: Int!, label: String }
        """

    /// What the source went through, as events the tests wait on: its stream's termination and
    /// its producer's end (after which nothing more can be produced).
    final class Probe: Sendable {
        let produced = Mutex(0)
        let (terminations, terminated) = AsyncStream.makeStream(of: Void.self)
        let (producerEnds, producerEnded) = AsyncStream.makeStream(of: Int.self)

        /// Waits (at most 10 s) for the source's termination and its producer's end; returns how
        /// many events it produced in all, or nil when either did not happen.
        func ended() async -> Int? {
            let terminations = terminations, producerEnds = producerEnds
            return await withDeadline(.seconds(10)) { () async -> Int? in
                for await _ in terminations { break }
                for await count in producerEnds { return count }
                return nil
            } ?? nil
        }
    }

    static func harness(_ probe: Probe, failAfter: Int? = nil, refuse: Bool = false) throws -> ExecutionHarness {
        var resolvers = Resolvers(defaultResolution: .none)
        resolvers.field("Query.a") { _ in .null }
        resolvers.field("Tick.n") { input in input.source.value?["n"].map(Resolved.value) ?? .null }
        resolvers.field("Tick.label") { input in
            guard case .int(let n)? = input.source.value?["n"] else { return .null }
            if n == 2 { throw FieldError("no label for 2", code: "NOT_FOUND") }
            return .string("tick \(n)")
        }
        resolvers.subscription("Subscription.ticks") { input in
            if refuse { throw FieldError("not a member", code: "FORBIDDEN") }
            guard case .int(let from)? = input.arguments["from"] else { throw FieldError("from is required") }
            return AsyncThrowingStream { continuation in
                let producer = Task {
                    var n = from
                    defer { probe.producerEnded.yield(probe.produced.withLock { $0 }) }
                    while !Task.isCancelled {
                        if let failAfter, n >= from + failAfter {
                            continuation.finish(throwing: FieldError("source broke", code: "UNAVAILABLE"))
                            return
                        }
                        probe.produced.withLock { $0 += 1 }
                        continuation.yield(.value(["n": .int(n)]))
                        n += 1
                        // The source's pace, not a wait for anything.
                        try? await Task.sleep(for: .milliseconds(2))
                    }
                }
                continuation.onTermination = { _ in
                    probe.terminated.yield()
                    producer.cancel()
                }
            }
        }
        resolvers.subscription("Subscription.plain") { _ in AsyncThrowingStream { $0.finish() } }
        return try ExecutionHarness(sdl, resolvers: resolvers)
    }

    static func stream(_ harness: ExecutionHarness, _ query: String) async throws -> SubscriptionStream {
        switch await harness.executor.subscribe(GraphQLRequest(query: query)) {
        case .stream(let stream): return stream
        case .response(let response): throw FieldError("expected a stream, got \(response.jsonText)")
        }
    }

    @Test func eachEventIsExecutedAndTheConsumerStoppingCancelsTheSource() async throws {
        let probe = Probe()
        let harness = try Self.harness(probe)
        var responses: [String] = []
        do {
            let stream = try await Self.stream(harness, "subscription { ticks(from: 1) { n label } }")
            for try await response in stream {
                responses.append(ExecutionHarness.stripExtensions(try JSONParser.parse(response.json)))
                if responses.count == 3 { break }
            }
        }
        #expect(responses == [
            json(#"{"data":{"ticks":{"n":1,"label":"tick 1"}}}"#),
            json(#"{"errors":[{"message":"no label for 2","locations":[{"line":1,"column":35}],"path":["ticks","label"]}],"data":{"ticks":{"n":2,"label":null}}}"#),
            json(#"{"data":{"ticks":{"n":3,"label":"tick 3"}}}"#),
        ])
        // The stream is gone: the source's termination handler ran and its producer ended.
        let produced = await probe.ended()
        #expect(produced != nil && produced! >= 3, "terminated, and the producer stopped after \(produced.map(String.init) ?? "never")")
    }

    @Test func cancellingTheConsumingTaskCancelsTheSource() async throws {
        let probe = Probe()
        let harness = try Self.harness(probe)
        let stream = try await Self.stream(harness, "subscription { ticks(from: 1) { n } }")
        let (received, receiving) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var count = 0
            for try await _ in stream {
                count += 1
                receiving.yield()
            }
            return count
        }
        // Cancelled once it is consuming: after its first event.
        for await _ in received { break }
        consumer.cancel()
        _ = try? await consumer.value
        #expect(await probe.ended() != nil, "the source was terminated and its producer ended")
    }

    @Test func sourceErrorsEndTheStreamWithTheError() async throws {
        let harness = try Self.harness(Probe(), failAfter: 2)
        let stream = try await Self.stream(harness, "subscription { ticks(from: 5) { n } }")
        var seen: [String] = []
        do {
            for try await response in stream { seen.append(response.jsonText) }
            Issue.record("the stream must end with the source's error")
        } catch let error as FieldError {
            #expect(error.message == "source broke")
        }
        #expect(seen == [#"{"data":{"ticks":{"n":5}}}"#, #"{"data":{"ticks":{"n":6}}}"#])
    }

    @Test func refusedSubscriptionsAnswerOneResponse() async throws {
        let harness = try Self.harness(Probe(), refuse: true)
        guard case .response(let refused) = await harness.executor.subscribe(GraphQLRequest(query: "subscription { ticks(from: 1) { n } }")) else {
            Issue.record("expected a response")
            return
        }
        #expect(refused.jsonText == #"{"errors":[{"message":"not a member","locations":[{"line":1,"column":16}],"path":["ticks"],"extensions":{"code":"FORBIDDEN"}}]}"#)
        guard case .response(let invalid) = await harness.executor.subscribe(GraphQLRequest(query: "subscription { ticks(from: 1) { n } plain }")) else {
            Issue.record("expected a response")
            return
        }
        #expect(invalid.refusal == .validation)
        #expect(invalid.errors.map(\.message) == ["Anonymous Subscription must select only one top level field."])
    }

    @Test func bindingRequiresASourceForEverySubscriptionField() throws {
        let schema = try SchemaBuilder.build(sdl: Self.sdl)
        var resolvers = Resolvers(defaultResolution: .everywhere)
        resolvers.subscription("Subscription.tick") { _ in AsyncThrowingStream { $0.finish() } }
        var none = resolvers
        none.defaultResolution = .types(["Tick", "Query"])
        do {
            _ = try ExecutableSchema(schema, resolvers: none)
            Issue.record("binding must fail")
        } catch {
            #expect(error.problems == [
                "Subscription.tick: subscription source names a field that is not a field of the subscription root type",
                "Subscription.ticks: subscription field has no source stream",
                "Subscription.plain: subscription field has no source stream",
            ])
        }
    }
}
