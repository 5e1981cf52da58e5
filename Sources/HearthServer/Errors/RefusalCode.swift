import GraphQLEngine
import HearthCore

/// The `extensions.code` of each refusal the server makes itself — around the engine and before
/// the services, whose codes are ``ServiceError/Kind``'s — named once, so a code cannot be misspelt
/// in one place and a client can rely on the list.
public enum RefusalCode: String, Sendable, CaseIterable {
    case badRequest = "BAD_REQUEST"
    case unauthenticated = "UNAUTHENTICATED"
    case forbidden = "FORBIDDEN"
    case methodNotAllowed = "METHOD_NOT_ALLOWED"
    case notAcceptable = "NOT_ACCEPTABLE"
    case unsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
    case payloadTooLarge = "PAYLOAD_TOO_LARGE"
    case uriTooLong = "URI_TOO_LONG"
    case requestHeaderFieldsTooLarge = "REQUEST_HEADER_FIELDS_TOO_LARGE"
    case requestTimeout = "REQUEST_TIMEOUT"
    case persistedQueryNotFound = "PERSISTED_QUERY_NOT_FOUND"
    case persistedQueryNotSupported = "PERSISTED_QUERY_NOT_SUPPORTED"
    case subscriptionNeedsStream = "SUBSCRIPTION_NEEDS_STREAM"
    case tooManySubscriptions = "TOO_MANY_SUBSCRIPTIONS"
    case tooManyConnections = "TOO_MANY_CONNECTIONS"
    /// The execution ran past its deadline and was stopped.
    case timeout = "TIMEOUT"
    case serviceUnavailable = "SERVICE_UNAVAILABLE"
    case internalServerError = "INTERNAL_SERVER_ERROR"
}

extension FieldError {
    /// A field refused by the server itself (not by a service), with its code.
    init(_ message: String, code: RefusalCode) {
        self.init(message, code: code.rawValue)
    }
}
