import ArgumentParser
import Foundation
import HearthCore
import HearthPostgres
import Logging

/// The database a command works with: the external server from `DATABASE_URL`, or the
/// embedded cluster, started here and stopped by ``run(_:)`` (or the one a running `hearth serve`
/// holds, used as it is and left running).
struct DatabaseSetup {
    let configuration: DatabaseConfiguration
    let embedded: EmbeddedPostgres?

    /// `sharing`: an embedded cluster that `hearth serve` runs on the same data directory is used
    /// while it runs (operator commands), instead of being refused as in use (a second server).
    static func start(_ options: DatabaseOptions.Resolved, sharing: Bool = true, logger: Logger) async throws -> DatabaseSetup {
        if let url = options.databaseURL {
            let configuration = try DatabaseConfiguration.parse(url: url, poolSize: options.poolSize ?? DatabaseConfiguration.externalPoolSize)
            logger.info("using external PostgreSQL", metadata: ["database": "\(configuration.displayAddress)"])
            return DatabaseSetup(configuration: configuration, embedded: nil)
        }
        let cluster = EmbeddedPostgres(
            configuration: EmbeddedPostgresConfiguration(
                dataDirectory: options.dataDirectory ?? EmbeddedPostgresConfiguration.defaultDataDirectory(),
                tcpPort: options.embeddedPort,
                binarySearch: PostgresBinarySearch(explicitDirectory: options.pgBinDirectory),
                stopTimeout: .seconds(5)),
            logger: logger)
        let endpoint = try await cluster.start(sharing: sharing)
        if let port = options.embeddedPort {
            logger.notice("embedded PostgreSQL also listens on 127.0.0.1:\(port) (user \(endpoint.username), password in \(cluster.configuration.absoluteDataDirectory)/hearth.password)")
        }
        let poolSize = options.poolSize ?? DatabaseConfiguration.embeddedPoolSize(cores: ProcessInfo.processInfo.activeProcessorCount)
        return DatabaseSetup(configuration: .embedded(endpoint, poolSize: poolSize), embedded: cluster)
    }

    /// Runs `body`, then stops the embedded cluster (if any) whether `body` succeeded or not.
    func run<T>(_ body: (DatabaseConfiguration) async throws -> T) async throws -> T {
        let result: Result<T, any Error>
        do {
            result = .success(try await body(configuration))
        } catch {
            result = .failure(error)
        }
        await embedded?.stop()
        return try result.get()
    }
}

/// Turns a failure into one line on stderr and exit status 1; usage errors keep exit 64.
func reportingFailures(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as ExitCode {
        throw error
    } catch {
        FileHandle.standardError.write(Data("hearth: \(describe(error))\n".utf8))
        throw ExitCode.failure
    }
}

func describe(_ error: any Error) -> String {
    switch error {
    case let error as EmbeddedPostgresError: return error.description
    case let error as MigrationError: return error.description
    case let error as DatabaseURLError: return error.description
    default:
        let text = String(describing: error)
        if text.contains("PSQLError") { return ErrorText.oneLine(error) }
        return text
    }
}
