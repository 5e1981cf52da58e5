import ArgumentParser
import Foundation
import GraphQLEngine

/// `hearth graphql …`: tools for GraphQL documents, using Hearth's own engine.
struct GraphQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphql",
        abstract: "Work with GraphQL documents (schema files, queries) using Hearth's engine.",
        subcommands: [Format.self, Validate.self, PrintSchema.self, Execute.self])
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
    }

    /// `hearth graphql validate --schema S.graphql FILE…`: check client operations against a schema.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate GraphQL operation files against a schema (all of graphql-js's validation rules).",
            discussion: """
                Prints one line per problem, file:line:column: message, and exits 1 when any file has \
                a problem (0 when all are valid). With --json, prints [{file, message, locations}] instead.
                """)

        @Option(name: .long, help: "The schema's SDL file.")
        var schema: String

        @ArgumentParser.Argument(help: "Operation files to validate (\"-\" for standard input).")
        var files: [String]

        @Flag(name: .long, help: "Print the problems as a JSON array.")
        var json = false

        func validate() throws {
            if files.isEmpty { throw ValidationError("Name at least one operation FILE (or \"-\" for standard input).") }
        }

        func run() throws {
            let built = try loadSchema(schema)
            var problems: [(file: String, error: GraphQLError)] = []
            for path in files {
                let name = path == "-" ? "<stdin>" : path
                do {
                    let bytes = try read(path)
                    let document = try Parser.parse(Source(bytes: bytes, name: name))
                    for error in Validator.validate(document, against: built) { problems.append((name, error)) }
                } catch let error as GraphQLError {
                    problems.append((name, error))
                } catch {
                    standardError("hearth: cannot read \(path): \(error.localizedDescription)\n")
                    throw ExitCode.failure
                }
            }
            if json {
                let entries = problems.map { problem -> [String: Any] in
                    [
                        "file": problem.file, "message": problem.error.message,
                        "locations": problem.error.locations.map { ["line": $0.line, "column": $0.column] },
                    ]
                }
                let data = try JSONSerialization.data(withJSONObject: entries, options: [.prettyPrinted, .sortedKeys])
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            } else {
                for problem in problems {
                    FileHandle.standardOutput.write(Data((located(problem.error, file: problem.file) + "\n").utf8))
                }
            }
            if !problems.isEmpty { throw ExitCode.failure }
        }
    }

    /// `hearth graphql print-schema S.graphql`: the schema in canonical SDL (graphql-js printSchema).
    struct PrintSchema: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "print-schema",
            abstract: "Build a schema from SDL and print it in canonical form (as graphql-js's printSchema does).",
            discussion: """
                Problems in the SDL (syntax, unknown types, broken interface contracts, …) are printed \
                with file:line:column, and the exit status is 1.
                """)

        @ArgumentParser.Argument(help: "The schema's SDL file (\"-\" for standard input).")
        var schema: String

        func run() throws {
            let built = try loadSchema(schema)
            FileHandle.standardOutput.write(Data((SchemaPrinter.print(built) + "\n").utf8))
        }
    }
}

extension GraphQLCommand {
    /// `hearth graphql execute --schema S --data root.json QUERY.graphql`: run an operation over JSON data.
    struct Execute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Execute an operation over JSON data with default resolvers, printing the response JSON.",
            discussion: """
                Every field reads the same-named key of its parent in the data (the root value is the \
                --data file's object); interfaces and unions resolve through a "__typename" key. The \
                response is printed as graphql-js serializes it ("errors" first, then "data"). Exit \
                status 0 when the operation ran (even with field errors), 1 when it was refused \
                (syntax, validation, variables).
                """)

        @Option(name: .long, help: "The schema's SDL file.")
        var schema: String

        @Option(name: .long, help: "A JSON file with the root value (default: an empty object).")
        var data: String?

        @Option(name: .long, help: "A JSON file with the variables object.")
        var variables: String?

        @Option(name: .long, help: "The operation to run, when the document has several.")
        var operation: String?

        @Flag(name: .long, help: "Refuse introspection (__schema, __type), as a server with introspection off does.")
        var noIntrospection = false

        @ArgumentParser.Argument(help: "The operation's file (\"-\" for standard input).")
        var query: String

        func run() async throws {
            let built = try loadSchema(schema)
            let executable: ExecutableSchema
            do {
                executable = try ExecutableSchema(built, resolvers: Resolvers(defaultResolution: .everywhere))
            } catch {
                standardError("hearth: \(error)\n")
                throw ExitCode.failure
            }
            let root = try readJSON(data, what: "data") ?? .object(GraphQLObject())
            let variableValues: GraphQLObject
            switch try readJSON(variables, what: "variables") {
            case nil: variableValues = GraphQLObject()
            case .object(let object)?: variableValues = object
            case _?:
                standardError("hearth: \(variables ?? "variables"): the variables must be a JSON object\n")
                throw ExitCode.failure
            }
            let text: String
            do {
                text = String(decoding: try read(query), as: UTF8.self)
            } catch {
                standardError("hearth: cannot read \(query): \(error.localizedDescription)\n")
                throw ExitCode.failure
            }
            let executor = Executor(executable, configuration: ExecutorConfiguration(
                introspection: !noIntrospection, limits: .unlimited, documentCacheCapacity: 0, parseOptions: .trusted))
            let response = await executor.execute(
                GraphQLRequest(query: text, operationName: operation, variables: variableValues), rootValue: .value(root))
            FileHandle.standardOutput.write(Data(response.json + [10]))
            if !response.hasData { throw ExitCode.failure }
        }

        private func readJSON(_ path: String?, what: String) throws -> GraphQLValue? {
            guard let path else { return nil }
            do {
                return try JSONParser.parse(try read(path))
            } catch let error as JSONParser.SyntaxError {
                standardError("hearth: \(path): invalid JSON \(what): \(error)\n")
            } catch {
                standardError("hearth: cannot read \(path): \(error.localizedDescription)\n")
            }
            throw ExitCode.failure
        }
    }
}

/// Reads a file, or standard input for "-".
func read(_ path: String) throws -> [UInt8] {
    if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }
    return Array(data)
}

func standardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

/// `file:line:column: message` for each location (or `file: message` when there is none).
func located(_ error: GraphQLError, file: String) -> String {
    guard !error.locations.isEmpty else { return "\(file): \(error.message)" }
    let first = error.locations[0]
    let others = error.locations.dropFirst().map { "\n    see also \(file):\($0.line):\($0.column)" }
    return "\(file):\(first.line):\(first.column): \(error.message)" + others.joined()
}

/// Builds the schema in `path`, printing every problem and exiting 1 when there are any.
func loadSchema(_ path: String) throws -> GraphQLSchema {
    let bytes: [UInt8]
    do {
        bytes = try read(path)
    } catch {
        standardError("hearth: cannot read \(path): \(error.localizedDescription)\n")
        throw ExitCode.failure
    }
    let name = path == "-" ? "<stdin>" : path
    do {
        let document = try Parser.parse(Source(bytes: bytes, name: name), options: .trusted)
        return try SchemaBuilder.build(document)
    } catch let error as GraphQLError {
        standardError(error.printed + "\n")
    } catch let error as SchemaError {
        for problem in error.errors { standardError(located(problem, file: name) + "\n") }
    }
    throw ExitCode.failure
}
