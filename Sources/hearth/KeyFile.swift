import ArgumentParser
import Foundation

/// The installation's key files (`secret.key`, `backup.key`): one line of text, made once and
/// readable by their owner only (mode 0600).
enum KeyFile {
    /// The file's text; nil when it cannot be read (absent, or not this user's to read).
    static func read(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }

    /// `directory/name`.
    static func path(_ name: String, in directory: String) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent(name).path
    }

    /// Writes a new key file holding `text`; `failure` says what to do when it cannot be written.
    static func create(_ path: String, holding text: String, else failure: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data((text + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ValidationError(failure)
        }
    }
}
