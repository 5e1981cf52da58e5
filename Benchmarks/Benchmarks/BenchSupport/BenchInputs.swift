import Foundation

/// Where the benchmarks find their inputs: `../shared/bench` beside the repository (or
/// `HEARTH_BENCH_INPUTS`), and graphql-js's introspection query written by scripts/bench/lib.sh
/// (`HEARTH_BENCH_INTROSPECTION`).
public enum BenchInputs {
    /// The repository (Benchmarks/Benchmarks/BenchSupport/ → three folders up).
    public static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    public static var directory: URL {
        if let path = ProcessInfo.processInfo.environment["HEARTH_BENCH_INPUTS"] { return URL(fileURLWithPath: path) }
        return repository.deletingLastPathComponent().appendingPathComponent("shared/bench")
    }

    public static func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A file of the inputs folder, such as `github-schema.graphql`.
    public static func input(_ name: String) -> String? { read(directory.appendingPathComponent(name).path) }

    /// graphql-js's `getIntrospectionQuery()`.
    public static var introspection: String? { ProcessInfo.processInfo.environment["HEARTH_BENCH_INTROSPECTION"].flatMap(read) }
}
