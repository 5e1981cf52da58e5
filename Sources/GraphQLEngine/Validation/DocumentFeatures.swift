/// What a document may contain, found in one pass over its source bytes and definitions: rules
/// that check only what is absent are not run (most requests use no directives, fragments or
/// variables). A byte inside a string or comment may set a feature that is not there — that only
/// runs a rule for nothing; a feature the document has is never missed.
struct DocumentFeatures: OptionSet {
    let rawValue: UInt16

    /// `$`: variable definitions or variables.
    static let variables = DocumentFeatures(rawValue: 1 << 0)
    /// `@`: directives.
    static let directives = DocumentFeatures(rawValue: 1 << 1)
    /// `(`: arguments or variable definitions, and so values.
    static let arguments = DocumentFeatures(rawValue: 1 << 2)
    /// `.`: fragment spreads or inline fragments.
    static let spreads = DocumentFeatures(rawValue: 1 << 3)
    /// `__schema` or `__type`.
    static let introspectionFields = DocumentFeatures(rawValue: 1 << 4)
    /// Fragment definitions.
    static let fragmentDefinitions = DocumentFeatures(rawValue: 1 << 5)
    /// More than one operation.
    static let severalOperations = DocumentFeatures(rawValue: 1 << 6)
    /// A subscription operation.
    static let subscription = DocumentFeatures(rawValue: 1 << 7)
    /// A type-system definition or extension.
    static let nonExecutableDefinitions = DocumentFeatures(rawValue: 1 << 8)

    static let all = DocumentFeatures(rawValue: .max)

    init(rawValue: UInt16) { self.rawValue = rawValue }

    init(of document: Document) {
        let body = document.source.body
        // A document built in code has no source text to look at: assume everything.
        guard !body.isEmpty else {
            self = .all
            return
        }
        var features: DocumentFeatures = []
        body.withUnsafeBufferPointer { bytes in
            for (index, byte) in bytes.enumerated() {
                switch byte {
                case UInt8(ascii: "$"): features.insert(.variables)
                case UInt8(ascii: "@"): features.insert(.directives)
                case UInt8(ascii: "("): features.insert(.arguments)
                case UInt8(ascii: "."): features.insert(.spreads)
                case UInt8(ascii: "_"):
                    if !features.contains(.introspectionFields), Self.namesIntrospectionField(bytes, at: index) {
                        features.insert(.introspectionFields)
                    }
                default: break
                }
            }
        }
        var operations = 0
        for definition in document.definitions {
            switch definition {
            case .operation(let operation):
                operations += 1
                if operation.operation == .subscription { features.insert(.subscription) }
            case .fragment: features.insert(.fragmentDefinitions)
            default: features.insert(.nonExecutableDefinitions)
            }
        }
        if operations > 1 { features.insert(.severalOperations) }
        self = features
    }

    /// Whether `__schema` or `__type` (not `__typename`) starts at `index`.
    private static func namesIntrospectionField(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        func matches(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            guard index + count < bytes.count else { return true }
            let next = bytes[index + count]
            let continuesName = next == UInt8(ascii: "_") || (next >= 48 && next <= 57) || ((next | 0x20) >= 97 && (next | 0x20) <= 122)
            return !continuesName
        }
        return matches("__schema") || matches("__type")
    }
}
