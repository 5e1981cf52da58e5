import HearthCore
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A plain TCP client on loopback for what no HTTP client sends: malformed requests, bytes one
/// at a time, a TLS handshake on the plain port. It writes what it is given and reports what the
/// server answered and whether the server closed the connection within the wait.
enum RawConnection {
    struct Outcome: Sendable, CustomStringConvertible {
        var bytes: [UInt8]
        var closedByServer: Bool
        var text: String { String(decoding: bytes, as: UTF8.self) }
        var description: String { "\(closedByServer ? "closed" : "open"), \(bytes.count) bytes: \(text.prefix(200).debugDescription)" }
        /// The status code of the first response, if one came.
        var status: Int? {
            guard text.hasPrefix("HTTP/1.1 "), text.count >= 12 else { return nil }
            return Int(text.dropFirst(9).prefix(3))
        }
    }

    final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let received = NIOLockedValueBox<[UInt8]>([])
        let closed = NIOLockedValueBox(false)

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = Self.unwrapInboundIn(data)
            received.withLockedValue { $0 += buffer.readableBytesView }
        }

        func channelInactive(context: ChannelHandlerContext) {
            closed.withLockedValue { $0 = true }
            context.fireChannelInactive()
        }
    }

    /// Sends `chunks` (with `pause` between them: the pacing of a slow client, not a wait for an
    /// event; a write the server refuses ends the sending), then waits until the server closes,
    /// at most `wait`.
    static func exchange(port: Int, _ chunks: [[UInt8]], pause: Duration = .zero, wait: Duration) async throws -> Outcome {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) } }
            .connect(host: "127.0.0.1", port: port).get()
        for (index, chunk) in chunks.enumerated() {
            if index > 0, pause > .zero { try await Task.sleep(for: pause) }
            if collector.closed.withLockedValue({ $0 }) { break }
            do { try await channel.writeAndFlush(ByteBuffer(bytes: chunk)).get() } catch { break }
        }
        // The server closing the connection is the event; `wait` only bounds how long it may take.
        let closeFuture = channel.closeFuture
        let closed = (try? await withTimeout(wait) { try await closeFuture.get() }) != nil
        if !closed { try? await channel.close().get() }
        let bytes = collector.received.withLockedValue { $0 }
        return Outcome(bytes: bytes, closedByServer: closed)
    }

    static func exchange(port: Int, _ text: String, wait: Duration) async throws -> Outcome {
        try await exchange(port: port, [Array(text.utf8)], wait: wait)
    }
}
