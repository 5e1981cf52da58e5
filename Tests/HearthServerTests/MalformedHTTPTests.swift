import Foundation
import HearthServer
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import Testing

/// Malformed, slow and too many HTTP connections over raw sockets against the real server: each
/// is answered (400, 408, 414, 431, 503) and closed, or closed when idle, within the limits; the
/// server answers normally afterwards and `/metrics` counts what it refused.
@Suite struct MalformedHTTPTests {
    static let limits = HTTPConnectionLimits(headerTimeout: .seconds(1), idleTimeout: .seconds(1), maxConnections: 4)
    /// Longer than any limit above: a connection still open after it was left hanging.
    static let wait = Duration.seconds(4)
    /// For requests answered at once: a header timeout no loaded machine reaches before the test's own
    /// client has written its bytes (it shares the process with the server), so a malformed head is
    /// answered 400, never 408.
    static let patientLimits = HTTPConnectionLimits(headerTimeout: .seconds(15), idleTimeout: .seconds(15), maxConnections: 4)

    static let tlsClientHello: [UInt8] = [
        0x16, 0x03, 0x01, 0x00, 0x2f, 0x01, 0x00, 0x00, 0x2b, 0x03, 0x03, 0x5a, 0x5b, 0x5c, 0x5d, 0x5e, 0x5f, 0x60, 0x61,
        0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f, 0x70, 0x71, 0x72, 0x73, 0x74,
        0x75, 0x76, 0x77, 0x78, 0x79, 0x00, 0x00, 0x02, 0x13, 0x01, 0x01, 0x00, 0x00, 0x00,
    ]

    /// A plain request is answered 200. Under `limits` a connection whose request has not been read
    /// within 1 s is answered 408 (its idle limit): on a loaded machine (a clean run's whole suite on
    /// two cores) that happened to this very request once, so a 408 is asked again, twice at most.
    static func expectServes(_ port: Int) async throws {
        let request = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        var fine = try await RawConnection.exchange(port: port, request, wait: wait)
        for _ in 0..<2 where fine.status == 408 { fine = try await RawConnection.exchange(port: port, request, wait: wait) }
        #expect(fine.status == 200 && fine.closedByServer, "the server still serves: \(fine.text.prefix(60))")
    }

