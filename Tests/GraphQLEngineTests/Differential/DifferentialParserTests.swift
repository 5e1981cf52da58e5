import Foundation
import Testing

@testable import GraphQLEngine

/// Parses several hundred documents with Hearth's parser and with graphql-js, and requires the
/// same verdict, the same first error (message, line, column) and the same printed form.
///
/// The reference here is graphql-js 16.6 (Debian's node-graphql); its language module is the
/// same as 16.11's for everything compared here. Known, intended differences:
/// - The September 2025 specification allows descriptions on operations, fragments and
///   variable definitions; graphql-js 16 rejects them. Hearth accepts them; for such
///   documents the test checks instead that graphql-js accepts the document with the
///   descriptions removed and prints it as Hearth does.
/// - Bytes that are not UTF-8 cannot be written in a JavaScript string, so they are covered
///   by the unit tests only.
@Suite("Differential: parser and printer against graphql-js")
struct DifferentialParserTests {
    static let oracle = ReferenceOracle.find()
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    struct Case {
        var label: String
        var text: String
    }

    static func corpus() -> [Case] {
        var cases = HandWrittenDocuments.all.enumerated().map { Case(label: "hand-written #\($0.offset)", text: $0.element) }
        var generator = DocumentGenerator(seed: 0x4845_4152_5448)  // "HEARTH"
        for index in 0..<160 {
            let tokens = generator.validDocument(typeSystem: index % 2 == 1)
            cases.append(Case(label: "generated #\(index)", text: generator.render(tokens)))
            cases.append(Case(label: "generated broken #\(index)", text: generator.brokenDocument(from: tokens)))
        }
        for input in BenchInputs.available() {
            cases.append(Case(label: input.name, text: input.text))
        }
        return cases
    }

    @Test(
        "Hearth agrees with graphql-js on verdict, first error and printed form",
        .enabled(if: oracle.oracle != nil || isCI, "SKIPPED: \(oracle.reason)"))
    func agreesWithReference() throws {
        let oracle = try #require(Self.oracle.oracle, "graphql-js reference missing: \(Self.oracle.reason)")
        let cases = Self.corpus()
        #expect(cases.count >= 300)
        let batch = try oracle.run(cases.map(\.text))
        try #require(batch.results.count == cases.count)

        var mismatches: [String] = []
        var withDescriptions: [(Case, String)] = []
        var accepted = 0
        var rejected = 0
        for (testCase, reference) in zip(cases, batch.results) {
            let ours: Result<Document, GraphQLError> = Result { () throws(GraphQLError) in
                try Parser.parse(Source(testCase.text), options: .trusted)
            }
            switch (ours, reference.ok) {
            case (.success(let document), true):
                accepted += 1
                let printed = Printer.print(document)
                if printed != reference.printed {
                    mismatches.append("\(testCase.label): printed differently\n--- Hearth\n\(printed)\n--- graphql-js\n\(reference.printed ?? "")")
                }
            case (.failure(let error), false):
                rejected += 1
                let location = error.locations.first
                if error.message != reference.message || location?.line != reference.line
                    || location?.column != reference.column
                {
                    if Self.descriptionExplains(reference, ours: location) { continue }
                    mismatches.append(
                        "\(testCase.label): \(Self.quote(testCase.text))\n  Hearth:     \(error.message) at \(location?.description ?? "-")\n  graphql-js: \(reference.message ?? "") at \(reference.line ?? 0):\(reference.column ?? 0)")
                }
            case (.success(let document), false):
                if Self.hasExecutableDescription(document) {
                    withDescriptions.append((testCase, Printer.print(Self.removingExecutableDescriptions(document))))
                } else {
                    mismatches.append("\(testCase.label): Hearth accepts, graphql-js rejects (\(reference.message ?? "")): \(Self.quote(testCase.text))")
                }
            case (.failure(let error), true):
                mismatches.append("\(testCase.label): Hearth rejects (\(error.message) at \(error.locations.first?.description ?? "-")), graphql-js accepts: \(Self.quote(testCase.text))")
            }
        }

        // Accepted only thanks to the 2025 descriptions: without them graphql-js must agree.
        if !withDescriptions.isEmpty {
            let stripped = try oracle.run(withDescriptions.map(\.1))
            for ((testCase, printed), reference) in zip(withDescriptions, stripped.results) where reference.printed != printed {
                mismatches.append("\(testCase.label): without executable descriptions graphql-js prints \(reference.printed ?? reference.message ?? "-"), Hearth \(printed)")
            }
        }

        #expect(accepted >= 100, "too few accepted documents: \(accepted)")
        #expect(rejected >= 100, "too few rejected documents: \(rejected)")
        #expect(HandWrittenDocuments.executableDescriptions.count <= withDescriptions.count)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(cases.count) documents differ from graphql-js \(batch.version):\n\(mismatches.prefix(40).joined(separator: "\n\n"))")
    }

    /// graphql-js stopped at a description the 2025 specification allows; Hearth went on and
    /// found a later error (or the same place).
    static func descriptionExplains(_ reference: ReferenceOracle.Outcome, ours: GraphQLEngine.SourceLocation?) -> Bool {
        guard let message = reference.message, let ours, let line = reference.line, let column = reference.column else {
            return false
        }
        let isDescriptionError =
            message == "Syntax Error: Unexpected description, descriptions are supported only on type definitions."
            || message.hasPrefix("Syntax Error: Expected \"$\", found String")
            || message.hasPrefix("Syntax Error: Expected \"$\", found BlockString")
        return isDescriptionError && (ours.line, ours.column) > (line, column)
    }

    static func hasExecutableDescription(_ document: Document) -> Bool {
        document.definitions.contains { definition in
            switch definition {
            case .operation(let operation):
                operation.description != nil || operation.variableDefinitions.contains { $0.description != nil }
            case .fragment(let fragment):
                fragment.description != nil
            default:
                false
            }
        }
    }

    static func removingExecutableDescriptions(_ document: Document) -> Document {
        var document = document
        document.definitions = document.definitions.map { definition in
            switch definition {
            case .operation(var operation):
                operation.description = nil
                operation.variableDefinitions = operation.variableDefinitions.map { variable in
                    var variable = variable
                    variable.description = nil
                    return variable
                }
                return .operation(operation)
            case .fragment(var fragment):
                fragment.description = nil
                return .fragment(fragment)
            default:
                return definition
            }
        }
        return document
    }

    static func quote(_ text: String) -> String {
        let shown = text.count > 300 ? String(text.prefix(300)) + "…" : text
        return "\"" + shown.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r") + "\""
    }
}

/// The shared third-party inputs (`../shared/bench`, or `HEARTH_BENCH_INPUTS`).
enum BenchInputs {
    struct Input {
        var name: String
        var text: String
    }

    static var directory: URL {
        if let path = ProcessInfo.processInfo.environment["HEARTH_BENCH_INPUTS"] {
            return URL(fileURLWithPath: path)
        }
        return ReferenceOracle.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/bench")
    }

    static func available() -> [Input] {
        ["kitchen-sink.graphql", "github-schema.graphql"].compactMap { name in
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
                return nil
            }
            return Input(name: name, text: String(decoding: data, as: UTF8.self))
        }
    }
}
