import GraphQLEngine

/// The custom scalars `schema.graphql` declares, by name, for ``SchemaBuildOptions/scalars``.
/// `JSON` takes any value, as an SDL scalar without hooks does. `String` and `JSON` refuse the
/// NUL character, which PostgreSQL cannot store in text.
public enum HearthScalars {
    public static let all: [String: any ScalarCoercing] = [
        "DateTime": DateTimeScalar(),
        "UUID": UUIDScalar(),
        "Decimal": DecimalScalar(),
        "URL": URLScalar(),
        "JSON": NULFreeCoercion(name: "JSON", base: CustomScalarCoercion()),
        "String": NULFreeCoercion(name: "String", base: StringCoercion()),
    ]
}
