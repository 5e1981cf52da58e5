import Foundation
import GraphQLEngine
import HearthServer
import Testing

/// Hearth's custom scalars through the engine: variables, literals and results, each accepted
/// and refused with a message that says what was expected.
@Suite struct HearthScalarTests {
    static let sdl = """
        scalar DateTime
        scalar UUID
        scalar Decimal
        scalar URL
        scalar JSON
        type Query {
          dateTime(value: DateTime): DateTime
          uuid(value: UUID): UUID
          decimal(value: Decimal): Decimal
          url(value: URL): URL
          json(value: JSON): JSON
          result(kind: String!): JSON
          price: Decimal
        }
        """

    /// Echoes each argument back, so one request covers input and output coercion.
    static let executor: Executor = {
        var resolvers = Resolvers()
        for field in ["dateTime", "uuid", "decimal", "url", "json"] {
            resolvers.field("Query.\(field)") { input in input.arguments["value"].map(Resolved.value) ?? .null }
        }
        resolvers.field("Query.result") { _ in .null }
        resolvers.field("Query.price") { _ in .value(.float(29.99)) }
        do {
            let schema = try SchemaBuilder.build(sdl: sdl, options: SchemaBuildOptions(scalars: HearthScalars.all))
            return Executor(try ExecutableSchema(schema, resolvers: resolvers))
        } catch {
            fatalError("test schema: \(error)")
        }
    }()

    static func run(_ query: String, variables: GraphQLObject = GraphQLObject()) async throws -> String {
        String(decoding: await executor.execute(GraphQLRequest(query: query, variables: variables)).json, as: UTF8.self)
    }

