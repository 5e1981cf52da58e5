import Crypto
import GraphQLEngine
import Foundation
import HearthCore
import Hummingbird

/// `/healthz` (alive), `/readyz` (ready for traffic) and `/admin/health` (per-service report).
///
/// `/admin/health` takes the bootstrap admin token or the session token of an instance
/// administrator; other signed-in people get 403, everyone else 401.
public struct HealthController<Context: RequestContext>: Sendable {
    public let health: HealthRegistry
    public let readiness: ReadinessCheck
    public let adminToken: String?
    public let version: String
    public let startedAt: Date
    /// Recognises administrators' session tokens.
    public let authenticator: Authenticator

    public init(
        health: HealthRegistry, readiness: ReadinessCheck, adminToken: String?, version: String, startedAt: Date,
        authenticator: Authenticator = .noAccounts
    ) {
        self.health = health
        self.readiness = readiness
        self.adminToken = adminToken
        self.version = version
        self.startedAt = startedAt
        self.authenticator = authenticator
    }

    public func addRoutes(to router: Router<Context>) {
        router.get("/healthz") { _, _ in
            JSONResponse.json(.ok, #"{"status":"ok"}"#)
        }
        router.get("/readyz") { _, _ in
            if let reasons = await readiness.notReadyReasons() {
                return JSONResponse.json(.serviceUnavailable, JSONResponse.encode(NotReady(status: "unavailable", reasons: reasons)))
            }
            return JSONResponse.json(.ok, #"{"status":"ready"}"#)
        }
        router.get("/admin/health") { request, context in
            switch await access(request, context) {
            case .granted:
                return JSONResponse.json(.ok, JSONResponse.encode(await report()))
            case .forbidden:
                return JSONResponse.json(.forbidden, JSONResponse.encode(JSONResponse.ErrorBody(error: "only instance administrators may read /admin/health")))
            case .unauthorized:
                var response = JSONResponse.json(.unauthorized, JSONResponse.encode(JSONResponse.ErrorBody(
                    error: "missing or wrong token: send Authorization: Bearer with HEARTH_ADMIN_TOKEN or an administrator's session token")))
                response.headers[.wwwAuthenticate] = #"Bearer realm="hearth-admin""#
                return response
            }
        }
    }

    enum Access { case granted, forbidden, unauthorized }

    /// The bootstrap token, or an administrator's session.
    private func access(_ request: Request, _ context: Context) async -> Access {
        if isBootstrapAdmin(request) { return .granted }
        guard let token = try? BearerToken.parse(authorization: request.headers[.authorization]) else { return .unauthorized }
        do {
            guard case .user(let signedIn) = try await authenticator.identity(for: token) else { return .unauthorized }
            return signedIn.user.isAdmin ? .granted : .forbidden
        } catch is AuthenticationError {
            return .unauthorized
        } catch {
            context.logger.error("cannot authenticate an admin request", metadata: ["error": "\(String(reflecting: error))"])
            return .unauthorized
        }
    }

    /// The report `/admin/health` returns.
    func report() async -> AdminHealthReport {
        let database = readiness.database
        async let checks = health.checkAll()
        async let installationID = withTimeout(database.healthCheckTimeout) {
            try await InstallationSettings.installationID(database)
        }
        let installation = try? await installationID
        let results = await checks
        return AdminHealthReport(
            status: results.allSatisfy(\.status.isHealthy) ? "ok" : "degraded",
            version: version,
            installationId: installation,
            startedAt: JSONResponse.timestamp(startedAt),
            services: results.map { name, status in
                .init(name: name, isHealthy: status.isHealthy, lastChecked: JSONResponse.timestamp(status.lastChecked),
                      errors: status.errors, responseTimeMs: status.responseTime.responseTimeMilliseconds,
                      details: status.details.isEmpty ? nil : status.details.mapValues(HealthDetailJSON.init))
            })
    }

    /// Compares digests so the comparison takes the same time wherever the tokens differ.
    private func isBootstrapAdmin(_ request: Request) -> Bool {
        guard let adminToken, !adminToken.isEmpty,
              let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else { return false }
        let presented = header.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        return SHA256.hash(data: Data(presented.utf8)) == SHA256.hash(data: Data(adminToken.utf8))
    }

    struct NotReady: Encodable {
        var status: String
        var reasons: [String]
    }

}

/// The JSON body of `/admin/health`.
struct AdminHealthReport: Codable, Sendable {
    struct ServiceEntry: Codable, Sendable {
        var name: String
        var isHealthy: Bool
        var lastChecked: String
        var errors: [String]
        var responseTimeMs: Double
        /// Service-specific figures such as cache size and hit rate, as JSON numbers, booleans and strings.
        var details: [String: HealthDetailJSON]?
    }

    var status: String
    var version: String
    var installationId: String?
    var startedAt: String
    var services: [ServiceEntry]
}

/// A ``HealthDetail`` as JSON: a number, a boolean, a string, or a time in the report's format.
struct HealthDetailJSON: Codable, Sendable, Equatable {
    var detail: HealthDetail

    init(_ detail: HealthDetail) { self.detail = detail }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch detail {
        case .int(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        case .time(let date): try container.encode(DateTimeScalar.string(from: date))
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            detail = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            detail = .int(value)
        } else if let value = try? container.decode(Double.self) {
            detail = .number(value)
        } else {
            detail = .text(try container.decode(String.self))
        }
    }

    /// The same figure as a GraphQL value (`ServiceHealth.details` is JSON).
    var graphQLValue: GraphQLValue {
        switch detail {
        case .int(let value): .int(value)
        case .number(let value): .float(value)
        case .bool(let value): .bool(value)
        case .text(let value): .string(value)
        case .time(let date): .string(DateTimeScalar.string(from: date))
        }
    }
}
