import Foundation
import PostgresNIO

/// How to reach PostgreSQL: an external server from `DATABASE_URL`, or the embedded cluster.
public struct DatabaseConfiguration: Sendable {
    /// The PostgresNIO pool configuration.
    public var client: PostgresClient.Configuration
    /// Where the database is, with any password removed, for logs.
    public var displayAddress: String
    /// libpq's `sslmode` for the same server (nil over a unix socket).
    public var sslMode: String?

    public init(client: PostgresClient.Configuration, displayAddress: String, sslMode: String? = nil) {
        self.client = client
        self.displayAddress = displayAddress
        self.sslMode = sslMode
    }

    /// The same database for libpq's programs (`pg_dump`, `pg_restore`): `PGHOST`, `PGPORT`,
    /// `PGUSER`, `PGPASSWORD`, `PGDATABASE` and `PGSSLMODE`, given in their environment so a password
    /// never shows on a command line.
    public var libpqEnvironment: [String: String] {
        var environment = ["PGUSER": client.username]
        if let socket = client.unixSocketPath, let marker = socket.range(of: "/.s.PGSQL.", options: .backwards) {
            environment["PGHOST"] = String(socket[..<marker.lowerBound])
            environment["PGPORT"] = String(socket[marker.upperBound...])
        } else {
            environment["PGHOST"] = client.host
            environment["PGPORT"] = client.port.map(String.init)
        }
        environment["PGPASSWORD"] = client.password
        environment["PGDATABASE"] = client.database
        environment["PGSSLMODE"] = sslMode
        return environment
    }

    /// Makes PostgreSQL cancel any statement on the pool's connections that runs longer than
    /// `timeout` (its `statement_timeout`, sent when each connection starts; nil: no bound): a
    /// request's deadline then bounds its SQL too, and a cancelled request cannot leave a statement
    /// holding a connection. Work that may legitimately run longer (migrations) lifts it on its
    /// own connection.
    public mutating func boundStatements(by timeout: Duration?) {
        client.options.additionalStartupParameters.removeAll { $0.0 == "statement_timeout" }
        guard let timeout else { return }
        let (seconds, attoseconds) = timeout.components
        let milliseconds = max(1, seconds * 1_000 + attoseconds / 1_000_000_000_000_000)
        client.options.additionalStartupParameters.append(("statement_timeout", "\(milliseconds)ms"))
    }

    /// The default pool of an external server, whose cores Hearth cannot see.
    public static let externalPoolSize = 10

    /// The default pool of the embedded cluster: twice the machine's cores, at least 4. Its backends
    /// share those cores with Hearth, so more connections only queue on the CPU and switch between
    /// each other (PostgreSQL's own advice: about twice the cores). On 2 cores under the dashboard's
    /// 16 clients, 4 connections cost PostgreSQL 2.0–2.6 ms of CPU a request where 10 cost 2.7–3.2.
    /// One of them is the event bus's `LISTEN`.
    public static func embeddedPoolSize(cores: Int) -> Int {
        max(4, 2 * cores)
    }

    /// A cluster's unix socket (the embedded one's), as its trusted superuser. Idle connections are
    /// not pinged: keep-alive queries find connections a network dropped, and a local socket to the
    /// cluster Hearth supervises has no network between (the pool would otherwise arm and cancel a
    /// keep-alive timer each time a statement returns its connection: a task and a timer each).
    public static func unixSocket(_ socketPath: String, username: String, database: String, poolSize: Int) -> DatabaseConfiguration {
        var client = PostgresClient.Configuration(unixSocketPath: socketPath, username: username, password: nil, database: database)
        client.options.maximumConnections = poolSize
        client.options.keepAliveBehavior = nil
        return DatabaseConfiguration(client: client, displayAddress: "unix:\(socketPath)/\(database)")
    }

    /// Parses `postgres://user:password@host:port/database?sslmode=…`, or a unix socket given as
    /// `postgres://user@/database?host=/socket/dir` (libpq's convention).
    public static func parse(url text: String, poolSize: Int) throws(DatabaseURLError) -> DatabaseConfiguration {
        guard let components = URLComponents(string: text) else {
            throw DatabaseURLError("it is not a URL")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw DatabaseURLError("the scheme must be postgres:// or postgresql://")
        }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name.lowercased(), $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let known: Set<String> = ["host", "port", "sslmode", "user", "password", "dbname", "application_name", "connect_timeout"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw DatabaseURLError("unknown parameter '\(unknown)' (known: \(known.sorted().joined(separator: ", ")))")
        }
        guard let username = (components.user.flatMap { $0.removingPercentEncoding } ?? query["user"]), !username.isEmpty else {
            throw DatabaseURLError("it names no user (postgres://USER@host/database)")
        }
        let password = components.password.flatMap { $0.removingPercentEncoding } ?? query["password"]
        var path = components.path
        if path.hasPrefix("/") { path.removeFirst() }
        let database = path.isEmpty ? (query["dbname"] ?? username) : (path.removingPercentEncoding ?? path)
        var port = components.port ?? 5432
        if let text = query["port"] {
            guard let value = Int(text), (1...65535).contains(value) else {
                throw DatabaseURLError("port '\(text)' is not a number from 1 to 65535")
            }
            port = value
        }
        guard (1...65535).contains(port) else { throw DatabaseURLError("port \(port) is out of range") }
        let host = (components.host.flatMap { $0.removingPercentEncoding }).flatMap { $0.isEmpty ? nil : $0 }
            ?? query["host"]
        guard let host, !host.isEmpty else {
            throw DatabaseURLError("it names no host (postgres://user@HOST/database, or ?host=/socket/directory)")
        }
        var client: PostgresClient.Configuration
        let display: String
        var sslMode: String?
        if host.hasPrefix("/") {
            client = .init(unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: username, password: password, database: database)
            display = "postgres://\(username)@unix:\(host)/.s.PGSQL.\(port)/\(database)"
        } else {
            let tls: PostgresClient.Configuration.TLS
            sslMode = query["sslmode"]?.lowercased() ?? "prefer"
            switch sslMode ?? "prefer" {
            case "disable", "allow":
                tls = .disable
            case "prefer":
                tls = .prefer(.makeClientConfiguration())
            case "require":
                var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
                tlsConfiguration.certificateVerification = .none
                tls = .require(tlsConfiguration)
            case "verify-ca", "verify-full":
                tls = .require(.makeClientConfiguration())
            case let other:
                throw DatabaseURLError("sslmode '\(other)' is not one of disable, prefer, require, verify-ca, verify-full")
            }
            client = .init(host: host, port: port, username: username, password: password, database: database, tls: tls)
            display = "postgres://\(username)@\(host):\(port)/\(database)"
        }
        if let timeout = query["connect_timeout"] {
            guard let seconds = Int(timeout), seconds > 0 else {
                throw DatabaseURLError("connect_timeout '\(timeout)' is not a positive number of seconds")
            }
            client.options.connectTimeout = .seconds(seconds)
        }
        client.options.maximumConnections = poolSize
        return DatabaseConfiguration(client: client, displayAddress: display, sslMode: sslMode)
    }
}

/// `DATABASE_URL` could not be understood; the message says which part is wrong.
public struct DatabaseURLError: Error, CustomStringConvertible, Sendable, Equatable {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "DATABASE_URL is invalid: \(reason)" }
}
