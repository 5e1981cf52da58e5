import BenchSupport
import Foundation
import GraphQLEngine

/// Parses one benchmark input a given number of times, for `scripts/bench/instructions.sh`, which
/// runs it under callgrind at two counts: the difference over the extra parses is the instructions
/// one parse costs, a figure that, unlike time, a noisy machine does not move.
/// Usage: ParseInstructions introspection|kitchen-sink|github-schema ITERATIONS

/// Says what went wrong on standard error (the script reads only callgrind's count) and exits.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let iterations = Int(arguments[2]), iterations >= 0 else {
    fail("usage: ParseInstructions introspection|kitchen-sink|github-schema ITERATIONS", status: 2)
}
let name = arguments[1]
guard let text = name == "introspection" ? BenchInputs.introspection : BenchInputs.input(name + ".graphql") else {
    fail("ParseInstructions: \(name) not found (set HEARTH_BENCH_INPUTS and HEARTH_BENCH_INTROSPECTION)", status: 2)
}
let source = Source(text, name: name)
var definitions = 0
do {
    for _ in 0..<iterations {
        definitions &+= try Parser.parse(source, options: .trusted).definitions.count
    }
} catch {
    fail("ParseInstructions: \(name) does not parse: \(error)", status: 1)
}
// Printed so that no parse can be optimised away.
print("\(name): \(iterations) parses, \(definitions) definitions")
