import Crypto
import Foundation
import Logging
import PostgresNIO
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL cluster that Hearth creates, starts and stops itself, so that one command
/// runs Hearth on a machine with nothing but the PostgreSQL server package installed.
///
/// The cluster listens on a unix socket in a directory only its user can enter (no TCP unless
/// asked), runs `postgres` in the foreground as a child process, and is guarded by a lock file
/// beside the data directory: a server left behind by a killed hearth is found and stopped on
/// the next start.
public actor EmbeddedPostgres {
    public nonisolated let configuration: EmbeddedPostgresConfiguration
    private let logger: Logger
    private var child: ChildProcess?
    private var lock: FileLock?
    private var endpoint: EmbeddedPostgresEndpoint?

    public init(configuration: EmbeddedPostgresConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// The path of the lock file held while a hearth process owns the cluster.
    public nonisolated var lockFilePath: String { configuration.absoluteDataDirectory + ".lock" }

    /// The process id of the running server, if any.
    public var serverPID: Int32? {
        guard let child, !child.hasExited else { return nil }
        return child.pid
    }

    /// Prepares the cluster on first use (initdb), starts it and waits until it accepts connections.
    /// With `sharing`, a cluster another hearth runs on this data directory (`hearth serve`) is
    /// used as it is, through its socket, instead of being refused as in use; ``stop()`` then
    /// leaves it running. An operator's command works while the server runs.
    public func start(sharing: Bool = false) async throws -> EmbeddedPostgresEndpoint {
        if let endpoint, let child, !child.hasExited { return endpoint }
        let dataDirectory = configuration.absoluteDataDirectory
        let owner = try ClusterOwner.forCurrentProcess(clusterUser: configuration.clusterUser)
        try createParentDirectory(of: dataDirectory)
        let lock: FileLock
        do {
            guard let acquired = try FileLock.tryAcquire(path: lockFilePath) else {
                if sharing, let running = runningElsewhere(dataDirectory) {
                    logger.info("using the embedded PostgreSQL another hearth runs", metadata: ["data_dir": "\(dataDirectory)", "socket": "\(running.socketPath)"])
                    return running
                }
                throw EmbeddedPostgresError.inUse(path: dataDirectory, lockFile: lockFilePath)
            }
            lock = acquired
        } catch let error as FileLockError {
            throw EmbeddedPostgresError.dataDirectoryNotWritable(path: dataDirectory, reason: error.description)
        }
        do {
            if let owner { try owner.checkCanReach(dataDirectory) }
            let existingVersion = try clusterVersion(in: dataDirectory)
            var search = configuration.binarySearch
            search.preferredMajorVersion = existingVersion
            let binaries = try PostgresBinaries.locate(search)
            if let existingVersion, existingVersion != binaries.majorVersion {
                throw EmbeddedPostgresError.versionMismatch(
                    path: dataDirectory, dataVersion: existingVersion,
                    binaryVersion: binaries.majorVersion, binaryDirectory: binaries.directory)
            }
            if existingVersion == nil {
                try await initialize(dataDirectory, binaries: binaries, owner: owner)
            }
            let port = configuration.tcpPort ?? 5432
            let socketDirectory = try prepareSocketDirectory(for: dataDirectory, port: port, owner: owner)
            let child = try await launchRecovering(
                binaries: binaries, dataDirectory: dataDirectory, socketDirectory: socketDirectory, port: port, owner: owner)
            let endpoint = EmbeddedPostgresEndpoint(
                socketDirectory: socketDirectory, port: port,
                username: configuration.superuser, database: configuration.database)
            try await ensureDatabase(endpoint)
            self.endpoint = endpoint
            self.lock = lock
            logger.info("embedded PostgreSQL \(binaries.majorVersion) ready", metadata: [
                "data_dir": "\(dataDirectory)", "socket": "\(endpoint.socketPath)", "pid": "\(child.pid)",
            ])
            return endpoint
        } catch {
            if let child = self.child {
                child.send(SIGQUIT)
                _ = await child.waitForExit()
                self.child = nil
            }
            lock.release()
            throw error
        }
    }

    /// The cluster the hearth holding the lock runs, when its server is up and ready: its socket
    /// and port from `postmaster.pid`.
    private func runningElsewhere(_ dataDirectory: String) -> EmbeddedPostgresEndpoint? {
        guard let file = PostmasterPIDFile.read(dataDirectory: dataDirectory), file.status == "ready", kill(file.pid, 0) == 0 || errno == EPERM,
              let port = file.port, let socketDirectory = file.socketDirectory else { return nil }
        return EmbeddedPostgresEndpoint(socketDirectory: socketDirectory, port: port, username: configuration.superuser, database: configuration.database)
    }

    /// Stops the server with a fast shutdown (SIGINT), escalating to SIGQUIT and SIGKILL when
    /// it does not end in time, then releases the lock. Safe to call more than once.
    public func stop() async {
        defer {
            lock?.release()
            lock = nil
            endpoint = nil
        }
        guard let child else { return }
        self.child = nil
        guard !child.hasExited else { return }
        logger.info("stopping embedded PostgreSQL", metadata: ["pid": "\(child.pid)"])
        child.send(SIGINT)
        if await Self.waitForExit(of: child, within: configuration.stopTimeout) { return }
        logger.warning("embedded PostgreSQL did not stop in time; sending SIGQUIT")
        child.send(SIGQUIT)
        if await Self.waitForExit(of: child, within: .seconds(5)) { return }
        child.send(SIGKILL)
        _ = await child.waitForExit()
    }

    /// Waits until the server exits on its own (a crash, or someone else stopping it).
    /// Returns `nil` when no server was started.
    public func waitForUnexpectedExit() async -> Int32? {
        guard let child else { return nil }
        return await child.waitForExit()
    }

    // MARK: - Steps

    private func createParentDirectory(of dataDirectory: String) throws {
        let parent = (dataDirectory as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw EmbeddedPostgresError.dataDirectoryNotWritable(path: dataDirectory, reason: "cannot create \(parent)")
        }
        guard access(parent, W_OK | X_OK) == 0 else {
            throw EmbeddedPostgresError.dataDirectoryNotWritable(
                path: dataDirectory, reason: "\(parent): \(String(cString: strerror(errno)))")
        }
    }

    /// The major version of the cluster in `dataDirectory`, `nil` when it is absent or empty.
    private func clusterVersion(in dataDirectory: String) throws -> Int? {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: dataDirectory, isDirectory: &isDirectory) else { return nil }
        guard isDirectory.boolValue else { throw EmbeddedPostgresError.notAClusterDirectory(path: dataDirectory) }
        if let text = try? String(contentsOfFile: dataDirectory + "/PG_VERSION", encoding: .utf8),
           let version = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            return version
        }
        let entries: [String]
        do {
            entries = try fm.contentsOfDirectory(atPath: dataDirectory)
        } catch {
            throw EmbeddedPostgresError.dataDirectoryNotWritable(path: dataDirectory, reason: "cannot read it")
        }
        guard entries.isEmpty else { throw EmbeddedPostgresError.notAClusterDirectory(path: dataDirectory) }
        return nil
    }

    /// Runs `initdb`; on failure removes everything it created, so the next start begins afresh.
    private func initialize(_ dataDirectory: String, binaries: PostgresBinaries, owner: ClusterOwner?) async throws {
        let fm = FileManager.default
        let existed = fm.fileExists(atPath: dataDirectory)
        let parent = (dataDirectory as NSString).deletingLastPathComponent
        let passwordFile = parent + "/.hearth-initdb-\(getpid())"
        let password = Self.randomToken()
        func cleanUp() {
            try? fm.removeItem(atPath: passwordFile)
            if existed {
                for entry in (try? fm.contentsOfDirectory(atPath: dataDirectory)) ?? [] {
                    try? fm.removeItem(atPath: dataDirectory + "/" + entry)
                }
            } else {
                try? fm.removeItem(atPath: dataDirectory)
            }
        }
        logger.info("creating PostgreSQL cluster (initdb)", metadata: ["data_dir": "\(dataDirectory)"])
        do {
            if !existed {
                guard mkdir(dataDirectory, 0o700) == 0 else {
                    throw EmbeddedPostgresError.dataDirectoryNotWritable(
                        path: dataDirectory, reason: String(cString: strerror(errno)))
                }
            }
            guard fm.createFile(atPath: passwordFile, contents: Data((password + "\n").utf8),
                                attributes: [.posixPermissions: 0o600]) else {
                throw EmbeddedPostgresError.dataDirectoryNotWritable(path: dataDirectory, reason: "cannot write \(passwordFile)")
            }
            if let owner {
                chown(dataDirectory, owner.uid, owner.gid)
                chown(passwordFile, owner.uid, owner.gid)
            }
            chmod(dataDirectory, 0o700)
            let arguments = [
                "-D", dataDirectory, "--encoding=UTF8", "--locale=C", "--username=\(configuration.superuser)",
                "--auth-local=trust", "--auth-host=scram-sha-256", "--pwfile=\(passwordFile)",
            ]
            let (program, fullArguments) = Self.command(binaries.initdb, arguments, as: owner)
            let initdb = try ChildProcess(
                executable: program, arguments: fullArguments, environment: Self.childEnvironment(),
                currentDirectory: "/", logger: logger)
            let status = await initdb.waitForExit()
            guard status == 0 else {
                throw EmbeddedPostgresError.initdbFailed(path: dataDirectory, output: initdb.lastOutput)
            }
            try? fm.removeItem(atPath: passwordFile)
            let saved = dataDirectory + "/hearth.password"
            guard fm.createFile(atPath: saved, contents: Data((password + "\n").utf8),
                                attributes: [.posixPermissions: 0o600]) else {
                throw EmbeddedPostgresError.dataDirectoryNotWritable(path: dataDirectory, reason: "cannot write \(saved)")
            }
            if let owner { chown(saved, owner.uid, owner.gid) }
        } catch {
            cleanUp()
            throw error
        }
    }

    /// The data directory when the socket path fits the kernel's limit (107 bytes), else a short
    /// private directory under /tmp named after the data directory.
    private func prepareSocketDirectory(for dataDirectory: String, port: Int, owner: ClusterOwner?) throws -> String {
        if "\(dataDirectory)/.s.PGSQL.\(port)".utf8.count <= 107 { return dataDirectory }
        let digest = SHA256.hash(data: Data(dataDirectory.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
        let directory = "/tmp/hearth-\(digest)"
        let expectedUID = owner?.uid ?? geteuid()
        if mkdir(directory, 0o700) == 0 {
            if let owner { chown(directory, owner.uid, owner.gid) }
            return directory
        }
        guard errno == EEXIST else {
            throw EmbeddedPostgresError.socketDirectoryUnsafe(path: directory, reason: String(cString: strerror(errno)))
        }
        var info = stat()
        guard lstat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw EmbeddedPostgresError.socketDirectoryUnsafe(path: directory, reason: "it is not a directory")
        }
        guard info.st_uid == expectedUID, info.st_mode & 0o077 == 0 else {
            throw EmbeddedPostgresError.socketDirectoryUnsafe(
                path: directory, reason: "it must belong to uid \(expectedUID) with mode 0700")
        }
        return directory
    }

    /// Clears what an earlier run left (see ``recoverPidFile(in:)`` and ``removeStaleSocketLock``),
    /// launches the server and waits until it is ready. A server that was just killed can still
    /// hold its lock files or shared memory for a moment (a zombie waiting to be reaped, backends
    /// still exiting): a start that fails for that reason is retried for up to ~15 seconds.
    private func launchRecovering(
        binaries: PostgresBinaries, dataDirectory: String, socketDirectory: String, port: Int, owner: ClusterOwner?
    ) async throws -> ChildProcess {
        let deadline = ContinuousClock.now + .seconds(15)
        var attempt = 0
        while true {
            attempt += 1
            try await recoverPidFile(in: dataDirectory)
            removeStaleSocketLock(socketDirectory: socketDirectory, port: port, dataDirectory: dataDirectory)
            let child = try launch(binaries: binaries, dataDirectory: dataDirectory,
                                   socketDirectory: socketDirectory, port: port, owner: owner)
            self.child = child
            do {
                try await waitUntilReady(child, dataDirectory: dataDirectory)
                return child
            } catch EmbeddedPostgresError.startFailed(let path, let output)
                where Self.isLeftoverOfAKilledServer(output) && ContinuousClock.now < deadline
            {
                self.child = nil
                logger.warning("PostgreSQL did not start: what a killed server left is still in the way; retrying",
                               metadata: ["attempt": "\(attempt)", "data_dir": "\(path)"])
                try await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    /// What PostgreSQL says when a killed predecessor's lock files or shared memory are still there.
    static func isLeftoverOfAKilledServer(_ output: String) -> Bool {
        ["lock file", "shared memory block is still in use", "Is another postmaster", "could not bind"].contains { output.contains($0) }
    }

    /// Removes the socket's lock file (and the socket) when the process it names is not a live
    /// PostgreSQL of this cluster: PostgreSQL itself refuses to start while a zombie of the killed
    /// server still holds the pid the lock names.
    private func removeStaleSocketLock(socketDirectory: String, port: Int, dataDirectory: String) {
        let lockFile = "\(socketDirectory)/.s.PGSQL.\(port).lock"
        guard let text = try? String(contentsOfFile: lockFile, encoding: .utf8) else { return }
        let pid = text.split(separator: "\n").first.flatMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
        if let pid, pid > 0, Self.isPostgres(pid: pid, dataDirectory: dataDirectory) { return }
        logger.warning("removing the stale socket lock of a PostgreSQL that is gone", metadata: ["lock": "\(lockFile)", "pid": "\(pid.map(String.init) ?? "-")"])
        try? FileManager.default.removeItem(atPath: lockFile)
        try? FileManager.default.removeItem(atPath: "\(socketDirectory)/.s.PGSQL.\(port)")
    }

    /// Handles a `postmaster.pid` left by an earlier run. Holding the lock proves no live hearth
    /// owns the cluster, so a server still running there is an orphan and is stopped; a file
    /// naming a dead process, or a process that is not a postgres, is removed.
    private func recoverPidFile(in dataDirectory: String) async throws {
        let pidFile = PostmasterPIDFile.path(in: dataDirectory)
        guard FileManager.default.fileExists(atPath: pidFile) else { return }
        guard let pid = PostmasterPIDFile.read(dataDirectory: dataDirectory)?.pid else {
            logger.warning("removing unreadable postmaster.pid", metadata: ["data_dir": "\(dataDirectory)"])
            try? FileManager.default.removeItem(atPath: pidFile)
            return
        }
        guard Self.isPostgres(pid: pid, dataDirectory: dataDirectory) else {
            logger.warning("removing stale postmaster.pid of a process that is gone", metadata: ["pid": "\(pid)"])
            try? FileManager.default.removeItem(atPath: pidFile)
            return
        }
        logger.warning("stopping a PostgreSQL server left running by an earlier hearth", metadata: ["pid": "\(pid)"])
        guard kill(pid, SIGINT) == 0 else {
            throw EmbeddedPostgresError.foreignProcessHoldsPidFile(path: dataDirectory, pid: pid)
        }
        let deadline = ContinuousClock.now + configuration.stopTimeout
        var escalated = false
        while kill(pid, 0) == 0 || FileManager.default.fileExists(atPath: pidFile) {
            if ContinuousClock.now > deadline {
                if escalated { break }
                kill(pid, SIGKILL)
                escalated = true
            }
            try await Task.sleep(for: .milliseconds(50))
            if kill(pid, 0) != 0 {
                // Gone; a SIGKILLed server leaves its pid file behind.
                if escalated { try? FileManager.default.removeItem(atPath: pidFile) }
                if !FileManager.default.fileExists(atPath: pidFile) { break }
            }
        }
    }

    private func launch(
        binaries: PostgresBinaries, dataDirectory: String, socketDirectory: String, port: Int, owner: ClusterOwner?
    ) throws -> ChildProcess {
        var arguments = [
            "-D", dataDirectory, "-k", socketDirectory, "-p", "\(port)",
            "-c", "listen_addresses=\(configuration.tcpPort == nil ? "" : "127.0.0.1")",
            "-c", "unix_socket_permissions=0700",
        ]
        for (name, value) in configuration.settings.sorted(by: { $0.key < $1.key }) {
            arguments += ["-c", "\(name)=\(value)"]
        }
        let (program, fullArguments) = Self.command(binaries.postgres, arguments, as: owner)
        return try ChildProcess(
            executable: program, arguments: fullArguments, environment: Self.childEnvironment(),
            currentDirectory: dataDirectory, logger: logger)
    }

    /// Polls `postmaster.pid` until its status line (line 8) says `ready`.
    private func waitUntilReady(_ child: ChildProcess, dataDirectory: String) async throws {
        let deadline = ContinuousClock.now + configuration.startTimeout
        while true {
            if child.hasExited {
                throw EmbeddedPostgresError.startFailed(path: dataDirectory, output: child.lastOutput)
            }
            if let file = PostmasterPIDFile.read(dataDirectory: dataDirectory),
               file.pid == child.pid, file.status == "ready" {
                return
            }
            if ContinuousClock.now > deadline {
                throw EmbeddedPostgresError.startTimedOut(
                    path: dataDirectory, seconds: Int(configuration.startTimeout.components.seconds),
                    output: child.lastOutput)
            }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// Creates Hearth's database on first start.
    private func ensureDatabase(_ endpoint: EmbeddedPostgresEndpoint) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: .init(unixSocketPath: endpoint.socketPath, username: endpoint.username,
                                 password: nil, database: "postgres"),
            id: 0, logger: logger)
        do {
            let rows = try await connection.query(
                "SELECT 1 FROM pg_database WHERE datname = \(endpoint.database)", logger: logger)
            var exists = false
            for try await _ in rows { exists = true }
            if !exists {
                let quoted = "\"" + endpoint.database.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(quoted)"), logger: logger)
                logger.info("created database", metadata: ["database": "\(endpoint.database)"])
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    // MARK: - Helpers

    private static func waitForExit(of child: ChildProcess, within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while !child.hasExited {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(25))
        }
        return true
    }

    /// The command line that runs `program` as `owner` (through setpriv) or as ourselves.
    private static func command(_ program: String, _ arguments: [String], as owner: ClusterOwner?) -> (String, [String]) {
        guard let owner else { return (program, arguments) }
        return (owner.setpriv, ["--reuid=\(owner.uid)", "--regid=\(owner.gid)", "--clear-groups", "--", program] + arguments)
    }

    private static func childEnvironment() -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var environment = ["LC_ALL": "C", "LANG": "C", "PATH": inherited["PATH"] ?? "/usr/bin:/bin"]
        if let tz = inherited["TZ"] { environment["TZ"] = tz }
        return environment
    }

    /// Whether `pid` is a running PostgreSQL of the cluster in `dataDirectory`, by its command line
    /// (a zombie, an exited process or another program that now has the pid is not).
    public static func isPostgres(pid: Int32, dataDirectory: String) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return false }
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"), stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
        {
            return false
        }
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let first = arguments.first, first.hasSuffix("postgres") else { return false }
        return arguments.contains(dataDirectory)
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<24).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
