/// Every selection of one parsed document, held flat: each selection is a plain record in one
/// array, a selection set's selections lie side by side in it, and long names, fields' arguments
/// and selections' directives sit in arrays of their own, found by position; a name of up to
/// fifteen bytes is made from the source when asked for (no allocation, see ``ShortASCIIStrings``).
/// A document of a hundred fields is then a handful of allocations instead of an array per
/// selection set, and freeing it frees those few arrays instead of walking a tree of them.
///
/// ``SelectionSet``, ``Field``, ``FragmentSpread`` and ``InlineFragment`` are views: a reference
/// to this storage and a position, their parts read from the records when asked for.
///
/// The parser makes the storage before the first selection set, so that the sets it makes refer to
/// it, and fills it once, when it finishes the document (``install(nodes:names:arguments:directives:)``),
/// before the document leaves the parser; from then on it never changes. That one write is why
/// the class is `@unchecked Sendable`.
public final class SelectionStorage: @unchecked Sendable {
    /// The records, in memory the storage owns (handed over by the parser's ``RecordStacks``).
    private(set) var nodes = UnsafeMutableBufferPointer<SelectionNode>(start: nil, count: 0)
    /// The names not made from the source (past fifteen bytes).
    private(set) var names: [Name] = []
    /// The document's bytes, that short names are made from.
    let body: [UInt8]
    private let shortStrings = ShortASCIIStrings()
    /// Fields' arguments: a field's are side by side (``SelectionNode/arguments``).
    private(set) var arguments: [Argument] = []
    /// Selections' directives: a selection's are side by side (``SelectionNode/directives``).
    private(set) var directives: [Directive] = []

    init(body: [UInt8]) {
        self.body = body
    }

    deinit { nodes.deallocate() }

    /// Called once, by the parser that made the storage, when the document is read; the storage
    /// owns `nodes`' memory from then on.
    func install(
        nodes: UnsafeMutableBufferPointer<SelectionNode>?, names: [Name], arguments: [Argument], directives: [Directive]
    ) {
        if let nodes { self.nodes = nodes }
        self.names = names
        self.arguments = arguments
        self.directives = directives
    }

    /// The record at `index` (checked: a view's position comes from the records themselves).
    @inline(__always)
    func node(_ index: Int) -> SelectionNode {
        precondition(index >= 0 && index < nodes.count, "selection record out of range")
        return nodes[index]
    }

    @inline(__always)
    func selection(at index: Int) -> Selection {
        switch node(index).kind {
        case .field: .field(Field(storage: self, index: index))
        case .fragmentSpread: .fragmentSpread(FragmentSpread(storage: self, index: index))
        case .inlineFragment: .inlineFragment(InlineFragment(storage: self, index: index))
        }
    }

    @inline(__always)
    func name(_ reference: NameReference) -> Name {
        if reference.index >= 0 { return names[Int(reference.index)] }
        let range = reference.range
        return Name(body.withUnsafeBufferPointer { shortStrings.string($0, from: range.start, to: range.end) }, range: range)
    }

    @inline(__always)
    func arguments(of node: SelectionNode) -> ArraySlice<Argument> {
        arguments[Int(node.arguments.lowerBound)..<Int(node.arguments.upperBound)]
    }

    /// A selection's directives, as an Array like every other node's (made when asked for: most
    /// selections have none, and those that have are read a few times, by validation and planning).
    @inline(__always)
    func directives(of node: SelectionNode) -> [Directive] {
        let range = node.directives
        return range.isEmpty ? [] : Array(directives[Int(range.lowerBound)..<Int(range.upperBound)])
    }

    @inline(__always)
    func selectionSet(of node: SelectionNode) -> SelectionSet? {
        node.hasSelectionSet ? SelectionSet(storage: self, children: node.children, range: node.selectionSetRange) : nil
    }
}

/// One selection as the parser records it: positions in the storage's arrays, nothing counted by
/// reference, so records are copied and freed as plain bytes.
struct SelectionNode: Sendable, BitwiseCopyable {
    enum Kind: UInt8, Sendable, BitwiseCopyable {
        case field, fragmentSpread, inlineFragment
    }

    var kind: Kind
    /// A field's name, a spread's fragment name, an inline fragment's type condition (or none).
    var name: NameReference
    /// A field's alias (or none).
    var alias = NameReference.none
    private var directiveStart: Int32 = 0
    private var directiveEnd: Int32 = 0
    private var argumentStart: Int32 = 0
    private var argumentEnd: Int32 = 0
    private var childStart: Int32 = 0
    private var childEnd: Int32 = 0
    /// Where its selection set lies: empty when it has none (a set spans at least `{` and `}`).
    var selectionSetRange = SourceRange(start: 0, end: 0)
    var range: SourceRange

