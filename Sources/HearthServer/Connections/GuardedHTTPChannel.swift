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
/// - a byte-level handler at the front that closes a connection when a request's head is not
///   complete within ``HTTPConnectionLimits/headerTimeout`` (of the opening for the first request,
///   of its first byte for later ones);
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
            let deadline = RequestHeadDeadline(
                timeout: limits.headerTimeout, silence: limits.idleTimeout,
                maxRequestLine: min(limits.maxRequestLineBytes, limits.maxHeaderBytes / 2), logger: logger)
            try pipeline.addHandler(HTTPParseErrorResponder(logger: logger, deadline: deadline), position: .after(decoder))
            try pipeline.addHandler(deadline, position: .first)
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
/// with the status that fits and closes, so a malformed request is never left hanging. It tells
/// ``RequestHeadDeadline`` where each request begins and ends, and stands aside once a `101`
/// (a WebSocket upgrade) goes out: from then on frames, not HTTP parts, pass it.
final class HTTPParseErrorResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    let logger: Logger
    let deadline: RequestHeadDeadline
    private var upgraded = false

    init(logger: Logger, deadline: RequestHeadDeadline) {
        self.logger = logger
        self.deadline = deadline
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !upgraded {
            switch Self.unwrapInboundIn(data) {
            case .head: deadline.requestStarted()
            case .end: deadline.requestEnded()
            case .body: break
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if !upgraded, case .head(let head) = Self.unwrapOutboundIn(data), head.status == .switchingProtocols {
            upgraded = true
            deadline.stop()
        }
        context.write(data, promise: promise)
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

/// At the front of the pipeline, on raw bytes: every request's head (line and headers) must be
/// complete within `timeout` of its first byte, else 408 and close (a client sending headers a byte
/// at a time, on a fresh or a kept-alive connection); a new connection that sends nothing for
/// `silence` (the idle timeout, which Hummingbird only applies once a first request is in) is
/// closed the same way. It also answers 414 for a request line longer than `maxRequestLine`.
/// Between requests nothing is timed here: the idle timeout closes a silent keep-alive connection.
final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private enum State {
        /// Waiting for a request's head; `line` counts its request line's bytes until the line ends.
        case awaitingHead(line: Int?)
        /// A head arrived; body bytes are not timed here.
        case inRequest
        /// Upgraded to WebSocket: bytes pass untimed.
        case stopped
        /// Answered 414: what else arrives is dropped until the connection closes.
        case refused
    }

    let timeout: Duration
    let silence: Duration
    let maxRequestLine: Int
    let logger: Logger
    private var state = State.awaitingHead(line: 0)
    private var timer: Scheduled<Void>?
    /// Whether the timer runs for a head that has begun (else for a new connection's silence).
    private var timingHead = false

    init(timeout: Duration, silence: Duration, maxRequestLine: Int, logger: Logger) {
        self.timeout = timeout
        self.silence = silence
        self.maxRequestLine = maxRequestLine
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        arm(context.channel, for: silence)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .awaitingHead(var line) = state else {
            if case .refused = state { return }
            return context.fireChannelRead(data)
        }
        if !timingHead {
            timer?.cancel()
            arm(context.channel, for: timeout)
            timingHead = true
        }
        if let length = line {
            let bytes = Self.unwrapInboundIn(data).readableBytesView
            if let newline = bytes.firstIndex(of: 10) {
                line = nil
                if length + (newline - bytes.startIndex) > maxRequestLine { return refuseLongLine(context: context) }
            } else {
                line = length + bytes.count
                if let length = line, length > maxRequestLine { return refuseLongLine(context: context) }
            }
            state = .awaitingHead(line: line)
        }
        context.fireChannelRead(data)
    }

    /// The decoder has a request's whole head: its time is met.
    func requestStarted() {
        guard case .awaitingHead = state else { return }
        timer?.cancel()
        timer = nil
        timingHead = false
        state = .inRequest
    }

    /// A request ended: the next one's head is timed from its first byte.
    func requestEnded() {
        guard case .inRequest = state else { return }
        state = .awaitingHead(line: 0)
    }

    /// Nothing more to time (an upgrade, removal).
    func stop() {
        timer?.cancel()
        timer = nil
        state = .stopped
    }

    private func arm(_ channel: any Channel, for timeout: Duration) {
        let logger = logger
        timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            ConnectionCounter.refused("header_timeout")
            logger.info("connection closed: no complete request head in time", metadata: ["timeout": "\(timeout)"])
            HTTPParseErrorResponder.answer(.requestTimeout, code: "REQUEST_TIMEOUT", message: "The request's headers did not arrive in time.", on: channel)
        }
    }

    private func refuseLongLine(context: ChannelHandlerContext) {
        stop()
        state = .refused
        ConnectionCounter.refused("uri_too_long")
        logger.info("malformed HTTP request refused", metadata: ["error": "request line over \(maxRequestLine) bytes", "status": "414"])
        HTTPParseErrorResponder.answer(.uriTooLong, code: "URI_TOO_LONG", message: "The request's URL is too long.", on: context.channel)
    }
}
