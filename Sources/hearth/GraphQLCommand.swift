import ArgumentParser
import Foundation
import GraphQLEngine

/// `hearth graphql …`: tools for GraphQL documents, using Hearth's own engine.
struct GraphQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphql",
        abstract: "Work with GraphQL documents (schema files, queries) using Hearth's engine.",
        subcommands: [Format.self])
}

extension GraphQLCommand {
    /// `hearth graphql format FILE…`: print (or rewrite) documents in canonical form.
    struct Format: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print GraphQL documents in canonical form (as graphql-js's print() lays them out).",
            discussion: """
                Each FILE is parsed and printed back in canonical form; "-" reads standard input. \
                Syntax errors are printed with the offending line quoted, and the exit status is 1.
                """)

        @ArgumentParser.Argument(help: "GraphQL files to format (\"-\" for standard input).")
        var files: [String]

        @Flag(name: .shortAndLong, help: "Rewrite the files in place instead of printing them.")
        var write = false

        func validate() throws {
            if files.isEmpty { throw ValidationError("Name at least one FILE (or \"-\" for standard input).") }
            if write && files.contains("-") { throw ValidationError("--write cannot rewrite standard input (\"-\").") }
        }

        func run() throws {
            var failed = false
            var printedAny = false
            for path in files {
                do {
                    let bytes = try read(path)
                    let source = Source(bytes: bytes, name: path == "-" ? "<stdin>" : path)
                    let formatted = Printer.print(try Parser.parse(source, options: .trusted)) + "\n"
                    if write {
                        if formatted.utf8.elementsEqual(bytes) { continue }
                        try Data(formatted.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                        standardError("hearth: formatted \(path)\n")
                    } else {
                        FileHandle.standardOutput.write(Data(((printedAny ? "\n" : "") + formatted).utf8))
                        printedAny = true
                    }
                } catch let error as GraphQLError {
                    failed = true
                    standardError(error.printed + "\n")
                } catch {
                    failed = true
                    standardError("hearth: cannot read \(path): \(error.localizedDescription)\n")
                }
            }
            if failed { throw ExitCode.failure }
        }

        private func read(_ path: String) throws -> [UInt8] {
            if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
            }
            return Array(data)
        }

        private func standardError(_ text: String) {
            FileHandle.standardError.write(Data(text.utf8))
        }
    }
}
