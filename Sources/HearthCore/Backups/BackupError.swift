import Foundation

/// Why a backup file cannot be read or restored, in words an operator can act on.
public enum BackupError: Error, Equatable, CustomStringConvertible {
    case notABackup(String)
    case newerFormat(file: String, format: Int)
    case keyNeeded(String)
    case unencrypted(String)
    case wrongKey(file: String)
    case truncated(String)
    case damaged(file: String, why: String)
    case io(String)

    public var description: String {
        switch self {
        case .notABackup(let file): "\(file) is not a Hearth backup (it does not start as one)."
        case .newerFormat(let file, let format):
            "\(file) was made by a newer Hearth (backup format \(format); this Hearth reads up to \(BackupManifest.currentFormat)): restore it with that version or later."
        case .keyNeeded(let file): "\(file) is encrypted: give its backup key (--key-file, or HEARTH_BACKUP_KEY with the emergency-kit text)."
        case .unencrypted(let file):
            "\(file) is not encrypted, but this installation has a backup key: it may not be one of its backups. Give --allow-unencrypted if you made it so (hearth backup --no-encrypt)."
        case .wrongKey(let file): "\(file) was encrypted with another backup key than the one given."
        case .truncated(let file): "\(file) is truncated: it ends before the backup does (an interrupted copy?)."
        case .damaged(let file, let why): "\(file) is damaged: \(why)."
        case .io(let why): why
        }
    }
}
