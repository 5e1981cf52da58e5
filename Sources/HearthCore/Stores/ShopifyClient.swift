import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Fetches a store's public `/products.json` feed page by page and hands each page on as it
/// arrives (a catalog is never held whole), mapping every failure to a ``StoreSyncError``.
///
/// Redirects are not followed (a 302 to `/password` means password-protected), except
/// http→https on the same host. Hosts must pass the ``HostAddressGuard`` unless allow-listed.
public final class ShopifyClient: Sendable {
    public let configuration: ShopifyClientConfiguration
    /// Made on the first fetch, so a server (or test) that never fetches has nothing to shut down.
    private let client = Mutex<HTTPClient?>(nil)
    private let httpConfiguration: HTTPClient.Configuration

    /// What one fetch of a whole feed saw.
    public struct FetchSummary: Sendable, Equatable {
        public var pages: Int
        public var products: Int
        /// False when the feed was cut (the 25 000-product cap or Shopify's page limit), so
        /// products not seen may still exist.
        public var complete: Bool
    }

    public init(configuration: ShopifyClientConfiguration = ShopifyClientConfiguration()) {
        self.configuration = configuration
        var http = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10)),
            decompression: .enabled(limit: .size(configuration.maximumPageBytes)))
        http.connectionPool = .init(idleTimeout: .seconds(30))
        // A refused or failed connection fails the request at once (NETWORK_UNAVAILABLE) instead of
        // being retried until the request times out: the sync loop retries with its own back-off.
        http.connectionPool.retryConnectionEstablishment = false
        self.httpConfiguration = http
    }

    private var http: HTTPClient {
        client.withLock { client in
            if let client { return client }
            let made = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: httpConfiguration)
            client = made
            return made
        }
    }

    /// Closes the connection pool, if one was opened; call once when the service stops.
    public func shutdown() async throws {
        guard let http = client.withLock({ client -> HTTPClient? in
            defer { client = nil }
            return client
        }) else { return }
        try await http.shutdown()
    }

    /// Fetches every page of `domain`'s feed, calling `page` with each page's products in
    /// order, until a short or empty page, an `errors` answer (Shopify's page limit) or the
    /// product cap. Feed failures throw ``StoreSyncError``; `page`'s own errors pass through.
    @discardableResult
    public func fetchCatalog(_ domain: StoreDomain, logger: Logger,
                             page handle: ([FeedProduct]) async throws -> Void) async throws -> FetchSummary {
        var summary = FetchSummary(pages: 0, products: 0, complete: true)
        var number = 1
        while true {
            guard let products = try await fetchPage(domain, number: number, logger: logger) else {
                summary.complete = false  // Shopify's "Page * Limit exceeds" answer
                break
            }
            let room = configuration.maximumProducts - summary.products
            let kept = products.count > room ? Array(products.prefix(room)) : products
            summary.pages += 1
            summary.products += kept.count
            if !kept.isEmpty { try await handle(kept) }
            if products.count < configuration.pageSize, kept.count == products.count { break }  // the feed's end
            if summary.products >= configuration.maximumProducts {
                // The cap cut the feed short: what was not read is not known to be gone.
                summary.complete = false
                break
            }
            number += 1
        }
        return summary
    }

    /// The last fetch that failed, for the stores health entry: when, which host, and why.
    public struct OutboundFailure: Sendable, Equatable {
        public var at: Date
        public var host: String
        public var error: StoreSyncError
    }

    private let lastFailure = Mutex<OutboundFailure?>(nil)

    /// The last failed fetch in this process, if any.
    public var lastOutboundFailure: OutboundFailure? { lastFailure.withLock { $0 } }

    /// One page's products; nil when Shopify answers with its page-limit `errors`.
    func fetchPage(_ domain: StoreDomain, number: Int, logger: Logger) async throws -> [FeedProduct]? {
        do {
            return try await fetchPageOnce(domain, number: number, logger: logger)
        } catch let error as StoreSyncError {
            lastFailure.withLock { $0 = OutboundFailure(at: Date(), host: domain.host, error: error) }
            throw error
        }
    }

    /// The address of `path` at `domain` (its allow-listed origin, else https after the host
    /// passed the ``HostAddressGuard``).
    private func url(_ domain: StoreDomain, _ path: String) async throws -> String {
        if let allowed = configuration.allowed(domain.host) {
            return (allowed.origin ?? "https://\(domain.host)") + path
        }
        try await HostAddressGuard.check(domain.host, using: configuration.resolver)
        return "https://\(domain.host)" + path
    }

    /// What a shop's public `/meta.json` says its prices are in.
    public enum Currency: Sendable, Equatable {
        /// An ISO 4217 code (three capital letters).
        case code(String)
        /// The shop answered and names no currency (or something that is not a code).
        case none
        /// The shop could not be asked (network, timeout, an error status): what was known stays.
        case unknown
    }

    /// The currency `domain` prices in, from its `/meta.json`. Never throws but on cancellation:
    /// a shop whose facts cannot be read is still synced, its currency left as it was.
    public func fetchCurrency(_ domain: StoreDomain, logger: Logger) async throws -> Currency {
        struct Meta: Decodable { var currency: String? }
        do {
            let response = try await get(try await url(domain, "/meta.json"), logger: logger)
            guard response.status == 200 else { return response.status == 404 ? .none : .unknown }
            guard let meta = try? JSONDecoder().decode(Meta.self, from: Data(response.body.readableBytesView)) else { return .none }
            guard let code = meta.currency, code.utf8.count == 3, code.utf8.allSatisfy({ (65...90).contains($0) }) else { return .none }
            return .code(code)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            logger.debug("store facts unreadable", metadata: ["domain": "\(domain.host)", "error": "\(error)"])
            return .unknown
        }
    }

    private func fetchPageOnce(_ domain: StoreDomain, number: Int, logger: Logger) async throws -> [FeedProduct]? {
        var url = try await url(domain, "/products.json?limit=\(configuration.pageSize)&page=\(number)")
        var upgraded = false
        while true {
            let response = try await get(url, logger: logger)
            switch response.status {
            case 200:
                return try decode(response, number: number)
            case 301, 302, 303, 307, 308:
                let location = response.location ?? ""
                if location.split(separator: "?").first.map({ $0.hasSuffix("/password") }) == true {
                    throw StoreSyncError(.passwordProtected, "The store is password-protected.", status: response.status)
                }
                if !upgraded, url.hasPrefix("http://"), location == "https://" + url.dropFirst("http://".count) {
                    url = location
                    upgraded = true
                    continue
                }
                throw StoreSyncError(.storeNotFound, "The store's feed moves elsewhere (\(location.prefix(200))); add the store by its current domain.",
                                     status: response.status)
            case 400 where response.isPageLimit:
                return nil
            case 401:
                throw StoreSyncError(.passwordProtected, "The store asks for a password.", status: 401)
            case 403:
                throw StoreSyncError(.feedDisabled, "The store refuses to share its product feed.", status: 403)
            case 404, 410:
                throw StoreSyncError(.notAShopifyStore, "\(domain.host) has no Shopify product feed.", status: response.status)
            case 429:
                throw StoreSyncError(.rateLimited, "The store asked Hearth to slow down.", status: 429, retryAfter: response.retryAfter)
            case 430:
                throw StoreSyncError(.rateLimited, "Shopify refused Hearth as a bot for now.", status: 430,
                                     retryAfter: max(response.retryAfter ?? 0, 3600))
            case 500...599:
                throw StoreSyncError(.serverError, "The store answered with server error \(response.status).", status: response.status)
            default:
                throw StoreSyncError(.invalidResponse, "The store answered with HTTP status \(response.status).", status: response.status)
            }
        }
    }

    private struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: ByteBuffer

        var location: String? { headers.first(name: "location") }
        /// `Retry-After` in seconds, fractional allowed (an HTTP date is not used by Shopify).
        var retryAfter: Double? {
            headers.first(name: "retry-after").flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) }
        }
        var isPageLimit: Bool {
            (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])?["errors"] != nil
        }
    }

    private func get(_ url: String, logger: Logger) async throws -> Response {
        let headers: HTTPHeaders = ["User-Agent": configuration.userAgent, "Accept": "application/json"]
        let timeout = configuration.requestTimeout
        let limit = configuration.maximumPageBytes
        let http = self.http
        do {
            return try await withTimeout(timeout) {
                var request = HTTPClientRequest(url: url)
                request.headers = headers
                // The whole request, body included, is bounded by `withTimeout`; AHC's own deadline is a backstop.
                let response = try await http.execute(request, timeout: .seconds(timeout.components.seconds + 1), logger: logger)
                let body = try await response.body.collect(upTo: limit)
                return Response(status: Int(response.status.code), headers: response.headers, body: body)
            }
        } catch let error as StoreSyncError {
            throw error
        } catch is TimeoutError {
            throw StoreSyncError(.timeout, "The store did not answer within \(timeout).")
        } catch is NIOTooManyBytesError {
            let size = limit >= 1 << 20 ? "\(limit >> 20) MiB" : limit >= 1 << 10 ? "\(limit >> 10) KiB" : "\(limit) bytes"
            throw StoreSyncError(.invalidResponse, "A page of the feed is larger than \(size).")
        } catch let error as HTTPClientError where [.deadlineExceeded, .readTimeout, .connectTimeout].contains(error) {
            throw StoreSyncError(.timeout, "The store did not answer within \(timeout).")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            logger.debug("store fetch failed", metadata: ["url": "\(url)", "error": "\(String(reflecting: error))"])
            throw StoreSyncError(.networkUnavailable, "Hearth could not connect to the store.")
        }
    }

    private struct Envelope: Decodable {
        var products: [FeedProduct]?
        var errors: IgnoredValue?
    }

    private struct IgnoredValue: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    private func decode(_ response: Response, number: Int) throws -> [FeedProduct]? {
        let type = response.headers.first(name: "content-type")?.lowercased() ?? ""
        if type.contains("text/html") {
            throw StoreSyncError(.notAShopifyStore, "The store answers with a web page, not a Shopify product feed.", status: 200)
        }
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: Data(response.body.readableBytesView))
        } catch let error as DecodingError {
            throw StoreSyncError(.invalidResponse, "Page \(number) of the feed is not a valid product list (\(Self.describe(error))).")
        } catch {
            throw StoreSyncError(.invalidResponse, "Page \(number) of the feed is not JSON.")
        }
        if envelope.errors != nil, envelope.products == nil { return nil }
        guard let products = envelope.products else {
            throw StoreSyncError(.notAShopifyStore, "The store's answer has no product list.", status: 200)
        }
        return products
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "truncated or malformed JSON" : "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "\(path(context.codingPath)) has the wrong type"
        @unknown default: return "malformed"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }
}
