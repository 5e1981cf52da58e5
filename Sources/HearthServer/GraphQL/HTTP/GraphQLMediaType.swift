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
        case .timeout: return .serviceUnavailable
        }
    }

    /// The media type for an `Accept` header (RFC 9110 §12.5.1): each type Hearth can send gets
    /// the quality of the most specific range matching it (`q` defaults to 1, `q=0` refuses it),
    /// and the highest quality wins. At equal quality a type named outright beats one reached
    /// through `*/*` or `application/*`, then the GraphQL response type is preferred (as the
    /// GraphQL-over-HTTP specification says). No header means a legacy client (`application/json`).
    /// 406 when neither JSON type is acceptable. With `eventStreams`, `text/event-stream` named with
    /// a quality above 0 asks for a stream of events (graphql-sse).
    static func negotiate(accept: String?, eventStreams: Bool = false) throws(GraphQLHTTPError) -> GraphQLMediaType {
        guard let accept, !accept.allSatisfy({ $0 == " " }) else { return .json }
        /// Per candidate: (specificity of the range that set it, its quality).
        var graphQL: (specificity: Int, quality: Double)?
        var json: (specificity: Int, quality: Double)?
        var stream: Double?
        func offer(_ current: inout (specificity: Int, quality: Double)?, _ specificity: Int, _ quality: Double) {
            if let current, current.specificity >= specificity { return }
            current = (specificity, quality)
        }
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";")
            let type = (parts.first ?? "").trimmingSpaces.lowercased()
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces.lowercased() }
                if pair.count == 2, pair[0] == "q" { quality = min(max(Double(pair[1]) ?? 1, 0), 1) }
            }
            switch type {
            case "application/graphql-response+json": offer(&graphQL, 2, quality)
            case "application/json": offer(&json, 2, quality)
            case "application/*":
                offer(&graphQL, 1, quality)
                offer(&json, 1, quality)
            case "*/*":
                offer(&graphQL, 0, quality)
                offer(&json, 0, quality)
            case "text/event-stream": stream = max(stream ?? 0, quality)
            default: break
            }
        }
        if eventStreams, let stream, stream > 0 { return .eventStream }
        let graphQLQuality = graphQL?.quality ?? 0
        let jsonQuality = json?.quality ?? 0
        guard graphQLQuality > 0 || jsonQuality > 0 else {
            throw GraphQLHTTPError(
                .notAcceptable, "The Accept header allows neither application/graphql-response+json nor application/json.",
                code: .notAcceptable)
        }
        if jsonQuality != graphQLQuality { return jsonQuality > graphQLQuality ? .json : .graphQLResponse }
        // Equal quality: a type the client named outright, then the specification's preference.
        return (json?.specificity ?? 0) > (graphQL?.specificity ?? 0) ? .json : .graphQLResponse
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
                code: .unsupportedMediaType)
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
