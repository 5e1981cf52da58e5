/// Limits that keep a hostile document from exhausting CPU or stack while it is parsed.
public struct ParseOptions: Sendable, Hashable {
    /// The most tokens (comments not counted) a document may have; nil for no limit.
    /// graphql-js's `maxTokens`, with the same message when exceeded.
    public var maxTokens: Int?
    /// The deepest nesting of selection sets, list and object values and list types.
    /// Clamped to ``depthCeiling`` so the recursive-descent parser stays well within a
    /// thread's stack whatever is configured.
    public var maxDepth: Int {
        get { storedMaxDepth }
        set { storedMaxDepth = min(max(newValue, 1), Self.depthCeiling) }
    }
    private var storedMaxDepth: Int

    /// The hard ceiling on ``maxDepth``.
    public static let depthCeiling = 1_000

    public init(maxTokens: Int? = 10_000, maxDepth: Int = 100) {
        self.maxTokens = maxTokens
        self.storedMaxDepth = min(max(maxDepth, 1), Self.depthCeiling)
    }

    /// For client requests: at most 10 000 tokens, nesting at most 100 deep.
    public static let request = ParseOptions()

    /// For trusted documents such as the server's own schema: no token limit.
    public static let trusted = ParseOptions(maxTokens: nil, maxDepth: 100)
}
