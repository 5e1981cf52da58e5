import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A Shopify-shaped shop server on loopback for tests and benchmarks: any number of shops, each
/// at `/shops/<name>/products.json`, serving generated catalogs with Shopify's paging rules
/// (limit capped at 250, an empty page past the end, the 25 000 page × limit `errors` answer),
/// and each failure mode on demand. Never part of a serving Hearth.
public final class FixtureShop: Sendable {
    private struct Shop: Sendable {
        var catalog: FixtureCatalog
        var failure: FixtureFailure?
        var requests = 0
    }

    private let shops = Mutex<[String: Shop]>([:])

    public init() {}

    /// Adds (or replaces) a shop with a generated catalog.
    public func addShop(_ name: String, products: Int, variantsPerProduct: Int = 4, seed: UInt64 = 1) {
        let catalog = FixtureCatalog(shop: name, products: products, variantsPerProduct: variantsPerProduct, seed: seed)
        shops.withLock { $0[name] = Shop(catalog: catalog) }
    }

    /// Changes a shop's catalog.
    public func update<T>(_ name: String, _ change: (inout FixtureCatalog) -> T) -> T? {
        shops.withLock { shops -> T? in
            guard var shop = shops[name] else { return nil }
            let result = change(&shop.catalog)
            shops[name] = shop
            return result
        }
    }

    /// A copy of a shop's catalog.
    public func catalog(_ name: String) -> FixtureCatalog? {
        shops.withLock { $0[name]?.catalog }
    }

    /// Makes a shop fail (nil: serve normally again).
    public func fail(_ name: String, _ failure: FixtureFailure?) {
        shops.withLock { $0[name]?.failure = failure }
    }

    /// Feed requests a shop has answered.
    public func requests(_ name: String) -> Int {
        shops.withLock { $0[name]?.requests ?? 0 }
    }

    /// The origin a shop's feed is at, given the server's port (for Hearth's allow-list).
    public static func origin(port: Int, shop: String) -> String {
        "http://127.0.0.1:\(port)/shops/\(shop)"
    }

    // MARK: Serving

