import Foundation

/// How Hearth runs its own PostgreSQL cluster when no `DATABASE_URL` is given.
public struct EmbeddedPostgresConfiguration: Sendable {
    /// The cluster's data directory; relative paths are taken from the working directory.
    public var dataDirectory: String
    /// A TCP port on 127.0.0.1 to listen on as well; `nil` means unix socket only.
    public var tcpPort: Int?
    /// Where to look for `initdb` and `postgres`.
    public var binarySearch: PostgresBinarySearch
    /// The system user the cluster runs as when Hearth runs as root (PostgreSQL refuses root).
    public var clusterUser: String
    /// The superuser role `initdb` creates and Hearth connects as.
    public var superuser: String
    /// The database Hearth uses inside the cluster; created on first start.
    public var database: String
    /// Extra server settings passed as `-c name=value` (tests turn fsync off).
    public var settings: [String: String]
    /// How long to wait for the server to accept connections.
    public var startTimeout: Duration
    /// How long a clean (fast) shutdown may take before the server is killed.
    public var stopTimeout: Duration

    public init(
        dataDirectory: String = EmbeddedPostgresConfiguration.localDataDirectory,
        tcpPort: Int? = nil,
        binarySearch: PostgresBinarySearch = .init(),
        clusterUser: String = "postgres",
        superuser: String = "hearth",
        database: String = "hearth",
        settings: [String: String] = [:],
        startTimeout: Duration = .seconds(60),
        stopTimeout: Duration = .seconds(20)
    ) {
        self.dataDirectory = dataDirectory
        self.tcpPort = tcpPort
        self.binarySearch = binarySearch
        self.clusterUser = clusterUser
        self.superuser = superuser
        self.database = database
        self.settings = settings
        self.startTimeout = startTimeout
        self.stopTimeout = stopTimeout
    }

    /// `./.hearth/postgres`: the cluster lives beside the folder Hearth is started from.
    public static let localDataDirectory = "./.hearth/postgres"

    /// The data directory used when none is given: `./.hearth/postgres`; but when Hearth runs
    /// as root from a folder the cluster's user cannot enter (such as `/root`), the cluster
    /// could not start there, so `/var/lib/hearth/postgres` is used instead.
    public static func defaultDataDirectory(clusterUser: String = "postgres") -> String {
        let local = localDataDirectory
        let absolute = EmbeddedPostgresConfiguration(dataDirectory: local).absoluteDataDirectory
        guard let owner = try? ClusterOwner.forCurrentProcess(clusterUser: clusterUser) else { return local }
        do {
            try owner.checkCanReach(absolute)
            return local
        } catch {
            return "/var/lib/hearth/postgres"
        }
    }

    /// The data directory as an absolute, standardized path.
    public var absoluteDataDirectory: String {
        let url = URL(fileURLWithPath: dataDirectory, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return url.standardizedFileURL.path
    }
}

/// Where a running embedded cluster can be reached.
public struct EmbeddedPostgresEndpoint: Sendable, Equatable {
    /// The directory holding the server's unix socket.
    public var socketDirectory: String
    /// The port number (part of the socket's file name; also the TCP port when enabled).
    public var port: Int
    /// The role to connect as (trusted over the socket).
    public var username: String
    /// Hearth's database in the cluster.
    public var database: String

    /// The full path of the unix socket file.
    public var socketPath: String { "\(socketDirectory)/.s.PGSQL.\(port)" }

    /// A `DATABASE_URL`-style address other tools (psql, a second hearth) can use.
    public var url: String {
        let host = socketDirectory.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socketDirectory
        return "postgres://\(username)@/\(database)?host=\(host)&port=\(port)"
    }
}
