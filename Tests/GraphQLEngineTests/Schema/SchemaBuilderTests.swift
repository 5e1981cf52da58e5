import Testing

@testable import GraphQLEngine

@Suite("Schema building and printing")
struct SchemaBuilderTests {
    /// Extensions of types, interfaces, unions and the schema; root types from `schema { … }`;
    /// defaults written back as graphql-js does (`[Int] = 1` → `[1]`, `1.0` → `1`, an ID
    /// `"123"` → `123`, input-object fields in type order with their own defaults filled in).
    /// The expected text is graphql-js 16.6's `printSchema` of the same SDL.
    @Test func printsLikeGraphQLJS() throws {
        let sdl = #"""
            """The root"""
            type Root {
              a(list: [Int] = 1, float: Float = 1.0, id: ID = "123", big: Float = 1e25, small: Float = 0.0000001): Int
              b(input: In = {b: 2}, e: E = B, s: String = """block"""): String @deprecated(reason: "gone")
              c: Int @deprecated
            }
            input In { a: Int = 5 b: Int c: [E!] }
            enum E { A B @deprecated(reason: "No longer supported") }
            extend type Root { d: Shape }
            interface Shape { id: ID! }
            extend interface Shape implements Node
            interface Node { id: ID! }
            type Circle implements Shape & Node { id: ID! r: Float }
            extend schema { mutation: Mut }
            schema { query: Root }
            type Mut { m: Int }
            scalar Date @specifiedBy(url: "https://example.com/date")
            union U = Circle
            extend union U = Mut
            directive @tag(
              "what"
              name: String!) repeatable on FIELD_DEFINITION | OBJECT
            """#
        let expected = #"""
            schema {
              query: Root
              mutation: Mut
            }

            directive @tag(
              """what"""
              name: String!
            ) repeatable on FIELD_DEFINITION | OBJECT

            """The root"""
            type Root {
              a(list: [Int] = [1], float: Float = 1, id: ID = 123, big: Float = 1e+25, small: Float = 1e-7): Int
              b(input: In = {a: 5, b: 2}, e: E = B, s: String = "block"): String @deprecated(reason: "gone")
              c: Int @deprecated
              d: Shape
            }

            input In {
              a: Int = 5
              b: Int
              c: [E!]
            }

            enum E {
              A
              B @deprecated
            }

            interface Shape implements Node {
              id: ID!
            }

            interface Node {
              id: ID!
            }

            type Circle implements Shape & Node {
              id: ID!
              r: Float
            }

            type Mut {
              m: Int
            }

            scalar Date @specifiedBy(url: "https://example.com/date")

            union U = Circle | Mut
            """#
        #expect(SchemaPrinter.print(try SchemaBuilder.build(sdl: sdl)) == expected)
    }

    @Test func typeMapHoldsWhatIsReachableWithIntrospectionTypes() throws {
        let schema = try SchemaBuilder.build(sdl: "type Query { a(x: Int): String }")
        let names = schema.types.map(\.name)
        #expect(names.prefix(3) == ["Query", "String", "Int"])
        #expect(names.contains("__Schema") && names.contains("__Type") && names.contains("__DirectiveLocation"))
        #expect(names.contains("Boolean"))
        // Unreachable built-in scalars are not in the schema, as in graphql-js.
        #expect(!names.contains("Float") && !names.contains("ID"))
        #expect(schema.directives.map(\.name) == ["include", "skip", "deprecated", "specifiedBy", "oneOf"])
        let type = try #require(schema.type(named: "__Type"))
        #expect(type.fields.map(\.name).contains("isOneOf"))
        #expect(type.field(named: "inputFields")?.argument(named: "includeDeprecated") != nil)
        #expect(schema.fieldDefinition(on: try #require(schema.queryType), named: "__schema") != nil)
    }

    @Test func possibleTypesAndSubtypes() throws {
        let schema = try SchemaBuilder.build(sdl: """
            interface Node { id: ID! }
            interface Pet implements Node { id: ID! }
            type Dog implements Pet & Node { id: ID! }
            type Cat implements Pet & Node { id: ID! }
            union Any = Dog | Cat
            type Query { node: Node any: Any }
            """)
        let node = try #require(schema.typeID(named: "Node"))
        let pet = try #require(schema.typeID(named: "Pet"))
        let dog = try #require(schema.typeID(named: "Dog"))
        let any = try #require(schema.typeID(named: "Any"))
        #expect(schema.possibleTypes(of: node).map { schema[$0].name } == ["Dog", "Cat"])
        #expect(schema.isSubType(node, pet) && schema.isSubType(node, dog) && !schema.isSubType(pet, node))
        #expect(schema.doTypesOverlap(pet, any) && schema.doTypesOverlap(dog, node))
        #expect(schema.isTypeSubType(.nonNull(.named(dog)), of: .named(node)))
        #expect(!schema.isTypeSubType(.list(.named(dog)), of: .named(node)))
    }

    @Test func everyProblemIsReportedWithLocations() throws {
        do {
            _ = try SchemaBuilder.build(sdl: "type Query { a: Foo b: Bar }\nextend type Nope { c: Int }")
            Issue.record("built a schema with unknown types")
        } catch {
            #expect(error.errors.map(\.message) == [
                "Unknown type \"Foo\".", "Unknown type \"Bar\".",
                "Cannot extend type \"Nope\" because it is not defined.",
            ])
            #expect(error.errors.map { $0.locations.map { "\($0.line):\($0.column)" } } == [["1:17"], ["1:24"], ["2:13"]])
        }
    }
}

@Suite("Validator")
struct ValidatorTests {
    @Test func stopsAtTheErrorLimit() throws {
        let document = try Parser.parse("{ " + (0..<150).map { "f\($0)" }.joined(separator: " ") + " }")
        let errors = Validator.validate(document, against: RuleHarness.zoo, maxErrors: 100)
        #expect(errors.count == 101)
        #expect(errors.last?.message == "Too many validation errors, error limit reached. Validation aborted.")
        #expect(errors.first?.message == "Cannot query field \"f0\" on type \"Query\".")
    }

    @Test func validOperationHasNoErrors() throws {
        let document = try Parser.parse("query ($id: ID!) { node(id: $id) { id ... on Dog { name barkVolume } } }")
        #expect(Validator.validate(document, against: RuleHarness.zoo).isEmpty)
    }
}
