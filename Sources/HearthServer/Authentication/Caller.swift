/// Who sent a request, as established from its bearer token before any resolver runs.
///
/// Accounts arrive with the users service; until then every caller is anonymous and no token
/// is valid.
public enum Caller: Sendable, Equatable {
    /// No token was sent.
    case anonymous
}
