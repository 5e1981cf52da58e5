import ArgumentParser
import Foundation
import HearthCore
#if canImport(Glibc)
import Glibc
#endif

/// `hearth user`: accounts administered from the machine (create, set-admin, reset-password, list).
/// Passwords come from standard input or a prompt, never from the command line (`ps` shows it).
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Create and administer accounts.",
        discussion: """
            With the embedded database they work while `hearth serve` runs (on its cluster) or start the cluster briefly. \
            Passwords are read from standard input (one line) or prompted for without echo.
            """,
        subcommands: [Create.self, SetAdmin.self, ResetPassword.self, List.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an account (whatever the sign-up mode).")

        @Option(help: "The person's email.") var email: String
        @Option(name: .customLong("display-name"), help: "Their display name (default: the part of the email before @).")
        var displayName: String?
        @Flag(help: "Make them an instance administrator.") var admin = false
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let password = try PasswordInput.read(confirm: true)
            let name = displayName ?? String(email.split(separator: "@").first ?? "")
            try await UserCommand.withUsers(database) { users in
                let user = try await users.createUser(email: email, password: password, displayName: name, isAdmin: admin)
                UserCommand.print("created \(user.email) (\(user.id.lowercasedString))\(user.isAdmin ? ", administrator" : "")")
            }
        }
    }

    struct SetAdmin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set-admin", abstract: "Make a person an administrator, or not.")

        @Option(help: "The person's email.") var email: String
        @Flag(inversion: .prefixedNo, help: "Grant (--admin) or withdraw (--no-admin) administration.") var admin = true
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await UserCommand.withUsers(database) { users in
                let user = try await users.setAdmin(email: email, isAdmin: admin)
                UserCommand.print("\(user.email) is \(user.isAdmin ? "now" : "no longer") an administrator")
            }
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password", abstract: "Set a new password; every session of the person ends.")

        @Option(help: "The person's email.") var email: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let password = try PasswordInput.read(confirm: true)
            try await UserCommand.withUsers(database) { users in
                let user = try await users.resetPassword(email: email, password: password)
                UserCommand.print("password of \(user.email) reset; every session signed out")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every account, oldest first.")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await UserCommand.withUsers(database) { users in
                for user in try await users.allUsers() {
                    let created = user.createdAt.formatted(Date.ISO8601FormatStyle())
                    UserCommand.print("\(user.id.lowercasedString)  \(user.email)  \(user.displayName)  \(created)\(user.isAdmin ? "  admin" : "")")
                }
            }
        }
    }

    /// Runs `body` with the users service on a migrated database; service refusals become one
    /// line on stderr and exit status 1.
    static func withUsers(_ options: DatabaseOptions, _ body: @escaping @Sendable (UserService) async throws -> Void) async throws {
        try await withServices(options) { services in try await body(services.users) }
    }

    /// Runs `body` with the services on a migrated database, as ``withUsers(_:_:)`` does.
    static func withServices(_ options: DatabaseOptions, _ body: @escaping @Sendable (HearthServices) async throws -> Void) async throws {
        let resolved = try options.resolve()
        let logger = Bootstrap.logging(level: resolved.logLevel)
        try await reportingFailures {
            let migrations = try Migration.load(from: resolved.migrationsDirectory)
            let setup = try await DatabaseSetup.start(resolved, logger: logger)
            try await setup.run { configuration in
                try await Database(configuration: configuration, logger: logger).whileRunning { database in
                    try await Migrator(migrations: migrations, logger: logger).migrate(database.client)
                    // The services as `hearth serve` builds them (an account's households are handled as there).
                    let services = HearthServices(database: database, logger: logger)
                    do {
                        try await body(services)
                        try await services.shutdown()
                    } catch {
                        try? await services.shutdown()
                        throw (error as? ServiceError).map { PlainError(($0.field.map { "\($0): " } ?? "") + $0.message) } ?? error
                    }
                }
            }
        }
    }

    static func print(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// Reads a password without it ever being an argument: a prompt without echo on a terminal,
/// else one line of standard input.
enum PasswordInput {
    static func read(confirm: Bool) throws -> String {
        if isatty(STDIN_FILENO) == 1 {
            let first = try prompt("Password: ")
            if confirm, try prompt("Repeat it: ") != first { throw PlainError("the passwords differ") }
            return first
        }
        guard let line = Swift.readLine(strippingNewline: true) else {
            throw PlainError("no password on standard input (pipe one line, or run in a terminal to be prompted)")
        }
        return line
    }

    /// Prompts on the terminal with echo off.
    private static func prompt(_ text: String) throws -> String {
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = Swift.readLine(strippingNewline: true) else { throw PlainError("no password entered") }
        return line
    }
}
