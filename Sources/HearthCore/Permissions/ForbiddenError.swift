/// A refused permission check, as CASL's `ForbiddenError`: the deciding inverted rule's `reason`,
/// or `Cannot execute "<action>" on "<Subject>"`.
public struct ForbiddenError: Error, Sendable, Equatable {
    public let action: String
    public let subjectType: String
    public let field: String?
    public let reason: String?

    public var message: String { reason ?? "Cannot execute \"\(action)\" on \"\(subjectType)\"" }
}
