import GraphQLEngine

/// A GraphQL-over-HTTP request's parameters (`query`, `variables`, `operationName`,
/// `extensions`) read from a JSON body or from URL query parameters. Unknown properties are
/// ignored; a parameter of the wrong kind is a ``GraphQLHTTPError`` (400) naming it.
struct GraphQLHTTPRequest: Sendable {
    var query: String
    var operationName: String?
    var variables: GraphQLObject
    var extensions: GraphQLObject

    var engineRequest: GraphQLRequest { GraphQLRequest(query: query, operationName: operationName, variables: variables) }

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
        guard case .string(let query)? = parameters["query"] else {
            throw GraphQLHTTPError(
                .badRequest,
                parameters["query"] == nil ? "The request has no \"query\"." : "The request's \"query\" must be a string.")
        }
        self.query = query
        operationName = try Self.optionalString(parameters["operationName"], "operationName")
        variables = try Self.optionalObject(parameters["variables"], "variables")
        extensions = try Self.optionalObject(parameters["extensions"], "extensions")
    }

    /// From URL query parameters (GET): `variables` and `extensions` are JSON text.
    init(queryParameters: (String) -> String?) throws(GraphQLHTTPError) {
        guard let query = queryParameters("query") else {
            throw GraphQLHTTPError(.badRequest, "The request has no \"query\" parameter.")
        }
        self.query = query
        operationName = queryParameters("operationName").flatMap { $0.isEmpty ? nil : $0 }
        variables = try Self.jsonObject(queryParameters("variables"), "variables")
        extensions = try Self.jsonObject(queryParameters("extensions"), "extensions")
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
