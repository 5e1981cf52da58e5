import Testing

@testable import GraphQLEngine

@Suite("Parser: type system documents")
struct ParserTypeSystemTests {
    static let schema = #"""
        "The schema"
        schema @s { query: Q mutation: M subscription: S }
        """A date"""
        scalar Date @specifiedBy(url: "https://tools.ietf.org/html/rfc3339")
        type User implements & Node & Named @key(fields: "id") {
          "the id" id: ID!
          friends(first: Int = 10 @deprecated, "cursor" after: String): [User!]! @deprecated(reason: "no")
        }
        interface Named implements Node { name: String }
        union Result @u = | User | Page
        enum Color @e { "red" RED @deprecated GREEN }
        input Filter @oneOf { name: String = "x" @d, tags: [String!] = [] }
        directive @key(fields: String!) repeatable on OBJECT | INTERFACE
        extend schema @x { subscription: S2 }
        extend scalar Date @y
        extend type User implements Other @z { extra: Int }
        extend interface Named @i { more: Int }
        extend union Result = Extra
        extend enum Color { BLUE }
        extend input Filter { more: Int }
        """#

    @Test("every definition and extension, with their parts")
    func definitions() throws {
        let document = try parsed(Self.schema)
        #expect(document.definitions.count == 15)
        guard case .schema(let schema) = document.definitions[0] else { Issue.record("schema"); return }
        #expect(schema.description?.value == "The schema")
        #expect(schema.directives.map(\.name.value) == ["s"])
        #expect(schema.operationTypes.map(\.operation) == [.query, .mutation, .subscription])
        #expect(schema.operationTypes.map(\.type.name.value) == ["Q", "M", "S"])

        guard case .type(.scalar(let scalar)) = document.definitions[1] else { Issue.record("scalar"); return }
        #expect(scalar.description?.value == "A date" && scalar.description?.block == true)
        #expect(scalar.directives.first?.name.value == "specifiedBy")

        guard case .type(.object(let user)) = document.definitions[2] else { Issue.record("type"); return }
        #expect(user.interfaces.map(\.name.value) == ["Node", "Named"])
        #expect(user.fields.map(\.name.value) == ["id", "friends"])
        #expect(user.fields[0].description?.value == "the id")
        #expect(user.fields[1].arguments.map(\.name.value) == ["first", "after"])
        #expect(user.fields[1].arguments[0].defaultValue.map(Printer.print) == "10")
        #expect(user.fields[1].arguments[0].directives.map(\.name.value) == ["deprecated"])
        #expect(user.fields[1].arguments[1].description?.value == "cursor")
        #expect(Printer.print(user.fields[1].type) == "[User!]!")

        guard case .type(.interface(let named)) = document.definitions[3] else { Issue.record("interface"); return }
        #expect(named.interfaces.map(\.name.value) == ["Node"])
        guard case .type(.union(let union)) = document.definitions[4] else { Issue.record("union"); return }
        #expect(union.types.map(\.name.value) == ["User", "Page"])
        #expect(union.directives.map(\.name.value) == ["u"])
        guard case .type(.enumeration(let color)) = document.definitions[5] else { Issue.record("enum"); return }
        #expect(color.values.map(\.name.value) == ["RED", "GREEN"])
        #expect(color.values[0].description?.value == "red")
        guard case .type(.inputObject(let filter)) = document.definitions[6] else { Issue.record("input"); return }
        #expect(filter.fields.map(\.name.value) == ["name", "tags"])
        #expect(filter.directives.map(\.name.value) == ["oneOf"])
        guard case .directive(let key) = document.definitions[7] else { Issue.record("directive"); return }
        #expect(key.repeatable && key.directiveLocations == [.object, .interface])
        #expect(key.arguments.map(\.name.value) == ["fields"])

        guard case .schemaExtension(let schemaExtension) = document.definitions[8] else { Issue.record("extend schema"); return }
        #expect(schemaExtension.operationTypes.map(\.type.name.value) == ["S2"])
        let extensions = document.definitions[9...].compactMap { definition -> TypeExtension? in
            if case .typeExtension(let typeExtension) = definition { return typeExtension }
            return nil
        }
        #expect(extensions.map(\.name.value) == ["Date", "User", "Named", "Result", "Color", "Filter"])
        if case .object(let userExtension) = extensions[1] {
            #expect(userExtension.interfaces.map(\.name.value) == ["Other"])
            #expect(userExtension.fields.map(\.name.value) == ["extra"])
        } else {
            Issue.record("extend type")
        }
    }

    @Test("type system errors", arguments: [
        ("type T {}", "Syntax Error: Expected Name, found \"}\". @ 1:9"),
        ("type T { a }", "Syntax Error: Expected \":\", found \"}\". @ 1:12"),
        ("type T implements { a: Int }", "Syntax Error: Expected Name, found \"{\". @ 1:19"),
        ("enum E { true }", "Syntax Error: Name \"true\" is reserved and cannot be used for an enum value. @ 1:10"),
        ("enum E { \"d\" \"null\" }", "Syntax Error: String \"null\" is reserved and cannot be used for an enum value. @ 1:14"),
        ("union U = A |", "Syntax Error: Expected Name, found <EOF>. @ 1:14"),
        ("directive @d on UNKNOWN", "Syntax Error: Unexpected Name \"UNKNOWN\". @ 1:17"),
        ("directive @d", "Syntax Error: Expected \"on\", found <EOF>. @ 1:13"),
        ("directive d on FIELD", "Syntax Error: Expected \"@\", found Name \"d\". @ 1:11"),
        ("schema { }", "Syntax Error: Expected Name, found \"}\". @ 1:10"),
        ("schema { q: Q }", "Syntax Error: Unexpected Name \"q\". @ 1:10"),
        ("extend schema", "Syntax Error: Unexpected <EOF>. @ 1:14"),
        ("extend type T", "Syntax Error: Unexpected <EOF>. @ 1:14"),
        ("extend scalar S", "Syntax Error: Unexpected <EOF>. @ 1:16"),
        ("extend union U", "Syntax Error: Unexpected <EOF>. @ 1:15"),
        ("extend enum E", "Syntax Error: Unexpected <EOF>. @ 1:14"),
        ("extend input I", "Syntax Error: Unexpected <EOF>. @ 1:15"),
        ("extend interface I", "Syntax Error: Unexpected <EOF>. @ 1:19"),
        ("extend directive @d on FIELD", "Syntax Error: Unexpected Name \"directive\". @ 1:8"),
        ("input I { a(b: Int): Int }", "Syntax Error: Expected \":\", found \"(\". @ 1:12"),
        ("type T { a(b: Int = $v): Int }", "Syntax Error: Unexpected variable \"$v\" in constant value. @ 1:21"),
    ])
    func errors(text: String, expected: String) {
        #expect(syntaxError(text) == expected)
    }
}
