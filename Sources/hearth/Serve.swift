import ArgumentParser
import Foundation
import GraphQLEngine
import HearthCore
import HearthPostgres
import HearthServer
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle

/// `hearth serve`: migrate the database and serve HTTP until SIGINT or SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Start the Hearth server.")

    @Option(help: "Address to listen on (env HEARTH_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on, 0 for any free port (env HEARTH_PORT; default 8080).")
    var port: Int?

    @Option(name: .customLong("admin-token"), help: "Bearer token for /admin/* (env HEARTH_ADMIN_TOKEN; prefer the variable: options show in ps).")
    var adminToken: String?

    @Option(name: .customLong("cors-origins"), help: "Comma-separated origins browsers may call Hearth from, * for any (env HEARTH_CORS_ORIGINS; default: none, CORS off).")
    var corsOrigins: String?

    @Option(help: "The GraphQL schema served at /graphql (env HEARTH_SCHEMA; default: schema.graphql found beside the program).")
    var schema: String?

    @Option(name: .customLong("web-dir"), help: "The household app's files, served at / (env HEARTH_WEB_DIR; default: web/ found beside the program; \"none\" serves the API only).")
    var webDirectory: String?

    @Option(name: .customLong("tls-cert-file"), help: "Serve HTTPS and WSS with this PEM certificate chain (env HEARTH_TLS_CERT_FILE; with --tls-key-file; SIGHUP reads both again).")
    var tlsCertificateFile: String?

    @Option(name: .customLong("tls-key-file"), help: "The PEM private key of --tls-cert-file (env HEARTH_TLS_KEY_FILE).")
    var tlsKeyFile: String?

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var graphQLLimits: GraphQLOptions

    @OptionGroup var http: HTTPOptions

    @OptionGroup var users: UsersOptions

    @OptionGroup var households: HouseholdsOptions

    @OptionGroup var stores: StoresOptions

    @OptionGroup var delivery: DeliveryOptions

    @OptionGroup var backups: BackupScheduleOptions

    func run() async throws {
        let env = EnvironmentValue()
        let options = try database.resolve(env)
        let limits = try graphQLLimits.resolve(env)
        let usersConfiguration = try users.resolve(env)
        let householdsConfiguration = try households.resolve(env)
        let storesConfiguration = try stores.resolve(env)
        let deliveryOptions = try delivery.resolve(env)
        _ = try backups.resolve(env)
        let cors = (env.string(corsOrigins, "HEARTH_CORS_ORIGINS") ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        // Browsers may call /mcp from Hearth's own address and the CORS origins only (DNS-rebinding protection).
        let mcpOrigins = Set(cors.map { $0.lowercased() } + [deliveryOptions.publicURL.flatMap(MCPConfiguration.origin(of:))].compactMap { $0 })
        let server = HearthServerConfiguration(
            host: env.string(host, "HEARTH_HOST") ?? "127.0.0.1",
            port: try env.port(port, "HEARTH_PORT", allowZero: true) ?? 8080,
            adminToken: env.string(adminToken, "HEARTH_ADMIN_TOKEN"),
            graphQL: limits.http,
            corsOrigins: cors,
            webSocket: limits.webSocket,
            connections: try http.resolve(env),
            mcp: MCPConfiguration(allowedOrigins: mcpOrigins),
            webApp: try webApp(env),
            tls: try tls(env))
        guard let schemaPath = env.string(schema, "HEARTH_SCHEMA") ?? ProjectFiles.locate("schema.graphql", directory: false) else {
            throw ValidationError("cannot find schema.graphql beside hearth; set --schema or HEARTH_SCHEMA")
        }
        let logger = Bootstrap.logging(level: options.logLevel)
        let registry = Bootstrap.metrics()

        try await reportingFailures {
            // Checked before the database starts; bound to the services once they exist.
            let schemaSource = try HearthGraphQLSchema.Source.read(URL(fileURLWithPath: schemaPath))
            let facts = HearthGraphQLSchema.ServerFacts(version: server.version, startedAt: Date())
            let migrations = try Migration.load(from: options.migrationsDirectory)
            let setup = try await DatabaseSetup.start(options, sharing: false, logger: logger)
            do {
                try await setup.run { configuration in
                    var deliveryConfiguration = deliveryOptions
                    let dataDirectory = setup.embedded?.configuration.absoluteDataDirectory
                    deliveryConfiguration.secrets = try delivery.secretKey(env, embeddedDataDirectory: dataDirectory)
                    let schedule = try backups.schedule(env, database: configuration, options: options, embeddedDataDirectory: dataDirectory,
                                                        secret: delivery.secret, instanceID: storesConfiguration.stores.instanceID)
                    if let schedule {
                        BackupWorkspace.removeLeftovers(in: schedule.dump.workRoot, logger: logger)
                        BackupWorkspace.removeOldDumps(besideBackupsIn: schedule.directory, logger: logger)
                    }
                    try await serve(server, database: configuration, embedded: setup.embedded, restartDelay: options.embeddedRestartDelay, migrations: migrations,
                                    graphQL: (schemaSource, facts, limits.executor), users: usersConfiguration,
                                    households: householdsConfiguration, stores: storesConfiguration, delivery: deliveryConfiguration,
                                    backups: schedule, registry: registry, logger: logger)
                }
            } catch {
                throw Self.explain(error, server: server)
            }
        }
    }

    /// The HTTPS pair from `--tls-cert-file` and `--tls-key-file` (both or neither), read now: a
    /// missing, malformed or mismatched file stops the start, naming it.
    private func tls(_ env: EnvironmentValue) throws -> TLSCertificate? {
        let (certificate, key) = (env.string(tlsCertificateFile, "HEARTH_TLS_CERT_FILE"), env.string(tlsKeyFile, "HEARTH_TLS_KEY_FILE"))
        switch (certificate, key) {
        case (nil, nil): return nil
        case (let certificate?, let key?):
            do {
                return try TLSCertificate(certificateFile: certificate, keyFile: key)
            } catch {
                throw ValidationError("cannot serve HTTPS: \(error.description)")
            }
        case (nil, _?): throw ValidationError("--tls-key-file needs --tls-cert-file (HEARTH_TLS_CERT_FILE): the certificate it is the key of")
        case (_?, nil): throw ValidationError("--tls-cert-file needs --tls-key-file (HEARTH_TLS_KEY_FILE): the certificate's private key")
        }
    }

    /// The household app from `--web-dir`, `HEARTH_WEB_DIR` or `web/` beside the program; nil for `none`
    /// or when none is found (the API is served alone, and the log says so once started).
    private func webApp(_ env: EnvironmentValue) throws -> WebApp? {
        let named = env.string(webDirectory, "HEARTH_WEB_DIR")
        if named == "none" { return nil }
        guard let directory = named ?? ProjectFiles.locate("web") else { return nil }
        do {
            return try WebApp(directory: directory)
        } catch {
            throw ValidationError("cannot serve the household app: \(error.description) (set --web-dir or HEARTH_WEB_DIR, or \"none\")")
        }
    }

    private func serve(
        _ server: HearthServerConfiguration, database configuration: DatabaseConfiguration, embedded: EmbeddedPostgres?, restartDelay: Duration,
        migrations: [Migration], graphQL: (source: HearthGraphQLSchema.Source, facts: HearthGraphQLSchema.ServerFacts, executor: ExecutorConfiguration),
        users usersConfiguration: UsersConfiguration, households householdsConfiguration: HouseholdsConfiguration,
        stores storesConfiguration: (stores: StoresConfiguration, client: ShopifyClientConfiguration, loop: Bool, sync: SyncConfiguration),
        delivery deliveryConfiguration: DeliveryConfiguration, backups: BackupSchedule?, registry: PrometheusCollectorRegistry, logger: Logger
    ) async throws {
        let runtime = try HearthRuntime(
            .init(server: server, database: configuration,
                  services: .init(users: usersConfiguration, households: householdsConfiguration, stores: storesConfiguration.stores,
                                  shopify: storesConfiguration.client, sync: storesConfiguration.sync, delivery: deliveryConfiguration,
                                  backups: backups),
                  executor: graphQL.executor, syncsStores: storesConfiguration.loop),
            schema: graphQL.source, facts: graphQL.facts, migrations: migrations, metrics: registry, logger: logger)
        var app = runtime.application { port in
            let line = "hearth \(server.version) listening on \(server.tls == nil ? "http" : "https")://\(server.host):\(port)\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            logger.info("listening", metadata: ["address": "\(server.host):\(port)"])
            if let app = server.webApp {
                logger.info("serving the household app", metadata: ["build": "\(app.build)", "files": "\(app.files.count)"])
            } else {
                logger.notice("no household app to serve (web/ not found, or --web-dir none): the API only")
            }
        }
        let (migrated, migratedContinuation) = AsyncStream.makeStream(of: Void.self)
        app.beforeServerStarts {
            defer { migratedContinuation.finish() }
            try await runtime.prepare()
        }
        let cluster: [any Service] = embedded.map {
            [EmbeddedPostgresService(cluster: $0, logger: logger, restartDelay: restartDelay, whenDown: { [status = runtime.database.status] in status.markDown() },
                                     whenUp: { [status = runtime.database.status] in status.markUp() })]
        } ?? []
        // SIGHUP reloads the certificate with HTTPS, and is logged and ignored without (never the default: the end of the process).
        let reload: [any Service] = [TLSCertificate.ReloadService(certificate: server.tls, logger: logger)]
        // The loops start once the migrations ran (the stream ends then, or when start-up failed).
        // Shutdown runs in reverse: the loops and the server drain, the clients close, then the pool,
        // then the embedded cluster stops.
        let services = runtime.orderedServices(first: cluster + reload, application: app) { for await _ in migrated {} }
        var groupConfiguration = ServiceGroupConfiguration(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            cancellationSignals: [],
            logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(8)
        try await ServiceGroup(configuration: groupConfiguration).run()
        logger.info("stopped")
    }

    /// Gives the errors people hit most a one-line explanation.
    /// Binding fails with the socket's errno (NIO's `IOError`): matched by that, not by its text.
    static func explain(_ error: any Error, server: HearthServerConfiguration) -> any Error {
        guard let failure = error as? IOError else { return error }
        switch failure.errnoCode {
        case EADDRINUSE:
            return PlainError("cannot listen on \(server.host):\(server.port): the address is already in use; choose another with --port or HEARTH_PORT")
        case EADDRNOTAVAIL:
            return PlainError("cannot listen on \(server.host):\(server.port): no such address on this machine (--host / HEARTH_HOST)")
        default:
            return error
        }
    }
}

struct PlainError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Process-wide set-up done once by each command.
enum Bootstrap {
    static func logging(level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "hearth")
        logger.logLevel = level
        return logger
    }

    static func metrics() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }
}
