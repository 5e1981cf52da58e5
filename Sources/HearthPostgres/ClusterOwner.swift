import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The system user an embedded cluster runs as when hearth itself runs as root.
struct ClusterOwner: Sendable {
    var name: String
    var uid: uid_t
    var gid: gid_t
    /// The `setpriv` program used to drop privileges for initdb and postgres.
    var setpriv: String

    /// `nil` when hearth is not root (the cluster then runs as hearth's own user).
    static func forCurrentProcess(clusterUser: String) throws -> ClusterOwner? {
        guard geteuid() == 0 else { return nil }
        guard let entry = getpwnam(clusterUser) else {
            throw EmbeddedPostgresError.clusterUserMissing(user: clusterUser)
        }
        let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
        return ClusterOwner(
            name: clusterUser, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid,
            setpriv: setpriv ?? "/usr/bin/setpriv")
    }

    /// Throws when a folder on the way to `path` cannot be entered by this user.
    func checkCanReach(_ path: String) throws {
        var ancestors: [String] = []
        var current = (path as NSString).deletingLastPathComponent
        while !current.isEmpty {
            ancestors.append(current)
            if current == "/" { break }
            current = (current as NSString).deletingLastPathComponent
        }
        for folder in ancestors.reversed() {
            var info = stat()
            guard stat(folder, &info) == 0 else { continue }
            let mode = info.st_mode
            let searchable =
                (info.st_uid == uid && mode & S_IXUSR != 0)
                || (info.st_gid == gid && mode & S_IXGRP != 0)
                || mode & S_IXOTH != 0
            if !searchable {
                throw EmbeddedPostgresError.dataDirectoryUnreachable(path: path, blockedBy: folder, user: name)
            }
        }
    }
}