    @Test func validValuesPassThroughInTheirCanonicalForm() async throws {
        let json = try await Self.run(
            """
            query ($d: DateTime, $u: UUID, $m: Decimal, $l: URL, $j: JSON) {
              a: dateTime(value: $d) b: uuid(value: $u) c: decimal(value: $m) d: url(value: $l) e: json(value: $j)
              f: dateTime(value: "2026-11-22T10:30:00.250+01:00") g: uuid(value: "0F8FAD5B-D9CB-469F-A165-70867728950E")
            }
            """,
            variables: [
                "d": "2024-02-29T23:59:59Z", "u": "0F8FAD5B-D9CB-469F-A165-70867728950E", "m": "-1234.50",
                "l": "https://shop.example.com/products.json", "j": ["any": [1, "two", nil]],
            ])
        #expect(json == #"""
            {"data":{"a":"2024-02-29T23:59:59Z","b":"0f8fad5b-d9cb-469f-a165-70867728950e","c":"-1234.50","d":"https://shop.example.com/products.json","e":{"any":[1,"two",null]},"f":"2026-11-22T10:30:00.250+01:00","g":"0f8fad5b-d9cb-469f-a165-70867728950e"}}
            """#)
    }

    @Test(arguments: [
        ("DateTime", "2026-11-22T09:30:00", "an RFC 3339 date-time with a UTC offset"),
        ("DateTime", "2023-02-29T09:30:00Z", "an RFC 3339 date-time with a UTC offset"),
        ("DateTime", "2026-11-22 09:30:00Z", "an RFC 3339 date-time with a UTC offset"),
        ("UUID", "0f8fad5b-d9cb-469f-a165", "a UUID"),
        ("Decimal", "29.", "a decimal number written as a string"),
        ("Decimal", "1e3", "a decimal number written as a string"),
        ("URL", "ftp://example.com", "an absolute http or https URL"),
        ("URL", "/relative/path", "an absolute http or https URL"),
    ])
    func invalidVariablesAreRefusedSayingWhatWasExpected(scalar: String, value: String, expected: String) async throws {
        let field = ["DateTime": "dateTime", "UUID": "uuid", "Decimal": "decimal", "URL": "url"][scalar] ?? ""
        let json = try await Self.run("query ($v: \(scalar)) { \(field)(value: $v) }", variables: ["v": .string(value)])
        let message = "Variable \\\"$v\\\" got invalid value \\\"\(value)\\\"; \(scalar) cannot represent \\\"\(value)\\\": expected \(expected)"
        #expect(json.contains(message), "\(json)")
        #expect(json.contains(#""code":"BAD_USER_INPUT""#))
        #expect(!json.contains(#""data""#))
    }

    /// Decimal's form: an optional minus, digits, and a point with digits after it; nothing else,
    /// at most 40 digits.
    @Test(arguments: [
        ("29.99", true), ("-0.5", true), ("0", true), ("-12", true), ("1.000", true),
        (String(repeating: "9", count: 20) + "." + String(repeating: "9", count: 20), true),
        ("", false), ("-", false), ("29.", false), (".5", false), ("-.5", false), ("1.2.3", false), ("--1", false),
        ("+1", false), ("1e3", false), (" 1", false), ("1 ", false), ("1-", false), ("١٢", false),
        (String(repeating: "9", count: 41), false),
    ])
    func decimalAcceptsItsFormOnly(text: String, accepted: Bool) throws {
        let outcome = Result { () throws(CoercionError) in try DecimalScalar().parseValue(.string(text)) }
        switch (outcome, accepted) {
        case (.success(let value), true): #expect(value == .string(text))
        case (.failure(let error), false): #expect(error.message.contains("a decimal number written as a string"), "\(error.message)")
        default: Issue.record("\(text.debugDescription): \(outcome), expected \(accepted ? "accepted" : "refused")")
        }
    }

    @Test func decimalRefusesJSONNumbers() async throws {
        let json = try await Self.run("query ($v: Decimal) { decimal(value: $v) }", variables: ["v": .float(29.99)])
        #expect(json.contains(#"Decimal cannot represent 29.99: expected a decimal number written as a string"#), "\(json)")
    }

    @Test func invalidLiteralsFailValidation() async throws {
        let json = try await Self.run(#"{ uuid(value: "nope") decimal(value: 29.99) }"#)
        #expect(json.contains(#"Expected value of type \"UUID\", found \"nope\"; UUID cannot represent \"nope\": expected a UUID"#), "\(json)")
        #expect(json.contains(#"Expected value of type \"Decimal\", found 29.99; expected a decimal number written as a string"#), "\(json)")
        #expect(json.contains(#""code":"GRAPHQL_VALIDATION_FAILED""#))
    }

    @Test func aResolverReturningAFloatForADecimalIsAnError() async throws {
        let json = try await Self.run("{ price }")
        #expect(json.contains(#"Decimal cannot represent 29.99"#), "\(json)")
        #expect(json.contains(#""data":{"price":null}"#), "\(json)")
    }

    @Test func dateTimeParsesOffsetsAndFractions() throws {
        let utc = try #require(DateTimeScalar.date(from: "2026-11-22T09:30:00Z"))
        #expect(DateTimeScalar.date(from: "2026-11-22T10:30:00+01:00") == utc)
        #expect(DateTimeScalar.date(from: "2026-11-22T04:00:00-05:30") == utc)
        #expect(DateTimeScalar.date(from: "2026-11-22T09:30:00.5Z") == utc.addingTimeInterval(0.5))
        #expect(DateTimeScalar.date(from: "2026-11-22T09:30:00.Z") == nil)
        #expect(DateTimeScalar.date(from: "2026-13-01T00:00:00Z") == nil)
        #expect(DateTimeScalar.date(from: "2026-11-22T24:00:00Z") == nil)
        #expect(DateTimeScalar.date(from: "2026-11-22T09:30:00+01:00x") == nil)
        // Hearth writes instants in UTC with milliseconds; they read back to the same instant.
        let written = DateTimeScalar.string(from: utc.addingTimeInterval(0.25))
        #expect(written == "2026-11-22T09:30:00.250Z")
        #expect(DateTimeScalar.date(from: written) == utc.addingTimeInterval(0.25))
    }

    /// The hand-written date writer agrees with Foundation's ISO 8601 formatter (UTC, milliseconds)
    /// over four centuries of random instants, leap days and the day boundaries included.
    @Test func datesAreWrittenAsFoundationWritesThem() {
        let style = Date.ISO8601FormatStyle().year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)
        var generator = SystemRandomNumberGenerator()
        var instants = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0005), Date(timeIntervalSince1970: 951_782_400),
                        Date(timeIntervalSince1970: 4_107_542_399.999), Date(timeIntervalSince1970: 1_795_000_000.125)]
        for _ in 0..<20_000 { instants.append(Date(timeIntervalSince1970: Double.random(in: -2_208_988_800...10_413_792_000, using: &generator))) }
        for instant in instants {
            #expect(DateTimeScalar.string(from: instant) == instant.formatted(style), "\(instant.timeIntervalSince1970)")
        }
    }
}
