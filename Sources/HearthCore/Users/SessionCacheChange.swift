import Foundation

/// Which cached sign-ins a committed write made stale (a session ended, a user changed or
/// went): applied by the instance that wrote, then sent over the event bus to the others.
struct SessionCacheChange: Codable, Sendable {
    static let topic = "sessions"

    /// Only this session.
    var session: UUID?
    /// Only this person's sessions.
    var user: UUID?
    /// Except this session (signing out everywhere else).
    var keeping: UUID?

    init(session: UUID? = nil, user: UUID? = nil, keeping: UUID? = nil) {
        self.session = session
        self.user = user
        self.keeping = keeping
    }

    func matches(_ signedIn: SignedIn) -> Bool {
        (session.map { signedIn.session.id == $0 } ?? true) && (user.map { signedIn.user.id == $0 } ?? true)
            && (keeping.map { signedIn.session.id != $0 } ?? true)
    }
}
