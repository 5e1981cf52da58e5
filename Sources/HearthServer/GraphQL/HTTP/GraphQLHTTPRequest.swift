import GraphQLEngine

/// A GraphQL-over-HTTP request's parameters (`query`, `variables`, `operationName`,
/// `extensions`) read from a JSON body or from URL query parameters. Unknown properties are
/// ignored; a parameter of the wrong kind is a ``GraphQLHTTPError`` (400) naming it.
struct GraphQLHTTPRequest: Sendable {
    /// The document; absent only when ``persistedQuery`` names it instead.
    var query: String?
    var operationName: String?
    var variables: GraphQLObject
    var extensions: GraphQLObject
    /// Apollo's automatic persisted query: `extensions.persistedQuery { version: 1, sha256Hash }`.
    var persistedQuery: PersistedQueryReference?

    struct PersistedQueryReference: Sendable {
        var sha256Hash: String
    }

    /// From a POST body.
    init(body: [UInt8]) throws(GraphQLHTTPError) {
        let value: GraphQLValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw GraphQLHTTPError(.badRequest, "The request body is not valid JSON: \(error.message)")
        }
        guard case .object(let parameters) = value else {
            throw GraphQLHTTPError(.badRequest, "The request body must be a JSON object with a \"query\" string.")
        }
        switch parameters["query"] {
        case .string(let query)?: self.query = query
        case nil, .null?: self.query = nil
        default: throw GraphQLHTTPError(.badRequest, "The request's \"query\" must be a string.")
        }
        operationName = try Self.optionalString(parameters["operationName"], "operationName")
        variables = try Self.optionalObject(parameters["variables"], "variables")
        extensions = try Self.optionalObject(parameters["extensions"], "extensions")
        persistedQuery = try Self.persistedQuery(in: extensions)
        try requireQuery()
    }

    /// From a GET request's URL query (form-encoded): `variables` and `extensions` are JSON text.
    init(queryParameters: FormURLEncodedQuery) throws(GraphQLHTTPError) {
        query = try queryParameters.single("query")
        operationName = try queryParameters.single("operationName").flatMap { $0.isEmpty ? nil : $0 }
        variables = try Self.jsonObject(queryParameters.single("variables"), "variables")
        extensions = try Self.jsonObject(queryParameters.single("extensions"), "extensions")
        persistedQuery = try Self.persistedQuery(in: extensions)
        try requireQuery()
    }

    private func requireQuery() throws(GraphQLHTTPError) {
        if query == nil, persistedQuery == nil { throw GraphQLHTTPError(.badRequest, "The request has no \"query\".") }
    }

    private static func persistedQuery(in extensions: GraphQLObject) throws(GraphQLHTTPError) -> PersistedQueryReference? {
        guard let value = extensions["persistedQuery"], value != .null else { return nil }
        guard case .object(let reference) = value else {
            throw GraphQLHTTPError(.badRequest, "\"extensions.persistedQuery\" must be an object.")
        }
        guard reference["version"] == .int(1) else {
            throw GraphQLHTTPError(.badRequest, "Unsupported persisted query version.", code: .persistedQueryNotSupported)
        }
        guard case .string(let hash)? = reference["sha256Hash"] else {
            throw GraphQLHTTPError(.badRequest, "\"extensions.persistedQuery.sha256Hash\" must be a string.")
        }
        return PersistedQueryReference(sha256Hash: hash.lowercased())
    }

    private static func optionalString(_ value: GraphQLValue?, _ name: String) throws(GraphQLHTTPError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let string)?: return string
        default: throw GraphQLHTTPError(.badRequest, "The request's \"\(name)\" must be a string or null.")
        }
    }

    private static func optionalObject(_ value: GraphQLValue?, _ name: String) throws(GraphQLHTTPError) -> GraphQLObject {
        switch value {
        case nil, .null?: return GraphQLObject()
        case .object(let object)?: return object
        default: throw GraphQLHTTPError(.badRequest, "The request's \"\(name)\" must be a JSON object or null.")
        }
    }

    private static func jsonObject(_ text: String?, _ name: String) throws(GraphQLHTTPError) -> GraphQLObject {
        guard let text, !text.isEmpty else { return GraphQLObject() }
        let value: GraphQLValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw GraphQLHTTPError(.badRequest, "The \"\(name)\" parameter is not valid JSON: \(error.message)")
        }
        return try optionalObject(value, name)
    }
}
