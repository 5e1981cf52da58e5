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
/// - a count of open connections: at ``HTTPConnectionLimits/maxConnections`` the oldest connection
///   still waiting for a request's head (a slow or silent client, an idle keep-alive) is closed to
///   admit the new one, so connections that never finish their headers cannot take the last
///   places; only when every connection is busy with a request does a new one get 503.
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
                maxRequestLine: min(limits.maxRequestLineBytes, limits.maxHeaderBytes / 2), logger: logger,
                waiting: counter.waitingHeads(of: channel))
            try pipeline.addHandler(HTTPParseErrorResponder(logger: logger, deadline: deadline), position: .after(decoder))
            try pipeline.addHandler(deadline, position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        let channel = value.channel
        let open = counter.opened()
        defer { counter.closed() }
        defer { counter.forget(channel) }
        ConnectionCounter.openGauge.record(open)
        defer { ConnectionCounter.openGauge.record(counter.current) }
        if open > limits.maxConnections, let oldest = counter.oldestWaitingHead(besides: channel) {
            // A connection that has not finished a request's head gives its place to the new one.
            ConnectionCounter.refused("evicted_waiting_for_head")
            logger.info("connection closed to admit a new one: it had no request under way", metadata: ["limit": "\(limits.maxConnections)"])
            oldest.close(promise: nil)
        } else if open > limits.maxConnections {
            ConnectionCounter.refused("too_many_connections")
            logger.warning("connection refused: too many open", metadata: ["open": "\(open - 1)", "limit": "\(limits.maxConnections)"])
            HTTPParseErrorResponder.answer(
                .serviceUnavailable, code: .tooManyConnections,
                message: "The server has too many open connections; try again shortly.", on: channel)
            try? await channel.closeFuture.get()
            return
        }
        await base.handle(value: value, logger: logger)
        // The upgrade negotiation can end without closing (a failed negotiation): never leave it open.
        try? await channel.close()
    }
}

