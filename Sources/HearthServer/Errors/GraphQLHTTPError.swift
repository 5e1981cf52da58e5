import GraphQLEngine
import HTTPTypes

/// A GraphQL-over-HTTP request refused before the engine saw it (bad JSON, a missing query, an
/// unsupported media type, a body too large): sent as a GraphQL response with one error whose
/// `extensions.code` names the problem.
struct GraphQLHTTPError: Error, Sendable {
    var status: HTTPResponse.Status
    var message: String
    var code: RefusalCode
    /// Extra headers (`Allow` on 405).
    var headers: HTTPFields

    init(_ status: HTTPResponse.Status, _ message: String, code: RefusalCode = .badRequest, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.code = code
        self.headers = headers
    }

    /// `[{"message":…,"extensions":{"code":…}}]`: the error alone, as WebSocket `error` messages carry it.
    var errorsArray: [UInt8] {
        GraphQLResponse.json(errors: [GraphQLError(message, extensions: [("code", .string(code.rawValue))])])
    }

    /// `{"errors":[{"message":…,"extensions":{"code":…}}]}`
    var json: [UInt8] { Array("{\"errors\":".utf8) + errorsArray + [UInt8(ascii: "}")] }
}
