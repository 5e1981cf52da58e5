import Testing

@testable import GraphQLEngine

/// Variable, argument and result coercion, with graphql-js's messages (checked against graphql-js 16).
@Suite struct CoercionTests {
    static let sdl = """
        enum Color { RED GREEN BLUE }
        input Point { x: Int!, y: Int = 7, label: String }
        input Lookup @oneOf { id: ID, name: String }
        input Nested { points: [Point!], color: Color }
        type Query {
          int(v: Int): Int
          float(v: Float): Float
          string(v: String): String
          bool(v: Boolean): Boolean
          id(v: ID): ID
          color(v: Color): Color
          point(p: Point): String
          points(p: [Point!]!): Int
          lookup(l: Lookup!): String
          nested(v: Nested): Int
          required(v: Int!): Int
          defaulted(v: Int = 3): Int
          list(v: [Int]): [Int]
          echo: Echo
        }
        type Echo { int: Int, float: Float, string: String, bool: Boolean, id: ID, color: Color, ints: [Int] }
        """

    static func harness() throws -> ExecutionHarness {
        var resolvers = Resolvers(defaultResolution: .everywhere)
        for name in ["int", "float", "string", "bool", "id", "color", "defaulted", "list", "required"] {
            resolvers.field("Query.\(name)") { input in .value(input.arguments["v"] ?? .null) }
        }
        resolvers.field("Query.point") { input in .string(input.arguments["p"]?.json ?? "absent") }
        resolvers.field("Query.points") { input in
            if case .list(let items)? = input.arguments["p"] { return .int(items.count) }
            return .null
        }
        resolvers.field("Query.lookup") { input in .string(input.arguments["l"]?.json ?? "absent") }
        resolvers.field("Query.nested") { _ in .int(1) }
        return try ExecutionHarness(sdl, resolvers: resolvers)
    }

    func variableError(_ type: String, _ field: String, _ value: GraphQLValue) async throws -> String {
        let response = try await Self.harness().run("query ($v: \(type)) { \(field)(v: $v) }", variables: ["v": value])
        #expect(response["data"] == nil, "refused requests have no data")
        #expect(ExecutionHarness.codes(response) == ["BAD_USER_INPUT"])
        return ExecutionHarness.messages(response).joined(separator: " | ")
    }

