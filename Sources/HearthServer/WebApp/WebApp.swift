import Crypto
import Foundation

/// The household app's files (`web/`), read once at start-up and served from memory: nothing a
/// request names is looked up on disk. Every asset is served under `/assets/<build>/…`, where the
/// build id is a hash of every file, so browsers may keep them for a year; `index.html` and `sw.js`
/// name the build (`%BUILD%`) and are never cached.
public struct WebApp: Sendable {
    /// One file: its bytes and the `Content-Type` it is served with.
    public struct File: Sendable {
        public var bytes: [UInt8]
        public var contentType: String
    }

    /// Why the app cannot be served from a directory.
    public struct LoadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The first 16 hex digits of SHA-256 over every file's path and bytes.
    public let build: String
    /// Files by their path below the directory (`app/main.js`), `index.html` and `sw.js` included.
    public let files: [String: File]
    /// `index.html` with the build filled in.
    public let index: File
    /// `sw.js` with the build filled in.
    public let serviceWorker: File
    /// `precache.json`: the URLs the service worker keeps for offline use.
    public let precache: File

    /// The placeholder `index.html` and `sw.js` carry where the build id goes.
    public static let buildPlaceholder = "%BUILD%"
    /// Largest file and total read: the app is small, a mistake (a video in `web/`) should not fill memory.
    static let maxFileBytes = 4 << 20, maxTotalBytes = 32 << 20

    /// Reads every regular file below `directory` (hidden ones aside); `index.html` and `sw.js` must be there.
    public init(directory: String) throws(LoadError) {
        let root = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey], options: [.skipsHiddenFiles])
        else { throw LoadError(description: "cannot read the web app directory \(directory)") }
        var files: [String: File] = [:]
        var total = 0
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
            guard values?.isRegularFile == true else { continue }
            // A link that leads out of the directory is not part of the app.
            let resolved = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard resolved.hasPrefix(root.path + "/") else { continue }
            let path = String(resolved.dropFirst(root.path.count + 1))
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw LoadError(description: "cannot read \(url.path)")
            }
            guard data.count <= Self.maxFileBytes else {
                throw LoadError(description: "\(url.path) has \(data.count) bytes; the app's files may have at most \(Self.maxFileBytes)")
            }
            total += data.count
            guard total <= Self.maxTotalBytes else {
                throw LoadError(description: "the web app directory \(directory) holds more than \(Self.maxTotalBytes) bytes")
            }
            files[path] = File(bytes: [UInt8](data), contentType: Self.contentType(of: path))
        }
        guard let index = files["index.html"], let worker = files["sw.js"] else {
            throw LoadError(description: "\(directory) is not the household app: index.html or sw.js is missing")
        }
        var hash = SHA256()
        for path in files.keys.sorted() {
            hash.update(data: Array(path.utf8) + [0])
            hash.update(data: files[path]?.bytes ?? [])
        }
        let build = hash.finalize().map { String(format: "%02x", $0) }.joined().prefix(16)
        self.build = String(build)
        self.files = files
        self.index = Self.filling(index, build: self.build)
        self.serviceWorker = Self.filling(worker, build: self.build)
        // The shell: every file but the two served at fixed addresses (and the app's own tests), under this build's prefix.
        let shell = files.keys.sorted().filter { $0 != "index.html" && $0 != "sw.js" && !$0.hasPrefix("test/") && !$0.hasSuffix(".json") }
        let urls = ["/"] + shell.map { "/assets/\(build)/\($0)" }
        let json = (try? JSONSerialization.data(withJSONObject: urls, options: [.withoutEscapingSlashes])) ?? Data("[]".utf8)
        self.precache = File(bytes: [UInt8](json), contentType: "application/json")
    }

    /// The asset at `path` below `/assets/<build>/`, when `build` is this one.
    public func asset(build: String, path: String) -> File? {
        guard build == self.build else { return nil }
        if path == "precache.json" { return precache }
        return files[path]
    }

    static func filling(_ file: File, build: String) -> File {
        let text = String(decoding: file.bytes, as: UTF8.self).replacingOccurrences(of: buildPlaceholder, with: build)
        return File(bytes: Array(text.utf8), contentType: file.contentType)
    }

    /// The `Content-Type` for a file name; unknown kinds are served as bytes.
    static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last.map({ $0.lowercased() }) {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json"
        case "webmanifest": "application/manifest+json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "txt", "md": "text/plain; charset=utf-8"
        case "woff2": "font/woff2"
        default: "application/octet-stream"
        }
    }
}
