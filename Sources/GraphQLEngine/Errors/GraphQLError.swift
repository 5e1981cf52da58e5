/// An error as GraphQL reports it: a message, the places in the document it concerns, the
/// response path it happened at, and extensions such as `code`.
///
/// Syntax errors carry their ``Source`` too, so a tool can quote the
/// offending line (see ``printed``).
public struct GraphQLError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var locations: [SourceLocation]
    public var path: [PathElement]
    public var extensions: [(key: String, value: ExtensionValue)]
    /// The document the locations refer to, when known.
    public var source: Source?

    public init(
        _ message: String,
        locations: [SourceLocation] = [],
        path: [PathElement] = [],
        extensions: [(key: String, value: ExtensionValue)] = []
    ) {
        self.message = message
        self.locations = locations
        self.path = path
        self.extensions = extensions
        self.source = nil
    }

    /// An error at byte positions of a source; locations are computed from them.
    public init(
        _ message: String,
        source: Source,
        positions: [Int],
        path: [PathElement] = [],
        extensions: [(key: String, value: ExtensionValue)] = []
    ) {
        self.message = message
        self.locations = positions.map { source.location(ofByte: $0) }
        self.path = path
        self.extensions = extensions
        self.source = source
    }

    /// A syntax error, worded as graphql-js words them: `Syntax Error: <description>`.
    public static func syntax(_ source: Source, at position: Int, _ description: String) -> GraphQLError {
        GraphQLError(
            "Syntax Error: " + description,
            source: source,
            positions: [position],
            extensions: [("code", .string("GRAPHQL_PARSE_FAILED"))]
        )
    }

    /// The value of `extensions.code`, if set.
    public var code: String? {
        for (key, value) in extensions where key == "code" {
            if case .string(let code) = value { return code }
        }
        return nil
    }

    public var description: String { printed }

    public static func == (lhs: GraphQLError, rhs: GraphQLError) -> Bool {
        lhs.message == rhs.message && lhs.locations == rhs.locations && lhs.path == rhs.path
            && lhs.extensions.map(\.key) == rhs.extensions.map(\.key)
            && lhs.extensions.map(\.value) == rhs.extensions.map(\.value)
    }

    /// One step of a response path: a field's response key or a list index.
    public enum PathElement: Sendable, Hashable, CustomStringConvertible {
        case key(String)
        case index(Int)

        public var description: String {
            switch self {
            case .key(let key): key
            case .index(let index): String(index)
            }
        }
    }

    /// A JSON scalar carried in `extensions`.
    public enum ExtensionValue: Sendable, Hashable {
        case string(String)
        case int(Int)
        case double(Double)
        case bool(Bool)
        /// A list of strings, such as the names of fields at fault.
        case strings([String])
    }
}
