import Foundation

/// Why the users service refused a request; the API maps each case to `extensions.code`.
public enum UserError: Error, Sendable, Equatable {
    /// A field of the input is not acceptable (`BAD_USER_INPUT`); `field` names it as the API does.
    case invalidInput(field: String, message: String)
    /// Another account has this email (`BAD_USER_INPUT` on `email`).
    case emailTaken
    /// Sign-in failed; one message whether the email exists or not (`UNAUTHENTICATED`).
    case invalidCredentials
    /// Too many password attempts (`RATE_LIMITED`); try again after this many seconds.
    case rateLimited(retryAfter: Int)
    /// Too many accounts created from one client address (`RATE_LIMITED`); try again after this many seconds.
    case tooManySignUps(retryAfter: Int)
    /// Every password-hashing slot is taken and the queue is full (`RATE_LIMITED`).
    case busy(retryAfter: Int)
    /// The configuration does not let people sign up (`FORBIDDEN`).
    case signUpClosed(SignUpMode)
    /// A password given to confirm a change is wrong (`BAD_USER_INPUT` on the named field).
    case wrongPassword(field: String)
    /// No such user or session, or not the caller's (`NOT_FOUND`).
    case notFound(String)

    /// What the client is told.
    public var message: String {
        switch self {
        case .invalidInput(_, let message): message
        case .emailTaken: "An account with this email already exists."
        case .invalidCredentials: "Invalid email or password"
        case .rateLimited(let seconds): "Too many password attempts. Try again in \(seconds) seconds."
        case .tooManySignUps(let seconds): "Too many accounts were created from your address. Try again in \(seconds) seconds."
        case .busy(let seconds): "The server is busy checking passwords. Try again in \(seconds) seconds."
        case .signUpClosed(.inviteOnly): "Sign-up on this server needs an invitation: give its code as invitationCode."
        case .signUpClosed: "Sign-up is closed on this server; ask its administrator for an account."
        case .wrongPassword(let field): "\(field) is not your current password."
        case .notFound(let what): "\(what) not found."
        }
    }
}
