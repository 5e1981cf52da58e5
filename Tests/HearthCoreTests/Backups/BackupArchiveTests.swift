import Crypto
import Foundation
import HearthCore
import HearthTestSupport
import Testing

/// The backup file on its own (no database): what is written reads back byte for byte, with and
/// without encryption, and every way a file can go wrong — cut short, a byte flipped, chunks
/// reordered, the wrong key, no key, a newer format — is refused in words, leaving nothing behind.
struct BackupArchiveTests {
    static let key = BackupKey.make(secretKey: Data(repeating: 7, count: 32))

    static func manifest() -> BackupManifest {
        BackupManifest(hearthVersion: "1.2.3", migration: 17, createdAt: Date(timeIntervalSince1970: 1_790_000_000), households: 2, people: 3,
                       tasks: 40, products: 500, dumpBytes: 0, dumpSHA256: "", keyIdentifier: nil)
    }

    /// A dump of `size` bytes of varied content, and a backup of it.
    static func backup(_ dir: String, size: Int = (5 << 19) + 123, key: BackupKey? = Self.key) throws -> (dump: Data, path: String) {
        let dump = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        try dump.write(to: URL(fileURLWithPath: "\(dir)/dump"))
        try BackupArchive.write(dump: "\(dir)/dump", manifest: manifest(), key: key, to: "\(dir)/backup.hearth")
        return (dump, "\(dir)/backup.hearth")
    }

    static func refusal(_ path: String, key: BackupKey? = Self.key, into dir: String) -> BackupError? {
        do {
            try BackupArchive.verify(path, key: key, allowUnencrypted: true, extractingTo: "\(dir)/restored")
            return nil
        } catch {
            return error as? BackupError
        }
    }

    @Test(arguments: [true, false])
    func aBackupReadsBackByteForByte(encrypted: Bool) async throws {
        try await withTemporaryDirectory { dir in
            let (dump, path) = try Self.backup(dir, key: encrypted ? Self.key : nil)
            let manifest = try BackupArchive.manifest(of: path)
            #expect(manifest.dumpBytes == dump.count && manifest.households == 2 && manifest.migration == 17)
            #expect(manifest.isEncrypted == encrypted && manifest.keyIdentifier == (encrypted ? Self.key.identifier : nil))
            try BackupArchive.verify(path, key: Self.key, allowUnencrypted: !encrypted, extractingTo: "\(dir)/restored")
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/restored")) == dump)
            let stored = try Data(contentsOf: URL(fileURLWithPath: path))
            // Encrypted, no 64-byte run of the dump appears in the file.
            #expect(encrypted == (stored.range(of: dump.subdata(in: 1000..<1064)) == nil))
            #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
            #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
        }
    }

    @Test func anEmptyDumpIsABackupToo() async throws {
        try await withTemporaryDirectory { dir in
            let (_, path) = try Self.backup(dir, size: 0)
            try BackupArchive.verify(path, key: Self.key, extractingTo: "\(dir)/restored")
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/restored")).isEmpty)
        }
    }

    @Test(arguments: [true, false])
    func aFileCutShortIsTruncatedWhereverItIsCut(encrypted: Bool) async throws {
        try await withTemporaryDirectory { dir in
            let (_, path) = try Self.backup(dir, key: encrypted ? Self.key : nil)
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            let header = BackupArchive.headerLength(of: whole)
            // Inside the manifest, just after it, inside a chunk, on a chunk's edge (the last chunk gone), one byte short.
            let chunk = (1 << 20) + (encrypted ? 16 : 0) + 4
            for cut in [header - 5, header + 2, header + 1000, header + (encrypted ? 32 : 0) + 2 * chunk, whole.count - 1] {
                try whole.prefix(cut).write(to: URL(fileURLWithPath: "\(dir)/cut.hearth"))
                #expect(Self.refusal("\(dir)/cut.hearth", into: dir) == .truncated("\(dir)/cut.hearth"), "cut at \(cut) of \(whole.count)")
                #expect(!FileManager.default.fileExists(atPath: "\(dir)/restored") && !FileManager.default.fileExists(atPath: "\(dir)/restored.partial"))
            }
        }
    }

