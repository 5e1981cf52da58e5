import Foundation

/// Who may create an account.
public enum SignUpMode: String, Sendable, CaseIterable {
    /// Anyone who reaches the server (a home network).
    case open
    /// Only with an invitation code (households issue); until invitations exist, like `closed`.
    case inviteOnly = "invite-only"
    /// Only administrators create accounts (`hearth user create`).
    case closed
}

/// Settings of the users service.
public struct UsersConfiguration: Sendable {
    /// bcrypt's cost (2^cost rounds): 12 in production; tests lower it to stay fast.
    public var bcryptCost: Int
    /// How long a session lasts without use; every use pushes the expiry this far ahead.
    public var sessionLifetime: TimeInterval
    /// How long a token's session and user stay cached in memory.
    public var cacheTTL: TimeInterval
    public var signUpMode: SignUpMode
    /// Failed sign-ins allowed per email and per client address within `signInWindow`.
    public var signInAttempts: Int
    public var signInWindow: TimeInterval
    /// Accounts one client address may create within `signInWindow` (each costs a bcrypt hash).
    public var signUpsPerAddress: Int

    public init(
        bcryptCost: Int = 12, sessionLifetime: TimeInterval = 30 * 86_400, cacheTTL: TimeInterval = 300,
        signUpMode: SignUpMode = .open, signInAttempts: Int = 10, signInWindow: TimeInterval = 15 * 60, signUpsPerAddress: Int = 20
    ) {
        self.bcryptCost = bcryptCost
        self.sessionLifetime = sessionLifetime
        self.cacheTTL = cacheTTL
        self.signUpMode = signUpMode
        self.signInAttempts = signInAttempts
        self.signInWindow = signInWindow
        self.signUpsPerAddress = signUpsPerAddress
    }
}

extension ServiceError {
    /// The configuration does not let people sign up.
    public static func signUpClosed(_ mode: SignUpMode) -> ServiceError {
        switch mode {
        case .inviteOnly: forbidden("Sign-up on this server needs an invitation: give its code as invitationCode.")
        default: forbidden("Sign-up is closed on this server; ask its administrator for an account.")
        }
    }
}
