import Foundation
import HearthCore
import Hummingbird

/// `GET /households/<id>/export` (the household's owners) and `POST /households/import` (anyone
/// signed in, a token that may write): a household as a JSON document, and that document made a new
/// household of the importer's. Bodies up to ``maximumImportBytes``; `/graphql`'s limit stays.
struct HouseholdTransferController<Context: RequestContext>: Sendable {
    let transfers: HouseholdTransferService
    let authenticator: Authenticator

    /// The largest document `POST /households/import` reads.
    static var maximumImportBytes: Int { 64 << 20 }

    /// What an import made, as JSON: the same shape whether or not the people it lists have accounts here.
    struct Imported: Encodable {
        struct Invitation: Encodable { var email: String, role: String, code: String }
        struct Dropped: Encodable { var item: Int, field: String, email: String }
        var householdId: String
        var name: String
        /// Everyone the document lists but the importer: their invitation codes, shown this once.
        var invitations: [Invitation]
        /// Assignments and completions naming someone not a member, left out of the items.
        var dropped: [Dropped]
        var labels: Int
        var items: Int
        var stores: Int
    }

    func addRoutes(to router: Router<Context>) {
        router.get("/households/:id/export") { request, context in
            await refusing(context) {
                guard let id = UUID(uuidString: try context.parameters.require("id")) else { throw ServiceError.notFound("Household") }
                let caller = try await caller(request, writes: false)
                let document = try await transfers.export(caller, householdID: id)
                let name = document.household.name.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? String($0) : "-" }.joined()
                let day = String(DateTimeScalar.string(from: document.exportedAt).prefix(10))
                return Response(status: .ok, headers: [
                    .contentType: "application/json; charset=utf-8",
                    .contentDisposition: "attachment; filename=\"hearth-household-\(name.lowercased())-\(day).json\"",
                    .cacheControl: "no-store",
                ], body: .init(byteBuffer: ByteBuffer(data: try document.json())))
            }
        }
        router.post("/households/import") { request, context in
            await refusing(context) {
                let caller = try await caller(request, writes: true)
                var request = request
                let body: ByteBuffer
                do {
                    body = try await request.collectBody(upTo: Self.maximumImportBytes)
                } catch {
                    return JSONResponse.json(.contentTooLarge, JSONResponse.encode(JSONResponse.ErrorBody(
                        error: "The export is larger than the limit of \(Self.maximumImportBytes) bytes (64 MiB).")))
                }
                let imported = try await transfers.importHousehold(caller, try HouseholdExport.read(Data(buffer: body)))
                return JSONResponse.json(.created, JSONResponse.encode(Imported(
                    householdId: imported.household.id.lowercasedString, name: imported.household.name,
                    invitations: imported.invitations.map { .init(email: $0.email, role: $0.role.rawValue, code: $0.code) },
                    dropped: imported.dropped.map { .init(item: $0.item, field: $0.field, email: $0.email) },
                    labels: imported.labels, items: imported.items, stores: imported.stores)))
            }
        }
    }

    /// The signed-in caller; an access token must have the write scope to import.
    private func caller(_ request: Request, writes: Bool) async throws -> Caller {
        let token: BearerToken?
        do {
            token = try BearerToken.parse(authorization: request.headers[.authorization])
        } catch {
            throw ServiceError(.unauthenticated, "Sign in first: send Authorization: Bearer with your session token.")
        }
        guard let signedIn = try await authenticator.identity(for: token).signedIn else {
            throw ServiceError(.unauthenticated, "Sign in first: send Authorization: Bearer with your session token.")
        }
        if writes, let access = signedIn.accessToken, !access.allows(.write) {
            throw ServiceError.forbidden("This access token may only read: importing a household needs the write scope.")
        }
        return try await authenticator.caller(signedIn)
    }

    /// Runs `body`, answering a refusal as `{"error": …, "code": …, "field": …}` with its HTTP status.
    private func refusing(_ context: Context, _ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let error as ServiceError {
            var response = JSONResponse.json(Self.status(error.kind), JSONResponse.encode(Refusal(error: error.message, code: error.kind.rawValue, field: error.field)))
            if let seconds = error.retryAfter { response.headers[.retryAfter] = String(seconds) }
            return response
        } catch let error as AuthenticationError {
            return JSONResponse.json(.unauthorized, JSONResponse.encode(Refusal(error: error.message, code: "UNAUTHENTICATED", field: nil)))
        } catch {
            context.logger.error("household transfer failed", metadata: ["error": "\(String(reflecting: error))"])
            return JSONResponse.json(.internalServerError, JSONResponse.encode(Refusal(
                error: "Something went wrong on the server; nothing was changed. Try again, or tell the operator.", code: "INTERNAL_SERVER_ERROR", field: nil)))
        }
    }

    struct Refusal: Encodable {
        var error: String
        var code: String
        var field: String?
    }

    static func status(_ kind: ServiceError.Kind) -> HTTPResponse.Status {
        switch kind {
        case .badUserInput: .badRequest
        case .unauthenticated: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .conflict: .conflict
        case .rateLimited: .tooManyRequests
        case .serviceUnavailable: .serviceUnavailable
        case .syncCursorExpired: .gone
        }
    }
}