    @Test(arguments: [true, false])
    func aFlippedByteAnywhereIsRefused(encrypted: Bool) async throws {
        try await withTemporaryDirectory { dir in
            let (_, path) = try Self.backup(dir, key: encrypted ? Self.key : nil)
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            let header = BackupArchive.headerLength(of: whole)
            for offset in [header - 3, header + 100, header + (1 << 20) + 200, whole.count - 10] {
                var changed = whole
                changed[offset] ^= 0x20
                try changed.write(to: URL(fileURLWithPath: "\(dir)/flipped.hearth"))
                guard case .damaged(let file, _)? = Self.refusal("\(dir)/flipped.hearth", into: dir) else {
                    Issue.record("a byte flipped at \(offset) of \(whole.count) was not refused as damaged")
                    continue
                }
                #expect(file == "\(dir)/flipped.hearth")
                #expect(!FileManager.default.fileExists(atPath: "\(dir)/restored"))
            }
        }
    }

    @Test func chunksInAnotherOrderAreRefused() async throws {
        try await withTemporaryDirectory { dir in
            let (_, path) = try Self.backup(dir)
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            let start = BackupArchive.headerLength(of: whole) + 32
            let chunk = (1 << 20) + 16 + 4
            let swapped = whole.prefix(start) + whole.subdata(in: start + chunk..<start + 2 * chunk)
                + whole.subdata(in: start..<start + chunk) + whole.suffix(from: start + 2 * chunk)
            try swapped.write(to: URL(fileURLWithPath: "\(dir)/swapped.hearth"))
            guard case .damaged? = Self.refusal("\(dir)/swapped.hearth", into: dir) else {
                Issue.record("swapped chunks were not refused")
                return
            }
        }
    }

