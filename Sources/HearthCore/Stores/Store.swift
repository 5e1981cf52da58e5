import Foundation

/// A store a household watches.
public struct Store: Sendable, Equatable {
    public var id: UUID
    public var householdID: UUID
    public var domain: String
    public var name: String
    /// The ISO 4217 code the shop prices in (its `/meta.json`); nil when it names none.
    public var currency: String?
    public var createdAt: Date
    /// Products currently in the feed (removed ones not counted).
    public var productCount: Int
    /// The first few products' first images, for the store list.
    public var previewImages: [String]
    public var syncStatus: StoreSyncStatus
    /// Grows with every change of the record (for sync).
    public var version: Int = 0

    /// The store as a permission subject.
    var subject: AbilitySubject { Self.subject(householdID: householdID, id: id) }

    static func subject(householdID: UUID, id: UUID? = nil) -> AbilitySubject {
        .ofHousehold("Store", householdID, id: id)
    }
}

extension AbilitySubject {
    /// A thing a household owns as a permission subject: its `householdId` (what role rules
    /// condition on), and its `id` when known.
    static func ofHousehold(_ type: String, _ householdID: UUID, id: UUID? = nil) -> AbilitySubject {
        var fields: [String: JSONValue] = ["householdId": .string(householdID.lowercasedString)]
        if let id { fields["id"] = .string(id.lowercasedString) }
        return .instance(type: type, fields: fields)
    }
}

/// Where a store's syncing stands, as members see it.
public struct StoreSyncStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Added, not synced since (only while the first import has not committed).
        case neverSynced = "NEVER_SYNCED"
        /// An instance is syncing it now.
        case syncing = "SYNCING"
        /// The last sync succeeded.
        case synced = "SYNCED"
        /// The last sync failed; `lastError` says why.
        case failed = "FAILED"
        /// The store asked for a pause; Hearth waits until `nextSyncAt`.
        case waiting = "WAITING"
    }

    public var state: State
    public var lastSyncedAt: Date?
    /// The last failure, until a sync succeeds (rate limiting is not shown).
    public var lastError: StoreSyncError?
    public var lastErrorAt: Date?
    public var nextSyncAt: Date
}

/// How big a price change is, relative to the old price.
public enum PriceChangeMagnitude: String, Sendable {
    /// Under 10 %.
    case small = "SMALL"
    /// 10 % to 25 %.
    case medium = "MEDIUM"
    /// Over 25 %.
    case large = "LARGE"

    /// The magnitude of a change from `old` to `new` (minor units).
    public init(old: Int64, new: Int64) {
        let percent = Self.percent(old: old, new: new)
        self = percent < 10 ? .small : (percent <= 25 ? .medium : .large)
    }

    /// |new − old| as a percentage of old (100 when old is 0).
    public static func percent(old: Int64, new: Int64) -> Double {
        guard old != 0 else { return 100 }
        return Double((new - old).magnitude) / Double(old.magnitude) * 100
    }
}

/// One detected change, as the activity feed shows it.
public struct StoreEvent: Sendable, Equatable {
    public var id: Int64
    public var householdID: UUID
    public var storeID: UUID
    public var storeName: String
    public var productID: UUID
    public var productTitle: String
    public var variantID: UUID?
    public var variantTitle: String?
    public var type: StoreEventType
    public var oldPrice: Int64?
    public var newPrice: Int64?
    public var magnitude: PriceChangeMagnitude?
    public var createdAt: Date
    /// Whether the reading member has read it.
    public var isRead: Bool
    /// Grows with every change of the event, its read state for the reading member included (for sync).
    public var version: Int = 0

    /// new − old, for price changes.
    public var priceDelta: Int64? {
        guard let oldPrice, let newPrice else { return nil }
        return newPrice - oldPrice
    }
}

/// A product as the store's listing shows it.
public struct Product: Sendable, Equatable {
    public var id: UUID
    public var storeID: UUID
    /// The store's domain (for the product's address).
    public var storeDomain: String
    public var householdID: UUID
    public var shopifyID: Int64
    public var title: String
    public var handle: String
    public var vendor: String
    public var productType: String
    public var tags: [String]
    public var images: [FeedImage]
    public var minPrice: Int64
    public var maxPrice: Int64
    public var available: Bool
    public var firstSeenAt: Date
    public var lastChangedAt: Date
    public var removedAt: Date?
    /// Grows with every change of the record (for sync).
    public var version: Int = 0

    static func subject(householdID: UUID) -> AbilitySubject {
        .ofHousehold("Product", householdID)
    }
}

/// A product's variant as last synced.
public struct ProductVariant: Sendable, Equatable {
    public var id: UUID
    public var shopifyID: Int64
    public var title: String
    public var sku: String?
    public var options: [String]
    public var position: Int
    public var price: Int64
    public var compareAtPrice: Int64?
    public var available: Bool
}

/// A variant's values before a change.
public struct PriceSnapshot: Sendable, Equatable {
    public var variantID: UUID
    public var price: Int64
    public var compareAtPrice: Int64?
    public var available: Bool
    public var recordedAt: Date
}
