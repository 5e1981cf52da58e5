import Foundation
import PostgresNIO

extension StoreService {
    /// Hands a committed sync's changes to this process's subscribers, then to the other
    /// instances' (over the event bus, as ``StoreChangeNotice``s).
    func announce(_ batch: StoreChangeBatch) async {
        changes.publish(batch)
        for notice in StoreChangeNotice.notices(for: batch) {
            await database.bus.publish(StoreChangeNotice.topic, notice)
        }
    }

    /// Rebuilds another instance's batch from the database and hands it to this process's
    /// subscribers; nothing is read when nobody here subscribes.
    func relay(_ notice: StoreChangeNotice) async {
        guard changes.subscriberCount > 0 else { return }
        do {
            var eventIDs: [Int64] = []
            if let first = notice.firstEvent, let last = notice.lastEvent {
                let rows = try await database.client.query("""
                    SELECT id FROM store_events WHERE store_id = \(notice.store) AND id BETWEEN \(first) AND \(last) ORDER BY id
                    """, logger: logger)
                for try await id in rows.decode(Int64.self) { eventIDs.append(id) }
            }
            let notifications = try await NotificationService.notifications(ids: notice.notifications, from: database.client, logger: logger)
            guard !eventIDs.isEmpty || !notifications.isEmpty else { return }
            changes.publish(StoreChangeBatch(householdID: notice.household, storeID: notice.store, eventIDs: eventIDs, notifications: notifications))
        } catch {
            logger.warning("could not relay another instance's store changes", metadata: [
                "store": "\(notice.store)", "error": "\(ErrorText.oneLine(error))",
            ])
        }
    }
}
