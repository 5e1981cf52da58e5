/// SDL documents that must not build, one or more problems each: every SDL rule and every
/// schema-validation rule of graphql-js, some several ways. (A few valid ones are mixed in to
/// check that nothing is reported where graphql-js reports nothing.)
enum BadSchemas {
    static let all: [String] = [
        // Syntax
        "type Query { a: }",
        "enum E { true }",
        // KnownTypeNames
        "type Query { a: Foo }",
        "type Query { a(b: Strin): Int }",
        "type Query implements Nod { a: Int }",
        "union U = Querry\ntype Query { u: U }",
        "schema { query: Q }\ntype Query { a: Int }",
        // UniqueTypeNames, UniqueFieldDefinitionNames, UniqueEnumValueNames
        "type Query { a: Int }\ntype Query { b: Int }",
        "type Query { a: Int a: String }",
        "type Query { a: Int }\nextend type Query { a: Int }",
        "type Query { a: E }\nenum E { A B A }",
        "type Query { a: E }\nenum E { A }\nextend enum E { A }",
        "type Query { a(i: I): Int }\ninput I { x: Int x: Int }",
        // UniqueArgumentDefinitionNames, UniqueDirectiveNames
        "type Query { a(x: Int, x: Int): Int }",
        "directive @d(x: Int, x: String) on FIELD\ntype Query { a: Int }",
        "directive @d on FIELD\ndirective @d on QUERY\ntype Query { a: Int }",
        // LoneSchemaDefinition, UniqueOperationTypes
        "schema { query: Query }\nschema { query: Query }\ntype Query { a: Int }",
        "schema { query: Query query: Query }\ntype Query { a: Int }",
        "schema { query: Query }\nextend schema { query: Query }\ntype Query { a: Int }",
        // KnownDirectives, UniqueDirectivesPerLocation
        "type Query @unknown { a: Int }",
        "type Query { a: Int @specifiedBy(url: \"x\") }",
        "scalar S @deprecated\ntype Query { a: S }",
        "type Query { a: Int @deprecated @deprecated }",
        "directive @d on OBJECT\ntype Query @d { a: Int }\nextend type Query @d",
        "directive @d repeatable on OBJECT\ntype Query @d @d { a: Int }",
        "directive @onField on INPUT_FIELD_DEFINITION\ntype Query { a(i: I): Int }\ninput I { x: Int }\nextend input I { y: Int @onField }",
        // PossibleTypeExtensions
        "type Query { a: Int }\nextend type Quer { b: Int }",
        "type Query { a: Int }\nextend interface Query { b: Int }",
        "type Query { a: S }\nscalar S\nextend enum S { A }",
        "type Query { a: Int }\nextend scalar String @deprecated",
        // KnownArgumentNamesOnDirectives, UniqueArgumentNames, ProvidedRequiredArgumentsOnDirectives
        "type Query { a: Int @deprecated(reasn: \"x\") }",
        "type Query { a: Int @deprecated(reason: \"x\", reason: \"y\") }",
        "scalar S @specifiedBy\ntype Query { a: S }",
        "directive @d(x: Int!) on FIELD_DEFINITION\ntype Query { a: Int @d }",
        // UniqueInputFieldNames
        "type Query { a(i: I = {x: 1, x: 2}): Int }\ninput I { x: Int }",
        // Root types
        "type Foo { a: Int }",
        "schema { query: Foo }\ninput Foo { a: Int }",
        "schema { query: Query mutation: M }\ntype Query { a: Int }\ninput M { a: Int }",
        "schema { query: Query subscription: S }\ntype Query { a: Int }\nunion S = Query",
        "input Query { a: Int }",
        // Reserved names
        "type Query { __a: Int }",
        "type __Foo { a: Int }\ntype Query { f: __Foo }",
        "type Query { a(__b: Int): Int }",
        "enum E { __A }\ntype Query { e: E }",
        "input I { __x: Int }\ntype Query { a(i: I): Int }",
        "directive @__d on FIELD\ntype Query { a: Int }",
        // Empty types
        "type Query",
        "interface I\ntype Query implements I { a: Int }",
        "union U\ntype Query { u: U }",
        "enum E\ntype Query { e: E }",
        "input I\ntype Query { a(i: I): Int }",
        // Output and input positions
        "type Query { a: I }\ninput I { x: Int }",
        "type Query { a(o: Query): Int }",
        "input I { x: Query }\ntype Query { a(i: I): Int }",
        "directive @d(x: Query) on FIELD\ntype Query { a: Int }",
        // Interfaces
        "type Query implements Int { a: Int }",
        "interface I implements I { a: Int }\ntype Query { i: I }",
        "interface I { a: Int }\ntype Query implements I & I { a: Int }",
        "interface I { a: Int b: String }\ntype Query implements I { a: Int }",
        "interface I { a: Int }\ntype Query implements I { a: String }",
        "interface I { a: [Int] }\ntype Query implements I { a: [Int]! }",
        "interface I { a: Int! }\ntype Query implements I { a: Int }",
        "interface I { a(x: Int): Int }\ntype Query implements I { a: Int }",
        "interface I { a(x: Int): Int }\ntype Query implements I { a(x: Int!): Int }",
        "interface I { a: Int }\ntype Query implements I { a(x: Int!): Int }",
        "interface A { a: Int }\ninterface B implements A { a: Int }\ntype Query implements B { a: Int }",
        "interface A implements B { a: Int }\ninterface B implements A { a: Int }\ntype Query implements A & B { a: Int }",
        "interface N { id: ID }\ntype Query implements N { id: ID! n: N }\nunion U = Query\ntype T implements N { id: Int }",
        // Unions
        "union U = Query | Query\ntype Query { u: U }",
        "interface I { a: Int }\nunion U = I\ntype Query implements I { a: Int u: U }",
        "union U = String\ntype Query { u: U }",
        // Input object cycles
        "input A { b: B! }\ninput B { a: A! }\ntype Query { f(a: A): Int }",
        "input A { self: A! }\ntype Query { f(a: A): Int }",
        "input A { b: B! }\ninput B { c: C! }\ninput C { a: A! }\ntype Query { f(a: A): Int }",
        "input A { list: [A!]! other: A }\ntype Query { f(a: A): Int }",
        // Deprecation of required things
        "type Query { a(x: Int! @deprecated): Int }",
        "input I { x: Int! @deprecated }\ntype Query { a(i: I): Int }",
        "directive @d(x: Int! @deprecated) on FIELD\ntype Query { a: Int }",
        "type Query { a(x: Int! = 1 @deprecated): Int }",
        // @oneOf (not checked by graphql-js before 16.9)
        "input I @oneOf { a: Int! b: String }\ntype Query { f(i: I): Int }",
        "input I @oneOf { a: Int = 1 b: String }\ntype Query { f(i: I): Int }",
        // Several problems at once
        "type Query { a: Foo b: Bar a: Int }\nextend type Nope { c: Int }\nunion U = Query | Query",
        "interface I { a: Int }\ntype Query implements I & J { b: Int @unknown }\nenum E",
        // Valid: nothing to report
        "type Query { a: Int }",
        "schema { query: Root }\ntype Root { a(x: Int = 1, y: [String!] = [\"a\"]): Int @deprecated }",
    ]
}
