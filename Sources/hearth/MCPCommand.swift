import ArgumentParser
import AsyncHTTPClient
import Foundation
import HearthCore
import Logging
import MCP
import NIOCore

/// `hearth mcp --url URL`: the assistants' tools over stdio, for MCP hosts that start a local
/// process (Claude Desktop and the like). Each message the host writes is forwarded to a running
/// Hearth's `/mcp` and each answer written back: the tools, their rules and their logs stay on
/// the server. The token comes from `HEARTH_TOKEN` or `--token-file`, never the command line.
struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the assistants' tools over stdio, forwarding to a running Hearth.",
        discussion: """
            Give the Hearth to forward to with --url (its address, or its /mcp endpoint) and a token \
            (createAccessToken) in HEARTH_TOKEN or a file named by --token-file. Standard input and \
            output carry MCP; messages about the forwarding go to standard error.
            """)

    @Option(help: "The running Hearth: http://host:port, or its /mcp endpoint (env HEARTH_URL).")
    var url: String?

    @Option(name: .customLong("token-file"), help: "A file holding the access token (else env HEARTH_TOKEN).")
    var tokenFile: String?

    func run() async throws {
        let env = EnvironmentValue()
        guard let text = env.string(url, "HEARTH_URL") else { throw ValidationError("Give the Hearth to forward to: --url http://host:port (or HEARTH_URL).") }
        guard let endpoint = MCPStdioProxy.endpoint(text) else {
            throw ValidationError("--url \(text): give an http or https address, like http://127.0.0.1:8080.")
        }
        let token: String
        if let tokenFile {
            guard let contents = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                throw ValidationError("--token-file \(tokenFile): the file cannot be read.")
            }
            token = contents.trimmingCharacters(in: .whitespacesAndNewlines)
        } else {
            token = env.string(nil, "HEARTH_TOKEN") ?? ""
        }
        guard !token.isEmpty else {
            throw ValidationError("Give an access token (createAccessToken) in HEARTH_TOKEN or a file named by --token-file; never on the command line.")
        }
        var logger = Logger(label: "hearth.mcp") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        try await MCPStdioProxy(endpoint: endpoint, token: token, logger: logger).run()
    }
}

/// Forwards MCP messages between stdio (the SDK's `StdioTransport`) and a Hearth's `/mcp`
/// (Streamable HTTP): the session id and protocol version are carried over, SSE answers are
/// unpacked into their messages, and a refusal of the server or the network becomes a JSON-RPC
/// error answering the request it was for.
struct MCPStdioProxy {
    let endpoint: URL
    let token: String
    let logger: Logger

    /// `text` as the `/mcp` endpoint (a bare address gets `/mcp`).
    static func endpoint(_ text: String) -> URL? {
        guard let url = URL.httpAddress(text), var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        if components.path.isEmpty || components.path == "/" { components.path = "/mcp" }
        return components.url
    }

    /// What the server said of the session: its id and the protocol version agreed on.
    private struct Session {
        var id: String?
        var protocolVersion: String?
    }

    func run() async throws {
        let stdio = StdioTransport(logger: logger)
        try await stdio.connect()
        var session = Session()
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10)))
        // An unreachable Hearth is reported to the host at once, not after retrying until the request's deadline.
        configuration.connectionPool.retryConnectionEstablishment = false
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            for try await message in await stdio.receive() {
                for answer in await forward(message, session: &session, http: http) { try await stdio.send(answer) }
            }
        } catch {
            logger.error("stdio failed", metadata: ["error": "\(error)"])
        }
        // The host went away: end the session on the server.
        if let id = session.id {
            var request = HTTPClientRequest(url: endpoint.absoluteString)
            request.method = .DELETE
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.headers.add(name: "Mcp-Session-Id", value: id)
            _ = try? await http.execute(request, timeout: .seconds(5))
        }
        await stdio.disconnect()
        try await http.shutdown()
    }

    /// One message sent to the server; what to write back to the host.
    private func forward(_ message: Data, session: inout Session, http: HTTPClient) async -> [Data] {
        let requestID = (try? JSONSerialization.jsonObject(with: message) as? [String: Any])?["id"]
        var request = HTTPClientRequest(url: endpoint.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json, text/event-stream")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let id = session.id { request.headers.add(name: "Mcp-Session-Id", value: id) }
        if let version = session.protocolVersion { request.headers.add(name: "MCP-Protocol-Version", value: version) }
        request.body = .bytes(ByteBuffer(bytes: message))
        do {
            // Beyond a tool call's own bound on the server (30 s).
            let response = try await http.execute(request, timeout: .seconds(60))
            if let id = response.headers.first(name: "Mcp-Session-Id") { session.id = id }
            let body = try await response.body.collect(upTo: 16 << 20)
            let bytes = Data(buffer: body)
            guard (200..<300).contains(Int(response.status.code)) else {
                let reason = ((try? JSONSerialization.jsonObject(with: bytes) as? [String: Any])?["error"] as? [String: Any])?["message"] as? String
                if response.status.code == 404 { session.id = nil }
                logger.warning("Hearth refused a message", metadata: ["status": "\(response.status.code)", "reason": "\(reason ?? "")"])
                return Self.error(answering: requestID, "Hearth answered \(response.status.code): \(reason ?? response.status.reasonPhrase)")
            }
            let messages = response.headers.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true ? Self.events(in: bytes) : (bytes.isEmpty ? [] : [bytes])
            for answer in messages {
                if let result = (try? JSONSerialization.jsonObject(with: answer) as? [String: Any])?["result"] as? [String: Any],
                   let version = result["protocolVersion"] as? String {
                    session.protocolVersion = version
                }
            }
            return messages
        } catch {
            logger.warning("cannot reach Hearth", metadata: ["url": "\(endpoint)", "error": "\(error)"])
            return Self.error(answering: requestID, "Hearth at \(endpoint.absoluteString) cannot be reached (\(error)).")
        }
    }

    /// The data of each SSE event (the priming events with none are skipped).
    static func events(in stream: Data) -> [Data] {
        var messages: [Data] = []
        for block in String(decoding: stream, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n") {
            let data = block.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { $0.hasPrefix("data:") }
                .map { line in line.dropFirst(5).drop { $0 == " " } }
                .joined(separator: "\n")
            if !data.isEmpty { messages.append(Data(data.utf8)) }
        }
        return messages
    }

    /// A JSON-RPC error answering the request `id` (none for a notification).
    static func error(answering id: Any?, _ message: String) -> [Data] {
        guard let id, !(id is NSNull) else { return [] }
        let answer: [String: Any] = ["jsonrpc": "2.0", "id": id, "error": ["code": -32603, "message": message]]
        return (try? JSONSerialization.data(withJSONObject: answer)).map { [$0] } ?? []
    }
}
