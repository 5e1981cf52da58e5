import ArgumentParser
import Foundation

/// Resolves an option: the command line wins, then the environment variable, then the default.
/// A bad environment value is a usage error (exit 64) naming the variable.
struct EnvironmentValue {
    let environment: [String: String]

    init(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    func string(_ cli: String?, _ names: String...) -> String? {
        if let cli { return cli }
        for name in names {
            if let value = environment[name], !value.isEmpty { return value }
        }
        return nil
    }

    func port(_ cli: Int?, _ name: String, allowZero: Bool) throws -> Int? {
        if let cli {
            try Self.checkPort(cli, "--\(Self.optionName(name))", allowZero: allowZero)
            return cli
        }
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let value = Int(text) else {
            throw ValidationError("\(name): '\(text)' is not a port number")
        }
        try Self.checkPort(value, name, allowZero: allowZero)
        return value
    }

    func integer(_ cli: Int?, _ name: String, range: ClosedRange<Int>) throws -> Int? {
        let (value, source): (Int, String)
        if let cli {
            (value, source) = (cli, "--\(Self.optionName(name))")
        } else if let text = environment[name], !text.isEmpty {
            guard let parsed = Int(text) else { throw ValidationError("\(name): '\(text)' is not a whole number") }
            (value, source) = (parsed, name)
        } else {
            return nil
        }
        guard range.contains(value) else {
            throw ValidationError("\(source): \(value) is out of range (\(range.lowerBound)...\(range.upperBound))")
        }
        return value
    }

    private static func checkPort(_ value: Int, _ source: String, allowZero: Bool) throws {
        guard (allowZero ? 0...65535 : 1...65535).contains(value) else {
            throw ValidationError("\(source): \(value) is not a port number (\(allowZero ? 0 : 1)...65535)")
        }
    }

    /// `HEARTH_EMBEDDED_PORT` → `embedded-port`.
    static func optionName(_ variable: String) -> String {
        variable.replacingOccurrences(of: "HEARTH_", with: "").lowercased().replacingOccurrences(of: "_", with: "-")
    }
}
