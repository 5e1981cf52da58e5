import Foundation
import HearthCore
import MCP

extension HearthTools {
    /// Reading the watched stores: their recent changes and their products (the READ scope).
    static let storeTools: [Definition] = [recentStoreChanges, searchProducts]

    static let recentStoreChanges = Definition(
        tool: Tool(name: "recent_store_changes", title: "Recent store changes",
                   description: "What changed in a household's watched stores: price drops and rises, back in stock, sold out, new and removed products; newest first, at most 50.",
                   inputSchema: object([
                       "household": householdArgument,
                       "types": string("Kinds of change, comma-separated or a list: \(StoreEventType.allCases.map(\.rawValue).joined(separator: ", ")); default all.", or: "array"),
                       "since": string("From when (like 2026-11-20 or RFC 3339); default 7 days ago."),
                       "store": string("One store's name or id; default all."),
                   ]), annotations: .init(readOnlyHint: true),
                   outputSchema: object([
                       "household": string("The household's name."),
                       "changes": array(of: object([
                           "store": string("The store's name."), "product": string("The product."), "variant": string("The variant.", nullable: true),
                           "type": enumeration(StoreEventType.allCases.map(\.rawValue), "The kind of change."),
                           "old_price": .object(["type": .array(["number", "null"]), "description": "The price before (in the store's currency)."]),
                           "new_price": .object(["type": .array(["number", "null"]), "description": "The price after."]),
                           "at": string("When it was seen."),
                       ], required: ["store", "product", "type", "at"])),
                   ], required: ["household", "changes"])),
        scope: .read) { tools, arguments, caller in
        let household = try await tools.household(arguments, caller)
        let zone = timeZone(of: household)
        var types: [StoreEventType] = []
        for name in arguments.list("types") {
            let normalized = name.uppercased().replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "-", with: "_")
            guard let type = StoreEventType(rawValue: normalized) else {
                throw ServiceError.invalidInput(field: "types", message: "types takes \(StoreEventType.allCases.map(\.rawValue).joined(separator: ", ")); \"\(name.prefix(30))\" is none of these.")
            }
            types.append(type)
        }
        let stores = try await tools.stores(arguments, household, caller)
        let since = try arguments.date("since", in: zone, hourForDates: 0) ?? tools.services.clock.now.addingTimeInterval(-7 * 86_400)
        let query = try StoreEventQuery(storeIDs: stores?.map(\.id), types: types.isEmpty ? nil : types, since: since)
        let events = try await tools.services.stores.events(caller, householdID: household.id, query: query, page: PageRequest(first: 50, after: nil))
            .items.map(\.item)
        func price(_ minor: Int64?) -> Value { minor.map { .double(Double($0) / 100) } ?? .null }
        let lines = events.isEmpty ? "No store changes in \(household.name) since \(words(since, in: zone))."
            : events.map { event in
                var line = "• \(event.storeName): \(event.productTitle) — \(event.type.rawValue.lowercased().replacingOccurrences(of: "_", with: " "))"
                if let old = event.oldPrice, let new = event.newPrice { line += String(format: " %.2f → %.2f", Double(old) / 100, Double(new) / 100) }
                return line
            }.joined(separator: "\n")
        return Answer(text: lines, structured: .object(["household": .string(household.name), "changes": .array(events.map { event in
            .object(["store": .string(event.storeName), "product": .string(event.productTitle), "variant": event.variantTitle.map { .string($0) } ?? .null,
                     "type": .string(event.type.rawValue), "old_price": price(event.oldPrice), "new_price": price(event.newPrice),
                     "at": text(event.createdAt, in: zone)])
        })]))
    }

    static let searchProducts = Definition(
        tool: Tool(name: "search_products", title: "Search products",
                   description: "Finds products in a household's watched stores by words, stock and price; cheapest first, at most 25.",
                   inputSchema: object([
                       "household": householdArgument, "text": string("Words in the title, vendor, type or tags."),
                       "in_stock": string("\"true\" for products you can buy now only.", or: "boolean"),
                       "max_price": string("The highest price, in the store's currency (e.g. \"20\").", or: "number"),
                       "store": string("One store's name or id; default all."),
                   ]), annotations: .init(readOnlyHint: true),
                   outputSchema: object([
                       "household": string("The household's name."),
                       "products": array(of: object([
                           "id": string("The product's id."), "store": string("The store's name."), "title": string("The product."),
                           "vendor": string("Who makes it."),
                           "min_price": .object(["type": "number", "description": "Its cheapest variant's price."]),
                           "max_price": .object(["type": "number", "description": "Its dearest variant's price."]),
                           "in_stock": .object(["type": "boolean", "description": "Whether a variant can be bought now."]),
                       ], required: ["id", "store", "title", "vendor", "min_price", "max_price", "in_stock"])),
                   ], required: ["household", "products"])),
        scope: .read) { tools, arguments, caller in
        let household = try await tools.household(arguments, caller)
        let inStock = try arguments.bool("in_stock") ?? false
        let maxPrice = try arguments.double("max_price")
        var stores = try await tools.stores(arguments, household, caller) ?? []
        if stores.isEmpty {
            stores = try await tools.services.stores.stores(caller, householdID: household.id,
                                                            page: PageRequest(first: PageRequest.maximumSize, after: nil)).items.map(\.item)
        }
        let query = try ProductQuery(search: arguments.string("text"), stock: inStock ? .inStock : .all, sort: .priceAscending)
        let pages = try await tools.services.stores.products(caller, stores: stores.map { ($0.id, $0.householdID, $0.domain) }, query: query,
                                                             page: PageRequest(first: PageRequest.maximumSize, after: nil))
        let names = Dictionary(stores.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let products = pages.values.flatMap { $0.items.map(\.item) }
            .filter { product in maxPrice.map { Double(product.minPrice) / 100 <= $0 } ?? true }
            .sorted { ($0.minPrice, $0.title) < ($1.minPrice, $1.title) }
            .prefix(25)
        let text = products.isEmpty ? "No matching products in \(household.name)'s stores."
            : products.map { String(format: "• %@ (%@): %.2f%@", $0.title, names[$0.storeID] ?? "", Double($0.minPrice) / 100, $0.available ? "" : ", sold out") }
                .joined(separator: "\n")
        return Answer(text: text, structured: .object(["household": .string(household.name), "products": .array(products.map { product in
            .object(["id": .string(product.id.lowercasedString), "store": .string(names[product.storeID] ?? ""), "title": .string(product.title),
                     "vendor": .string(product.vendor), "min_price": .double(Double(product.minPrice) / 100),
                     "max_price": .double(Double(product.maxPrice) / 100), "in_stock": .bool(product.available)])
        })]))
    }

    /// The store named by `store` (id or name, ignoring case) as a one-element list; nil when none is named.
    func stores(_ arguments: ToolArguments, _ household: Household, _ caller: Caller) async throws -> [Store]? {
        guard let wanted = arguments.string("store") else { return nil }
        let stores = try await services.stores.stores(caller, householdID: household.id, page: PageRequest(first: PageRequest.maximumSize, after: nil))
            .items.map(\.item)
        if let id = UUID(uuidString: wanted), let found = stores.first(where: { $0.id == id }) { return [found] }
        if let found = stores.first(where: { $0.name.caseInsensitiveCompare(wanted) == .orderedSame || $0.domain == wanted.lowercased() }) { return [found] }
        throw ServiceError.invalidInput(field: "store", message: "\(household.name) watches no store called “\(wanted)”; its stores: \(stores.map(\.name).joined(separator: ", ")).")
    }
}
