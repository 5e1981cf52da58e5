import PostgresNIO

/// Errors told in one line, for logs and health reports.
public enum ErrorText {
    /// A one-line description of `error`; for PostgreSQL's, the server's message without
    /// PostgresNIO's query dump.
    public static func oneLine(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return "\(error.code.description): \(underlying)" }
            return error.code.description
        }
        return "\(error)"
    }
}
