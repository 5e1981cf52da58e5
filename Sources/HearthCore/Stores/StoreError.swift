/// Why the stores service refused a request; the API maps each case to `extensions.code`.
/// A refused permission is the households service's `HouseholdError.forbidden`, as everywhere.
public enum StoreError: Error, Sendable, Equatable {
    /// A field of the input is not acceptable (`BAD_USER_INPUT`), `field` named as in the API.
    case invalidInput(field: String, message: String)
    /// No such thing, or not one the caller may see (`NOT_FOUND`): the two look the same.
    case notFound(String)
    /// The request contradicts the household's state (`CONFLICT`): a domain added twice.
    case conflict(String)
    /// Too soon after the last sync of this store (`RATE_LIMITED`), with seconds to wait.
    case rateLimited(retryAfter: Int, message: String)
    /// Adding a store fetched its feed, and that failed (`BAD_USER_INPUT` with the sync error).
    case feedUnusable(StoreSyncError)

    public var message: String {
        switch self {
        case .invalidInput(_, let message), .conflict(let message), .rateLimited(_, let message): message
        case .notFound(let what): "\(what) not found."
        case .feedUnusable(let error): "The store's product feed cannot be used: \(error.message) \(error.suggestion)"
        }
    }
}
