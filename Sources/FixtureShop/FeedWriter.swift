import Foundation

/// Writes catalog products as a `/products.json` page, in the key order and value shapes of
/// Shopify's feed (prices as strings, `compare_at_price` null or a string, `sku` null or text).
enum FeedWriter {
    static func page(_ products: ArraySlice<FixtureCatalog.Product>, tagsAsString: Bool) -> String {
        var out = #"{"products":["#
        out.reserveCapacity(products.count * 2400)
        for (index, product) in products.enumerated() {
            if index > 0 { out += "," }
            write(product, tagsAsString: tagsAsString, into: &out)
        }
        out += "]}"
        return out
    }

    private static func write(_ p: FixtureCatalog.Product, tagsAsString: Bool, into out: inout String) {
        let stamp = "\"2024-05-01T10:00:00-04:00\""
        out += #"{"id":\#(p.id),"title":"# + quoted(p.title) + #","handle":"# + quoted(p.handle)
        out += #","body_html":"# + quoted("<p>\(p.title): made for everyday comfort.</p>")
        out += #","published_at":\#(stamp),"created_at":\#(stamp),"updated_at":\#(stamp),"vendor":"# + quoted(p.vendor)
        out += #","product_type":"# + quoted(p.productType) + #","tags":"#
        out += tagsAsString ? quoted(p.tags.joined(separator: ", ")) : "[" + p.tags.map(quoted).joined(separator: ",") + "]"
        out += #","variants":["#
        for (index, v) in p.variants.enumerated() {
            if index > 0 { out += "," }
            out += #"{"id":\#(v.id),"title":"# + quoted(v.title) + #","option1":"# + quoted(v.option1) + #","option2":null,"option3":null"#
            out += #","sku":"# + (v.sku.map(quoted) ?? "null") + #","requires_shipping":true,"taxable":true,"featured_image":null"#
            out += #","available":\#(v.available),"price":"\#(money(v.price))","grams":300,"compare_at_price":"#
            out += v.compareAtPrice.map { "\"\(money($0))\"" } ?? "null"
            out += #","position":\#(v.position),"product_id":\#(p.id),"created_at":\#(stamp),"updated_at":\#(stamp)}"#
        }
        out += #"],"images":["#
        for (index, src) in p.images.enumerated() {
            if index > 0 { out += "," }
            out += #"{"id":\#(p.id * 100 + Int64(index)),"created_at":\#(stamp),"position":\#(index + 1),"updated_at":\#(stamp)"#
            out += #","product_id":\#(p.id),"variant_ids":[],"src":"# + quoted(src) + #","width":1600,"height":1600}"#
        }
        out += #"],"options":[{"name":"Size","position":1,"values":["# + p.variants.map { quoted($0.option1) }.joined(separator: ",") + "]}]}"
    }

    static func money(_ cents: Int64) -> String {
        let fraction = cents % 100
        return "\(cents / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
