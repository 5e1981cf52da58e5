/// What a permission is checked on: a subject type ("may I create tasks?"), an instance with its
/// fields ("may I update this task?"), or nothing (CASL's `all`).
public enum AbilitySubject: Sendable, Equatable {
    case type(String)
    case instance(type: String, fields: [String: JSONValue])
    case none

    /// The key in JSON subjects that names their type, as CASL's `subject()` helper sets it.
    public static let typeKey = "__caslSubjectType__"

    public var typeName: String {
        switch self {
        case .type(let name): name
        case .instance(let type, _): type
        case .none: "all"
        }
    }

    /// Reads a subject as `hearth ability eval` takes it: a type name, an object whose
    /// `__caslSubjectType__` names its type (CASL calls an untagged object an `Object`), or null.
    public init(json: JSONValue?) throws(PermissionRuleError) {
        switch json {
        case nil, .null?: self = .none
        case .string(let name)?: self = .type(name)
        case .object(var members)?:
            var type = "Object"
            if let tag = members.removeValue(forKey: Self.typeKey) {
                guard let name = tag.stringValue else {
                    throw PermissionRuleError("\(Self.typeKey) must be a string; got \(tag.jsonText)")
                }
                type = name
            }
            self = .instance(type: type, fields: members)
        case let other?:
            throw PermissionRuleError("a subject is a type name, an object or null; got \(other.jsonText)")
        }
    }
}
