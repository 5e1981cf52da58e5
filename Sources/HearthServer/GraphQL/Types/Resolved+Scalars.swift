import Foundation
import GraphQLEngine
import HearthCore

/// Hearth's values as leaf results, in the form its scalars serialize: the field tables' vocabulary.
extension Resolved {
    /// A `DateTime` (null when absent).
    static func date(_ date: Date?) -> Resolved {
        guard let date else { return .null }
        return .value(.string(DateTimeScalar.string(from: date)))
    }

    /// A list of `DateTime`s.
    static func dates(_ dates: [Date]) -> Resolved {
        .value(.list(dates.map { .string(DateTimeScalar.string(from: $0)) }))
    }

    /// A `UUID` in its lowercase form (null when absent).
    static func id(_ id: UUID?) -> Resolved {
        guard let id else { return .null }
        return .value(.string(id.lowercasedString))
    }

    /// Minor units as a `Decimal` string: 2550 → "25.50", -5 → "-0.05" (null when absent).
    static func money(_ cents: Int64?) -> Resolved {
        guard let cents else { return .null }
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return .value(.string("\(cents < 0 ? "-" : "")\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"))
    }

    /// A string that may be absent.
    static func string(orNull string: String?) -> Resolved {
        guard let string else { return .null }
        return .value(.string(string))
    }

    /// An integer that may be absent.
    static func int(orNull int: Int?) -> Resolved {
        guard let int else { return .null }
        return .value(.int(int))
    }

    /// An enum value: the raw value is the schema's name for it (null when absent).
    static func enumeration<Value: RawRepresentable<String>>(_ value: Value?) -> Resolved {
        guard let value else { return .null }
        return .value(.string(value.rawValue))
    }

    /// A list of strings.
    static func strings(_ strings: [String]) -> Resolved {
        .value(.list(strings.map(GraphQLValue.string)))
    }
}
