import Testing

@testable import GraphQLEngine

/// Builds an executor over SDL and runs operations, returning responses as JSON values.
struct ExecutionHarness {
    let executor: Executor

    init(_ sdl: String, resolvers: Resolvers = Resolvers(defaultResolution: .everywhere),
         configuration: ExecutorConfiguration = ExecutorConfiguration()) throws {
        let schema = try SchemaBuilder.build(sdl: sdl)
        executor = Executor(try ExecutableSchema(schema, resolvers: resolvers), configuration: configuration)
    }

    func run(
        _ query: String, root: GraphQLValue = [:], variables: GraphQLObject = GraphQLObject(), operationName: String? = nil,
        context: any Sendable = ()
    ) async throws -> GraphQLValue {
        let response = await executor.execute(
            GraphQLRequest(query: query, operationName: operationName, variables: variables), rootValue: .value(root), context: context)
        return try JSONParser.parse(response.json)
    }

    /// The response JSON with `extensions` removed from errors (most tests compare graphql-js's shape).
    func plain(
        _ query: String, root: GraphQLValue = [:], variables: GraphQLObject = GraphQLObject(), operationName: String? = nil
    ) async throws -> String {
        try Self.stripExtensions(await run(query, root: root, variables: variables, operationName: operationName))
    }

    static func stripExtensions(_ response: GraphQLValue) -> String {
        guard case .object(var object) = response else { return response.json }
        if case .list(let errors)? = object["errors"] {
            object["errors"] = .list(errors.map { error in
                guard case .object(var fields) = error else { return error }
                fields["extensions"] = nil
                return .object(fields)
            })
        }
        return GraphQLValue.object(object).json
    }

    /// The messages of the response's errors.
    static func messages(_ response: GraphQLValue) -> [String] {
        guard case .list(let errors)? = response["errors"] else { return [] }
        return errors.compactMap { if case .string(let message)? = $0["message"] { return message } else { return nil } }
    }

    static func codes(_ response: GraphQLValue) -> [String] {
        guard case .list(let errors)? = response["errors"] else { return [] }
        return errors.compactMap { if case .string(let code)? = $0["extensions"]?["code"] { return code } else { return nil } }
    }
}

/// A JSON literal for expectations.
func json(_ text: String) -> String {
    (try? JSONParser.parse(text).json) ?? "invalid JSON in test: \(text)"
}
