/// Hand-written documents for the differential test: every lexer error class, block string
/// and unicode escape edge cases, each grammar production, and the places where the
/// September 2025 specification differs from graphql-js 16.
enum HandWrittenDocuments {
    static let all: [String] = lexer + strings + executable + typeSystem + printing + executableDescriptions

    static let lexer: [String] = [
        "", " ", "# only a comment", "\u{FEFF}{ a }", "{ a }\u{FEFF}", "{ a\u{FEFF}b }", "{ a, , b,,, }", "\t{\ta\t}",
        "{ a }\r\n{ b }", "{\r a \r}", "?", "{ a ? }", "{ 'a' }", "{ a(x: 'single') }", "{ a(x: \u{7}) }", "{ \u{0} }",
        "{ é }", "{ a(x: é) }", "{ 😀 }", "{ a }\n\n\n   ~", "{ ..a }", "{ .a }", "{ a(x: .5) }", "{ a(x: 00) }",
        "{ a(x: 01) }", "{ a(x: -01) }", "{ a(x: 1.) }", "{ a(x: 1.e3) }", "{ a(x: 1e) }", "{ a(x: 1e+) }",
        "{ a(x: 1E-2) }", "{ a(x: -) }", "{ a(x: - 1) }", "{ a(x: 1a) }", "{ a(x: 1_0) }", "{ a(x: 0x10) }",
        "{ a(x: 1.2.3) }", "{ a(x: 1.2e3.4) }", "{ a(x: 123456789012345678901234567890) }", "{ a(x: -0) }",
        "{ a(x: 0.0e0) }", "{ a(x: 1e1000) }", "{ a(x: 12e) }", "{ a(x: 1.5E) }", "{ a(x: 9.) }", "{ a\u{2028}b }",
        "{ a\u{85}b }", "{ a }\u{0B}", "{ a } \\", "{ a(x: $) }", "{ a(x: $ y) }", "{ a(x: $1) }",
        "query Q($v: Int = $w) { a }", "{ a @ b }", "{ a@b }", "{a{b{c{d}}}}", "{ _a __b a1 A_1_ }",
    ]

    static let strings: [String] = [
        "{ a(x: \"\") }", "{ a(x: \"unterminated) }", "{ a(x: \"line\nbreak\") }", "{ a(x: \"cr\rbreak\") }",
        "{ a(x: \"ends at eof", "{ a(x: \"\\\") }", "{ a(x: \"\\x\") }", "{ a(x: \"\\u\") }", "{ a(x: \"\\u12\") }",
        "{ a(x: \"\\u12G4\") }", "{ a(x: \"\\u00e9\\u00E9\") }", "{ a(x: \"\\uD83D\\uDE00\") }", "{ a(x: \"\\uD83D\") }",
        "{ a(x: \"\\uD83Dx\") }", "{ a(x: \"\\uD83D\\u0041\") }", "{ a(x: \"\\uDE00\") }", "{ a(x: \"\\uDE00\\uD83D\") }",
        "{ a(x: \"\\u{1F600}\") }", "{ a(x: \"\\u{0}\") }", "{ a(x: \"\\u{}\") }", "{ a(x: \"\\u{110000}\") }",
        "{ a(x: \"\\u{D800}\") }", "{ a(x: \"\\u{00000041}\") }", "{ a(x: \"\\u{000000041}\") }",
        "{ a(x: \"\\u{80000000}\") }", "{ a(x: \"\\u{12\") }", "{ a(x: \"\\u{G}\") }", "{ a(x: \"\\u{1F600\") }",
        "{ a(x: \"\\u{é}\") }", "{ a(x: \"\\é\") }", "{ a(x: \"tab\there\") }", "{ a(x: \"\u{1}\u{1F}\u{7F}\u{85}\") }",
        "{ a(x: \"\\b\\f\\n\\r\\t\\/\\\\\\\"\") }", "{ a(x: \"ünïcödé 😀 \u{2028}\") }",
        "{ a(x: \"\"\"\"\"\") }", "{ a(x: \"\"\"x\"\"\") }", "{ a(x: \"\"\"unterminated) }", "{ a(x: \"\"\"a\\\"\"\"b\"\"\") }",
        "{ a(x: \"\"\"a\\\"\"\"\"\"\") }", "{ a(x: \"\"\"\\n stays \\u0041\"\"\") }",
        "{ a(x: \"\"\"\n    first\n      second\n    third\n  \"\"\") }", "{ a(x: \"\"\"  \n\n  x\n  \n \"\"\") }",
        "{ a(x: \"\"\"first line\n   indented\n      more\"\"\") }", "{ a(x: \"\"\"\t\ttabs\n\t\tand\n\t\t\tmore\"\"\") }",
        "{ a(x: \"\"\"a\r\nb\rc\nd\"\"\") }", "{ a(x: \"\"\" \"\"\") }", "{ a(x: \"\"\"\n\n\"\"\") }",
        "{ a(x: \"\"\"quote at end\"\"\"\") }", "{ a(x: \"\"\"slash at end\\\"\"\") }",
        "{ a(x: \"\"\"   leading spaces only line\"\"\") }", "{ a(x: \"\"\"with \"\"\" inside\"\"\") }",
        "{ a(x: \"\"\"" + String(repeating: "x", count: 75) + "\"\"\") }", "{ a(x: \"\"\"\u{7}\"\"\") }",
        "\"\"\"\n  Description with\n    indentation\n\"\"\"\ntype A { b: C }", "{ a(x: \"a\" \"b\") }",
    ]

