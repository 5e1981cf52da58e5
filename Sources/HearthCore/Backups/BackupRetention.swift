import Foundation

/// Which scheduled backups a directory keeps: the `keep` newest, and the newest one of each of the
/// `weeks` calendar weeks before this one (weeks from Monday 00:00 UTC). A week's last backup stays
/// its last, so these are stable: each is kept until its week is more than `weeks` weeks back.
public struct BackupRetention: Sendable, Equatable {
    public var keep: Int
    public var weeks: Int

    public init(keep: Int = 7, weeks: Int = 4) {
        self.keep = keep
        self.weeks = weeks
    }

    /// The backups to delete among `backups` (each with when it was made), seen at `now`.
    public func expired<Backup>(_ backups: [(backup: Backup, madeAt: Date)], now: Date) -> [Backup] {
        let newestFirst = backups.enumerated().sorted { ($0.element.madeAt, $0.offset) > ($1.element.madeAt, $1.offset) }
        var kept = Set(newestFirst.prefix(max(keep, 1)).map(\.offset))
        let thisWeek = Self.week(of: now)
        for back in 0..<weeks {
            if let newest = newestFirst.first(where: { Self.week(of: $0.element.madeAt) == thisWeek - 1 - back }) { kept.insert(newest.offset) }
        }
        return backups.enumerated().filter { !kept.contains($0.offset) }.map(\.element.backup)
    }

    /// The week a date is in, counted from the week of 1970-01-01 (a Thursday: 3 days after its Monday).
    static func week(of date: Date) -> Int {
        Int(((date.timeIntervalSince1970 + 3 * 86_400) / (7 * 86_400)).rounded(.down))
    }
}