    @Test func scalarVariablesAreParsedWithGraphQLJSMessages() async throws {
        #expect(try await variableError("Int", "int", 1.5) == "Variable \"$v\" got invalid value 1.5; Int cannot represent non-integer value: 1.5")
        #expect(try await variableError("Int", "int", "3") == "Variable \"$v\" got invalid value \"3\"; Int cannot represent non-integer value: \"3\"")
        #expect(try await variableError("Int", "int", .int(3_000_000_000))
            == "Variable \"$v\" got invalid value 3000000000; Int cannot represent non 32-bit signed integer value: 3000000000")
        #expect(try await variableError("Float", "float", "x") == "Variable \"$v\" got invalid value \"x\"; Float cannot represent non numeric value: \"x\"")
        #expect(try await variableError("String", "string", 1) == "Variable \"$v\" got invalid value 1; String cannot represent a non string value: 1")
        #expect(try await variableError("Boolean", "bool", 0) == "Variable \"$v\" got invalid value 0; Boolean cannot represent a non boolean value: 0")
        #expect(try await variableError("ID", "id", 1.5) == "Variable \"$v\" got invalid value 1.5; ID cannot represent value: 1.5")
        #expect(try await variableError("ID", "id", ["a": ["b": ["c": 1]]])
            == "Variable \"$v\" got invalid value { a: { b: [Object] } }; ID cannot represent value: { a: { b: [Object] } }")
        #expect(try await variableError("Color", "color", "RDE")
            == "Variable \"$v\" got invalid value \"RDE\"; Value \"RDE\" does not exist in \"Color\" enum. Did you mean the enum value \"RED\"?")
        #expect(try await variableError("Color", "color", 1)
            == "Variable \"$v\" got invalid value 1; Enum \"Color\" cannot represent non-string value: 1.")
    }

    @Test func validVariablesAreCoerced() async throws {
        let harness = try Self.harness()
        let response = try await harness.plain(
            "query ($i: Int, $f: Float, $id: ID, $c: Color, $l: [Int]) { int(v: $i) float(v: $f) id(v: $id) color(v: $c) list(v: $l) }",
            variables: ["i": 3.0, "f": 2, "id": 42, "c": "BLUE", "l": 5])
        // 3.0 is an integer in JSON (as in JavaScript); an ID given as a number is a string; one value is a list of one.
        #expect(response == json(#"{"data":{"int":3,"float":2,"id":"42","color":"BLUE","list":[5]}}"#))
    }

    @Test func nullabilityOfVariables() async throws {
        #expect(try await variableError("Int!", "required", .null) == "Variable \"$v\" of non-null type \"Int!\" must not be null.")
        let missing = try await Self.harness().run("query ($v: Int!) { required(v: $v) }")
        #expect(ExecutionHarness.messages(missing) == ["Variable \"$v\" of required type \"Int!\" was not provided."])
        #expect(ExecutionHarness.stripExtensions(missing) == json(#"{"errors":[{"message":"Variable \"$v\" of required type \"Int!\" was not provided.","locations":[{"line":1,"column":8}]}]}"#))
    }

    @Test func defaultsApplyWhenAVariableOrArgumentIsAbsent() async throws {
        let harness = try Self.harness()
        #expect(try await harness.plain("query ($v: Int = 5) { a: defaulted(v: $v) b: defaulted c: defaulted(v: null) }")
            == json(#"{"data":{"a":5,"b":3,"c":null}}"#))
        // A variable without a value and without a default leaves the argument to its own default.
        #expect(try await harness.plain("query ($v: Int) { defaulted(v: $v) }") == json(#"{"data":{"defaulted":3}}"#))
        #expect(try await harness.plain("{ point(p: {x: 1}) }") == json(#"{"data":{"point":"{\"x\":1,\"y\":7}"}}"#))
    }

    @Test func inputObjectVariablesReportEachProblemWithItsPath() async throws {
        let response = try await Self.harness().run(
            "query ($p: [Point!]!) { points(p: $p) }", variables: ["p": [["x": 1, "lable": "a"], ["y": 2], .null, ["x": "no"]]])
        #expect(ExecutionHarness.messages(response) == [
            "Variable \"$p\" got invalid value { x: 1, lable: \"a\" } at \"p[0]\"; Field \"lable\" is not defined by type \"Point\". Did you mean \"label\"?",
            "Variable \"$p\" got invalid value { y: 2 } at \"p[1]\"; Field \"x\" of required type \"Int!\" was not provided.",
            "Variable \"$p\" got invalid value null at \"p[2]\"; Expected non-nullable type \"Point!\" not to be null.",
            "Variable \"$p\" got invalid value \"no\" at \"p[3].x\"; Int cannot represent non-integer value: \"no\"",
        ])
        let notObject = try await variableError("Nested", "nested", 3)
        #expect(notObject == "Variable \"$v\" got invalid value 3; Expected type \"Nested\" to be an object.")
    }

    @Test func oneOfVariablesNeedExactlyOneNonNullKey() async throws {
        let harness = try Self.harness()
        let two = try await harness.run("query ($l: Lookup!) { lookup(l: $l) }", variables: ["l": ["id": 1, "name": "a"]])
        #expect(ExecutionHarness.messages(two) == [
            "Variable \"$l\" got invalid value { id: 1, name: \"a\" }; Exactly one key must be specified for OneOf type \"Lookup\"."
        ])
        let null = try await harness.run("query ($l: Lookup!) { lookup(l: $l) }", variables: ["l": ["name": .null]])
        #expect(ExecutionHarness.messages(null) == ["Variable \"$l\" got invalid value null at \"l.name\"; Field \"name\" must be non-null."])
        #expect(try await harness.plain("query ($l: Lookup!) { lookup(l: $l) }", variables: ["l": ["id": 5]])
            == json(#"{"data":{"lookup":"{\"id\":\"5\"}"}}"#))
    }

    @Test func argumentDefaultsAndNullArgumentsAtRunTime() async throws {
        // A nullable variable may feed a non-null argument that has a default: absent, the default
        // applies; null, the field fails with graphql-js's message, located at the variable.
        var resolvers = Resolvers(defaultResolution: .everywhere)
        resolvers.field("Query.need") { input in .value(input.arguments["v"] ?? .null) }
        let harness = try ExecutionHarness("type Query { need(v: Int! = 5): Int, other: Int }", resolvers: resolvers)
        let query = "query ($x: Int) { need(v: $x) other }"
        #expect(try await harness.plain(query, root: ["other": 2]) == json(#"{"data":{"need":5,"other":2}}"#))
        let response = try await harness.run(query, root: ["other": 2], variables: ["x": .null])
        #expect(ExecutionHarness.stripExtensions(response) == json(#"{"errors":[{"message":"Argument \"v\" of non-null type \"Int!\" must not be null.","locations":[{"line":1,"column":27}],"path":["need"]}],"data":{"need":null,"other":2}}"#))
        #expect(ExecutionHarness.codes(response) == ["BAD_USER_INPUT"])
    }

    @Test func resultsAreSerializedWithGraphQLJSRules() async throws {
        let harness = try Self.harness()
        let good: GraphQLValue = ["echo": ["int": true, "float": "2.5", "string": 1.5, "bool": 0, "id": 12, "color": "RED", "ints": [1, 2]]]
        #expect(try await harness.plain("{ echo { int float string bool id color ints } }", root: good)
            == json(#"{"data":{"echo":{"int":1,"float":2.5,"string":"1.5","bool":false,"id":"12","color":"RED","ints":[1,2]}}}"#))
        let bad: GraphQLValue = ["echo": ["int": 2_147_483_648, "float": "x", "string": ["a": 1], "bool": "yes", "id": 1.5, "color": "PINK", "ints": 3]]
        let response = try await harness.run("{ echo { int float string bool id color ints } }", root: bad)
        #expect(ExecutionHarness.messages(response) == [
            "Int cannot represent non 32-bit signed integer value: 2147483648",
            "Float cannot represent non numeric value: \"x\"",
            "String cannot represent value: { a: 1 }",
            "Boolean cannot represent a non boolean value: \"yes\"",
            "ID cannot represent value: 1.5",
            "Enum \"Color\" cannot represent value: \"PINK\"",
            "Expected Iterable, but did not find one for field \"Echo.ints\".",
        ])
        #expect(response["data"]?["echo"] == ["int": nil, "float": nil, "string": nil, "bool": nil, "id": nil, "color": nil, "ints": nil])
    }

    @Test func nonFiniteFloatsAreRefused() async throws {
        var resolvers = Resolvers(defaultResolution: .everywhere)
        resolvers.field("Query.f") { _ in .double(.infinity) }
        let response = try await ExecutionHarness("type Query { f: Float }", resolvers: resolvers).run("{ f }")
        #expect(ExecutionHarness.messages(response) == ["Float cannot represent non numeric value: Infinity"])
    }
}
