import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The installation's key files (`secret.key`, `backup.key`): one line of text, made once and
/// readable by their owner only (mode 0600 from the moment they exist). A key file is never
/// replaced: it is made only where none exists (`O_CREAT|O_EXCL`), and a file that exists but
/// cannot be read stops Hearth, naming it, instead of being taken for missing (a new key would
/// lock out everything the old one sealed).
enum KeyFile {
    /// The file's text; nil only when no file is there. Any other failure (permissions, I/O, not
    /// text) is a `ValidationError` naming the file and why.
    static func read(_ path: String) throws -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            throw ValidationError("The key file \(path) exists but cannot be read: \(String(cString: strerror(code))). Fix its owner or permissions; Hearth never makes a new key over an old one.")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            guard count > 0 else {
                let code = errno
                if code == EINTR { continue }
                throw ValidationError("The key file \(path) cannot be read: \(String(cString: strerror(code))).")
            }
            bytes += buffer.prefix(count)
            guard bytes.count <= 64 << 10 else { throw ValidationError("The key file \(path) is not a key file: it is larger than 64 KiB.") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ValidationError("The key file \(path) is not a key file: it is not text.") }
        return text
    }

    /// `directory/name`.
    static func path(_ name: String, in directory: String) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent(name).path
    }

    /// The file's text, or — only when no file is there — `make()`'s, written as a new key file.
    /// When another process makes it meanwhile, its key is the one read.
    static func readOrCreate(_ path: String, else failure: String, _ make: () throws -> String) throws -> String {
        if let text = try read(path) { return text }
        let text = try make()
        if try create(path, holding: text, else: failure) { return text }
        guard let theirs = try read(path) else { throw ValidationError(failure) }
        return theirs
    }

    /// Writes a new key file holding `text` (mode 0600 at creation, flushed to disk); false when a
    /// file is there already (it is left as it is). `failure` says what to do when it cannot be written.
    @discardableResult
    static func create(_ path: String, holding text: String, else failure: String) throws -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST { return false }
            throw ValidationError("\(failure) (\(String(cString: strerror(code))))")
        }
        let bytes = Array((text + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                if count < 0, errno == EINTR { continue }
                let why = String(cString: strerror(errno))
                close(descriptor)
                unlink(path)
                throw ValidationError("\(failure) (\(why))")
            }
            written += count
        }
        fsync(descriptor)
        close(descriptor)
        return true
    }
}