/// Open connections, shared by every child channel of one server (for the cap and `/metrics`),
/// and which of them wait for a request's head, oldest first (the ones to close at the cap).
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)
    private let waiting = Mutex(WaitingHeads())

    private struct WaitingHeads {
        var next = 0
        /// Each waiting connection by identity: when it began to wait, and the channel.
        var channels: [ObjectIdentifier: (since: Int, channel: any Channel)] = [:]
    }

    /// Counts one more; returns how many are open now.
    func opened() -> Int { count.wrappingAdd(1, ordering: .relaxed).newValue }
    func closed() { count.wrappingSubtract(1, ordering: .relaxed) }
    var current: Int { count.load(ordering: .relaxed) }

    /// What a connection's ``RequestHeadDeadline`` calls as it starts and stops waiting for a head.
    func waitingHeads(of channel: any Channel) -> @Sendable (Bool) -> Void {
        { [weak self] isWaiting in
            self?.waiting.withLock { state in
                let key = ObjectIdentifier(channel)
                if isWaiting {
                    state.next += 1
                    state.channels[key] = (state.next, channel)
                } else {
                    state.channels[key] = nil
                }
            }
        }
    }

    /// The connection that has waited longest for a request's head, other than `channel`; no longer listed.
    func oldestWaitingHead(besides channel: any Channel) -> (any Channel)? {
        waiting.withLock { state in
            let own = ObjectIdentifier(channel)
            guard let oldest = state.channels.lazy.filter({ $0.key != own }).min(by: { $0.value.since < $1.value.since }) else { return nil }
            state.channels[oldest.key] = nil
            return oldest.value.channel
        }
    }

    func forget(_ channel: any Channel) {
        _ = waiting.withLock { $0.channels.removeValue(forKey: ObjectIdentifier(channel)) }
    }

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
            // Raw bytes instead of a request part: the decoder was removed for an upgrade and hands
            // on what the client sent after it (a WebSocket frame) before the 101 passed here.
            switch context.channel._channelCore.tryUnwrapData(data, as: HTTPServerRequestPart.self) {
            case .head?: deadline.requestStarted()
            case .end?: deadline.requestEnded()
            case .body?: break
            case nil:
                upgraded = true
                deadline.stop()
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if !upgraded {
            switch Self.unwrapOutboundIn(data) {
            case .head(let head) where head.status == .switchingProtocols:
                upgraded = true
                deadline.stop()
            case .head: deadline.responseStarted()
            case .end: deadline.responseEnded()
            case .body: break
            }
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

    static func response(to error: HTTPParserError) -> (HTTPResponseStatus, RefusalCode, String) {
        switch error {
        case .headerOverflow:
            return (.requestHeaderFieldsTooLarge, .requestHeaderFieldsTooLarge, "The request's headers are too large or too many.")
        case .invalidURL:
            return (.badRequest, .badRequest, "The request's URL is not valid.")
        default:
            return (.badRequest, .badRequest, "The request is not valid HTTP/1.1 (\(error)).")
        }
    }

    /// Writes a whole response through the HTTP encoder (from this handler's place, just after the
    /// decoder) and closes; without the HTTP handlers (after an upgrade) it only closes.
    static func answer(_ status: HTTPResponseStatus, code: RefusalCode, message: String, on channel: any Channel) {
        let body = #"{"errors":[{"message":"\#(message)","extensions":{"code":"\#(code.rawValue)"}}]}"#
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
/// closed the same way. A request's body must keep coming: no byte of it for `timeout` is 408
/// and close too (a stalled upload is the client's fault, never a server error). It also answers
/// 414 for a request line longer than `maxRequestLine`. Between requests nothing is timed here:
/// the idle timeout closes a silent keep-alive connection. `waiting` hears when the connection
/// starts and stops waiting for a head (the connection cap closes the oldest such).
final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private enum State {
        /// Waiting for a request's head; `line` counts its request line's bytes until the line ends.
        case awaitingHead(line: Int?)
        /// A head arrived; its body, if any, is coming (timed from byte to byte until it ends).
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
    let waiting: @Sendable (Bool) -> Void
    private var state = State.awaitingHead(line: 0)
    private var timer: Scheduled<Void>?
    /// Whether the timer runs for a head that has begun (else for a new connection's silence).
    private var timingHead = false
    /// The channel, once added, for the body's timer.
    private var channel: (any Channel)?
    /// Whether the current request has been answered (or begun to be): then a stalled body only closes.
    private var responded = false
    /// Whether the last request's answer has been written to its end (until then the connection
    /// is busy, even with the request read: it is never the one closed at the connection cap).
    private var answered = true

    init(timeout: Duration, silence: Duration, maxRequestLine: Int, logger: Logger, waiting: @escaping @Sendable (Bool) -> Void = { _ in }) {
        self.timeout = timeout
        self.silence = silence
        self.maxRequestLine = maxRequestLine
        self.logger = logger
        self.waiting = waiting
    }

    func handlerAdded(context: ChannelHandlerContext) {
        channel = context.channel
        waiting(true)
        arm(context.channel, for: silence)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
        channel = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .awaitingHead(var line) = state else {
            if case .refused = state { return }
            if case .inRequest = state, let channel { armBody(channel) }  // the body moves on
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

    /// The decoder has a request's whole head: its time is met; its body's begins.
    func requestStarted() {
        guard case .awaitingHead = state else { return }
        timer?.cancel()
        timer = nil
        timingHead = false
        responded = false
        answered = false
        state = .inRequest
        waiting(false)
        if let channel { armBody(channel) }
    }

    /// A request ended (its body is in): the next one's head is timed from its first byte.
    func requestEnded() {
        guard case .inRequest = state else { return }
        timer?.cancel()
        timer = nil
        state = .awaitingHead(line: 0)
        if answered { waiting(true) }
    }

    /// The server began its answer to the current request.
    func responseStarted() {
        responded = true
    }

    /// The server's answer is written to its end: once its request is read too, the connection waits for the next.
    func responseEnded() {
        answered = true
        if case .awaitingHead = state { waiting(true) }
    }

    /// Nothing more to time (an upgrade, removal).
    func stop() {
        timer?.cancel()
        timer = nil
        state = .stopped
        waiting(false)
    }

    /// The body's next bytes must come within `timeout`.
    private func armBody(_ channel: any Channel) {
        timer?.cancel()
        let logger = logger
        let timeout = timeout
        let handler = NIOLoopBound(self, eventLoop: channel.eventLoop)
        timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            ConnectionCounter.refused("body_timeout")
            logger.info("connection closed: the request's body stalled", metadata: ["timeout": "\(timeout)"])
            if handler.value.responded {
                channel.close(promise: nil)
            } else {
                HTTPParseErrorResponder.answer(.requestTimeout, code: .requestTimeout, message: "The request's body stopped arriving.", on: channel)
            }
        }
    }

    private func arm(_ channel: any Channel, for timeout: Duration) {
        let logger = logger
        timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            ConnectionCounter.refused("header_timeout")
            logger.info("connection closed: no complete request head in time", metadata: ["timeout": "\(timeout)"])
            HTTPParseErrorResponder.answer(.requestTimeout, code: .requestTimeout, message: "The request's headers did not arrive in time.", on: channel)
        }
    }

    private func refuseLongLine(context: ChannelHandlerContext) {
        stop()
        state = .refused
        ConnectionCounter.refused("uri_too_long")
        logger.info("malformed HTTP request refused", metadata: ["error": "request line over \(maxRequestLine) bytes", "status": "414"])
        HTTPParseErrorResponder.answer(.uriTooLong, code: .uriTooLong, message: "The request's URL is too long.", on: context.channel)
    }
}
