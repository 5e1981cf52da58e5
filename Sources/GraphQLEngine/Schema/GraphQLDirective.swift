/// A directive a schema knows: built-in (`@skip`, `@include`, `@deprecated`, `@specifiedBy`,
/// `@oneOf`) or defined in SDL.
/// A class for the same reason as ``GraphQLField``.
public final class GraphQLDirective: Sendable {
    public let name: String
    public let description: String?
    public let locations: [DirectiveLocation]
    public let arguments: [GraphQLInputValue]
    public let isRepeatable: Bool
    public let definition: DirectiveDefinition?

    public init(
        name: String, description: String?, locations: [DirectiveLocation], arguments: [GraphQLInputValue], isRepeatable: Bool,
        definition: DirectiveDefinition?
    ) {
        self.name = name
        self.description = description
        self.locations = locations
        self.arguments = arguments
        self.isRepeatable = isRepeatable
        self.definition = definition
    }

    public func argument(named name: String) -> GraphQLInputValue? {
        for argument in arguments where argument.name == name { return argument }
        return nil
    }

    public func allows(_ location: DirectiveLocation) -> Bool { locations.contains(location) }

    /// The names of the directives every schema has unless it defines its own.
    public static let specifiedNames: [String] = ["include", "skip", "deprecated", "specifiedBy", "oneOf"]

    /// `@deprecated`'s reason when none is given.
    public static let defaultDeprecationReason = "No longer supported"
}
