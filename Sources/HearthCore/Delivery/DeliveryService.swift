import Crypto
import Foundation
import Logging
import Metrics
import PostgresNIO
import Synchronization

/// Notifications that reach people while their apps are closed: each person's channels (Web
/// Push subscriptions, ntfy topics, signed webhooks), the installation's VAPID key, and sending.
/// A channel is its owner's alone: someone else's id answers `notFound`.
public final class DeliveryService: ServiceHealth {
    let database: Database
    let clock: any HearthClock
    public let configuration: DeliveryConfiguration
    let logger: Logger
    let client: DeliveryClient
    /// Signs reminders' action links (with the secret key; none without one).
    let actionLinks: ActionLinkSigner?
    /// The VAPID key once read (or made): every instance signs with the one in the database.
    private let vapidKey = Mutex<P256.Signing.PrivateKey?>(nil)
    /// Rung when deliveries were queued (on any instance; see `deliveries_queued`): the loop sends at once.
    public let queued = WakeSignal()

    /// The topic the outbox's trigger notifies on when deliveries are queued.
    static let queuedTopic = "deliveries"

    public init(database: Database, clock: any HearthClock = SystemClock(), configuration: DeliveryConfiguration = DeliveryConfiguration(),
                logger: Logger? = nil) {
        self.database = database
        self.clock = clock
        self.configuration = configuration
        self.logger = logger ?? database.logger
        self.client = DeliveryClient(configuration: configuration, logger: self.logger)
        actionLinks = configuration.secrets.map(ActionLinkSigner.init)
        let queued = self.queued
        database.bus.on(Self.queuedTopic) { _ in queued.ring() }
    }

    /// Closes the HTTP connection pool, if one was opened.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    /// Most channels one person may have.
    public static let maximumChannels = 20

    // MARK: VAPID

    /// The installation's VAPID public key (uncompressed P-256, base64url) for `applicationServerKey`;
    /// nil when this server has no `--vapid-subject` (Web Push is then off).
    public func webPushPublicKey() async throws -> String? {
        try await vapid()?.publicKey
    }

    /// The signing key with the configured subject; made and stored (sealed) by the first instance that needs it.
    func vapid() async throws -> VAPID? {
        guard let subject = configuration.vapidSubject else { return nil }
        if let key = vapidKey.withLock({ $0 }) { return VAPID(key: key, subject: subject) }
        guard let secrets = configuration.secrets else { return nil }
        let made = P256.Signing.PrivateKey()
        try await database.client.query("""
            INSERT INTO hearth_settings (key, value) VALUES ('vapid_private_key', \(try secrets.seal(made.rawRepresentation).base64EncodedString()))
            ON CONFLICT (key) DO NOTHING
            """, logger: logger)
        let rows = try await database.client.query("SELECT value FROM hearth_settings WHERE key = 'vapid_private_key'", logger: logger)
        for try await value in rows.decode(String.self) {
            guard let sealed = Data(base64Encoded: value) else { throw SecretBox.Failure.cannotOpen }
            let key = try P256.Signing.PrivateKey(rawRepresentation: try secrets.open(sealed))
            vapidKey.withLock { $0 = key }
            return VAPID(key: key, subject: subject)
        }
        return nil
    }

    // MARK: Channels

    /// Registers a browser's push subscription (`PushSubscription.toJSON()`); the same endpoint
    /// again updates its keys and name.
    public func registerPushSubscription(_ caller: Caller, endpoint rawEndpoint: String, p256dh: String, auth: String,
                                         deviceName: String?) async throws -> DeliveryChannel {
        guard configuration.vapidSubject != nil, configuration.secrets != nil else {
            throw ServiceError.forbidden("This server does not send Web Push: its administrator has not set --vapid-subject.")
        }
        let endpoint = try Self.channelURL(rawEndpoint, field: "endpoint")
        do {
            _ = try WebPushEncryption.Keys(p256dh: p256dh, auth: auth)
        } catch {
            throw ServiceError.invalidInput(field: "keys", message: error.description)
        }
        try await requirePublicHost(endpoint, field: "endpoint")
        let name = try Self.name(deviceName, default: "Browser on \(endpoint.host ?? "?")")
        let id = UUID()
        let rows = try await database.client.query("""
            INSERT INTO delivery_channels (id, user_id, kind, name, url, push_p256dh, push_auth, created_at)
            SELECT \(id), \(caller.userID), 'WEB_PUSH', \(name), \(endpoint.absoluteString), \(p256dh), \(auth), \(clock.now)
            WHERE (SELECT count(*) FROM delivery_channels WHERE user_id = \(caller.userID)) < \(Self.maximumChannels)
            ON CONFLICT (user_id, url) WHERE kind = 'WEB_PUSH'
            DO UPDATE SET push_p256dh = EXCLUDED.push_p256dh, push_auth = EXCLUDED.push_auth, name = EXCLUDED.name, enabled = true,
                          disabled_reason = NULL, consecutive_failures = 0, failing_since = NULL
            RETURNING \(unescaped: Self.channelColumns)
            """, logger: logger)
        guard let channel = try await Self.decodeChannels(rows).first else { throw Self.tooMany }
        return channel
    }

