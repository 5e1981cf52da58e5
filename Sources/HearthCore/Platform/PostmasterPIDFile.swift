import Foundation

/// What Hearth reads from a cluster's `postmaster.pid`: the server's pid (line 1) and its
/// status (line 8: `starting`, `ready`, `stopping`, …).
public struct PostmasterPIDFile: Sendable, Equatable {
    public var pid: Int32
    public var status: String?

    /// The path of the file in `dataDirectory`.
    public static func path(in dataDirectory: String) -> String { dataDirectory + "/postmaster.pid" }

    /// `nil` when the file is absent or its first line is not a pid.
    public static func read(dataDirectory: String) -> PostmasterPIDFile? {
        guard let text = try? String(contentsOfFile: path(in: dataDirectory), encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let pid = lines.first.flatMap({ Int32($0.trimmingCharacters(in: .whitespaces)) }), pid > 0 else {
            return nil
        }
        let status = lines.count >= 8 ? lines[7].trimmingCharacters(in: .whitespaces) : nil
        return PostmasterPIDFile(pid: pid, status: status)
    }
}
