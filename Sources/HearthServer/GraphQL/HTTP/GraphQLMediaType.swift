import GraphQLEngine
import HTTPTypes

/// The two media types a GraphQL response may be sent as, chosen from the request's `Accept`.
enum GraphQLMediaType: Sendable {
    /// `application/graphql-response+json`: status codes say how far the request got.
    case graphQLResponse
    /// `application/json` (legacy clients): every well-formed GraphQL response is 200.
    case json
    /// `text/event-stream` (graphql-sse, distinct connections): results as `next` events, then `complete`.
    case eventStream

    var contentType: String {
        switch self {
        case .graphQLResponse: "application/graphql-response+json; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        case .eventStream: "text/event-stream; charset=utf-8"
        }
    }

    /// The status of an engine response: 200 when it has `data`, else by the stage that refused it.
    func status(of refusal: GraphQLResponse.Refusal?) -> HTTPResponse.Status {
        guard self == .graphQLResponse, let refusal else { return .ok }
        switch refusal {
        case .syntax, .badRequest: return .badRequest
        case .validation, .tooComplex: return .unprocessableContent
        }
    }

    /// The media type for an `Accept` header: the GraphQL response type when it is acceptable
    /// (also through `*/*` or `application/*`), else `application/json`; no header means a legacy
    /// client (`application/json`). 406 when neither is acceptable.
    /// With `eventStreams`, an `Accept` naming `text/event-stream` asks for a stream of events.
    static func negotiate(accept: String?, eventStreams: Bool = false) throws(GraphQLHTTPError) -> GraphQLMediaType {
        guard let accept, !accept.allSatisfy({ $0 == " " }) else { return .json }
        var json = false
        var wildcard = false
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";")
            let type = (parts.first ?? "").trimmingSpaces.lowercased()
            let refused = parts.dropFirst().contains { parameter in
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces.lowercased() }
                return pair.count == 2 && pair[0] == "q" && (Double(pair[1]) ?? 1) == 0
            }
            if refused { continue }
            switch type {
            case "text/event-stream" where eventStreams: return .eventStream
            case "application/graphql-response+json": return .graphQLResponse
            case "application/json": json = true
            case "*/*", "application/*": wildcard = true
            default: break
            }
        }
        if json { return .json }
        if wildcard { return .graphQLResponse }
        throw GraphQLHTTPError(
            .notAcceptable, "The Accept header allows neither application/graphql-response+json nor application/json.",
            code: "NOT_ACCEPTABLE")
    }

    /// POST bodies must be JSON (`application/json` or `application/graphql-response+json`), in UTF-8.
    static func checkContentType(_ header: String?) throws(GraphQLHTTPError) {
        let parts = (header ?? "").split(separator: ";")
        let type = (parts.first ?? "").trimmingSpaces.lowercased()
        let charset = parts.dropFirst().compactMap { parameter -> String? in
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces.lowercased() }
            return pair.count == 2 && pair[0] == "charset" ? String(pair[1][...].trimming { $0 == "\"" }) : nil
        }.first
        guard type == "application/json" || type == "application/graphql-response+json", charset == nil || charset == "utf-8"
        else {
            throw GraphQLHTTPError(
                .unsupportedMediaType,
                header == nil
                    ? "The request has no Content-Type; send the GraphQL request as application/json."
                    : "Content-Type \(header ?? "") is not supported; send the GraphQL request as application/json (UTF-8).",
                code: "UNSUPPORTED_MEDIA_TYPE")
        }
    }
}

extension Substring {
    /// Without the spaces and tabs around it (a slice, nothing copied).
    fileprivate var trimmingSpaces: Substring { trimming { $0 == " " || $0 == "\t" } }

    /// Without the characters matching `isTrimmed` at either end.
    fileprivate func trimming(_ isTrimmed: (Character) -> Bool) -> Substring {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
