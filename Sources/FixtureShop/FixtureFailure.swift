/// How a fixture shop misbehaves instead of serving its feed: each of Shopify's failure modes.
public enum FixtureFailure: Sendable, Equatable {
    /// Answers with this status and, for 429/430, an optional `Retry-After` value as written.
    case status(Int, retryAfter: String? = nil)
    /// A 302 to `/password`, as a password-protected store does.
    case passwordProtected
    /// A 200 `text/html` page: not a Shopify store.
    case htmlPage
    /// A 200 with JSON cut off in the middle.
    case truncatedJSON
    /// A 200 JSON object without `products`.
    case noProducts
    /// Waits this long before answering (to trip the client's timeout).
    case slow(Duration)
    /// Shopify's paging cap at a smaller size: a page whose `page × limit` exceeds `products`
    /// answers `{"errors": "Page * Limit exceeds …"}` with `status` (Shopify uses 400 or 200).
    case pageLimit(products: Int, status: Int = 400)
    /// A 301 to `location`.
    case redirect(to: String)
    /// A 200 JSON page of this many bytes (an empty product list padded out).
    case oversized(bytes: Int)
    /// Fails only from this page on (1-based), serving earlier pages normally.
    indirect case fromPage(Int, FixtureFailure)
}
