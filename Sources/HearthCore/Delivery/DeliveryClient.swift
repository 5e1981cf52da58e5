import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// What one attempt to reach a channel came to.
public struct DeliveryOutcome: Sendable, Equatable {
    public enum Result: String, Sendable {
        /// The receiver took it (2xx).
        case sent = "SENT"
        /// Worth trying again: a network error, a timeout, 429 or 5xx.
        case retry = "RETRY"
        /// Refused for good (another 4xx, a private address, a message that cannot be sent).
        case failed = "FAILED"
        /// The push service says the subscription no longer exists (404, 410).
        case gone = "GONE"
    }

    public var result: Result
    /// The receiver's status; nil when none came.
    public var status: Int?
    public var latency: Duration
    /// Why it failed, in words (never a secret).
    public var error: String?
    /// A `Retry-After` the receiver asked for, in seconds.
    public var retryAfter: Int?
}

/// Sends one notification's payload to one channel over HTTP: Web Push (encrypted, VAPID),
/// ntfy (title, priority, tags, click) or a Standard Webhooks–signed POST. Redirects are not
/// followed, hosts must resolve to public addresses unless allow-listed, requests time out, and
/// at most 64 KiB of an answer is read.
final class DeliveryClient: Sendable {
    let configuration: DeliveryConfiguration
    private let client = Mutex<HTTPClient?>(nil)
    private let logger: Logger