    /// The router: feeds, `/_control/…` endpoints for scripts (see ``FixtureShop/control``), and
    /// `/sink/…`, which answers every POST 201.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/shops/:shop/products.json") { request, context in
            try await self.feed(request, shop: try context.parameters.require("shop"))
        }
        router.get("/shops/:shop/meta.json") { _, context in
            self.meta(shop: try context.parameters.require("shop"))
        }
        router.get("/shops/:shop/password") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: "<html>Opening soon</html>")))
        }
        router.post("/_control/shops/:shop") { request, context in
            try self.control(request, shop: try context.parameters.require("shop"))
        }
        // A receiver that takes anything (notification channels in `scripts/bench/delivery.sh`).
        router.post("/sink/**") { request, _ in
            _ = try await request.body.collect(upTo: 1 << 16)
            return Response(status: .created)
        }
        return router
    }

    /// The shop's `/meta.json`: Shopify's public facts about a shop, of which Hearth reads the currency.
    private func meta(shop name: String) -> Response {
        guard let catalog = catalog(name) else {
            return notFound()
        }
        var facts: [String: String] = ["name": name, "money_format": "{{amount}}"]
        facts["currency"] = catalog.currency
        let body = (try? JSONEncoder().encode(facts)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return json(body)
    }

    private func feed(_ request: Request, shop name: String) async throws -> Response {
        let limit = min(max(request.uri.queryParameters.get("limit", as: Int.self) ?? 30, 1), 250)
        let page = max(request.uri.queryParameters.get("page", as: Int.self) ?? 1, 1)
        let state = shops.withLock { shops -> (FixtureCatalog, FixtureFailure?)? in
            guard var shop = shops[name] else { return nil }
            shop.requests += 1
            shops[name] = shop
            return (shop.catalog, shop.failure)
        }
        guard let (catalog, failure) = state else {
            return notFound()
        }
        if let failure, let response = try await respond(failing: failure, page: page, limit: limit) { return response }
        if page * limit > 25_000 {
            return json(#"{"errors":"Page * Limit exceeds the 25000 limit."}"#, status: .badRequest)
        }
        let start = (page - 1) * limit
        let slice = start < catalog.products.count ? catalog.products[start..<min(start + limit, catalog.products.count)] : []
        return json(FeedWriter.page(slice, tagsAsString: catalog.tagsAsString))
    }

    private func respond(failing failure: FixtureFailure, page: Int, limit: Int) async throws -> Response? {
        switch failure {
        case .fromPage(let first, let inner):
            return page >= first ? try await respond(failing: inner, page: page, limit: limit) : nil
        case .status(let code, let retryAfter):
            var headers: HTTPFields = [.contentType: "text/plain"]
            if let retryAfter { headers[.retryAfter] = retryAfter }
            return Response(status: .init(code: code), headers: headers, body: .init(byteBuffer: ByteBuffer(string: "status \(code)")))
        case .passwordProtected:
            return Response(status: .found, headers: [.location: "/password"])
        case .htmlPage:
            return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "<!doctype html><html><body>A blog</body></html>")))
        case .truncatedJSON:
            return json(#"{"products":[{"id":1,"title":"Cut"#)
        case .noProducts:
            return json(#"{"shop":"closed"}"#)
        case .pageLimit(let products, let status):
            guard page * limit > products else { return nil }
            return json(#"{"errors":"Page * Limit exceeds the \#(products) limit."}"#, status: .init(code: status))
        case .redirect(let location):
            return Response(status: .movedPermanently, headers: [.location: location])
        case .oversized(let bytes):
            let head = #"{"products":[],"padding":""#
            return json(head + String(repeating: "x", count: max(0, bytes - head.utf8.count - 2)) + #""}"#)
        case .slow(let delay):
            try await Task.sleep(for: delay)
            return nil
        }
    }

    /// What a shop that does not exist answers: Shopify's HTML 404 page.
    private func notFound() -> Response {
        Response(status: .notFound, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: "<html>Not found</html>")))
    }

    private func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `POST /_control/shops/<name>?products=N[&variants=V][&seed=S]` creates a shop;
    /// `?changePercent=P` changes P % of its variants' prices; `?product=I&price=C` sets product I's first
    /// variant to C cents; `?remove=I` takes product I out of the feed; `?fail=<status>|password|html|truncated|none`
    /// sets a failure. Answers the shop's product count.
    private func control(_ request: Request, shop name: String) throws -> Response {
        let query = request.uri.queryParameters
        if let count = query.get("products", as: Int.self) {
            addShop(name, products: count, variantsPerProduct: query.get("variants", as: Int.self) ?? 4,
                    seed: query.get("seed", as: UInt64.self) ?? 1)
        }
        if let percent = query.get("changePercent", as: Double.self) {
            _ = update(name) { $0.changePrices(percent: percent, seed: query.get("seed", as: UInt64.self) ?? 7) }
        }
        // One product's first variant at a price (`product=2&price=1999`, cents), or a product gone (`remove=2`).
        if let product = query.get("product", as: Int.self), let cents = query.get("price", as: Int64.self) {
            try update(name, product: product) { $0.setPrice(product: product, to: cents) }
        }
        if let product = query.get("remove", as: Int.self) {
            try update(name, product: product) { _ = $0.remove(product: product) }
        }
        if let mode = query.get("fail") {
            switch mode {
            case "none": fail(name, nil)
            case "password": fail(name, .passwordProtected)
            case "html": fail(name, .htmlPage)
            case "truncated": fail(name, .truncatedJSON)
            default:
                guard let code = Int(mode) else { throw HTTPError(.badRequest, message: "fail must be a status, password, html, truncated or none") }
                fail(name, .status(code, retryAfter: query.get("retryAfter")))
            }
        }
        guard let count = catalog(name)?.products.count else { throw HTTPError(.notFound, message: "no shop \(name)") }
        return json(#"{"products":\#(count)}"#)
    }

    /// Changes one product of the shop; a shop or product that does not exist is a bad request.
    private func update(_ name: String, product: Int, _ change: (inout FixtureCatalog) -> Void) throws {
        let known = update(name) { catalog -> Bool in
            guard catalog.products.indices.contains(product) else { return false }
            change(&catalog)
            return true
        }
        guard known == true else { throw HTTPError(.badRequest, message: "shop \(name) has no product \(product)") }
    }

    // MARK: Running

    /// Serves on 127.0.0.1 (any free port unless given) while `body` runs; `body` gets the port.
    public func withRunning<T: Sendable>(port: Int = 0, logger: Logger = Logger(label: "fixture-shop"),
                                         _ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(router: router(), configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "fixture-shop"),
                              onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            let serviceGroup = ServiceGroup(configuration: .init(services: [app], logger: logger))
            group.addTask {
                try await serviceGroup.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let bound = await iterator.next() else { throw HTTPError(.internalServerError, message: "fixture shop did not start") }
            do {
                let result = try await body(bound)
                await serviceGroup.triggerGracefulShutdown()
                try await group.waitForAll()
                return result
            } catch {
                await serviceGroup.triggerGracefulShutdown()
                try? await group.waitForAll()
                throw error
            }
        }
    }
}
