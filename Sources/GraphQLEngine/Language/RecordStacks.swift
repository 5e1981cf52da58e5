/// The parser's plain records (no references in them) in one buffer holding two stacks: the
/// finished records at the front, and at the back, growing down, the records still being read
/// (an open selection set's selections, the innermost set's last). When a set closes, its records
/// move from the back to the front, side by side; when the document is read, the front is handed
/// over as it is (``takeFinished()``). One allocation for a small document, none copied to make
/// an Array at the end, and none of an Array's uniqueness checks on every push.
struct RecordStacks<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>?
    private var capacity = 0
    /// Records at the front: `base[0..<finishedCount]`.
    private(set) var finishedCount = 0
    /// Records at the back: the open record `i` (from the bottom) is at `base[capacity - 1 - i]`.
    private(set) var openCount = 0

    init() {}

    deinit { base?.deallocate() }

    /// Pushes a record being read.
    @inline(__always)
    mutating func push(_ element: Element) {
        if finishedCount + openCount == capacity { grow() }
        base.unsafelyUnwrapped[capacity - 1 - openCount] = element
        openCount += 1
    }

    /// The open record `index` (from the bottom), read and written in place, a field at a time.
    subscript(open index: Int) -> Element {
        unsafeAddress {
            precondition(index >= 0 && index < openCount)
            return UnsafePointer(base.unsafelyUnwrapped + (capacity - 1 - index))
        }
        unsafeMutableAddress {
            precondition(index >= 0 && index < openCount)
            return base.unsafelyUnwrapped + (capacity - 1 - index)
        }
    }

    /// Moves the open records from `first` on (a set that has closed) to the finished ones, in
    /// order: where they lie there.
    @inline(__always)
    mutating func finish(from first: Int) -> Range<Int> {
        precondition(first >= 0 && first <= openCount)
        let start = finishedCount
        // The records are copied one by one from the back to the front: the front must end below
        // the back's lowest record, or a copy could land on a record not yet copied.
        if finishedCount + (openCount - first) > capacity - openCount { grow() }
        guard let base else { return start..<start }
        for index in first..<openCount {
            base[finishedCount] = base[capacity - 1 - index]
            finishedCount += 1
        }
        openCount = first
        return start..<finishedCount
    }

    /// The finished records, handed over with the memory they lie in (the caller deallocates it);
    /// nil when there are none. The stacks are left empty.
    mutating func takeFinished() -> UnsafeMutableBufferPointer<Element>? {
        guard var base, finishedCount > 0 else { return nil }
        // A document keeps its records as long as it is cached: room reserved for records that
        // never came is given back when it is more than the records themselves (and a few).
        if capacity - finishedCount > max(finishedCount, 64) {
            let fitted = UnsafeMutablePointer<Element>.allocate(capacity: finishedCount)
            fitted.initialize(from: base, count: finishedCount)
            base.deallocate()
            base = fitted
        }
        let finished = UnsafeMutableBufferPointer(start: base, count: finishedCount)
        self.base = nil
        capacity = 0
        finishedCount = 0
        openCount = 0
        return finished
    }

    /// Room for `minimumCapacity` records before the first grows the buffer (nothing when it has
    /// records or room already): a buffer sized once for the whole document, not doubled into.
    mutating func reserve(_ minimumCapacity: Int) {
        guard base == nil, minimumCapacity > 0 else { return }
        base = UnsafeMutablePointer<Element>.allocate(capacity: minimumCapacity)
        capacity = minimumCapacity
    }

    /// Doubles the buffer: the finished records stay at the front, the open ones at the back.
    private mutating func grow() {
        let newCapacity = max(capacity * 2, 16)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            grown.initialize(from: base, count: finishedCount)
            (grown + (newCapacity - openCount)).initialize(from: base + (capacity - openCount), count: openCount)
            base.deallocate()
        }
        base = grown
        capacity = newCapacity
    }
}
