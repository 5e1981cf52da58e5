import Foundation
import HearthPostgres
import Logging

/// A private folder (mode 0700) where a backup's dump — the whole database, unencrypted — lies
/// while it is checksummed and encrypted, and where a restore unpacks one: never where backups go.
/// Each use has a folder of its own under one root, locked (`flock`) while in use, so a folder left
/// by a run that was killed is told apart from one in use and removed at the next start.
public final class BackupWorkspace: Sendable {
    /// The folder: the dump goes in it.
    public let path: String
    private let lock: FileLock

    private init(path: String, lock: FileLock) {
        self.path = path
        self.lock = lock
    }

    /// The root for an installation: beside the embedded data directory (the same volume as the
    /// database), else under the system's temporary directory, per user.
    public static func root(embeddedDataDirectory: String?) -> String {
        if let directory = embeddedDataDirectory {
            let parent = (URL(fileURLWithPath: directory).standardizedFileURL.path as NSString).deletingLastPathComponent
            return (parent as NSString).appendingPathComponent("hearth-backup-work")
        }
        return (NSTemporaryDirectory() as NSString).appendingPathComponent("hearth-backup-work-\(getuid())")
    }

    /// A new folder of its own under `root` (made, mode 0700, when missing), locked until ``remove()``.
    public static func make(in root: String) throws -> BackupWorkspace {
        try makePrivateDirectory(root)
        let path = (root as NSString).appendingPathComponent("run-" + UUID().uuidString.lowercased())
        try makePrivateDirectory(path)
        do {
            guard let lock = try FileLock.tryAcquire(path: path + "/lock") else { throw BackupError.io("cannot lock \(path): another run holds it") }
            return BackupWorkspace(path: path, lock: lock)
        } catch let error as FileLockError {
            try? FileManager.default.removeItem(atPath: path)
            throw BackupError.io(error.description)
        }
    }

    /// Removes the folder and what is in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
        lock.release()
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Removes the folders under `root` that no running process holds (left by a run that was
    /// killed); returns their paths.
    @discardableResult
    public static func removeLeftovers(in root: String, logger: Logger) -> [String] {
        removeEntries(of: root, where: { $0.hasPrefix("run-") }, logger: logger,
                      removed: "removed a backup's leftover dump (a run was stopped before it finished)") { path in
            // Whoever holds the lock is still using it (the kernel lets go of a lock when its process dies, even by SIGKILL).
            guard let lock = try? FileLock.tryAcquire(path: path + "/lock") else { return false }
            defer { lock.release() }
            do {
                try FileManager.default.removeItem(atPath: path)
                return true
            } catch {
                logger.warning("a backup's leftover dump could not be removed", metadata: ["folder": "\(path)", "error": "\(error)"])
                return false
            }
        }
    }

    /// Dumps beside backups in `directory` left by Hearth before dumps moved into a workspace
    /// (`<backup>.dump`, unencrypted): removed; returns their paths.
    @discardableResult
    public static func removeOldDumps(besideBackupsIn directory: String, logger: Logger) -> [String] {
        removeEntries(of: directory, where: { $0.hasSuffix(".backup.dump") }, logger: logger,
                      removed: "removed an unencrypted dump an earlier Hearth left beside its backups") { path in
            (try? FileManager.default.removeItem(atPath: path)) != nil
        }
    }

    /// Runs `remove` on each entry of `directory` whose name `matches`, in name order; returns (and
    /// logs) the paths it removed.
    private static func removeEntries(of directory: String, where matches: (String) -> Bool, logger: Logger, removed message: Logger.Message,
                                      _ remove: (String) -> Bool) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var removed: [String] = []
        for name in names.sorted() where matches(name) {
            let path = (directory as NSString).appendingPathComponent(name)
            guard remove(path) else { continue }
            removed.append(path)
            logger.notice(message, metadata: ["path": "\(path)"])
        }
        return removed
    }

    private static func makePrivateDirectory(_ path: String) throws {
        if mkdir(path, 0o700) != 0 {
            let code = errno
            var isDirectory: ObjCBool = false
            guard code == EEXIST, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw BackupError.io("cannot make the private folder \(path): \(String(cString: strerror(code)))")
            }
        }
        // Whatever the umask, and for a root made by an earlier run: only its owner may enter.
        guard chmod(path, 0o700) == 0 else { throw BackupError.io("cannot make \(path) private: \(String(cString: strerror(errno)))") }
    }
}
