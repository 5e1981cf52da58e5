import Foundation
import HearthCore
import Hummingbird
import Logging

/// `POST /actions/<token>`: what a reminder's action button does with no session (an ntfy
/// button, a service worker with the app closed). The signed token is the permission; the person
/// it was sent to acts, with the permissions they have now.
struct ActionLinkController<Context: RequestContext>: Sendable {
    let actions: NotificationActionService

    /// What the link did, as JSON.
    struct Done: Encodable {
        var action: String
        var taskId: String
        var performedAt: String
        /// True when an earlier POST did it: this one changed nothing.
        var alreadyDone: Bool
    }

    func addRoutes(to router: Router<Context>) {
        router.post("/actions/:token") { _, context in
            let token = try context.parameters.require("token")
            do {
                let outcome = try await actions.perform(token: token)
                return JSONResponse.json(.ok, JSONResponse.encode(Done(
                    action: outcome.action.rawValue, taskId: outcome.taskID.lowercasedString,
                    performedAt: JSONResponse.timestamp(outcome.performedAt), alreadyDone: outcome.alreadyDone)))
            } catch let error as ServiceError {
                let status: HTTPResponse.Status = switch error.kind {
                case .notFound: .notFound
                case .forbidden, .unauthenticated: .forbidden
                case .rateLimited: .tooManyRequests
                case .serviceUnavailable: .serviceUnavailable
                default: .conflict
                }
                let message = error.kind == .notFound
                    ? "This action link does not work (any more): the reminder was done, removed or is older than seven days."
                    : error.message
                return JSONResponse.json(status, JSONResponse.encode(JSONResponse.ErrorBody(error: message)))
            }
        }
    }
}