    static let executable: [String] = [
        "{ a }", "{}", "{ a {} }", "{ a(", "{ a() }", "{ a(x) }", "{ a(x:) }", "{ a(x: 1 y: 2) }", "{ a(x: 1, y: $v) }",
        "query", "query {", "query Q", "query Q { a }", "query ($a: Int) { a }", "query Q() { a }",
        "query Q($a) { a }", "query Q($a:) { a }", "query Q($a: [Int!]! = [1, 2] @dir(x: 1)) { a }",
        "query Q($a: [[Int]!]) @d { a }", "query Q($a: Int = 1 = 2) { a }", "query Q($a: Int!!) { a }",
        "query Q($a: [Int) { a }", "query Q($a: Int]) { a }", "mutation { a }", "subscription S { a }",
        "Query { a }", "queryx { a }", "mutation M @d(x: $v) { a }", "{ alias: field }", "{ alias: }",
        "{ a: b: c }", "{ a @include(if: true) @skip(if: false) }", "{ ... }", "{ ...F }", "{ ... F }", "{ ...on }",
        "{ ... on }", "{ ... on T }", "{ ... on T { a } }", "{ ... @d { a } }", "{ ... { a } }", "{ ...F @d }",
        "{ ... on T @d { a } }", "fragment F on T { a }", "fragment on on T { a }", "fragment F T { a }",
        "fragment F on { a }", "fragment F on T", "fragment F($a: Int) on T { a }", "fragment \"on\" on T { a }",
        "{ a(x: [1, [2, [3]]]) }", "{ a(x: {}) }", "{ a(x: {b: 1, c: {d: [e, null, true]}}) }", "{ a(x: {b}) }",
        "{ a(x: {b:}) }", "{ a(x: [}) }", "{ a(x: {b: 1) }", "{ a(x: [1 2 3]) }", "{ a(x: ENUM, y: on, z: fragment) }",
        "{ a(x: true, y: false, z: null) }", "{ a } { b }", "query A { a } query B { b }", "{ a } fragment F on T { b }",
        "{ a }}", "{ a } }", "{ a } extra", "{ a } ...", "{ a } 1", "{ a } \"str\"", "extend", "extend foo",
        "extend \"x\"", "{ a(x: {b: $v}) }", "query Q($v: Int = {a: $x}) { a }",
        "query Q($v: Int = [$x]) { a }", "{ __typename }", "{ a(first: 10, after: \"abc\") { edges { node { id } } } }",
    ]

