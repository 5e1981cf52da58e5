import ArgumentParser
import Foundation
import HearthCore

/// `hearth household import FILE --owner EMAIL`: a household exported from another Hearth (or this
/// one) made anew here, owned by an existing account, as `POST /households/import` does.
struct HouseholdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "household", abstract: "Import a household exported from a Hearth.", subcommands: [Import.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new household from an export (GET /households/<id>/export), owned by an account here.",
            discussion: "Every member the export lists gets an invitation with their role (its code is printed once); nobody is added but the owner, and items assigned to others are left unassigned. All or nothing.")

        @Argument(help: "The export (JSON).") var file: String
        @Option(help: "The email of the account that will own it.") var owner: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                throw ValidationError("\(file) cannot be read: \(error.localizedDescription)")
            }
            try await UserCommand.withServices(database) { services in
                guard let account = try await services.users.user(email: owner) else {
                    throw PlainError("no account has the email \(owner): create it first (hearth user create --email \(owner))")
                }
                let imported = try await services.transfers.importHousehold(try await services.households.caller(for: account.id),
                                                                            try HouseholdExport.read(data), limited: false)
                UserCommand.print("""
                    imported \(imported.household.name) (\(imported.household.id.lowercasedString)) for \(account.email): \
                    \(imported.items) tasks and events, \(imported.labels) labels, \(imported.stores) stores (their products come with their first sync); \
                    \(imported.invitations.count) people to invite
                    """)
                for invitation in imported.invitations {
                    UserCommand.print("invite \(invitation.email) (\(invitation.role.rawValue)) with the code \(invitation.code)")
                }
                for dropped in imported.dropped {
                    UserCommand.print("items[\(dropped.item)].\(dropped.field) named \(dropped.email), not a member here: left out")
                }
            }
        }
    }
}
