/// How one field gets its value.
public enum FieldResolver: Sendable {
    /// Answers at once; the executor calls it inline, with no task or suspension.
    case sync(@Sendable (FieldInput) throws -> Resolved)
    /// May suspend; runs concurrently with the other suspending fields of its level.
    case async(@Sendable (FieldInput) async throws -> Resolved)
    /// Reads the field from its parent alone (``ObjectFields/field(_:_:)``): inline, without
    /// building a ``FieldInput``.
    case read(@Sendable (Resolved) throws -> Resolved)
    /// Resolves the field for every parent of one level at once (``ObjectFields/resolveBatch(_:_:)``):
    /// one call with the inputs of all the positions the same planned field reached (same arguments),
    /// answering one value per input in their order. A thrown error fails each of those positions.
    case batch(@Sendable ([FieldInput]) async throws -> [Resolved])
}

/// The resolvers of a schema, registered by schema coordinate (`Type.field`) before binding.
///
/// ```swift
/// var resolvers = Resolvers()
/// resolvers.field("Query.households") { input in … }
/// resolvers.typeResolver("Node") { value, input in "Household" }
/// let executable = try ExecutableSchema(schema, resolvers: resolvers)
/// ```
public struct Resolvers: Sendable {
    /// Which unbound object fields may use the default resolver (read the parent's same-named key or property).
    public enum DefaultResolution: Sendable {
        /// Every field without a resolver reads its parent.
        case everywhere
        /// Only fields of these object types; any other unbound field fails binding.
        case types(Set<String>)
        /// No defaults: every object field needs a resolver.
        case none
    }

    var fields: [String: FieldResolver] = [:]
    var typeResolvers: [String: @Sendable (Resolved, FieldInput) throws -> String?] = [:]
    var subscriptions: [String: @Sendable (FieldInput) async throws -> AsyncThrowingStream<Resolved, any Error>] = [:]
    var duplicates: [String] = []
    public var defaultResolution: DefaultResolution

    public init(defaultResolution: DefaultResolution = .none) {
        self.defaultResolution = defaultResolution
    }

    /// A synchronous resolver for `coordinate` (`Type.field`).
    public mutating func field(_ coordinate: String, _ resolve: @escaping @Sendable (FieldInput) throws -> Resolved) {
        register(coordinate, .sync(resolve))
    }

    /// A resolver for `coordinate` that may suspend (a database call, a DataLoader).
    public mutating func field(_ coordinate: String, _ resolve: @escaping @Sendable (FieldInput) async throws -> Resolved) {
        register(coordinate, .async(resolve))
    }

    /// A resolver for `coordinate` that reads its arguments as the host type `Arguments`, decoded
    /// once per call by ``FieldInput/arguments(_:)`` (the schema's defaults already applied).
    public mutating func field<Arguments: Decodable & Sendable>(
        _ coordinate: String, arguments: Arguments.Type,
        _ resolve: @escaping @Sendable (FieldInput, Arguments) async throws -> Resolved
    ) {
        register(coordinate, .async { input in try await resolve(input, try input.arguments(Arguments.self)) })
    }

    mutating func register(_ coordinate: String, _ resolver: FieldResolver) {
        if fields.updateValue(resolver, forKey: coordinate) != nil { duplicates.append(coordinate) }
    }

    /// How values of the interface or union `typeName` name their object type; return nil when unknown.
    public mutating func typeResolver(_ typeName: String, _ resolve: @escaping @Sendable (Resolved, FieldInput) throws -> String?) {
        if typeResolvers.updateValue(resolve, forKey: typeName) != nil { duplicates.append(typeName) }
    }

    /// The source stream of the subscription field `coordinate`: each element is one event. Unless the
    /// field also has a resolver, the event itself is the field's value.
    public mutating func subscription(
        _ coordinate: String,
        _ subscribe: @escaping @Sendable (FieldInput) async throws -> AsyncThrowingStream<Resolved, any Error>
    ) {
        if subscriptions.updateValue(subscribe, forKey: coordinate) != nil { duplicates.append(coordinate) }
    }
}

/// An error a resolver throws to tell the client what went wrong: its message and code are shown.
/// Any other error is reported as "Internal server error" (its text stays on the server).
public protocol GraphQLReportableError: Error {
    var message: String { get }
    /// `extensions.code`, such as `NOT_FOUND` or `FORBIDDEN`.
    var code: String { get }
    /// Further extensions after `code`.
    var extraExtensions: [(key: String, value: GraphQLError.ExtensionValue)] { get }
}

extension GraphQLReportableError {
    public var extraExtensions: [(key: String, value: GraphQLError.ExtensionValue)] { [] }
}

/// A client-facing error with a message and a code, for resolvers that need nothing more.
public struct FieldError: GraphQLReportableError, Sendable {
    public var message: String
    public var code: String
    public var extraExtensions: [(key: String, value: GraphQLError.ExtensionValue)]

    public init(_ message: String, code: String = "BAD_USER_INPUT", extensions: [(key: String, value: GraphQLError.ExtensionValue)] = []) {
        self.message = message
        self.code = code
        self.extraExtensions = extensions
    }
}