    /// Each archive has its own key, derived from the backup key and a 32-byte salt after the manifest,
    /// and a chunk's nonce is its index: read here from that layout alone, two archives of one dump
    /// under one key share no key and no ciphertext.
    @Test func eachArchiveIsEncryptedUnderItsOwnKeyFromItsSalt() async throws {
        try await withTemporaryDirectory { dir in
            let dump = Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0) })
            try dump.write(to: URL(fileURLWithPath: "\(dir)/dump"))
            var salts: [Data] = []
            var ciphertexts: [Data] = []
            for name in ["a", "b"] {
                try BackupArchive.write(dump: "\(dir)/dump", manifest: Self.manifest(), key: Self.key, to: "\(dir)/\(name).backup")
                let whole = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name).backup"))
                let header = BackupArchive.headerLength(of: whole)
                #expect(try BackupArchive.manifest(of: "\(dir)/\(name).backup").format == 2)
                let salt = whole.subdata(in: header..<header + 32)
                let size = Int(whole[header + 32]) << 24 | Int(whole[header + 33]) << 16 | Int(whole[header + 34]) << 8 | Int(whole[header + 35])
                try #require(size >= 16 && header + 36 + size <= whole.count, "a chunk of \(size) bytes after the salt")
                let sealed = whole.subdata(in: header + 36..<header + 36 + size)
                let archiveKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: Self.key.encryption), salt: salt,
                                                        info: Data("hearth backup archive".utf8), outputByteCount: 32)
                let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: Data(count: 12)), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
                let binding = Data(SHA256.hash(data: Data("HEARTHBACKUP\n".utf8) + whole.subdata(in: 17..<header)))
                let opened = try AES.GCM.open(box, using: archiveKey, authenticating: binding + Data(count: 8) + Data([1]))
                #expect(opened == dump)
                salts.append(salt)
                ciphertexts.append(sealed)
            }
            #expect(salts[0] != salts[1] && ciphertexts[0] != ciphertexts[1])
        }
    }

    /// An archive written before per-archive keys (format 1: a 4-byte nonce prefix, the backup key itself) still reads.
    @Test func anArchiveOfTheFirstFormatStillReads() async throws {
        try await withTemporaryDirectory { dir in
            let dump = Data((0..<((1 << 20) + 77)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            try dump.write(to: URL(fileURLWithPath: "\(dir)/dump"))
            var manifest = Self.manifest()
            manifest.format = 1
            try BackupArchive.write(dump: "\(dir)/dump", manifest: manifest, key: Self.key, to: "\(dir)/old.backup")
            let whole = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/old.backup"))
            // Its first chunk opens with the backup key and the file's 4-byte prefix.
            let header = BackupArchive.headerLength(of: whole)
            let sealed = whole.subdata(in: header + 8..<header + 8 + (1 << 20) + 16)
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: whole.subdata(in: header..<header + 4) + Data(count: 8)),
                                            ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
            let binding = Data(SHA256.hash(data: Data("HEARTHBACKUP\n".utf8) + whole.subdata(in: 17..<header)))
            #expect(try AES.GCM.open(box, using: SymmetricKey(data: Self.key.encryption), authenticating: binding + Data(count: 8) + Data([0])) == dump.prefix(1 << 20))
            try BackupArchive.verify("\(dir)/old.backup", key: Self.key, extractingTo: "\(dir)/restored")
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/restored")) == dump)
        }
    }

    /// With a key at hand, an unencrypted file is not taken for one of the installation's backups
    /// (someone who can write where backups lie could put a dump there) unless asked for.
    @Test func anUnencryptedBackupIsRefusedWhenAKeyIsGivenUnlessAllowed() async throws {
        try await withTemporaryDirectory { dir in
            let (dump, path) = try Self.backup(dir, size: 3_000, key: nil)
            #expect(throws: BackupError.unencrypted(path)) { try BackupArchive.verify(path, key: Self.key, extractingTo: "\(dir)/restored") }
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/restored"))
            try BackupArchive.verify(path, key: Self.key, allowUnencrypted: true, extractingTo: "\(dir)/restored")
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/restored")) == dump)
            // Without a key (none configured) it reads as before.
            #expect(try BackupArchive.verify(path, key: nil).isEncrypted == false)
        }
    }

    @Test func theWrongKeyOrNoKeyIsSaidSo() async throws {
        try await withTemporaryDirectory { dir in
            let (_, path) = try Self.backup(dir)
            let other = BackupKey.make(secretKey: Data(repeating: 7, count: 32))
            #expect(Self.refusal(path, key: other, into: dir) == .wrongKey(file: path))
            #expect(Self.refusal(path, key: nil, into: dir) == .keyNeeded(path))
            #expect(BackupError.wrongKey(file: path).description == "\(path) was encrypted with another backup key than the one given.")
        }
    }

    @Test func aBackupFromANewerHearthIsRefusedAsSuch() async throws {
        try await withTemporaryDirectory { dir in
            var manifest = Self.manifest()
            manifest.format = BackupManifest.currentFormat + 1
            try Data("db".utf8).write(to: URL(fileURLWithPath: "\(dir)/dump"))
            try BackupArchive.write(dump: "\(dir)/dump", manifest: manifest, key: nil, to: "\(dir)/newer.hearth")
            #expect(throws: BackupError.newerFormat(file: "\(dir)/newer.hearth", format: BackupManifest.currentFormat + 1)) {
                try BackupArchive.manifest(of: "\(dir)/newer.hearth")
            }
            try Data("PGDMP not ours".utf8).write(to: URL(fileURLWithPath: "\(dir)/other"))
            #expect(throws: BackupError.notABackup("\(dir)/other")) { try BackupArchive.manifest(of: "\(dir)/other") }
        }
    }

    @Test func theRecoveryTextCarriesBothKeysAndCatchesTypos() throws {
        let text = Self.key.recoveryText
        #expect(text.hasPrefix("hearth-backup-key-1:") && !text.contains("\n") && text.count < 120)
        #expect(try BackupKey(recoveryText: "  \(text)\n") == Self.key)
        var typo = Array(text)
        typo[40] = typo[40] == "A" ? "B" : "A"
        #expect(throws: BackupKey.Failure.malformed("its check does not match (a mistyped character?)")) { try BackupKey(recoveryText: String(typo)) }
        #expect(throws: BackupKey.Failure.self) { try BackupKey(recoveryText: "hearth-backup-key-1:short") }
        #expect(Self.key.identifier.count == 16 && Self.key.identifier != BackupKey.make(secretKey: Self.key.secretKey).identifier)
    }
}
