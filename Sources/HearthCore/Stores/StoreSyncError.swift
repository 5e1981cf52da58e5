import Foundation

/// Why fetching a store's product feed failed: kept per store as its last error and shown to
/// members with a message and what to do about it.
public struct StoreSyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure, as the API's `SyncErrorCode` enum.
    public enum Code: String, Sendable, CaseIterable {
        case storeNotFound = "STORE_NOT_FOUND"
        case notAShopifyStore = "NOT_A_SHOPIFY_STORE"
        case passwordProtected = "PASSWORD_PROTECTED"
        case feedDisabled = "FEED_DISABLED"
        case rateLimited = "RATE_LIMITED"
        case networkUnavailable = "NETWORK_UNAVAILABLE"
        case timeout = "TIMEOUT"
        case serverError = "SERVER_ERROR"
        case invalidResponse = "INVALID_RESPONSE"
    }

    public var code: Code
    /// What happened, in words a member understands.
    public var message: String
    /// The HTTP status, for server errors and refusals.
    public var status: Int?
    /// Seconds the store asked us to wait (429's `Retry-After`), or the back-off Shopify's bot
    /// rejection (430) calls for.
    public var retryAfter: Double?

    public init(_ code: Code, _ message: String, status: Int? = nil, retryAfter: Double? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.retryAfter = retryAfter
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// What a member can do about it.
    public var suggestion: String {
        switch code {
        case .storeNotFound: "Check the domain's spelling; the store may have closed."
        case .notAShopifyStore: "Only Shopify storefronts have a public product feed; check that this is one."
        case .passwordProtected: "The store is behind a password (often before a launch); try again once it opens."
        case .feedDisabled: "The store has turned its public product feed off; Hearth cannot watch it."
        case .rateLimited: "The store asked for a pause; Hearth retries by itself."
        case .networkUnavailable: "Hearth could not reach the store; check the server's network connection."
        case .timeout: "The store answered too slowly; Hearth retries later."
        case .serverError: "The store had a problem of its own; Hearth retries later."
        case .invalidResponse: "The store sent something that is not a product feed; Hearth retries later."
        }
    }

    /// Rate limiting is a pause the store asked for, not a failure to show members.
    public var isShownToMembers: Bool { code != .rateLimited }
}

extension ServiceError {
    /// Adding a store fetched its feed, and that failed.
    public static func feedUnusable(_ error: StoreSyncError) -> ServiceError {
        var details = Details()
        (details.syncError, details.suggestion) = (error.code.rawValue, error.suggestion)
        return ServiceError(.badUserInput, "The store's product feed cannot be used: \(error.message) \(error.suggestion)", field: "domain",
                            details: details)
    }
}
