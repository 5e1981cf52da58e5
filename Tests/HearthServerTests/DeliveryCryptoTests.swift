import Crypto
import Foundation
import HearthCore
import Testing

/// What Hearth sends to notification channels, checked by the PyPI implementations of the
/// standards (`http_ece`, `py_vapid`, `standardwebhooks` in `.build/python-webpush`, which
/// `make test` installs): a Web Push message decrypts with the subscription's private key and
/// auth secret and its VAPID header verifies; a webhook signature verifies, and a replay does not.
@Suite struct DeliveryCryptoTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("scripts/clients/delivery_verify.py").path
    /// The interpreter with the verifiers installed; `HEARTH_WEBPUSH_PYTHON` overrides it.
    static let python = ProcessInfo.processInfo.environment["HEARTH_WEBPUSH_PYTHON"]
        ?? root.appendingPathComponent(".build/python-webpush/bin/python").path
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
    static let hasVerifiers = ChildProcess.succeeds(python, ["-c", "import http_ece, py_vapid, standardwebhooks"])

    static func verify(_ request: [String: Any]) async throws -> [String: Any] {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
        let result = try await ChildProcess.run(python, [script, json])
        #expect(result.status == 0, "\(result.text.prefix(2000))")
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.text.prefix(2000))")
    }

    @Test(.needsVerifiers)
    func webPushMessagesDecryptAndTheirVAPIDVerifies() async throws {
        try #require(Self.hasVerifiers, "the verifiers are missing from \(Self.python) (make test installs them)")
        // A browser's subscription: its key pair and auth secret.
        let browser = P256.KeyAgreement.PrivateKey()
        let auth = Data.random(count: 16)
        let keys = try WebPushEncryption.Keys(p256dh: browser.publicKey.x963Representation.base64URLEncodedString, auth: auth.base64URLEncodedString)
        let payload = #"{"id":"n1","kind":"REMINDER","title":"Feed the cat — 🐈","actions":["COMPLETE","SNOOZE"]}"#
        let body = try WebPushEncryption.encrypt(Data(payload.utf8), for: keys)
        let endpoint = try #require(URL(string: "https://push.example.net:8443/send/abc?x=1"))
        let vapid = VAPID(key: P256.Signing.PrivateKey(), subject: "mailto:admin@example.org")
        let header = try vapid.authorization(for: endpoint, expiresAt: Date().addingTimeInterval(12 * 3600))
        let answer = try await Self.verify([
            "check": "webpush", "body": body.base64EncodedString(), "privateKey": browser.rawRepresentation.base64URLEncodedString,
            "auth": auth.base64URLEncodedString, "authorization": header, "endpoint": endpoint.absoluteString, "subject": "mailto:admin@example.org",
        ])
        #expect(answer["error"] == nil, "\(answer)")
        #expect(answer["plaintext"] as? String == payload)
        #expect((answer["claims"] as? [String: Any])?["aud"] as? String == "https://push.example.net:8443")

        // Another subscription's secret does not open it; a key from elsewhere does not verify.
        let wrong = try await Self.verify([
            "check": "webpush", "body": body.base64EncodedString(), "privateKey": browser.rawRepresentation.base64URLEncodedString,
            "auth": Data.random(count: 16).base64URLEncodedString, "authorization": header, "endpoint": endpoint.absoluteString,
            "subject": "mailto:admin@example.org",
        ])
        #expect(wrong["plaintext"] == nil && wrong["error"] != nil)
        let forged = header.replacingOccurrences(of: vapid.publicKey, with: VAPID(key: P256.Signing.PrivateKey(), subject: "x").publicKey)
        let refused = try await Self.verify([
            "check": "webpush", "body": body.base64EncodedString(), "privateKey": browser.rawRepresentation.base64URLEncodedString,
            "auth": auth.base64URLEncodedString, "authorization": forged, "endpoint": endpoint.absoluteString, "subject": "mailto:admin@example.org",
        ])
        #expect(refused["vapid"] == nil && refused["error"] != nil, "\(refused)")
    }

    @Test func webPushRefusesWhatItCannotSend() throws {
        #expect(throws: WebPushEncryption.Failure.self) { try WebPushEncryption.Keys(p256dh: "not a key", auth: Data.random(count: 16).base64URLEncodedString) }
        let browser = P256.KeyAgreement.PrivateKey()
        #expect(throws: WebPushEncryption.Failure.self) {
            try WebPushEncryption.Keys(p256dh: browser.publicKey.x963Representation.base64URLEncodedString, auth: Data.random(count: 8).base64URLEncodedString)
        }
        let keys = try WebPushEncryption.Keys(p256dh: browser.publicKey.x963Representation.base64URLEncodedString, auth: Data.random(count: 16).base64URLEncodedString)
        #expect(throws: WebPushEncryption.Failure.tooLarge(3994)) { try WebPushEncryption.encrypt(Data(count: 3994), for: keys) }
        // The largest message fills the 4096-byte record: 86 bytes of header, the text, its delimiter and the 16-byte tag.
        #expect(try WebPushEncryption.encrypt(Data(count: 3993), for: keys).count == 4096)
        #expect(VAPID.problem(withSubject: "mailto:admin@example.org") == nil && VAPID.problem(withSubject: "https://hearth.example.org") == nil)
        #expect(VAPID.problem(withSubject: "admin@example.org") != nil && VAPID.problem(withSubject: "mailto:nobody") != nil)
    }

    @Test(.needsVerifiers)
    func webhookSignaturesVerifyAndReplaysDoNot() async throws {
        try #require(Self.hasVerifiers, "the verifiers are missing from \(Self.python) (make test installs them)")
        let secret = StandardWebhookSignature.makeSecret()
        #expect(secret.hasPrefix("whsec_"))
        let body = #"{"type":"notification.reminder","timestamp":"2026-11-24T10:00:00Z","data":{"id":"n1"}}"#
        func headers(at timestamp: Int) throws -> [String: String] {
            let signature = try #require(StandardWebhookSignature.signature(secret: secret, id: "n1", timestamp: timestamp, body: Data(body.utf8)))
            return ["webhook-id": "n1", "webhook-timestamp": String(timestamp), "webhook-signature": signature]
        }
        let now = Int(Date().timeIntervalSince1970)
        let fresh = try await Self.verify(["check": "webhook", "secret": secret, "headers": try headers(at: now), "body": body])
        #expect(fresh["verified"] as? Bool == true && (fresh["payload"] as? [String: Any])?["type"] as? String == "notification.reminder", "\(fresh)")
        let replay = try await Self.verify(["check": "webhook", "secret": secret, "headers": try headers(at: now - 6 * 60), "body": body])
        #expect(replay["verified"] == nil && replay["error"] != nil, "\(replay)")
        let otherSecret = try await Self.verify(["check": "webhook", "secret": StandardWebhookSignature.makeSecret(), "headers": try headers(at: now), "body": body])
        #expect(otherSecret["verified"] == nil, "\(otherSecret)")
        #expect(StandardWebhookSignature.signature(secret: "not-a-secret", id: "n1", timestamp: now, body: Data()) == nil)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs where the Python verifiers are installed, and always under CI (where their absence fails the test).
    static var needsVerifiers: Self {
        .enabled(if: DeliveryCryptoTests.hasVerifiers || DeliveryCryptoTests.isCI,
                 "SKIPPED: needs http_ece, py_vapid and standardwebhooks in .build/python-webpush (make test installs them)")
    }
}