    init(kind: Kind, name: NameReference, range: SourceRange) {
        self.kind = kind
        self.name = name
        self.range = range
    }

    /// A field's arguments, in the storage's ``SelectionStorage/arguments``.
    var arguments: Range<Int32> {
        get { argumentStart..<argumentEnd }
        set { (argumentStart, argumentEnd) = (newValue.lowerBound, newValue.upperBound) }
    }

    /// Its directives, in the storage's ``SelectionStorage/directives``.
    var directives: Range<Int32> {
        get { directiveStart..<directiveEnd }
        set { (directiveStart, directiveEnd) = (newValue.lowerBound, newValue.upperBound) }
    }

    var hasSelectionSet: Bool { selectionSetRange.end > selectionSetRange.start }

    /// The selections of its selection set, when it has one.
    var children: Range<Int32> {
        get { childStart..<childEnd }
        set { (childStart, childEnd) = (newValue.lowerBound, newValue.upperBound) }
    }
}

/// A name in a selection record: where it lies in the source, and whether it is made from there
/// (up to fifteen bytes) or kept in the storage's ``SelectionStorage/names``.
struct NameReference: Sendable, BitwiseCopyable {
    let range: SourceRange
    /// A position in the storage's names; `-1`: made from the source; `-2`: no name.
    let index: Int32

    static let none = NameReference(range: SourceRange(start: 0, end: 0), index: -2)

    var exists: Bool { index != -2 }
}

/// `{ selection… }`
public struct SelectionSet: Sendable {
    let storage: SelectionStorage
    let children: Range<Int32>
    public let range: SourceRange

    public var selections: Selections { Selections(storage: storage, bounds: children) }
}

/// The selections of a selection set, in source order.
public struct Selections: RandomAccessCollection, Sendable {
    let storage: SelectionStorage
    let bounds: Range<Int32>

    public var startIndex: Int { 0 }
    public var endIndex: Int { bounds.count }

    public subscript(position: Int) -> Selection {
        precondition(position >= 0 && position < bounds.count, "Selection index out of range")
        return storage.selection(at: Int(bounds.lowerBound) + position)
    }
}

public enum Selection: Sendable {
    case field(Field)
    case fragmentSpread(FragmentSpread)
    case inlineFragment(InlineFragment)

    public var range: SourceRange {
        switch self {
        case .field(let node): node.range
        case .fragmentSpread(let node): node.range
        case .inlineFragment(let node): node.range
        }
    }
}

/// `alias: name(arguments) @directives { … }`
public struct Field: Sendable {
    let storage: SelectionStorage
    let index: Int

    @inline(__always)
    private var node: SelectionNode { storage.node(index) }

    public var alias: Name? {
        let alias = node.alias
        return alias.exists ? storage.name(alias) : nil
    }

    public var name: Name { storage.name(node.name) }

    public var arguments: ArraySlice<Argument> { storage.arguments(of: node) }
    public var directives: [Directive] { storage.directives(of: node) }
    public var selectionSet: SelectionSet? { storage.selectionSet(of: node) }
    public var range: SourceRange { node.range }

    /// The key the field's value has in the response: its alias, else its name.
    public var responseKey: String {
        let node = self.node
        return storage.name(node.alias.exists ? node.alias : node.name).value
    }
}

/// `...Name @directives`
public struct FragmentSpread: Sendable {
    let storage: SelectionStorage
    let index: Int

    public var name: Name { storage.name(storage.node(index).name) }
    public var directives: [Directive] { storage.directives(of: storage.node(index)) }
    public var range: SourceRange { storage.node(index).range }
}

/// `... on Type @directives { … }` (the type condition is optional)
public struct InlineFragment: Sendable {
    let storage: SelectionStorage
    let index: Int

    public var typeCondition: NamedType? {
        let name = storage.node(index).name
        return name.exists ? NamedType(name: storage.name(name)) : nil
    }

    public var directives: [Directive] { storage.directives(of: storage.node(index)) }

    public var selectionSet: SelectionSet {
        let node = storage.node(index)
        return SelectionSet(storage: storage, children: node.children, range: node.selectionSetRange)
    }

    public var range: SourceRange { storage.node(index).range }
}