    init(configuration: DeliveryConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    private var http: HTTPClient {
        client.withLock { client in
            if let client { return client }
            var http = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5)))
            // More connections to one host than a round ever has sends in flight: many people's channels
            // share a host (a push service, one ntfy server), and with the client's default of 8 a
            // receiver that hangs would hold the connections everyone else's sends queue for.
            http.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 32)
            http.connectionPool.retryConnectionEstablishment = false
            let made = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: http)
            client = made
            return made
        }
    }

    func shutdown() async throws {
        guard let http = client.withLock({ client -> HTTPClient? in
            defer { client = nil }
            return client
        }) else { return }
        try await http.shutdown()
    }

    /// How long a message is worth delivering, and a push `Topic` that replaces an older pending one.
    struct Options: Sendable {
        var ttl: Int
        var topic: String?
    }

    /// One attempt; never throws (a failure is an outcome).
    func send(_ payload: DeliveryPayload, to target: ChannelTarget, vapid: VAPID?, options: Options, now: Date) async -> DeliveryOutcome {
        let started = ContinuousClock.now
        func outcome(_ result: DeliveryOutcome.Result, status: Int? = nil, error: String? = nil, retryAfter: Int? = nil) -> DeliveryOutcome {
            DeliveryOutcome(result: result, status: status, latency: ContinuousClock.now - started, error: error, retryAfter: retryAfter)
        }
        let request: HTTPClientRequest
        do {
            try await checkAddress(of: target.url)
            request = try makeRequest(payload, to: target, vapid: vapid, options: options, now: now)
        } catch let refusal as DeliveryRefusal {
            return outcome(refusal.unreachableResolver ? .retry : .failed, error: refusal.message)
        } catch {
            return outcome(.failed, error: "The message could not be prepared: \(error)")
        }
        let timeout = configuration.requestTimeout
        do {
            let (status, retryAfter) = try await withTimeout(timeout) { [http, configuration, logger] in
                let response = try await http.execute(request, timeout: .seconds(timeout.components.seconds + 1), logger: logger)
                // The answer is read (so the connection can be reused) but never kept beyond the limit.
                _ = try? await response.body.collect(upTo: configuration.maximumResponseBytes)
                return (Int(response.status.code), response.headers.first(name: "Retry-After").flatMap { Int($0) })
            }
            switch status {
            case 200..<300: return outcome(.sent, status: status)
            case 404 where target.channel.kind == .webPush, 410 where target.channel.kind == .webPush:
                return outcome(.gone, status: status, error: "The push service says this subscription no longer exists (\(status)).")
            case 429, 500...599:
                return outcome(.retry, status: status, error: "The receiver answered \(status).", retryAfter: retryAfter)
            default: return outcome(.failed, status: status, error: "The receiver refused the message (\(status)).")
            }
        } catch is TimeoutError {
            return outcome(.retry, error: "The receiver did not answer within \(timeout).")
        } catch let error as HTTPClientError where [.deadlineExceeded, .readTimeout, .connectTimeout].contains(error) {
            return outcome(.retry, error: "The receiver did not answer within \(timeout).")
        } catch {
            return outcome(.retry, error: "The receiver could not be reached: \(Self.describe(error)).")
        }
    }

    /// A channel's host must resolve only to public addresses (the guard store feeds pass), unless
    /// allow-listed. The same check refuses such a channel when it is registered.
    func checkAddress(of url: URL) async throws {
        guard let host = url.host, !host.isEmpty else { throw DeliveryRefusal("The channel's address has no host.") }
        guard !configuration.allows(host) else { return }
        do {
            try await HostAddressGuard.check(DeliveryConfiguration.bare(host), using: configuration.resolver)
        } catch let error as StoreSyncError where error.code == .networkUnavailable {
            throw DeliveryRefusal(error.message, unreachableResolver: true)
        } catch let error as StoreSyncError {
            throw DeliveryRefusal("\(error.message) A host on your own network can be allowed with --delivery-allow-host.")
        }
    }

    private func makeRequest(_ payload: DeliveryPayload, to target: ChannelTarget, vapid: VAPID?, options: Options, now: Date) throws -> HTTPClientRequest {
        var request = HTTPClientRequest(url: target.url.absoluteString)
        request.method = .POST
        request.headers.add(name: "User-Agent", value: "Hearth/1 (self-hosted household server)")
        request.headers.add(name: "X-Hearth-Notification-Id", value: payload.id.lowercasedString)
        let body: Data
        switch target.channel.kind {
        case .webPush:
            guard let vapid, let keys = target.pushKeys else { throw DeliveryRefusal("Web Push needs the server's --vapid-subject.") }
            body = try WebPushEncryption.encrypt(payload.json, for: keys)
            request.headers.add(name: "Content-Type", value: "application/octet-stream")
            request.headers.add(name: "Content-Encoding", value: "aes128gcm")
            request.headers.add(name: "TTL", value: String(max(0, options.ttl)))
            request.headers.add(name: "Urgency", value: Self.urgency(payload.priority))
            if let topic = options.topic { request.headers.add(name: "Topic", value: topic) }
            request.headers.add(name: "Authorization", value: try vapid.authorization(for: target.url, expiresAt: now.addingTimeInterval(12 * 3600)))
        case .ntfy:
            body = Data(payload.body.utf8)
            request.headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
            request.headers.add(name: "Title", value: Self.headerText(payload.title))
            request.headers.add(name: "Priority", value: payload.priority == "HIGH" ? "5" : payload.priority == "LOW" ? "2" : "3")
            request.headers.add(name: "Tags", value: payload.kind.lowercased())
            if let url = payload.url { request.headers.add(name: "Click", value: url) }
            // ntfy's action buttons: each an HTTP POST to the action link, which clears the notification.
            if !payload.actionLinks.isEmpty {
                request.headers.add(name: "Actions", value: payload.actionLinks.map { "http, \($0.title), \($0.url), method=POST, clear=true" }
                    .joined(separator: "; "))
            }
            if let token = target.secret { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        case .webhook:
            guard let secret = target.secret else { throw DeliveryRefusal("The webhook has no signing secret.") }
            let timestamp = Int(now.timeIntervalSince1970)
            body = Self.envelope(payload, at: now)
            guard let signature = StandardWebhookSignature.signature(secret: secret, id: payload.id.lowercasedString, timestamp: timestamp, body: body) else {
                throw DeliveryRefusal("The webhook's signing secret is damaged.")
            }
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "webhook-id", value: payload.id.lowercasedString)
            request.headers.add(name: "webhook-timestamp", value: String(timestamp))
            request.headers.add(name: "webhook-signature", value: signature)
        }
        request.body = .bytes(ByteBuffer(bytes: body))
        return request
    }

    /// `{"type": "notification.<kind>", "timestamp": …, "data": <payload>}` (Standard Webhooks).
    static func envelope(_ payload: DeliveryPayload, at time: Date) -> Data {
        let stamp = ISO8601DateFormatter().string(from: time)
        let type = "notification." + payload.kind.lowercased()
        return Data(#"{"data":"#.utf8) + payload.json + Data(#","timestamp":"\#(stamp)","type":"\#(type)"}"#.utf8)
    }

    /// Web Push `Urgency` for a notification's priority.
    static func urgency(_ priority: String) -> String {
        switch priority {
        case "HIGH": "high"
        case "LOW": "low"
        default: "normal"
        }
    }

    /// A header value: one line of printable text (ntfy reads UTF-8 titles), at most 250 characters.
    static func headerText(_ text: String) -> String {
        String(text.map { $0.isNewline || ($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) ? " " : $0 }.prefix(250))
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError { return "\(error)" }
        return String(describing: error).prefix(200).description
    }
}

/// A message Hearth will not send, said in a sentence.
struct DeliveryRefusal: Error {
    let message: String
    /// The host could not be looked up (the resolver itself failed): not the address's fault.
    var unreachableResolver = false
    init(_ message: String, unreachableResolver: Bool = false) {
        self.message = message
        self.unreachableResolver = unreachableResolver
    }
}
