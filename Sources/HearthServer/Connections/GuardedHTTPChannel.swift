import HummingbirdCore
import HummingbirdWebSocket
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import Synchronization

/// Hummingbird's HTTP/1 channel with WebSocket upgrade, guarded by ``HTTPConnectionLimits``.
///
/// Hummingbird answers parse errors once a connection serves requests, but while the first request
/// is negotiated (upgrade or not) a malformed request, a slow head or a stalled connection was
/// never answered nor closed. This wrapper adds, around the unchanged channel:
/// - a pass-through handler after the HTTP decoder that answers its errors (400, 431 for headers
///   past the limits, 414 for a request line past them) and closes;
/// - a byte-level handler at the front that closes a connection whose first request head is not
///   complete within ``HTTPConnectionLimits/headerTimeout``;
/// - a count of open connections: past ``HTTPConnectionLimits/maxConnections`` a new one gets 503.
struct GuardedHTTPChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let base: HTTP1WebSocketUpgradeChannel
    let limits: HTTPConnectionLimits
    let counter: ConnectionCounter

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(HTTPParseErrorResponder(logger: logger), position: .after(decoder))
            try pipeline.addHandler(
                FirstHeadDeadline(
                    timeout: limits.headerTimeout, maxRequestLine: min(limits.maxRequestLineBytes, limits.maxHeaderBytes / 2), logger: logger),
                position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        let channel = value.channel
        let open = counter.opened()
        defer { counter.closed() }
        ConnectionCounter.openGauge.record(open)
        defer { ConnectionCounter.openGauge.record(counter.current) }
        guard open <= limits.maxConnections else {
            ConnectionCounter.refused("too_many_connections")
            logger.warning("connection refused: too many open", metadata: ["open": "\(open - 1)", "limit": "\(limits.maxConnections)"])
            HTTPParseErrorResponder.answer(
                .serviceUnavailable, code: "TOO_MANY_CONNECTIONS",
                message: "The server has too many open connections; try again shortly.", on: channel)
            try? await channel.closeFuture.get()
            return
        }
        await base.handle(value: value, logger: logger)
        // The upgrade negotiation can end without closing (a failed negotiation): never leave it open.
        try? await channel.close()
    }
}

/// Open connections, shared by every child channel of one server (for the cap and `/metrics`).
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one more; returns how many are open now.
    func opened() -> Int { count.wrappingAdd(1, ordering: .relaxed).newValue }
    func closed() { count.wrappingSubtract(1, ordering: .relaxed) }
    var current: Int { count.load(ordering: .relaxed) }

    /// `/metrics`: connections open now, and connections refused by reason.
    static let openGauge = Gauge(label: "hearth_http_connections_open")

    static func refused(_ reason: String) {
        Counter(label: "hearth_http_connections_refused_total", dimensions: [("reason", reason)]).increment()
    }
}

/// Sits after the HTTP decoder and passes everything through; when the decoder fails it answers
/// with the status that fits and closes, so a malformed request is never left hanging.
final class HTTPParseErrorResponder: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    let logger: Logger

    init(logger: Logger) { self.logger = logger }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        let (status, code, message) = Self.response(to: parseError)
        ConnectionCounter.refused(status == .requestHeaderFieldsTooLarge ? "headers_too_large" : "malformed")
        logger.info("malformed HTTP request refused", metadata: ["error": "\(parseError)", "status": "\(status.code)"])
        Self.answer(status, code: code, message: message, on: context.channel)
    }

    static func response(to error: HTTPParserError) -> (HTTPResponseStatus, String, String) {
        switch error {
        case .headerOverflow:
            return (.requestHeaderFieldsTooLarge, "REQUEST_HEADER_FIELDS_TOO_LARGE", "The request's headers are too large or too many.")
        case .invalidURL:
            return (.badRequest, "BAD_REQUEST", "The request's URL is not valid.")
        default:
            return (.badRequest, "BAD_REQUEST", "The request is not valid HTTP/1.1 (\(error)).")
        }
    }

    /// Writes a whole response through the HTTP encoder (from this handler's place, just after the
    /// decoder) and closes; without the HTTP handlers (after an upgrade) it only closes.
    static func answer(_ status: HTTPResponseStatus, code: String, message: String, on channel: any Channel) {
        let body = #"{"errors":[{"message":"\#(message)","extensions":{"code":"\#(code)"}}]}"#
        channel.eventLoop.execute {
            let head = HTTPResponseHead(
                version: .http1_1, status: status,
                headers: ["connection": "close", "content-type": "application/json; charset=utf-8", "content-length": "\(body.utf8.count)"])
            guard let context = try? channel.pipeline.syncOperations.context(handlerType: HTTPParseErrorResponder.self),
                (try? channel.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)) != nil
            else {
                channel.close(promise: nil)
                return
            }
            context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
            context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: body)))), promise: nil)
            context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

/// At the front of the pipeline, on raw bytes: closes the connection unless its first request head
/// (everything up to the blank line) is complete within `timeout` (408), and answers 414 for a
/// request line longer than `maxRequestLine`; once the head is complete it removes itself.
final class FirstHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    let timeout: Duration
    let maxRequestLine: Int
    let logger: Logger
    private var timer: Scheduled<Void>?
    /// The last bytes seen, to find `\r\n\r\n` across reads.
    private var tail: [UInt8] = []
    /// Bytes of the request line so far; nil once it ended.
    private var requestLine: Int? = 0
    private var refused = false

    init(timeout: Duration, maxRequestLine: Int, logger: Logger) {
        self.timeout = timeout
        self.maxRequestLine = maxRequestLine
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        let logger = logger
        let timeout = timeout
        timer = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            ConnectionCounter.refused("header_timeout")
            logger.info("connection closed: no complete request head in time", metadata: ["timeout": "\(timeout)"])
            HTTPParseErrorResponder.answer(.requestTimeout, code: "REQUEST_TIMEOUT", message: "The request's headers did not arrive in time.", on: channel)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let buffer = Self.unwrapInboundIn(data)
        var found = false
        for byte in buffer.readableBytesView {
            if let length = requestLine {
                if byte == 10 { requestLine = nil } else { requestLine = length + 1 }
            }
            tail.append(byte)
            if tail.count > 4 { tail.removeFirst() }
            if tail == [13, 10, 13, 10] {
                found = true
                break
            }
        }
        if let length = requestLine, length > maxRequestLine {
            refused = true
            timer?.cancel()
            ConnectionCounter.refused("uri_too_long")
            logger.info("malformed HTTP request refused", metadata: ["error": "request line over \(maxRequestLine) bytes", "status": "414"])
            HTTPParseErrorResponder.answer(.uriTooLong, code: "URI_TOO_LONG", message: "The request's URL is too long.", on: context.channel)
            return
        }
        context.fireChannelRead(data)
        if found {
            timer?.cancel()
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}
