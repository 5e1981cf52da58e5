import Foundation

/// The PostgreSQL server programs (`initdb`, `postgres`) the embedded cluster runs.
public struct PostgresBinaries: Sendable, Equatable {
    /// The directory holding both programs.
    public var directory: String
    /// The major version the programs report, such as 15.
    public var majorVersion: Int

    public var initdb: String { directory + "/initdb" }
    public var postgres: String { directory + "/postgres" }

    public init(directory: String, majorVersion: Int) {
        self.directory = directory
        self.majorVersion = majorVersion
    }
}

/// Where to look for the PostgreSQL server programs, in order; injectable so tests can empty it.
public struct PostgresBinarySearch: Sendable {
    /// A directory given by the operator (`--pg-bindir`); when set, the only place searched.
    public var explicitDirectory: String?
    /// The `PATH` to search, colon-separated.
    public var path: String
    /// The `pg_config` program to ask for `--bindir`.
    public var pgConfig: String
    /// The directory holding one folder per installed major version (Debian's layout).
    public var versionedRoot: String
    /// Prefer this major version when several are installed (the data directory's).
    public var preferredMajorVersion: Int?

    public init(
        explicitDirectory: String? = nil,
        path: String = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
        pgConfig: String = "pg_config",
        versionedRoot: String = "/usr/lib/postgresql",
        preferredMajorVersion: Int? = nil
    ) {
        self.explicitDirectory = explicitDirectory
        self.path = path
        self.pgConfig = pgConfig
        self.versionedRoot = versionedRoot
        self.preferredMajorVersion = preferredMajorVersion
    }
}

extension PostgresBinaries {
    /// Finds the server programs: the explicit directory, else `PATH`, `pg_config --bindir`,
    /// and the newest `<versionedRoot>/*/bin`; a preferred major version wins when present.
    public static func locate(_ search: PostgresBinarySearch = .init()) throws -> PostgresBinaries {
        if let explicit = search.explicitDirectory {
            guard let found = candidate(explicit) else {
                throw EmbeddedPostgresError.binariesNotFound(
                    searched: ["\(explicit) (from --pg-bindir / HEARTH_PG_BINDIR)"])
            }
            return found
        }
        var searched: [String] = []
        var candidates: [PostgresBinaries] = []
        // Without a preferred version the first found wins: the rest are not asked (each asks `postgres --version`).
        var done: Bool { search.preferredMajorVersion == nil && !candidates.isEmpty }
        func consider(_ directory: String) {
            guard !done, !candidates.contains(where: { $0.directory == directory }), let found = candidate(directory, versionedRoot: search.versionedRoot),
                  !candidates.contains(found) else { return }
            candidates.append(found)
        }
        for dir in search.path.split(separator: ":").map(String.init) where !dir.isEmpty && candidates.isEmpty {
            consider(dir)
        }
        searched.append("PATH")
        if !done, let bindir = runPgConfig(search.pgConfig, path: search.path) { consider(bindir) }
        searched.append("\(search.pgConfig) --bindir")
        let versions = done ? [] : ((try? FileManager.default.contentsOfDirectory(atPath: search.versionedRoot)) ?? [])
            .compactMap(Int.init)
            .sorted(by: >)
        for version in versions { consider("\(search.versionedRoot)/\(version)/bin") }
        searched.append("\(search.versionedRoot)/*/bin")
        if let preferred = search.preferredMajorVersion,
           let match = candidates.first(where: { $0.majorVersion == preferred }) {
            return match
        }
        guard let first = candidates.first else {
            throw EmbeddedPostgresError.binariesNotFound(searched: searched)
        }
        return first
    }

    /// The binaries in `directory` if both programs are there and report a version. In Debian's
    /// layout (`<versionedRoot>/<major>/bin`) the folder names the version, so no program is run.
    static func candidate(_ directory: String, versionedRoot: String? = nil) -> PostgresBinaries? {
        let fm = FileManager.default
        let resolved = URL(fileURLWithPath: directory + "/postgres").resolvingSymlinksInPath()
            .deletingLastPathComponent().path
        for dir in [resolved, directory] {
            guard fm.isExecutableFile(atPath: dir + "/postgres"), fm.isExecutableFile(atPath: dir + "/initdb") else {
                continue
            }
            if let root = versionedRoot, dir.hasPrefix(root + "/"), dir.hasSuffix("/bin"),
               let named = Int(dir.dropFirst(root.count + 1).dropLast(4)) {
                return PostgresBinaries(directory: dir, majorVersion: named)
            }
            guard let version = majorVersion(of: dir + "/postgres") else { continue }
            return PostgresBinaries(directory: dir, majorVersion: version)
        }
        return nil
    }

    /// Parses `postgres (PostgreSQL) 15.18 (Debian …)` into 15.
    static func majorVersion(of program: String) -> Int? {
        guard let output = try? runCapturing(program, ["--version"]) else { return nil }
        return parseMajorVersion(output)
    }

    static func parseMajorVersion(_ versionOutput: String) -> Int? {
        guard let range = versionOutput.range(of: "(PostgreSQL) ") else { return nil }
        let digits = versionOutput[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }

    private static func runPgConfig(_ pgConfig: String, path: String) -> String? {
        var program = pgConfig
        if !pgConfig.contains("/") {
            let dirs = path.split(separator: ":").map(String.init)
            guard let dir = dirs.first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(pgConfig)") }) else {
                return nil
            }
            program = "\(dir)/\(pgConfig)"
        }
        guard FileManager.default.isExecutableFile(atPath: program),
              let output = try? runCapturing(program, ["--bindir"]) else { return nil }
        let trimmed = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func runCapturing(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
