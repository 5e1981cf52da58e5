/// What the parser gathers for a document's ``SelectionStorage`` while it reads the document.
struct SelectionBuilder: ~Copyable {
    /// The records of the selection sets read to their end, each set's side by side, and of the
    /// sets still open, the innermost's last; a set's records move to the finished ones when it
    /// closes, so that they lie together whatever its selections held.
    var records = RecordStacks<SelectionNode>()
    var names: [Name] = []
    var arguments: [Argument] = []
    var directives: [Directive] = []
    /// Made with the document's first selection set; what the sets refer to.
    var storage: SelectionStorage?

    /// The storage the document's selection sets refer to. Made with room for the records of a
    /// document of this size (a selection takes a dozen bytes or more), so that a small one's
    /// records fill one buffer instead of growing through two or three.
    @inline(__always)
    mutating func documentStorage(body: [UInt8]) -> SelectionStorage {
        if let storage { return storage }
        records.reserve(max(16, min(body.count / 24, 1 << 12)))
        let made = SelectionStorage(body: body)
        storage = made
        return made
    }

    /// Keeps a name; its position.
    @inline(__always)
    mutating func add(_ name: Name) -> Int32 {
        names.append(name)
        return Int32(names.count - 1)
    }

    /// Moves the open records from `first` on (a set that has closed) to the finished ones: where they lie now.
    @inline(__always)
    mutating func close(from first: Int) -> Range<Int32> {
        let finished = records.finish(from: first)
        return Int32(finished.lowerBound)..<Int32(finished.upperBound)
    }
}

extension Parser {
    /// Fills the document's ``SelectionStorage`` with what was gathered: done once, when the
    /// document is read, before it leaves the parser.
    mutating func finishSelections() {
        guard let storage = selections.storage else { return }
        storage.install(
            nodes: selections.records.takeFinished(), names: selections.names, arguments: selections.arguments,
            directives: selections.directives)
    }
}
