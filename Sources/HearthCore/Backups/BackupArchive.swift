import Crypto
import Foundation

/// The backup file: a readable header (the manifest), then the database dump in chunks — each
/// sealed with AES-256-GCM under the backup key when encrypted. Every chunk is bound to the manifest,
/// to its place and to whether it is the last (its additional data), so a changed manifest, a
/// reordered, altered or missing chunk, or a file cut short is refused; the dump's SHA-256 in the
/// manifest is checked as well, encrypted or not.
///
/// Layout: `HEARTHBACKUP\n`, the manifest's length (UInt32, big-endian) and JSON; when encrypted a
/// random 32-byte salt; then chunks of a UInt32 length and its bytes, the last one marked (encrypted:
/// in its additional data; plain: an empty chunk ends the file).
///
/// Each archive is encrypted under its own key, HKDF-SHA256 of the backup key with the archive's
/// salt (info `hearth backup archive`), and a chunk's nonce is four zero bytes and its index: no
/// nonce repeats under one key however many backups are made. Format 1 archives (before
/// per-archive keys: a 4-byte random nonce prefix, the backup key itself) are still read.
public enum BackupArchive {
    static let magic = Data("HEARTHBACKUP\n".utf8)
    static let chunkSize = 1 << 20
    static let maximumManifestBytes = 1 << 20

