/// Why a set of rules could not be loaded, or turned into SQL: said once, loudly, when the
/// rules are loaded, where CASL would quietly never match.
public struct PermissionRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which rule (0-based index in the list given), when the problem is in one.
    public var ruleIndex: Int?
    public var message: String

    public init(ruleIndex: Int? = nil, _ message: String) {
        self.ruleIndex = ruleIndex
        self.message = message
    }

    public var description: String {
        if let ruleIndex { return "rule \(ruleIndex): \(message)" }
        return message
    }
}
