import Foundation
import HearthCore
import Logging
import MCP

/// The MCP sessions this instance holds: each an SDK `Server` on its own Streamable HTTP
/// transport, bound to the person (and access token) that opened it. Sessions live in memory:
/// a client whose session is unknown here (another instance, a restart) gets 404 and opens a
/// new one, as the MCP specification has clients do.
actor MCPSessions {
    /// Who opened a session; every later request must come from the same.
    struct Owner: Equatable {
        var user: UUID
        var token: UUID?
    }

    struct Session {
        let server: Server
        let transport: StatefulHTTPServerTransport
        let owner: Owner
        var lastUsed: ContinuousClock.Instant
    }

    private var sessions: [String: Session] = [:]
    /// Request times per person in the last minute, for the rate limit.
    private var recent: [UUID: [ContinuousClock.Instant]] = [:]
    let configuration: MCPConfiguration
    let tools: HearthTools
    let version: String
    let logger: Logger

    init(configuration: MCPConfiguration, tools: HearthTools, version: String, logger: Logger) {
        self.configuration = configuration
        self.tools = tools
        self.version = version
        self.logger = logger
    }

    /// Counts a request of `user`; the seconds to wait when over the limit.
    func admit(_ user: UUID) -> Int? {
        let now = ContinuousClock.now
        var times = (recent[user] ?? []).filter { now - $0 < .seconds(60) }
        if times.count >= configuration.requestsPerMinute, let oldest = times.first {
            recent[user] = times
            return max(1, Int((oldest + .seconds(60) - now).components.seconds) + 1)
        }
        times.append(now)
        recent[user] = times
        if recent.count > 10_000 { recent = recent.filter { !$0.value.isEmpty && now - ($0.value.last ?? now) < .seconds(60) } }
        return nil
    }

    /// The session `id` when `owner` opened it (touched); nil when unknown or someone else's.
    func session(_ id: String, for owner: Owner) -> Session? {
        guard var session = sessions[id], session.owner == owner else { return nil }
        session.lastUsed = .now
        sessions[id] = session
        return session
    }

    /// Opens a session for `signedIn`: its server started on a new transport. Closes idle
    /// sessions, and the least recently used when a limit is reached.
    func open(for signedIn: SignedIn) async throws -> Session {
        await closeIdle()
        let owner = Owner(user: signedIn.user.id, token: signedIn.accessToken?.id)
        let mine = sessions.filter { $0.value.owner.user == signedIn.user.id }
        if mine.count >= configuration.sessionsPerPerson, let oldest = mine.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            await close(oldest.key)
        }
        if sessions.count >= configuration.maximumSessions, let oldest = sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            await close(oldest.key)
        }
        let id = UUID().uuidString.lowercased()
        let transport = StatefulHTTPServerTransport(
            sessionIDGenerator: FixedSessionID(id: id),
            // Origin and authorization are checked before the transport (see MCPController).
            validationPipeline: StandardValidationPipeline(validators: [
                AcceptHeaderValidator(mode: .sseRequired), ContentTypeValidator(), ProtocolVersionValidator(), SessionValidator(),
            ]),
            logger: logger)
        let server = Server(
            name: "hearth", version: version, title: "Hearth",
            instructions: """
                Tools for a household's shared tasks, events, labels and watched stores in Hearth. Dates without an offset \
                are read in the household's time zone (list_households shows it). With several households, name one.
                """,
            capabilities: .init(tools: .init(listChanged: false)))
        let tools = self.tools
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: HearthTools.definitions.map(\.tool)) }
        await server.withMethodHandler(CallTool.self) { parameters in
            try await tools.call(parameters.name, parameters.arguments, as: signedIn)
        }
        try await server.start(transport: transport)
        let session = Session(server: server, transport: transport, owner: owner, lastUsed: .now)
        sessions[id] = session
        logger.info("MCP session opened", metadata: ["session": "\(id)", "user": "\(signedIn.user.id)", "token": "\(signedIn.accessToken.map { $0.id.uuidString } ?? "none")"])
        return session
    }

    /// Forgets a session the client ended (DELETE), or closes one.
    func close(_ id: String) async {
        guard let session = sessions.removeValue(forKey: id) else { return }
        await session.server.stop()
        await session.transport.disconnect()
    }

    func closeAll() async {
        for id in Array(sessions.keys) { await close(id) }
    }

    private func closeIdle() async {
        let now = ContinuousClock.now
        for (id, session) in sessions where now - session.lastUsed > configuration.sessionIdleTimeout { await close(id) }
    }

    var count: Int { sessions.count }

    private struct FixedSessionID: SessionIDGenerator {
        let id: String
        func generateSessionID() -> String { id }
    }
}
