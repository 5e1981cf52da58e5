import BenchSupport
import Foundation
import GraphQLEngine

/// Parses one benchmark input a given number of times, for `scripts/bench/instructions.sh`, which
/// runs it under callgrind at two counts: the difference over the extra parses is the instructions
/// one parse costs, a figure that, unlike time, a noisy machine does not move.
/// Usage: ParseInstructions introspection|kitchen-sink|github-schema ITERATIONS
let arguments = CommandLine.arguments
guard arguments.count == 3, let iterations = Int(arguments[2]), iterations >= 0 else {
    print("usage: ParseInstructions introspection|kitchen-sink|github-schema ITERATIONS")
    exit(2)
}
let name = arguments[1]
guard let text = name == "introspection" ? BenchInputs.introspection : BenchInputs.input(name + ".graphql") else {
    print("ParseInstructions: \(name) not found (set HEARTH_BENCH_INPUTS and HEARTH_BENCH_INTROSPECTION)")
    exit(2)
}
let source = Source(text, name: name)
var definitions = 0
do {
    for _ in 0..<iterations {
        definitions &+= try Parser.parse(source, options: .trusted).definitions.count
    }
} catch {
    print("ParseInstructions: \(name) does not parse: \(error)")
    exit(1)
}
// Printed so that no parse can be optimised away.
print("\(name): \(iterations) parses, \(definitions) definitions")
