/// Why a service refused a request, said once for every service: its kind (the API shows it as
/// `extensions.code`), a sentence for the person, the input field at fault, and facts for programs
/// (`retryAfter`, a permission denial's rule, a store feed's failure). The API maps it in one place.
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case badUserInput = "BAD_USER_INPUT"
        case unauthenticated = "UNAUTHENTICATED"
        case forbidden = "FORBIDDEN"
        case notFound = "NOT_FOUND"
        case conflict = "CONFLICT"
        case rateLimited = "RATE_LIMITED"
        case syncCursorExpired = "SYNC_CURSOR_EXPIRED"
        case serviceUnavailable = "SERVICE_UNAVAILABLE"
    }

    /// The facts for programs a refusal may carry, shown after the code (and field) in `extensions`
    /// under these names; each refusal sets the ones that describe it.
    public struct Details: Sendable, Equatable {
        /// The same request later will do (the database was away, writers collided).
        public var retryable = false
        /// Seconds to wait before trying again, for `RATE_LIMITED`.
        public var retryAfter: Int?
        /// A version conflict: the fields (as named in the API) someone else changed, and the record's version now.
        public var conflictingFields: [String]?
        public var currentVersion: Int?
        /// A permission denial: what was asked, of which subject type, why not, and the role that would be allowed.
        public var denial: Denial?
        /// A store feed's failure: its code (`FEED_NOT_FOUND`, …) and what to do.
        public var syncError: String?
        public var suggestion: String?

        public init() {}
    }

    /// What a refused permission check tells programs (CASL's terms): the action, the subject's
    /// type, the deciding rule's reason, and the lowest role that would be allowed.
    public struct Denial: Sendable, Equatable {
        public var action: String
        public var subjectType: String
        public var reason: String
        public var neededRole: String?

        public init(action: String, subjectType: String, reason: String, neededRole: String?) {
            (self.action, self.subjectType, self.reason, self.neededRole) = (action, subjectType, reason, neededRole)
        }
    }

    public var kind: Kind
    public var message: String
    /// The input field at fault, named as in the API.
    public var field: String?
    public var details: Details

    public init(_ kind: Kind, _ message: String, field: String? = nil, details: Details = Details()) {
        self.kind = kind
        self.message = message
        self.field = field
        self.details = details
    }

    public var description: String { "\(kind.rawValue): \(message)" }

    /// Seconds to wait before trying again, for `RATE_LIMITED`.
    public var retryAfter: Int? { details.retryAfter }

    /// Details with only `retryable` set.
    static var retryable: Details {
        var details = Details()
        details.retryable = true
        return details
    }

    // MARK: Input and state

    /// The database cannot be reached right now (restarting, or an outage): nothing was done
    /// unless the request said otherwise; the same request later will do.
    public static let databaseUnavailable = ServiceError(
        .serviceUnavailable, "Hearth's database is not reachable right now (it may be restarting); please try again in a few seconds.",
        details: retryable)

    /// A field of the input is not acceptable.
    public static func invalidInput(field: String, message: String) -> ServiceError {
        ServiceError(.badUserInput, message, field: field)
    }

    /// No such thing, or not one the caller may see: the two look the same.
    public static func notFound(_ what: String) -> ServiceError { ServiceError(.notFound, "\(what) not found.") }

    /// The request contradicts the state: the last owner leaving, a person or a store added twice.
    public static func conflict(_ message: String) -> ServiceError { ServiceError(.conflict, message) }

    /// Too soon: try again after `retryAfter` seconds.
    public static func rateLimited(retryAfter: Int, message: String) -> ServiceError {
        var details = Details()
        details.retryAfter = retryAfter
        return ServiceError(.rateLimited, message, details: details)
    }

    /// An edit based on `expectedVersion` names fields someone else changed since: the fields (as
    /// named in the API) and the record's current version, for the client to merge and retry.
    public static func versionConflict(_ what: String, fields: [String], currentVersion: Int) -> ServiceError {
        let list = fields.joined(separator: ", ")
        let message = fields.isEmpty
            ? "The \(what.lowercased()) changed since the version you based this on; it is at version \(currentVersion) now."
            : "Someone else changed \(list) of this \(what.lowercased()) since the version you based this on; it is at version \(currentVersion) now."
        var details = Details()
        (details.conflictingFields, details.currentVersion) = (fields, currentVersion)
        return ServiceError(.conflict, message, details: details)
    }

    /// The fields a version conflict names (empty for other errors).
    public var conflictingFields: [String] { details.conflictingFields ?? [] }

    /// A sync cursor older than the retention time: the client pulls a snapshot again.
    public static func syncCursorExpired(retentionDays: Int) -> ServiceError {
        ServiceError(.syncCursorExpired, "This sync cursor is older than \(retentionDays) days, so changes after it may be forgotten; pull a snapshot again (after: null).",
                     field: "after")
    }

    /// A sync cursor issued before the database was restored from a backup: its snapshots belong to
    /// the cluster the backup was taken from. The client pulls a snapshot again, keeping its queue.
    public static var syncCursorBeforeRestore: ServiceError {
        ServiceError(.syncCursorExpired, "This sync cursor was issued before Hearth was restored from a backup; pull a snapshot again (after: null).",
                     field: "after")
    }

    // MARK: Permissions

    /// The caller may see it but not do this, said in a sentence.
    public static func forbidden(_ message: String) -> ServiceError { ServiceError(.forbidden, message) }


    // MARK: Accounts

    /// Another account has this email.
    public static let emailTaken = ServiceError(.badUserInput, "An account with this email already exists.", field: "email")

    /// Sign-in failed; one message whether the email exists or not.
    public static let invalidCredentials = ServiceError(.unauthenticated, "Invalid email or password")

    /// Too many password attempts for the account or the address.
    public static func tooManyPasswordAttempts(retryAfter: Int) -> ServiceError {
        rateLimited(retryAfter: retryAfter, message: "Too many password attempts. Try again in \(retryAfter) seconds.")
    }

    /// Too many accounts created from one client address.
    public static func tooManySignUps(retryAfter: Int) -> ServiceError {
        rateLimited(retryAfter: retryAfter, message: "Too many accounts were created from your address. Try again in \(retryAfter) seconds.")
    }

    /// Too many household imports by one person.
    public static func tooManyImports(retryAfter: Int) -> ServiceError {
        rateLimited(retryAfter: retryAfter, message: "You imported too many households lately. Try again in \(retryAfter) seconds.")
    }

    /// Every password-hashing slot is taken and the queue is full.
    public static func busy(retryAfter: Int) -> ServiceError {
        rateLimited(retryAfter: retryAfter, message: "The server is busy checking passwords. Try again in \(retryAfter) seconds.")
    }

    /// A password given to confirm a change is wrong.
    public static func wrongPassword(field: String) -> ServiceError {
        ServiceError(.badUserInput, "\(field) is not your current password.", field: field)
    }
}
