/// Why the embedded PostgreSQL cluster could not be prepared, started or stopped.
/// Each message says what went wrong and what the operator can do about it.
public enum EmbeddedPostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    case binariesNotFound(searched: [String])
    case dataDirectoryNotWritable(path: String, reason: String)
    case dataDirectoryUnreachable(path: String, blockedBy: String, user: String)
    case clusterUserMissing(user: String)
    case versionMismatch(path: String, dataVersion: Int, binaryVersion: Int, binaryDirectory: String)
    case notAClusterDirectory(path: String)
    case initdbFailed(path: String, output: String)
    case inUse(path: String, lockFile: String)
    case foreignProcessHoldsPidFile(path: String, pid: Int32)
    case socketDirectoryUnsafe(path: String, reason: String)
    case startFailed(path: String, output: String)
    case startTimedOut(path: String, seconds: Int, output: String)

    public var description: String {
        switch self {
        case .binariesNotFound(let searched):
            return """
                PostgreSQL server binaries (initdb, postgres) were not found (searched: \(searched.joined(separator: ", "))). \
                Install them with `apt-get install -y postgresql` (Debian/Ubuntu; `make run` does this for you), \
                point --pg-bindir / HEARTH_PG_BINDIR at their directory, \
                or use an existing server instead: DATABASE_URL=postgres://user:password@host:5432/hearth
                """
        case .dataDirectoryNotWritable(let path, let reason):
            return "the data directory \(path) cannot be created or written (\(reason)); choose another with --data-dir or HEARTH_DATA_DIR"
        case .dataDirectoryUnreachable(let path, let blocked, let user):
            return """
                the \(user) system user, which runs the embedded cluster, cannot reach \(path) \
                because \(blocked) is not searchable by it; choose a data directory outside it \
                (for example --data-dir /var/lib/hearth/postgres) or make the folder searchable (chmod o+x)
                """
        case .clusterUserMissing(let user):
            return """
                Hearth runs as root, and PostgreSQL refuses to run as root, so the embedded cluster runs as \
                the '\(user)' system user, which does not exist; install the postgresql package \
                (it creates the user) or run hearth as an ordinary user
                """
        case .versionMismatch(let path, let dataVersion, let binaryVersion, let directory):
            return """
                the cluster in \(path) was created by PostgreSQL \(dataVersion), but the server binaries in \(directory) \
                are PostgreSQL \(binaryVersion); install PostgreSQL \(dataVersion) (apt-get install -y postgresql-\(dataVersion)) \
                and point --pg-bindir at it, or upgrade the cluster with pg_upgrade (or dump it and restore into a new data directory)
                """
        case .notAClusterDirectory(let path):
            return "the data directory \(path) is not empty and holds no PostgreSQL cluster (no PG_VERSION); empty it or choose another with --data-dir"
        case .initdbFailed(let path, let output):
            return "initdb failed for \(path); nothing was left behind. Its output:\n\(output)"
        case .inUse(let path, let lockFile):
            return "the embedded cluster in \(path) is in use by another running hearth (it holds \(lockFile)); stop that one, or give this one another --data-dir"
        case .foreignProcessHoldsPidFile(let path, let pid):
            return "\(path)/postmaster.pid names process \(pid), a PostgreSQL server that Hearth cannot stop (no permission); stop it yourself, then start again"
        case .socketDirectoryUnsafe(let path, let reason):
            return "the socket directory \(path) cannot be used (\(reason)); remove it and start again"
        case .startFailed(let path, let output):
            return "PostgreSQL did not start for \(path). Its output:\n\(output)"
        case .startTimedOut(let path, let seconds, let output):
            return "PostgreSQL did not become ready within \(seconds) s for \(path). Its output:\n\(output)"
        }
    }
}