    /// Adds an ntfy topic (`serverUrl` + `/` + `topic`), with an optional access token kept sealed.
    public func addNtfyChannel(_ caller: Caller, serverURL rawServer: String, topic: String, accessToken: String?) async throws -> DeliveryChannel {
        let server = try Self.channelURL(rawServer, field: "serverUrl")
        guard (1...64).contains(topic.count), topic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw ServiceError.invalidInput(field: "topic", message: "topic must be 1 to 64 letters, digits, - or _.")
        }
        try await requirePublicHost(server, field: "serverUrl")
        let base = server.absoluteString.hasSuffix("/") ? String(server.absoluteString.dropLast()) : server.absoluteString
        guard let url = URL(string: base + "/" + topic) else { throw ServiceError.invalidInput(field: "serverUrl", message: "serverUrl is not usable.") }
        var sealed: Data?
        if let token = accessToken?.trimmingCharacters(in: .whitespaces), !token.isEmpty {
            guard token.count <= 512, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw ServiceError.invalidInput(field: "accessToken", message: "accessToken must be at most 512 printable characters without spaces.")
            }
            sealed = try sealSecret(token)
        }
        return try await insertChannel(caller, kind: .ntfy, name: "ntfy \(server.host ?? "")/\(topic)", url: url, secret: sealed, kinds: nil)
    }

    /// Adds a webhook; the signing secret (`whsec_…`) is returned this once and kept sealed.
    public func addWebhook(_ caller: Caller, url rawURL: String, kinds: [NotificationKind]?) async throws -> (channel: DeliveryChannel, secret: String) {
        let url = try Self.channelURL(rawURL, field: "url")
        try await requirePublicHost(url, field: "url")
        let secret = StandardWebhookSignature.makeSecret()
        let channel = try await insertChannel(caller, kind: .webhook, name: "Webhook to \(url.host ?? "")", url: url,
                                              secret: try sealSecret(secret), kinds: kinds.map { Array(Set($0)).sorted { $0.rawValue < $1.rawValue } })
        return (channel, secret)
    }

    private func insertChannel(_ caller: Caller, kind: DeliveryChannel.Kind, name: String, url: URL, secret: Data?,
                               kinds: [NotificationKind]?) async throws -> DeliveryChannel {
        let rows = try await database.client.query("""
            INSERT INTO delivery_channels (id, user_id, kind, name, url, secret, kinds, created_at)
            SELECT \(UUID()), \(caller.userID), \(kind.rawValue), \(name), \(url.absoluteString), \(secret), \(kinds?.map(\.rawValue)), \(clock.now)
            WHERE (SELECT count(*) FROM delivery_channels WHERE user_id = \(caller.userID)) < \(Self.maximumChannels)
            RETURNING \(unescaped: Self.channelColumns)
            """, logger: logger)
        guard let channel = try await Self.decodeChannels(rows).first else { throw Self.tooMany }
        return channel
    }

    static let tooMany = ServiceError.conflict("A person may have at most \(maximumChannels) channels; remove one first.")

    private func sealSecret(_ text: String) throws -> Data {
        guard let secrets = configuration.secrets else {
            throw ServiceError.forbidden("This server has no secret key to keep channel secrets with; its administrator must set --secret-key-file.")
        }
        return try secrets.seal(Data(text.utf8))
    }

    /// The caller's channels, oldest first.
    public func channels(_ caller: Caller) async throws -> [DeliveryChannel] {
        let rows = try await database.client.query(
            "SELECT \(unescaped: Self.channelColumns) FROM delivery_channels WHERE user_id = \(caller.userID) ORDER BY created_at, id", logger: logger)
        return try await Self.decodeChannels(rows)
    }

    /// Removes one of the caller's channels (its pending deliveries go with it).
    /// Through the transaction runner: the deliveries it takes with it may be what the outbox is
    /// settling at the same moment (a deadlock there is retried, not shown).
    public func removeChannel(_ caller: Caller, id: UUID) async throws {
        let logger = self.logger
        let removed = try await database.transaction(logger: logger) { connection in
            let rows = try await connection.query(
                "DELETE FROM delivery_channels WHERE id = \(id) AND user_id = \(caller.userID) RETURNING id", logger: logger)
            for try await _ in rows.decode(UUID.self) { return true }
            return false
        }
        guard removed else { throw ServiceError.notFound("Channel") }
    }

    /// Sends a test message at once and waits for the answer: true when the receiver took it;
    /// false with the channel's `lastFailure` saying why.
    public func testChannel(_ caller: Caller, id: UUID) async throws -> Bool {
        let target = try await target(id, owner: caller.userID)
        let now = clock.now
        let payload = DeliveryPayload(id: UUID(), kind: "TEST", title: "Hearth test", body: "Notifications reach this channel.", priority: "NORMAL",
                                      url: configuration.publicURL.map { $0.appendingPathComponent("notifications").absoluteString })
        let outcome = await client.send(payload, to: target, vapid: try await vapid(), options: .init(ttl: 60, topic: nil), now: now)
        try await write([DeliverySettlement(delivery: nil, state: outcome.result.rawValue, channel: target.channel.id, kind: target.channel.kind,
                                            notification: nil, outcome: outcome, at: now)])
        return outcome.result == .sent
    }

    /// A channel of `owner` with its address, keys and opened secret.
    func target(_ id: UUID, owner: UUID?) async throws -> ChannelTarget {
        guard let found = try await targets([id], owner: owner)[id] else { throw ServiceError.notFound("Channel") }
        return try found.get()
    }

    /// Channels (of `owner`, or anyone's when nil) with their addresses, keys and opened secrets,
    /// in one statement; a channel whose secret does not open with this server's key is a `conflict`.
    func targets(_ ids: [UUID], owner: UUID?) async throws -> [UUID: Result<ChannelTarget, ServiceError>] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await database.client.query("""
            SELECT \(unescaped: Self.channelColumns), url, push_p256dh, push_auth, secret FROM delivery_channels
            WHERE id = ANY(\(ids)) AND (\(owner)::uuid IS NULL OR user_id = \(owner))
            """, logger: logger).rows(as: ChannelAddressRow.self)
        var targets: [UUID: Result<ChannelTarget, ServiceError>] = [:]
        for row in rows {
            let channel = row.channel
            guard let url = URL(string: row.url) else { continue }
            var keys: WebPushEncryption.Keys?
            if let p256dh = row.pushP256dh, let auth = row.pushAuth {
                keys = try? WebPushEncryption.Keys(p256dh: p256dh, auth: auth)
            }
            var secret: String?
            if let sealed = row.sealedSecret {
                guard let secrets = configuration.secrets, let opened = try? secrets.open(sealed) else {
                    targets[channel.id] = .failure(.conflict(
                        "This channel's secret cannot be opened with this server's secret key (was the key changed?); remove the channel and add it again."))
                    continue
                }
                secret = String(decoding: opened, as: UTF8.self)
            }
            targets[channel.id] = .success(ChannelTarget(channel: channel, url: url, pushKeys: keys, secret: secret))
        }
        return targets
    }

    /// Those of `channels` whose every attempt failed for a day are switched off, saying why
    /// (one statement for them all), their pending deliveries given up, and each owner told on
    /// their other channels.
    func disableChannelsFailingForADay(_ channels: [UUID], at now: Date) async throws {
        guard !channels.isEmpty else { return }
        let rows = try await database.client.query("""
            UPDATE delivery_channels SET enabled = false,
                disabled_reason = 'Switched off: every delivery failed for a day (last: ' || COALESCE(last_failure, 'no answer') || ').'
            WHERE id = ANY(\(channels)) AND enabled AND failing_since <= \(now.addingTimeInterval(-Self.giveUpAfter))
            RETURNING id, user_id, name
            """, logger: logger)
        let disabled = try await rows.columns(("id", UUID.self), ("user_id", UUID.self), ("name", String.self)).map { (channel: $0.0, owner: $0.1, name: $0.2) }
        guard !disabled.isEmpty else { return }
        logger.notice("channels switched off after failing for a day", metadata: ["channels": "\(disabled.map(\.channel))"])
        try await database.client.query("""
            UPDATE deliveries SET state = 'FAILED', last_error = 'The channel was switched off.'
            WHERE channel_id = ANY(\(disabled.map(\.channel))) AND state = 'PENDING'
            """, logger: logger)
        let vapid = try await vapid()
        for (channel, owner, name) in disabled {
            let payload = DeliveryPayload(id: UUID(), kind: "CHANNEL_DISABLED", title: "A notification channel was switched off",
                                          body: "\(name) failed for a day and no longer receives notifications; see your channels.", priority: "NORMAL")
            let others = try await database.client.query(
                "SELECT id FROM delivery_channels WHERE user_id = \(owner) AND enabled AND id <> \(channel)", logger: logger)
            var ids: [UUID] = []
            for try await id in others.decode(UUID.self) { ids.append(id) }
            for case .success(let target) in try await targets(ids, owner: owner).values {
                _ = await client.send(payload, to: target, vapid: vapid, options: .init(ttl: Self.defaultTimeToLive, topic: nil), now: now)
            }
        }
    }

    /// A channel's newest attempts (at most 50), for its owner.
    public func log(_ caller: Caller, channelID: UUID) async throws -> [DeliveryAttempt] {
        let rows = try await database.client.query("""
            SELECT a.attempted_at, a.status, a.latency_ms, a.outcome, a.error, a.notification_id
            FROM delivery_attempts a JOIN delivery_channels c ON c.id = a.channel_id
            WHERE a.channel_id = \(channelID) AND c.user_id = \(caller.userID) ORDER BY a.id DESC LIMIT 50
            """, logger: logger)
        var attempts: [DeliveryAttempt] = []
        for (at, status, latency, outcome, error, notification) in try await rows.columns(
            ("attempted_at", Date.self), ("status", Int?.self), ("latency_ms", Int.self), ("outcome", String.self), ("error", String?.self),
            ("notification_id", UUID?.self)) {
            attempts.append(DeliveryAttempt(at: at, status: status, latencyMilliseconds: latency,
                                            outcome: DeliveryOutcome.Result(rawValue: outcome) ?? .failed, error: error, notificationID: notification))
        }
        return attempts
    }

    // MARK: Health

    public var healthName: String { "delivery" }

    /// The queue's depth, the oldest pending delivery's age, and the failed attempts of the last hour.
    public func performHealthCheck() async -> ServiceHealthStatus {
        let started = ContinuousClock.now
        let checkedAt = Date()
        let now = clock.now
        do {
            let rows = try await database.client.query("""
                SELECT (SELECT count(*) FROM deliveries WHERE state = 'PENDING') AS pending,
                       (SELECT COALESCE(EXTRACT(EPOCH FROM (\(now) - min(created_at))), 0)::float8 FROM deliveries WHERE state = 'PENDING') AS oldest,
                       (SELECT count(*) FROM delivery_attempts WHERE outcome <> 'SENT' AND attempted_at > \(now.addingTimeInterval(-3600))) AS failures
                """, logger: logger)
            var details: [String: HealthDetail] = [:]
            for (pending, oldest, failures) in try await rows.columns(("pending", Int.self), ("oldest", Double.self), ("failures", Int.self)) {
                details = ["queueDepth": .int(pending), "oldestPendingSeconds": .number(oldest), "failuresLastHour": .int(failures),
                           "webPush": .bool(configuration.vapidSubject != nil)]
            }
            return ServiceHealthStatus(isHealthy: true, lastChecked: checkedAt, responseTime: ContinuousClock.now - started, details: details)
        } catch {
            return ServiceHealthStatus(isHealthy: false, lastChecked: checkedAt, errors: ["delivery queue unreadable: \(ErrorText.oneLine(error))"],
                                       responseTime: ContinuousClock.now - started)
        }
    }

    // MARK: Reading

    static let channelColumns = """
        id, user_id, kind, name, kinds, enabled, disabled_reason, created_at, last_success_at, last_failure_at, last_failure, consecutive_failures
        """

    static func decodeChannels(_ rows: PostgresRowSequence) async throws -> [DeliveryChannel] {
        try await rows.rows(as: DeliveryChannelRow.self).map(\.channel)
    }

    // MARK: Input

    /// An absolute http(s) URL without credentials, at most 2048 characters; a clear refusal naming `field`.
    /// Refuses (`BAD_USER_INPUT` on `field`) a channel address whose host is private or local (IP
    /// literals and resolved names, as at sending) and not let through with `--delivery-allow-host`,
    /// so the person learns now why nothing would arrive. A resolver that cannot answer (an offline
    /// server) does not refuse: the address is checked again when sending.
    func requirePublicHost(_ url: URL, field: String) async throws {
        do {
            try await client.checkAddress(of: url)
        } catch let refusal as DeliveryRefusal where !refusal.unreachableResolver {
            throw ServiceError.invalidInput(field: field, message: "\(field): \(refusal.message)")
        } catch is DeliveryRefusal {
            logger.info("a channel's host could not be looked up at registration", metadata: ["host": "\(url.host ?? "")"])
        }
    }

    static func channelURL(_ text: String, field: String) throws(ServiceError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= 2048, let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = components.host, !host.isEmpty, let url = components.url else {
            throw .invalidInput(field: field, message: "\(field) must be an absolute http or https URL.")
        }
        guard components.user == nil, components.password == nil else {
            throw .invalidInput(field: field, message: "\(field) must not carry a user name or password; give tokens in their own field.")
        }
        return url
    }

    static func name(_ raw: String?, default fallback: String) throws(ServiceError) -> String {
        let trimmed = raw?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !trimmed.isEmpty else { return String(fallback.prefix(120)) }
        guard trimmed.count <= 120, !trimmed.contains(where: { $0.isNewline }) else {
            throw .invalidInput(field: "deviceName", message: "deviceName must be one line of at most 120 characters.")
        }
        return trimmed
    }
}
