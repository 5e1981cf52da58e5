/// A parsed GraphQL document: its definitions in source order, and the source they came from.
public struct Document: Sendable {
    public var definitions: [Definition]
    public var source: Source
    public var range: SourceRange

    public init(definitions: [Definition], source: Source, range: SourceRange) {
        self.definitions = definitions
        self.source = source
        self.range = range
    }
}

/// A top-level definition: executable (operations, fragments) or type system.
public enum Definition: Sendable {
    case operation(OperationDefinition)
    case fragment(FragmentDefinition)
    case schema(SchemaDefinition)
    case type(TypeDefinition)
    case directive(DirectiveDefinition)
    case schemaExtension(SchemaExtension)
    case typeExtension(TypeExtension)

    public var range: SourceRange {
        switch self {
        case .operation(let node): node.range
        case .fragment(let node): node.range
        case .schema(let node): node.range
        case .type(let node): node.range
        case .directive(let node): node.range
        case .schemaExtension(let node): node.range
        case .typeExtension(let node): node.range
        }
    }

    /// Operations and fragments; everything else belongs to a schema.
    public var isExecutable: Bool {
        switch self {
        case .operation, .fragment: true
        default: false
        }
    }
}

/// A name and where it was written.
public struct Name: Sendable, Hashable {
    public var value: String
    public var range: SourceRange

    public init(_ value: String, range: SourceRange) {
        self.value = value
        self.range = range
    }
}
