import Foundation

/// Checks and normalises what people type: every rule names the field it guards, so the API
/// can say which one was wrong. Nothing is written before every field passed.
public enum UserInput {
    /// Trimmed, lower-cased, at most 254 characters, one `@` with a local part and a dotted domain,
    /// printable ASCII without spaces.
    public static func email(_ raw: String, field: String = "email") throws(ServiceError) -> String {
        let email = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !email.isEmpty else { throw .invalidInput(field: field, message: "\(field) must not be empty.") }
        guard email.utf8.count <= 254 else {
            throw .invalidInput(field: field, message: "\(field) must be at most 254 characters.")
        }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        let printable = email.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        guard printable, parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64,
            parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !parts[1].contains("..")
        else {
            throw .invalidInput(field: field, message: "\(field) must be an email address such as name@example.com.")
        }
        return email
    }

    /// Trimmed, 1 to 80 characters, no control characters.
    public static func displayName(_ raw: String, field: String = "displayName") throws(ServiceError) -> String {
        try text(raw, field: field, maxLength: 80)
    }

    /// 8 to 256 characters, taken as typed (not trimmed).
    public static func password(_ password: String, field: String = "password") throws(ServiceError) -> String {
        let count = password.count
        guard count >= 8 else { throw .invalidInput(field: field, message: "\(field) must be at least 8 characters.") }
        guard count <= 256 else { throw .invalidInput(field: field, message: "\(field) must be at most 256 characters.") }
        guard !password.unicodeScalars.contains(where: { $0.value == 0 }) else {
            throw .invalidInput(field: field, message: "\(field) must not contain NUL characters.")
        }
        return password
    }

    /// An absolute http or https URL of at most 2048 characters, or nil for none.
    public static func avatarURL(_ raw: String?, field: String = "avatarURL") throws(ServiceError) -> String? {
        guard let raw else { return nil }
        let url = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if url.isEmpty { return nil }
        guard url.utf8.count <= 2048 else { throw .invalidInput(field: field, message: "\(field) must be at most 2048 characters.") }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { throw .invalidInput(field: field, message: "\(field) must be an absolute http or https URL.") }
        return url
    }

    /// An IANA time zone name such as `Europe/Berlin` (abbreviations like `CEST` are refused).
    public static func timeZone(_ raw: String, field: String = "timeZone") throws(ServiceError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard name == "UTC" || TimeZone.knownTimeZoneIdentifiers.contains(name) else {
            throw .invalidInput(field: field, message: "\(field) must be an IANA time zone name such as Europe/Berlin; \(quoted(name)) is not one.")
        }
        return name
    }

    /// A device name from the client or its User-Agent: trimmed, control characters dropped, at
    /// most 200 characters; "Unknown device" when nothing is left.
    public static func deviceName(_ raw: String?) -> String {
        let cleaned = String(String.UnicodeScalarView((raw ?? "").unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return cleaned.isEmpty ? "Unknown device" : String(cleaned.prefix(200))
    }

    /// Trimmed text of 1 to `maxLength` characters without control characters.
    public static func text(_ raw: String, field: String, maxLength: Int) throws(ServiceError) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .invalidInput(field: field, message: "\(field) must not be empty.") }
        guard text.count <= maxLength else {
            throw .invalidInput(field: field, message: "\(field) must be at most \(maxLength) characters.")
        }
        guard !text.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw .invalidInput(field: field, message: "\(field) must not contain control characters.")
        }
        return text
    }

    /// `text` in quotes, cut to 64 characters for messages.
    static func quoted(_ text: String) -> String {
        "\"" + (text.count > 64 ? String(text.prefix(64)) + "…" : text) + "\""
    }
}
