import ArgumentParser
import HearthServer

/// `hearth`: the Hearth household server.
@main
struct Hearth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hearth",
        abstract: "Hearth, a self-hosted household server.",
        discussion: "Every option can also be set by an environment variable named HEARTH_<OPTION> (for example HEARTH_PORT).",
        version: HearthVersion.current,
        subcommands: [Serve.self, Migrate.self, UserCommand.self, HouseholdCommand.self, BackupCommand.self, RestoreCommand.self, AbilityCommand.self, GraphQLCommand.self, MCPCommand.self, DevCommand.self],
        defaultSubcommand: nil
    )
}
