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
            try BackupArchive.verify(path, key: key, extractingTo: "\(dir)/restored")
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
            try BackupArchive.verify(path, key: Self.key, extractingTo: "\(dir)/restored")
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
            for cut in [header - 5, header + 2, header + 1000, header + (encrypted ? 4 : 0) + 2 * chunk, whole.count - 1] {
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
            let start = BackupArchive.headerLength(of: whole) + 4
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
