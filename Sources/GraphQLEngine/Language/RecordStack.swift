/// A growable run of plain records (no references in them) that the parser pushes and cuts back
/// as it reads nested parts of a document: one buffer, copied as bytes, with none of an Array's
/// uniqueness checks on every push. What it holds becomes an Array once, at the end.
struct RecordStack<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>?
    private var capacity = 0
    private(set) var count = 0

    init() {}

    deinit { base?.deallocate() }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        base.unsafelyUnwrapped[count] = element
        count += 1
    }

    /// The record at `index`, read and written in place (a field at a time, not the whole record).
    subscript(index: Int) -> Element {
        unsafeAddress {
            precondition(index >= 0 && index < count)
            return UnsafePointer(base.unsafelyUnwrapped + index)
        }
        unsafeMutableAddress {
            precondition(index >= 0 && index < count)
            return base.unsafelyUnwrapped + index
        }
    }

    /// Appends `other`'s records from `first` on.
    @inline(__always)
    mutating func append(contentsOf other: borrowing RecordStack<Element>, from first: Int) {
        let added = other.count - first
        guard added > 0, let source = other.base else { return }
        if count + added > capacity { grow(to: count + added) }
        (base.unsafelyUnwrapped + count).update(from: source + first, count: added)
        count += added
    }

    /// Drops the records from `count` on.
    @inline(__always)
    mutating func removeAll(from count: Int) {
        precondition(count >= 0 && count <= self.count)
        self.count = count
    }

    /// The records, as an Array.
    func array() -> [Element] {
        guard let base else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: count))
    }

    private mutating func grow(to minimum: Int) {
        let newCapacity = max(minimum, capacity * 2, 16)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            grown.initialize(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = newCapacity
    }
}
