import GraphQLEngine
import Metrics
import Synchronization

/// What `/metrics` shows of GraphQL: operations by name and outcome
/// (`hearth_graphql_operations_total`), and the document cache's running hit and miss totals.
///
/// Operation names come from clients, so only the first ``maxOperationNames`` distinct names
/// (made of name characters, at most 64) become labels; others count as `other`.
final class GraphQLMetrics: Sendable {
    enum Outcome: String {
        /// Data and no errors.
        case ok
        /// Data with errors (some fields failed).
        case errors
        /// Refused before execution: syntax, validation, variables, limits, unknown persisted query.
        case refused
        case timeout
    }

    static let maxOperationNames = 200
    private let knownNames = Mutex<Set<String>>([])
    /// Counters by operation label and outcome, made once each (making one looks it up in the registry).
    private let counters = Mutex<[String: Counter]>([:])
    private let cacheHits = Gauge(label: "hearth_graphql_document_cache_hits")
    private let cacheMisses = Gauge(label: "hearth_graphql_document_cache_misses")
    private let cacheBytes = Gauge(label: "hearth_graphql_document_cache_bytes")

    func record(operation name: String?, outcome: Outcome) {
        let operation = label(for: name)
        let key = operation + "\u{0}" + outcome.rawValue
        let counter = counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(
                label: "hearth_graphql_operations_total", dimensions: [("operation", operation), ("outcome", outcome.rawValue)])
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    func record(_ response: GraphQLResponse, operation name: String?) {
        let outcome: Outcome =
            response.refusal == .timeout ? .timeout : response.refusal != nil ? .refused : response.errors.isEmpty ? .ok : .errors
        record(operation: name, outcome: outcome)
    }

    func record(cache: DocumentCache) {
        cacheHits.record(cache.hits)
        cacheMisses.record(cache.misses)
        cacheBytes.record(cache.bytes)
    }

    private func label(for name: String?) -> String {
        guard let name else { return "anonymous" }
        guard name.utf8.count <= 64,
            name.utf8.allSatisfy({ $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { return "other" }
        return knownNames.withLock { names in
            if names.contains(name) { return name }
            guard names.count < Self.maxOperationNames else { return "other" }
            names.insert(name)
            return name
        }
    }
}
