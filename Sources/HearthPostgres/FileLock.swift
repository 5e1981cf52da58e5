#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// An exclusive advisory lock (`flock`) on a file, held until released or the process dies.
/// The kernel drops it when the process ends, even by SIGKILL, which is what makes it a
/// reliable "is the owner still alive?" test.
public final class FileLock: Sendable {
    public let path: String
    private let descriptor: Mutex<Int32>

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = Mutex(descriptor)
    }

    /// Takes the lock without waiting; `nil` when another process holds it.
    public static func tryAcquire(path: String) throws(FileLockError) -> FileLock? {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileLockError(path: path, errno: errno) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw FileLockError(path: path, errno: code)
        }
        return FileLock(path: path, descriptor: fd)
    }

    /// Releases the lock; later calls do nothing.
    public func release() {
        descriptor.withLock { fd in
            if fd >= 0 {
                close(fd)
                fd = -1
            }
        }
    }

    deinit { release() }
}

/// The lock file could not be opened or locked.
public struct FileLockError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let errno: Int32
    public var description: String { "cannot lock \(path): \(String(cString: strerror(errno)))" }
}
