import Testing

@testable import GraphQLEngine

@Suite("Printer")
struct PrinterTests {
    @Test("canonical layout of an executable document")
    func executable() throws {
        let document = try parsed("query Q($a:Int=1,$b:[S!]!@d){a:b(x:{k:[1,2]},y:\"s\")@skip(if:$a){...F ... on T{c} ...@i{d}}} fragment F on T@f{e}")
        #expect(Printer.print(document) == """
            query Q($a: Int = 1, $b: [S!]! @d) {
              a: b(x: {k: [1, 2]}, y: "s") @skip(if: $a) {
                ...F
                ... on T {
                  c
                }
                ... @i {
                  d
                }
              }
            }

            fragment F on T @f {
              e
            }
            """)
    }

    @Test("anonymous queries print in shorthand unless they have variables or directives")
    func shorthand() throws {
        #expect(Printer.print(try parsed("query { a }")) == "{\n  a\n}")
        #expect(Printer.print(try parsed("query @d { a }")) == "query @d {\n  a\n}")
        #expect(Printer.print(try parsed("query ($v: Int) { a }")) == "query ($v: Int) {\n  a\n}")
    }

    @Test("arguments wrap one per line past 80 characters")
    func longArguments() throws {
        let document = try parsed("{ field(argumentNumberOne: 111111111, argumentNumberTwo: 222222222, three: 333333333) }")
        #expect(Printer.print(document) == """
            {
              field(
                argumentNumberOne: 111111111
                argumentNumberTwo: 222222222
                three: 333333333
              )
            }
            """)
    }

    @Test("type system definitions with descriptions")
    func typeSystem() throws {
        let document = try parsed(#"""
            "S" schema{query:Q} """Block""" type T implements A&B@d{"f" f(a:Int=1 "arg" b:S):[T!]! @deprecated} union U=|A|B enum E{A "b" B} input I{a:Int=1@d} directive@x(a:Int)repeatable on FIELD|QUERY extend type T@e extend schema{mutation:M}
            """#, options: .trusted)
        #expect(Printer.print(document) == #"""
            "S"
            schema {
              query: Q
            }

            """Block"""
            type T implements A & B @d {
              "f"
              f(
                a: Int = 1
                "arg"
                b: S
              ): [T!]! @deprecated
            }

            union U = A | B

            enum E {
              A
              "b"
              B
            }

            input I {
              a: Int = 1 @d
            }

            directive @x(a: Int) repeatable on FIELD | QUERY

            extend type T @e

            extend schema {
              mutation: M
            }
            """#)
    }

    @Test("printing then parsing gives the same printed text (kitchen sink and GitHub schema when present)")
    func roundTrip() throws {
        var texts = HandWrittenDocuments.printing.filter { syntaxError($0) == nil }
        texts += BenchInputs.available().map(\.text)
        for text in texts {
            let printed = Printer.print(try parsed(text))
            #expect(Printer.print(try parsed(printed)) == printed)
        }
    }
}