    static let typeSystem: [String] = [
        "schema { query: Q }", "schema { }", "schema @d { query: Q mutation: M subscription: S }", "schema { q: Q }",
        "schema { query Q }", "schema", "\"desc\" schema { query: Q }", "scalar S", "scalar S @specifiedBy(url: \"x\")",
        "scalar", "type T", "type T {}", "type T { a: Int }", "type T { a }", "type T { a: }", "type T { a: [Int!]! }",
        "type T implements I { a: Int }", "type T implements & I & J { a: Int }", "type T implements I J { a: Int }",
        "type T implements I, J { a: Int }", "type T implements { a: Int }", "type T implements", "type T @d @e",
        "type T { a(b: Int = 1 @d, c: [S] = []): Int @deprecated(reason: \"no\") }", "type T { a(): Int }",
        "type T { a(b: Int = $v): Int }", "type T { \"d\" a(\"e\" b: Int): Int }",
        "type T { a(\"\"\"multi\nline\"\"\" b: Int, c: Int): Int }", "interface I", "interface I implements J & K { a: Int }",
        "interface I { a: Int }", "union U", "union U =", "union U = A | B", "union U = | A | B", "union U = A B",
        "union U @d = A", "union U = A |", "enum E", "enum E {}", "enum E { A B C }", "enum E { true }",
        "enum E { false }", "enum E { null }", "enum E { A @deprecated \"d\" B }", "enum E { \"d\" \"true\" }",
        "enum E { 1 }", "input I", "input I { a: Int = 1 @d }", "input I { a(b: Int): Int }", "input I {}",
        "directive @d on FIELD", "directive @d(a: Int = 1) repeatable on FIELD | QUERY",
        "directive @d on | FIELD | INLINE_FRAGMENT", "directive @d on UNKNOWN", "directive @d on FIELD |",
        "directive @d", "directive d on FIELD", "directive @d repeatable", "directive @d on field",
        "\"\"\"doc\"\"\" directive @d on SCHEMA | SCALAR | OBJECT | FIELD_DEFINITION | ARGUMENT_DEFINITION | INTERFACE",
        "directive @d on UNION | ENUM | ENUM_VALUE | INPUT_OBJECT | INPUT_FIELD_DEFINITION | VARIABLE_DEFINITION",
        "directive @d on FRAGMENT_DEFINITION | FRAGMENT_SPREAD | MUTATION | SUBSCRIPTION", "extend schema",
        "extend schema @d", "extend schema { mutation: M }", "extend schema {}", "extend scalar S",
        "extend scalar S @d", "extend type T", "extend type T implements I", "extend type T @d",
        "extend type T { a: Int }", "extend interface I", "extend interface I implements J", "extend interface I { a: B }",
        "extend union U", "extend union U = A", "extend union U @d", "extend enum E", "extend enum E { A }",
        "extend enum E @d", "extend input I", "extend input I { a: Int }", "extend input I @d", "extend type",
        "extend directive @d on FIELD", "\"desc\" extend type T @d", "\"desc\" scalar S",
        "\"desc\" type T implements I @d { \"f\" a: Int }", "type T { a: Int } { b }",
    ]

    static let printing: [String] = [
        "{ a(x: \"" + String(repeating: "long ", count: 20) + "\") }",
        "{ veryLongFieldNameToForceWrapping(argumentNumberOne: 1, argumentNumberTwo: 2, argumentNumberThree: 3) }",
        "{ short(a: 1, b: 2) }", "query Q($a: Int, $b: String = \"x\") @dir { a(x: $a) @skip(if: true) { b } }",
        "{ a(x: \"\"\"block\nin args\"\"\") }",
        "type T { a(x: Int, \"\"\"described\"\"\" y: Int): Int }", "type T { a(x: Int, \"desc\" y: Int): Int }",
        "directive @d(\"d\" a: Int) on FIELD", "directive @d(\"\"\"multi\nline\"\"\" a: Int) on FIELD",
        "\"short\" type T", "\"\"\"block\"\"\" scalar S", "\"with\\nnewline\" scalar S",
        "\"\"\"    leading\"\"\" scalar S", "\"\"\"trailing \\\"\"\"\"\"\" scalar S", "\"\"\"\n\n  \n\"\"\" scalar S",
        "{ a { b { c } } d }", "query { a }", "query @d { a }", "query Q { a }", "query ($a: Int) { a }",
        "{ a(x: {a: {b: [1, 2]}, c: \"d\"}) }", "enum E @d { A @e B }", "union U @d = A | B",
        "input I @d { a: Int = 1 b: [String!] = [\"x\"] }", "schema @d { query: Q }",
        "type T implements A & B @d { a: Int }", "interface I implements A & B @d { a: Int }",
        "{ a(x: \"\\u0000\\u001F\\u007F\\u0080\\u009F\\u00A0\") }", "{ a(x: \"é😀\\u2028\") }",
    ]

    /// The September 2025 specification allows descriptions on operations, fragments and
    /// variable definitions; graphql-js 16 rejects them. These are accepted here.
    static let executableDescriptions: [String] = [
        "\"Fetches a user\" query Q { a }", "\"\"\"Block\ndescribed\"\"\" mutation M { a }",
        "\"d\" fragment F on T { a }", "query Q(\"the id\" $id: ID!, \"\"\"other\"\"\" $o: Int) { a }",
        "\"d\" subscription { a }",
    ]
}
