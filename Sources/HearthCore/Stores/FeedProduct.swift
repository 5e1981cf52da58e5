import Foundation

/// One product of a Shopify `/products.json` page, as much of it as Hearth keeps.
///
/// Lenient where stores differ (tags as an array or a comma-separated string, `sku` null or
/// empty, prices as strings or numbers, `compare_at_price` null or empty), strict where a
/// product is unusable without it (ids, titles, prices): those make the page invalid.
public struct FeedProduct: Sendable, Equatable, Decodable {
    public var id: Int64
    public var title: String
    public var handle: String
    public var vendor: String
    public var productType: String
    public var tags: [String]
    public var publishedAt: Date?
    public var createdAt: Date?
    public var updatedAt: Date?
    public var variants: [FeedVariant]
    public var images: [FeedImage]

    enum CodingKeys: String, CodingKey {
        case id, title, handle, vendor, tags, variants, images
        case productType = "product_type", publishedAt = "published_at", createdAt = "created_at", updatedAt = "updated_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        handle = try container.decodeIfPresent(String.self, forKey: .handle) ?? ""
        vendor = try container.decodeIfPresent(String.self, forKey: .vendor) ?? ""
        productType = try container.decodeIfPresent(String.self, forKey: .productType) ?? ""
        if let list = try? container.decodeIfPresent([String].self, forKey: .tags) {
            tags = list
        } else if let text = try? container.decodeIfPresent(String.self, forKey: .tags) {
            tags = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        } else {
            tags = []
        }
        publishedAt = Self.date(try? container.decodeIfPresent(String.self, forKey: .publishedAt))
        createdAt = Self.date(try? container.decodeIfPresent(String.self, forKey: .createdAt))
        updatedAt = Self.date(try? container.decodeIfPresent(String.self, forKey: .updatedAt))
        variants = try container.decodeIfPresent([FeedVariant].self, forKey: .variants) ?? []
        images = try container.decodeIfPresent([FeedImage].self, forKey: .images) ?? []
    }

    static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        return try? Date(text, strategy: .iso8601)
    }

    /// Cheapest and dearest variant price, and whether any variant is available.
    var listing: (minPrice: Int64, maxPrice: Int64, available: Bool) {
        let prices = variants.map(\.price)
        return (prices.min() ?? 0, prices.max() ?? 0, variants.contains(where: \.available))
    }

    /// The lower-cased text `search` matches: title, vendor, type and tags.
    var searchKey: String {
        ([title, vendor, productType] + tags).joined(separator: " ").lowercased()
    }

    /// Images in the feed's order, reduced to what decides "images changed".
    var imageSignature: String {
        images.map(\.src).joined(separator: "\n")
    }
}

/// A product's variant: its price (in minor units), compare-at price and availability.
public struct FeedVariant: Sendable, Equatable, Decodable {
    public var id: Int64
    public var title: String
    public var sku: String?
    public var option1: String?
    public var option2: String?
    public var option3: String?
    public var position: Int
    public var price: Int64
    public var compareAtPrice: Int64?
    public var available: Bool

    enum CodingKeys: String, CodingKey {
        case id, title, sku, option1, option2, option3, position, price, available
        case compareAtPrice = "compare_at_price"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        let sku = try? container.decodeIfPresent(String.self, forKey: .sku)
        self.sku = sku?.isEmpty == false ? sku : nil
        option1 = try? container.decodeIfPresent(String.self, forKey: .option1)
        option2 = try? container.decodeIfPresent(String.self, forKey: .option2)
        option3 = try? container.decodeIfPresent(String.self, forKey: .option3)
        position = (try? container.decodeIfPresent(Int.self, forKey: .position)) ?? 1
        guard let price = try Self.price(container, .price) else {
            throw DecodingError.dataCorruptedError(forKey: .price, in: container, debugDescription: "variant \(id) has no price")
        }
        self.price = price
        compareAtPrice = try Self.price(container, .compareAtPrice)
        available = (try? container.decodeIfPresent(Bool.self, forKey: .available)) ?? true
    }

    /// A price written as "25.00", "25" or 25.0, in minor units; nil when null or empty.
    private static func price(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Int64? {
        let text: String
        if let string = try? container.decodeIfPresent(String.self, forKey: key) {
            text = string
        } else if let number = try? container.decodeIfPresent(Double.self, forKey: key) {
            text = String(format: "%.2f", number)
        } else {
            return nil
        }
        guard !text.isEmpty else { return nil }
        guard let cents = minorUnits(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(key.rawValue) \"\(text)\" is not a price")
        }
        return cents
    }

    /// "25.00" → 2500, "25.5" → 2550, "25" → 2500; a third decimal rounds half up.
    static func minorUnits(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first, !whole.isEmpty, whole.utf8.count <= 13,
              whole.allSatisfy({ $0.isASCII && $0.isNumber }), let units = Int64(whole) else { return nil }
        var fraction = parts.count == 2 ? Array(parts[1].utf8) : []
        guard fraction.count <= 6, fraction.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let roundUp = fraction.count > 2 && fraction[2] >= 0x35
        fraction = Array((fraction + [0x30, 0x30]).prefix(2))
        let cents = Int64(fraction[0] - 0x30) * 10 + Int64(fraction[1] - 0x30)
        return units * 100 + cents + (roundUp ? 1 : 0)
    }
}

/// A product image.
public struct FeedImage: Sendable, Equatable, Codable {
    public var src: String
    public var width: Int?
    public var height: Int?
    public var position: Int?

    enum CodingKeys: String, CodingKey { case src, width, height, position }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        src = try container.decode(String.self, forKey: .src)
        width = try? container.decodeIfPresent(Int.self, forKey: .width)
        height = try? container.decodeIfPresent(Int.self, forKey: .height)
        position = try? container.decodeIfPresent(Int.self, forKey: .position)
    }
}
