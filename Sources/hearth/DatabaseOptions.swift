import ArgumentParser
import Foundation
import HearthCore
import Logging

/// Options shared by `serve` and `migrate`: where the database is and how to reach it.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("database-url"),
            help: "An external PostgreSQL server (env DATABASE_URL or HEARTH_DATABASE_URL). Without it Hearth runs its own cluster.")
    var databaseURL: String?

    @Option(name: .customLong("data-dir"), help: "The embedded cluster's data directory (env HEARTH_DATA_DIR; default ./.hearth/postgres).")
    var dataDirectory: String?

    @Option(name: .customLong("embedded-port"), help: "Also let the embedded cluster listen on 127.0.0.1:<port> (env HEARTH_EMBEDDED_PORT; default: unix socket only).")
    var embeddedPort: Int?

    @Option(name: .customLong("pg-bindir"), help: "Directory with initdb and postgres (env HEARTH_PG_BINDIR; default: searched).")
    var pgBinDirectory: String?

    @Option(name: .customLong("embedded-restart-delay"),
            help: "Seconds before an embedded cluster that ended on its own is started again, doubling per failed attempt up to 30 (env HEARTH_EMBEDDED_RESTART_DELAY; default 1).")
    var embeddedRestartDelay: Int?

    @Option(name: .customLong("db-pool-size"), help: "Maximum database connections (env HEARTH_DB_POOL_SIZE; default: twice the cores, at least 4, for the embedded cluster; 10 for an external server).")
    var poolSize: Int?

    @Option(name: .customLong("migrations-dir"), help: "Directory of NNNN_name.sql migrations (env HEARTH_MIGRATIONS_DIR; default: found beside the program).")
    var migrationsDirectory: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (env HEARTH_LOG_LEVEL; default info).")
    var logLevel: String?

    /// The option values with the environment and defaults applied.
    struct Resolved {
        var databaseURL: String?
        /// `nil`: the embedded cluster's default, decided only when the cluster is used.
        var dataDirectory: String?
        var embeddedPort: Int?
        var pgBinDirectory: String?
        var embeddedRestartDelay: Duration
        /// `nil`: the default of the database in use (see ``DatabaseSetup``).
        var poolSize: Int?
        var migrationsDirectory: String
        var logLevel: Logger.Level
    }

    func resolve(_ env: EnvironmentValue = .init()) throws -> Resolved {
        let levelText = env.string(logLevel, "HEARTH_LOG_LEVEL") ?? "info"
        guard let level = Logger.Level(rawValue: levelText.lowercased()) else {
            throw ValidationError("log level '\(levelText)' is not one of trace, debug, info, notice, warning, error, critical")
        }
        let migrations = env.string(migrationsDirectory, "HEARTH_MIGRATIONS_DIR") ?? ProjectFiles.locate("migrations")
        guard let migrations else {
            throw ValidationError("cannot find the migrations directory beside hearth; set --migrations-dir or HEARTH_MIGRATIONS_DIR")
        }
        return Resolved(
            databaseURL: env.string(databaseURL, "DATABASE_URL", "HEARTH_DATABASE_URL"),
            dataDirectory: env.string(dataDirectory, "HEARTH_DATA_DIR"),
            embeddedPort: try env.port(embeddedPort, "HEARTH_EMBEDDED_PORT", allowZero: false),
            pgBinDirectory: env.string(pgBinDirectory, "HEARTH_PG_BINDIR"),
            embeddedRestartDelay: .seconds(try env.integer(embeddedRestartDelay, "HEARTH_EMBEDDED_RESTART_DELAY", range: 0...300) ?? 1),
            poolSize: try env.integer(poolSize, "HEARTH_DB_POOL_SIZE", range: 1...1000),
            migrationsDirectory: migrations,
            logLevel: level)
    }
}

/// Finds files that ship with Hearth (migrations, the schema) next to the program:
/// the working directory, the folders above the executable (a `swift build` tree), or
/// `/usr/share/hearth` (the container image).
enum ProjectFiles {
    /// The first `name` found: a directory, or a regular file when `directory` is false.
    static func locate(_ name: String, directory wantsDirectory: Bool = true) -> String? {
        let fm = FileManager.default
        var candidates = [fm.currentDirectoryPath + "/" + name]
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(directory.appendingPathComponent(name).path)
            directory.deleteLastPathComponent()
        }
        candidates.append("/usr/share/hearth/" + name)
        return candidates.first { path in
            var isDirectory: ObjCBool = false
            return fm.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue == wantsDirectory
        }
    }
}
