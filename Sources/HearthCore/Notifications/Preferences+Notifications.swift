import Foundation
import Logging

extension Preferences {
    /// A recipient's stored preferences while notifying, or nil (logged, saying what is done
    /// instead) when the row cannot be read: one bad row must not stop everyone's notifications.
    static func stored(_ json: JSONColumn, of user: UUID, otherwise: String, logger: Logger) -> Preferences? {
        do {
            return try stored(json.data)
        } catch {
            logger.warning("stored preferences unreadable; \(otherwise)", metadata: ["user": "\(user)", "problem": "\(error)"])
            return nil
        }
    }
}