    @Test func malformedRequestsAreAnsweredAndClosed() async throws {
        try await GraphQLHTTPTests.withServer(connections: Self.patientLimits) { client in
            let port = try #require(client.port)
            let post = "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            let cases: [(name: String, bytes: [UInt8], status: Int, code: String)] = [
                ("garbage", Array("GARBAGE\r\n\r\n".utf8), 400, "BAD_REQUEST"),
                ("negative length", Array((post + "Content-Length: -1\r\n\r\n").utf8), 400, "BAD_REQUEST"),
                ("letters for a length", Array((post + "Content-Length: abc\r\n\r\n").utf8), 400, "BAD_REQUEST"),
                ("two lengths", Array((post + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello").utf8), 400, "BAD_REQUEST"),
                ("a length of 10^23", Array((post + "Content-Length: 100000000000000000000000\r\n\r\n").utf8), 400, "BAD_REQUEST"),
                ("length and chunked", Array((post + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").utf8), 400, "BAD_REQUEST"),
                ("a NUL in a header", Array((post + "X-A: a\u{0}b\r\n\r\n").utf8), 400, "BAD_REQUEST"),
                ("a 200 KB header", Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 200_000))\r\n\r\n".utf8),
                 431, "REQUEST_HEADER_FIELDS_TOO_LARGE"),
                ("20 000 headers", Array(("GET /healthz HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 20_000) + "\r\n").utf8),
                 431, "REQUEST_HEADER_FIELDS_TOO_LARGE"),
                ("a 100 KB URL", Array("GET /healthz?\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8), 414, "URI_TOO_LONG"),
                ("a TLS ClientHello", Self.tlsClientHello, 400, "BAD_REQUEST"),
            ]
            for item in cases {
                let outcome = try await RawConnection.exchange(port: port, [item.bytes], wait: .seconds(20))
                #expect(outcome.status == item.status, "\(item.name): \(outcome.text.prefix(80).debugDescription)")
                #expect(outcome.text.contains(#""code":"\#(item.code)""#), "\(item.name): \(outcome.text.prefix(300))")
                #expect(outcome.closedByServer, "\(item.name) left open")
            }
            try await Self.expectServes(port)
            // (A fresh connection: the test client's own one may have been closed as idle meanwhile.)
            let metrics = try await RawConnection.exchange(
                port: port, "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", wait: Self.wait).text
            #expect(metrics.contains(#"hearth_http_connections_refused_total{reason="malformed"}"#), "\(metrics.prefix(2000))")
            #expect(metrics.contains(#"hearth_http_connections_refused_total{reason="uri_too_long"}"#))
            #expect(metrics.contains(#"hearth_http_connections_refused_total{reason="headers_too_large"}"#))
            #expect(metrics.contains("hearth_http_connections_open "))
        }
    }

    /// A head sent a byte at a time, a body that never comes, a silent connection: all closed.
    @Test func slowAndStalledConnectionsAreClosed() async throws {
        try await GraphQLHTTPTests.withServer(connections: Self.limits) { client in
            let port = try #require(client.port)
            let head = Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n".utf8)
            let slow = try await RawConnection.exchange(port: port, head.map { [$0] }, pause: .milliseconds(100), wait: Self.wait)
            #expect(slow.status == 408 && slow.closedByServer, "\(slow.text.prefix(80).debugDescription)")
            #expect(slow.text.contains(#""code":"REQUEST_TIMEOUT""#))
            let silent = try await RawConnection.exchange(port: port, [], wait: Self.wait)
            #expect(silent.status == 408 && silent.closedByServer)
            try await Self.expectServes(port)
        }
    }

    /// A body that stops coming is the client's fault: 408 and closed within the header timeout
    /// (not a 5xx at the GraphQL deadline), long before the idle timeout.
    @Test func aStalledBodyIsAnswered408() async throws {
        let limits = HTTPConnectionLimits(headerTimeout: .seconds(1), idleTimeout: .seconds(30), maxConnections: 8)
        try await GraphQLHTTPTests.withServer(connections: limits) { client in
            let port = try #require(client.port)
            let shortBody = try await RawConnection.exchange(
                port: port, "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}", wait: .seconds(20))
            #expect(shortBody.status == 408 && shortBody.closedByServer, "a stalled body is the client's fault: \(shortBody)")
            #expect(shortBody.text.contains(#""code":"REQUEST_TIMEOUT""#))
            try await Self.expectServes(port)
        }
    }

    /// A kept-alive connection's second head, sent a byte at a time, is timed like the first (408);
    /// a pause before the first request or between requests is not (the idle timeout's business),
    /// nor are WebSocket frames.
    @Test func laterRequestHeadsAreTimedAndNothingElseIs() async throws {
        let limits = HTTPConnectionLimits(headerTimeout: .seconds(1), idleTimeout: .seconds(10), maxConnections: 8)
        try await GraphQLHTTPTests.withServer(connections: limits) { client in
            let port = try #require(client.port)
            let first = Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            let second = Array("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n".utf8)
            let slow = try await RawConnection.exchange(port: port, [first] + second.map { [$0] }, pause: .milliseconds(100), wait: Self.wait)
            #expect(slow.text.hasPrefix("HTTP/1.1 200"), "\(slow.text.prefix(80).debugDescription)")
            #expect(slow.text.contains("HTTP/1.1 408") && slow.text.contains(#""code":"REQUEST_TIMEOUT""#), "\(slow.text.debugDescription)")
            #expect(slow.closedByServer)

            // 1.5 s between two whole requests, longer than the header timeout: both are served.
            let last = Array("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
            let paused = try await RawConnection.exchange(port: port, [first, last], pause: .milliseconds(1_500), wait: Self.wait)
            #expect(paused.text.components(separatedBy: "HTTP/1.1 200").count == 3, "\(paused.text.debugDescription)")
            #expect(!paused.text.contains("408"))

            // A connection opened ahead of its first request (as clients pre-connect): 1.5 s of silence, then served.
            let preconnected = try await RawConnection.exchange(port: port, [[], last], pause: .milliseconds(1_500), wait: Self.wait)
            #expect(preconnected.status == 200 && preconnected.closedByServer, "\(preconnected)")

            // A WebSocket: a ping 1.5 s after the upgrade and a close 1.5 s later are both answered.
            let upgrade = Array((
                "GET /graphql HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n").utf8)
            let ping: [UInt8] = [0x89, 0x80, 1, 2, 3, 4]
            let close: [UInt8] = [0x88, 0x82, 1, 2, 3, 4, 0x03 ^ 1, 0xE8 ^ 2]
            let socket = try await RawConnection.exchange(port: port, [upgrade, ping, close], pause: .milliseconds(1_500), wait: Self.wait)
            #expect(socket.text.hasPrefix("HTTP/1.1 101"), "\(socket.text.prefix(80).debugDescription)")
            let blankLine = try #require(socket.bytes.indices.first { socket.bytes[$0...].starts(with: [13, 10, 13, 10]) })
            let frames = Array(socket.bytes[(blankLine + 4)...])
            #expect(frames.starts(with: [0x8A, 0x00]), "a pong, then the close: \(frames)")
            #expect(frames.dropFirst(2).starts(with: [0x88]), "\(frames)")
            #expect(socket.closedByServer)

            // The same frames sent with the upgrade, before its 101 (the decoder hands them on as raw
            // bytes when it leaves): answered, and the server stays up (it once crashed here).
            let pipelined = try await RawConnection.exchange(port: port, [upgrade + ping + close], wait: Self.wait)
            #expect(pipelined.text.hasPrefix("HTTP/1.1 101"), "\(pipelined.text.prefix(80).debugDescription)")
            let after = try await RawConnection.exchange(port: port, [last], wait: Self.wait)
            #expect(after.status == 200, "\(after)")
        }
    }

    /// Past the connection cap, with every connection busy with a request, a new connection gets 503
    /// and is closed; once others close, it is served.
    @Test func connectionsPastTheCapGet503() async throws {
        let limits = HTTPConnectionLimits(headerTimeout: .seconds(30), idleTimeout: .seconds(30), maxConnections: 2)
        try await GraphQLHTTPTests.withServer(connections: limits) { client in
            let port = try #require(client.port)
            /// Opens a connection busy with a request whose body is still coming.
            @Sendable func holdOne() async throws -> any Channel {
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
                try await channel.writeAndFlush(ByteBuffer(string: "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")).get()
                return channel
            }
            var held = [try await holdOne(), try await holdOne()]
            // The held connections count as busy once the server has read their heads: until then one of
            // them may be closed to admit the probe (it was waiting for a head), or refused itself. Wait
            // for the refusal, not for a time, opening a held connection again whenever one was closed.
            let probe = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            var refused = try await RawConnection.exchange(port: port, probe, wait: Self.wait)
            for _ in 0..<50 where refused.status != 503 {
                for index in held.indices where !held[index].isActive { held[index] = try await holdOne() }
                refused = try await RawConnection.exchange(port: port, probe, wait: Self.wait)
            }
            #expect(refused.status == 503 && refused.closedByServer, "\(refused.text.prefix(80).debugDescription)")
            #expect(refused.text.contains(#""code":"TOO_MANY_CONNECTIONS""#))
            // (A held connection may itself have been the one past the cap, and closed already.)
            for channel in held { try? await channel.close().get() }
            var served = false
            for _ in 0..<50 where !served {
                served = try await RawConnection.exchange(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", wait: Self.wait).status == 200
            }
            #expect(served, "served again once the held connections closed")
        }
    }

    /// Connections that never finish their headers, as many as the cap, lock nobody out: each new
    /// connection closes the oldest of them, and a normal client's 50 queries, ten connections at a
    /// time, are all answered. The cap is 200 here, not the default 1 000: both ends of every
    /// connection live in this test process, beside the suites that start processes. Holding 2 000
    /// more descriptors, a whole run once hung in this test and once crashed in Foundation's
    /// `Process.run()` in another suite; no cause was found, so the test holds fewer.
    @Test func headerlessConnectionsAtTheCapGiveWayToRealRequests() async throws {
        #expect(HTTPConnectionLimits().maxConnections == 1_000)
        // Timeouts longer than the test, however loaded the machine: only the cap closes the held connections.
        let limits = HTTPConnectionLimits(headerTimeout: .seconds(600), idleTimeout: .seconds(600), maxConnections: 200)
        try await GraphQLHTTPTests.withServer(connections: limits) { client in
            let port = try #require(client.port)
            var held: [any Channel] = []
            defer { for channel in held { channel.close(promise: nil) } }
            for _ in 0..<limits.maxConnections {
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
                try await channel.writeAndFlush(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: x\r\n")).get()
                held.append(channel)
            }
            let query = #"{"query":"{ __typename }"}"#
            let request = "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + "Content-Length: \(query.utf8.count)\r\n\r\n" + query
            let answers = try await withThrowingTaskGroup(of: [RawConnection.Outcome].self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        var outcomes: [RawConnection.Outcome] = []
                        for _ in 0..<5 { outcomes.append(try await RawConnection.exchange(port: port, request, wait: .seconds(20))) }
                        return outcomes
                    }
                }
                var all: [RawConnection.Outcome] = []
                for try await outcomes in group { all += outcomes }
                return all
            }
            #expect(answers.count == 50)
            #expect(answers.allSatisfy { $0.status == 200 && $0.text.contains(#"{"data":{"__typename":"Query"}}"#) },
                    "\(answers.filter { $0.status != 200 }.prefix(3))")
            let evicted = held.filter { !$0.isActive }.count
            #expect(evicted >= 1 && evicted <= 50, "the cap was reached and only as many waiting connections closed as needed: \(evicted)")
        }
    }
}
