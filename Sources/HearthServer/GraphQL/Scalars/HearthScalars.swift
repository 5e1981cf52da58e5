import GraphQLEngine

/// The custom scalars `schema.graphql` declares, by name, for ``SchemaBuildOptions/scalars``.
/// `JSON` takes any value, as an SDL scalar without hooks does.
public enum HearthScalars {
    public static let all: [String: any ScalarCoercing] = [
        "DateTime": DateTimeScalar(),
        "UUID": UUIDScalar(),
        "Decimal": DecimalScalar(),
        "URL": URLScalar(),
        "JSON": CustomScalarCoercion(),
    ]
}
