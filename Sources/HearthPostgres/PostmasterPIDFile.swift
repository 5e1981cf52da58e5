import Foundation

/// What Hearth reads from a cluster's `postmaster.pid`: the server's pid (line 1), its port
/// (line 4), the directory of its unix socket (line 5) and its status (line 8: `starting`,
/// `ready`, `stopping`, …).
public struct PostmasterPIDFile: Sendable, Equatable {
    public var pid: Int32
    public var status: String?
    public var port: Int? = nil
    public var socketDirectory: String? = nil

    /// The path of the file in `dataDirectory`.
    public static func path(in dataDirectory: String) -> String { dataDirectory + "/postmaster.pid" }

    /// `nil` when the file is absent or its first line is not a pid.
    public static func read(dataDirectory: String) -> PostmasterPIDFile? {
        guard let text = try? String(contentsOfFile: path(in: dataDirectory), encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let pid = lines.first.flatMap({ Int32($0.trimmingCharacters(in: .whitespaces)) }), pid > 0 else {
            return nil
        }
        func line(_ number: Int) -> String? {
            lines.count >= number ? lines[number - 1].trimmingCharacters(in: .whitespaces) : nil
        }
        let socket = line(5).flatMap { $0.isEmpty ? nil : $0 }
        return PostmasterPIDFile(pid: pid, status: line(8), port: line(4).flatMap { Int($0) }, socketDirectory: socket)
    }
}
