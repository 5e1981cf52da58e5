import ArgumentParser
import HearthCore

/// `hearth serve`'s account settings: each an option or an environment variable.
struct UsersOptions: ParsableArguments {
    @Option(name: .customLong("signup"), help: "Who may create accounts: open, invite-only or closed (env HEARTH_SIGNUP; default open).")
    var signUp: String?

    @Option(name: .customLong("bcrypt-cost"), help: "bcrypt cost for passwords, 10 to 16 (env HEARTH_BCRYPT_COST; default 12).")
    var bcryptCost: Int?

    @Option(name: .customLong("session-days"), help: "Days a session lasts without use (env HEARTH_SESSION_DAYS; default 30).")
    var sessionDays: Int?

    @Option(name: .customLong("sign-in-attempts"), help: "Failed sign-ins allowed per email and per address in the window (env HEARTH_SIGN_IN_ATTEMPTS; default 10).")
    var signInAttempts: Int?

    @Option(name: .customLong("sign-in-window"), help: "Minutes failed sign-ins are counted over (env HEARTH_SIGN_IN_WINDOW; default 15).")
    var signInWindow: Int?

    @Option(name: .customLong("sign-ups-per-address"), help: "Accounts one client address may create in the sign-in window (env HEARTH_SIGN_UPS_PER_ADDRESS; default 20).")
    var signUpsPerAddress: Int?

    @Option(name: .customLong("user-cache-ttl"), help: "Seconds a session lookup stays cached (env HEARTH_USER_CACHE_TTL; default 300).")
    var cacheTTL: Int?

    func resolve(_ env: EnvironmentValue) throws -> UsersConfiguration {
        let modeText = env.string(signUp, "HEARTH_SIGNUP") ?? SignUpMode.open.rawValue
        guard let mode = SignUpMode(rawValue: modeText) else {
            throw ValidationError("--signup / HEARTH_SIGNUP must be open, invite-only or closed; got \"\(modeText)\"")
        }
        return UsersConfiguration(
            bcryptCost: try env.integer(bcryptCost, "HEARTH_BCRYPT_COST", range: 10...16) ?? 12,
            sessionLifetime: Double(try env.integer(sessionDays, "HEARTH_SESSION_DAYS", range: 1...3_650) ?? 30) * 86_400,
            cacheTTL: Double(try env.integer(cacheTTL, "HEARTH_USER_CACHE_TTL", range: 0...86_400) ?? 300),
            signUpMode: mode,
            signInAttempts: try env.integer(signInAttempts, "HEARTH_SIGN_IN_ATTEMPTS", range: 1...1_000) ?? 10,
            signInWindow: Double(try env.integer(signInWindow, "HEARTH_SIGN_IN_WINDOW", range: 1...1_440) ?? 15) * 60,
            signUpsPerAddress: try env.integer(signUpsPerAddress, "HEARTH_SIGN_UPS_PER_ADDRESS", range: 1...100_000) ?? 20)
    }
}
