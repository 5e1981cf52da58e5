import ArgumentParser
import Foundation
import HearthCore

/// The server's secret key (it seals stored channel secrets; backups carry it): from
/// `--secret-key-file`, `HEARTH_SECRET_KEY`, or with the embedded database `<data-dir>/secret.key`,
/// made on first use (mode 0600).
struct SecretKeyOptions: ParsableArguments {
    @Option(name: .customLong("secret-key-file"),
            help: "A file holding 32 random bytes in base64 that seal stored secrets (env HEARTH_SECRET_KEY holds the key itself). With the embedded database and neither, <data-dir>/secret.key is made.")
    var secretKeyFile: String?

    /// The key's base64 text.
    func text(_ env: EnvironmentValue, embeddedDataDirectory: String?) throws -> String {
        if let path = secretKeyFile {
            guard let text = try KeyFile.read(path) else {
                throw ValidationError("--secret-key-file \(path): there is no such file.")
            }
            return text
        }
        if let text = env.string(nil, "HEARTH_SECRET_KEY") { return text }
        guard let directory = embeddedDataDirectory else {
            throw ValidationError("""
                An external database needs a secret key to seal channel secrets: give --secret-key-file (a file with \
                `openssl rand -base64 32`) or HEARTH_SECRET_KEY, the same on every instance sharing the database.
                """)
        }
        let path = KeyFile.path("secret.key", in: directory)
        return try KeyFile.readOrCreate(path, else: "The secret key file \(path) cannot be written; give --secret-key-file.") { SecretBox.makeKeyText() }
    }

    /// The key, checked.
    func box(_ env: EnvironmentValue, embeddedDataDirectory: String?) throws -> SecretBox {
        do {
            return try SecretBox(base64: try text(env, embeddedDataDirectory: embeddedDataDirectory))
        } catch let failure as SecretBox.Failure {
            throw ValidationError(failure.description)
        }
    }
}
