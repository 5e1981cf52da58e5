import ArgumentParser
import Foundation
import HearthCore

/// `hearth serve`'s notification-delivery settings: each an option or an environment variable.
struct DeliveryOptions: ParsableArguments {
    @Option(name: .customLong("vapid-subject"),
            help: "A mailto: or https: contact that push services may use; Web Push is off without it (env HEARTH_VAPID_SUBJECT).")
    var vapidSubject: String?

    @Option(name: .customLong("public-url"), help: "The address people reach this Hearth at, for links in notifications (env HEARTH_PUBLIC_URL).")
    var publicURL: String?

    @Option(name: .customLong("delivery-retry-base"),
            help: "Seconds before a failed delivery's first retry, doubled per attempt up to an hour (env HEARTH_DELIVERY_RETRY_BASE; default 30).")
    var retryBase: Int?

    @Option(name: .customLong("delivery-lease"),
            help: "Seconds one instance holds a delivery it is sending (env HEARTH_DELIVERY_LEASE; default 60).")
    var lease: Int?

    @Option(name: .customLong("delivery-allow-host"),
            help: ArgumentHelp("A channel host let through the private-address guard: a name or IP literal such as ha.lan or 127.0.0.1 (repeatable; env HEARTH_DELIVERY_ALLOW_HOSTS, comma-separated).",
                               valueName: "host"))
    var allowHosts: [String] = []

    @OptionGroup var secret: SecretKeyOptions

    /// The settings but the secret key (checked before the database starts, so a bad option fails at once).
    func resolve(_ env: EnvironmentValue) throws -> DeliveryConfiguration {
        var configuration = DeliveryConfiguration()
        if let subject = env.string(vapidSubject, "HEARTH_VAPID_SUBJECT") {
            if let problem = VAPID.problem(withSubject: subject) { throw ValidationError("--vapid-subject \(subject): \(problem).") }
            configuration.vapidSubject = subject
        }
        if let text = env.string(publicURL, "HEARTH_PUBLIC_URL") {
            guard let url = URL.httpAddress(text) else {
                throw ValidationError("--public-url \(text): give the absolute http or https address people reach this Hearth at.")
            }
            configuration.publicURL = url
        }
        if let seconds = try env.integer(retryBase, "HEARTH_DELIVERY_RETRY_BASE", range: 1...3600) { configuration.retryBase = .seconds(seconds) }
        if let seconds = try env.integer(lease, "HEARTH_DELIVERY_LEASE", range: 5...3600) { configuration.lease = .seconds(seconds) }
        let hosts = allowHosts.isEmpty ? (env.string(nil, "HEARTH_DELIVERY_ALLOW_HOSTS") ?? "").split(separator: ",").map(String.init) : allowHosts
        configuration.allowedHosts = hosts.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        return configuration
    }

    /// The secret key (see ``SecretKeyOptions``).
    func secretKey(_ env: EnvironmentValue, embeddedDataDirectory: String?) throws -> SecretBox {
        try secret.box(env, embeddedDataDirectory: embeddedDataDirectory)
    }
}
