import Foundation

/// A generated store catalog in Shopify's shape, changed by tests and benchmarks through its
/// mutating methods. Deterministic: the same seed and size give the same catalog.
public struct FixtureCatalog: Sendable {
    public struct Variant: Sendable, Equatable {
        public var id: Int64
        public var title: String
        public var sku: String?
        public var option1: String
        public var position: Int
        /// Minor units (cents).
        public var price: Int64
        public var compareAtPrice: Int64?
        public var available: Bool
    }

    public struct Product: Sendable, Equatable {
        public var id: Int64
        public var title: String
        public var handle: String
        public var vendor: String
        public var productType: String
        public var tags: [String]
        public var variants: [Variant]
        public var images: [String]
    }

    public var products: [Product]
    /// Tags written as one comma-separated string, as older stores do.
    public var tagsAsString = false
    /// The currency `/meta.json` names (nil: it names none, as some shops' answers do).
    public var currency: String? = "EUR"
    private var nextID: Int64

    static let materials = ["Wool", "Tree", "Cotton", "Linen", "Merino", "Canvas", "Leather", "Hemp", "Cashmere", "Denim"]
    static let kinds = ["Runner", "Lounger", "Dasher", "Sweater", "Beanie", "Sock", "Jacket", "Tee", "Scarf", "Slipper"]
    static let sizes = ["S", "M", "L", "XL", "XXL", "3XL"]

    /// `count` products with `variantsPerProduct` variants each (at most 6).
    public init(shop: String, products count: Int, variantsPerProduct: Int = 4, seed: UInt64 = 1) {
        var random = SplitMix(seed: seed)
        var products: [Product] = []
        products.reserveCapacity(count)
        for index in 0..<count {
            products.append(Self.product(shop: shop, id: 1_000_000 + Int64(index), index: index, variants: variantsPerProduct, random: &random))
        }
        self.products = products
        self.nextID = 1_000_000 + Int64(count)
        self.shop = shop
    }

    private let shop: String

    static func product(shop: String, id: Int64, index: Int, variants: Int, random: inout SplitMix) -> Product {
        let material = materials[index % materials.count]
        let kind = kinds[(index / materials.count) % kinds.count]
        let title = "\(material) \(kind) \(index)"
        let base = Int64(1000 + random.next(below: 19_000))
        let variantList = (0..<min(max(variants, 1), sizes.count)).map { position in
            Variant(id: id * 10 + Int64(position), title: sizes[position], sku: position == 0 ? nil : "SKU-\(id)-\(position)",
                    option1: sizes[position], position: position + 1, price: base + Int64(position) * 100,
                    compareAtPrice: random.next(below: 4) == 0 ? base + 2000 : nil, available: random.next(below: 5) != 0)
        }
        return Product(id: id, title: title, handle: title.lowercased().replacingOccurrences(of: " ", with: "-"),
                       vendor: "\(shop.capitalized) Co", productType: kind, tags: [material.lowercased(), kind.lowercased(), "fixture"],
                       variants: variantList, images: ["https://cdn.fixture.test/\(shop)/\(id)-1.jpg", "https://cdn.fixture.test/\(shop)/\(id)-2.jpg"])
    }

    // MARK: Changes

    /// Sets a variant's price (minor units).
    public mutating func setPrice(product: Int, variant: Int = 0, to cents: Int64) {
        products[product].variants[variant].price = cents
    }

    public mutating func setAvailable(product: Int, variant: Int = 0, _ available: Bool) {
        products[product].variants[variant].available = available
    }

    public mutating func setCompareAtPrice(product: Int, variant: Int = 0, to cents: Int64?) {
        products[product].variants[variant].compareAtPrice = cents
    }

    /// Gives a product new image URLs.
    public mutating func changeImages(product: Int) {
        products[product].images = products[product].images.map { $0 + "?v=\(products[product].images.count + 1)" }
    }

    /// Removes the product at `index` and returns it (to put back later with ``restore(_:)``).
    @discardableResult
    public mutating func remove(product index: Int) -> Product {
        products.remove(at: index)
    }

    /// Puts a removed product back at the end.
    public mutating func restore(_ product: Product) {
        products.append(product)
    }

    /// Adds a new product at the end and returns its id.
    @discardableResult
    public mutating func addProduct(title: String? = nil, price: Int64 = 2500, available: Bool = true) -> Int64 {
        var random = SplitMix(seed: UInt64(nextID))
        var product = Self.product(shop: shop, id: nextID, index: products.count, variants: 2, random: &random)
        if let title { product.title = title }
        for index in product.variants.indices {
            product.variants[index].price = price
            product.variants[index].available = available
        }
        products.append(product)
        nextID += 1
        return product.id
    }

    /// Changes the price of `percent` % of all variants (spread evenly), alternating drops and
    /// increases of 5–40 %; returns how many changed.
    @discardableResult
    public mutating func changePrices(percent: Double, seed: UInt64 = 7) -> Int {
        var random = SplitMix(seed: seed)
        let total = products.reduce(0) { $0 + $1.variants.count }
        let wanted = Int((Double(total) * percent / 100).rounded())
        guard wanted > 0 else { return 0 }
        let step = max(1, total / wanted)
        var changed = 0
        var ordinal = 0
        for p in products.indices {
            for v in products[p].variants.indices {
                defer { ordinal += 1 }
                guard ordinal % step == 0, changed < wanted else { continue }
                let old = products[p].variants[v].price
                let factor = 5 + Int64(random.next(below: 36))
                let delta = max(1, old * factor / 100)
                products[p].variants[v].price = changed % 2 == 0 ? max(1, old - delta) : old + delta
                changed += 1
            }
        }
        return changed
    }
}

/// A small, seedable generator (SplitMix64), so catalogs (and the tests' random runs) are the
/// same on every run.
public struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
