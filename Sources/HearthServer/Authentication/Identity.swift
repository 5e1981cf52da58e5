import HearthCore

/// Who sent a request, as established from its bearer token before any resolver runs.
public enum Identity: Sendable, Equatable {
    /// No token was sent.
    case anonymous
    /// A live session's token: the person and the session.
    case user(SignedIn)

    /// The signed-in person and session, if any.
    public var signedIn: SignedIn? {
        if case .user(let signedIn) = self { return signedIn }
        return nil
    }
}