    /// Writes the dump at `dumpPath` as a backup at `path` (through a temporary file beside it,
    /// flushed to disk and renamed, so `path` is whole or absent). The manifest's dump size and
    /// checksum are filled in here; `key` nil writes it unencrypted.
    /// The layout is the manifest's `format`'s (``BackupManifest/currentFormat`` unless a test asks
    /// for an older one).
    @discardableResult
    public static func write(dump dumpPath: String, manifest: BackupManifest, key: BackupKey?, to path: String) throws -> BackupManifest {
        var manifest = manifest
        let format = manifest.format
        let (bytes, digest) = try checksum(of: dumpPath)
        manifest.dumpBytes = bytes
        manifest.dumpSHA256 = digest
        manifest.keyIdentifier = key?.identifier
        let header = try BackupManifest.encoder.encode(manifest)
        let partial = path + ".partial"
        try createPrivateFile(partial)
        do {
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: partial))
            defer { try? output.close() }
            let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: dumpPath))
            defer { try? input.close() }
            try output.write(contentsOf: magic + bigEndian(UInt32(header.count)) + header)
            let binding = Data(SHA256.hash(data: magic + header))
            let sealing = key.map { key in
                let salt = Data.random(count: format >= 2 ? saltLength : 4)
                return (key: format >= 2 ? archiveKey(key, salt: salt) : key.symmetricKey, salt: salt, prefix: format >= 2 ? Data(count: 4) : salt)
            }
            if let sealing { try output.write(contentsOf: sealing.salt) }
            var index: UInt64 = 0
            var chunk = try input.read(upToCount: chunkSize) ?? Data()
            while true {
                let next = chunk.isEmpty ? Data() : try input.read(upToCount: chunkSize) ?? Data()
                let last = next.isEmpty
                if let sealing {
                    let sealed = try AES.GCM.seal(chunk, using: sealing.key, nonce: try nonce(sealing.prefix, index),
                                                  authenticating: additionalData(binding, index, last: last))
                    try output.write(contentsOf: bigEndian(UInt32(sealed.ciphertext.count + sealed.tag.count)) + sealed.ciphertext + sealed.tag)
                } else if !chunk.isEmpty {
                    try output.write(contentsOf: bigEndian(UInt32(chunk.count)) + chunk)
                }
                if last { break }
                chunk = next
                index += 1
            }
            if key == nil { try output.write(contentsOf: bigEndian(UInt32(0))) }
            try output.synchronize()
        } catch {
            try? FileManager.default.removeItem(atPath: partial)
            throw BackupError.io("cannot write the backup \(partial): \(error)")
        }
        guard rename(partial, path) == 0 else {
            let why = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: partial)
            throw BackupError.io("cannot rename \(partial) to \(path): \(why)")
        }
        // The rename itself reaches the disk with its directory.
        let parent = (path as NSString).deletingLastPathComponent
        let directory = Glibc.open(parent.isEmpty ? "." : parent, O_RDONLY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        return manifest
    }

    /// The manifest of the backup at `path`, read without a key (not yet verified).
    public static func manifest(of path: String) throws -> BackupManifest {
        let input = try open(path)
        defer { try? input.close() }
        return try readHeader(input, path).manifest
    }

    /// Reads the whole backup and checks it: the key (when encrypted), every chunk, the end, and the
    /// dump's size and SHA-256. With `dumpPath` the dump is written there (only once all of it
    /// checked out; nothing is left there otherwise). Given a key, an unencrypted backup is refused
    /// (anyone who can write where backups lie could put a dump there whose SQL a restore runs)
    /// unless `allowUnencrypted`. Returns the manifest.
    @discardableResult
    public static func verify(_ path: String, key: BackupKey?, allowUnencrypted: Bool = false, extractingTo dumpPath: String? = nil) throws -> BackupManifest {
        let input = try open(path)
        defer { try? input.close() }
        let (manifest, header) = try readHeader(input, path)
        if manifest.isEncrypted {
            guard let key else { throw BackupError.keyNeeded(path) }
            guard key.identifier == manifest.keyIdentifier else { throw BackupError.wrongKey(file: path) }
        } else if key != nil, !allowUnencrypted {
            throw BackupError.unencrypted(path)
        }
        let partial = dumpPath.map { $0 + ".partial" }
        var output: FileHandle?
        if let partial {
            try createPrivateFile(partial)
            output = try FileHandle(forWritingTo: URL(fileURLWithPath: partial))
        }
        do {
            var hasher = SHA256()
            var bytes = 0
            let binding = Data(SHA256.hash(data: magic + header))
            // Format 1: a 4-byte nonce prefix and the backup key itself; later: a salt for the archive's own key.
            var opening: (key: SymmetricKey, prefix: Data)?
            if let key, manifest.isEncrypted {
                opening = manifest.format >= 2
                    ? (archiveKey(key, salt: try exactly(saltLength, from: input, path)), Data(count: 4))
                    : (key.symmetricKey, try exactly(4, from: input, path))
            }
            var index: UInt64 = 0
            reading: while true {
                guard let length = try input.read(upToCount: 4), length.count == 4 else { throw BackupError.truncated(path) }
                let size = readUInt32(length)
                guard size <= chunkSize + 16 else { throw BackupError.damaged(file: path, why: "a chunk claims \(size) bytes") }
                let stored = try exactly(size, from: input, path)
                let plain: Data
                var last = false
                if let opening {
                    guard size >= 16 else { throw BackupError.damaged(file: path, why: "a chunk is shorter than its tag") }
                    let box = try AES.GCM.SealedBox(nonce: nonce(opening.prefix, index), ciphertext: stored.prefix(size - 16), tag: stored.suffix(16))
                    if let opened = try? AES.GCM.open(box, using: opening.key, authenticating: additionalData(binding, index, last: false)) {
                        plain = opened
                    } else if let opened = try? AES.GCM.open(box, using: opening.key, authenticating: additionalData(binding, index, last: true)) {
                        (plain, last) = (opened, true)
                    } else {
                        throw BackupError.damaged(file: path, why: "chunk \(index + 1) does not authenticate (changed bytes)")
                    }
                } else {
                    (plain, last) = (stored, size == 0)
                }
                hasher.update(data: plain)
                bytes += plain.count
                try output?.write(contentsOf: plain)
                index += 1
                if last { break reading }
            }
            if let extra = try input.read(upToCount: 1), !extra.isEmpty { throw BackupError.damaged(file: path, why: "bytes follow its end") }
            guard bytes == manifest.dumpBytes, Data(hasher.finalize()).lowercaseHex == manifest.dumpSHA256 else {
                throw BackupError.damaged(file: path, why: "its database dump does not match its checksum")
            }
            try output?.synchronize()
            try output?.close()
            if let partial, let dumpPath, rename(partial, dumpPath) != 0 {
                throw BackupError.io("cannot rename \(partial) to \(dumpPath): \(String(cString: strerror(errno)))")
            }
            return manifest
        } catch {
            try? output?.close()
            if let partial { try? FileManager.default.removeItem(atPath: partial) }
            throw error
        }
    }

    /// Where a backup's chunks begin (after the magic, the manifest's length and the manifest): for tests
    /// that damage a file on purpose.
    public static func headerLength(of file: Data) -> Int {
        guard file.count >= magic.count + 4 else { return file.count }
        return magic.count + 4 + readUInt32(file.subdata(in: magic.count..<magic.count + 4))
    }

    // MARK: Parts

    /// An empty file only its owner may read (a backup holds everything the household has).
    private static func createPrivateFile(_ path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw BackupError.io("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }

    private static func open(_ path: String) throws -> FileHandle {
        do {
            return try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw BackupError.io("cannot read \(path): \(error.localizedDescription)")
        }
    }

    private static func readHeader(_ input: FileHandle, _ path: String) throws -> (manifest: BackupManifest, header: Data) {
        guard let start = try input.read(upToCount: magic.count), start == magic else { throw BackupError.notABackup(path) }
        let size = readUInt32(try exactly(4, from: input, path))
        guard size <= maximumManifestBytes else { throw BackupError.damaged(file: path, why: "its manifest claims \(size) bytes") }
        let header = try exactly(size, from: input, path)
        guard let manifest = try? BackupManifest.decoder.decode(BackupManifest.self, from: header) else {
            // A newer format may have fields this Hearth does not know: say so rather than "damaged".
            if let format = (try? JSONSerialization.jsonObject(with: header) as? [String: Any])?["format"] as? Int, format > BackupManifest.currentFormat {
                throw BackupError.newerFormat(file: path, format: format)
            }
            throw BackupError.damaged(file: path, why: "its manifest cannot be read")
        }
        guard manifest.format <= BackupManifest.currentFormat else { throw BackupError.newerFormat(file: path, format: manifest.format) }
        return (manifest, header)
    }

    private static func exactly(_ count: Int, from input: FileHandle, _ path: String) throws -> Data {
        guard count > 0 else { return Data() }
        guard let data = try input.read(upToCount: count), data.count == count else { throw BackupError.truncated(path) }
        return data
    }

    private static func checksum(of path: String) throws -> (bytes: Int, sha256: String) {
        let input = try open(path)
        defer { try? input.close() }
        var hasher = SHA256()
        var bytes = 0
        while let chunk = try input.read(upToCount: chunkSize), !chunk.isEmpty {
            hasher.update(data: chunk)
            bytes += chunk.count
        }
        return (bytes, Data(hasher.finalize()).lowercaseHex)
    }

    /// The length of an archive's salt.
    static let saltLength = 32

    /// The key one archive is encrypted under: HKDF-SHA256 of the backup key with the archive's salt.
    static func archiveKey(_ key: BackupKey, salt: Data) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key.symmetricKey, salt: salt, info: Data("hearth backup archive".utf8), outputByteCount: 32)
    }

    private static func nonce(_ prefix: Data, _ index: UInt64) throws -> AES.GCM.Nonce {
        try AES.GCM.Nonce(data: prefix + bigEndian(index))
    }

    private static func additionalData(_ binding: Data, _ index: UInt64, last: Bool) -> Data {
        binding + bigEndian(index) + Data([last ? 1 : 0])
    }

    /// Four bytes as a big-endian UInt32 (a length in the file).
    private static func readUInt32(_ bytes: Data) -> Int {
        Int(bytes.withUnsafeBytes { UInt32(bigEndian: $0.loadUnaligned(as: UInt32.self)) })
    }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }
}
