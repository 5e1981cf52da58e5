/// JSON written into a small fixed buffer and handed to a ``JSONWriter`` in runs: a response's
/// many small pieces (keys, numbers, short strings) then cost a bounds check each instead of an
/// array append each (a call, a uniqueness check, a capacity check). Strings are escaped straight
/// into it, a piece at a time; raw runs larger than it, and the rare kinds (doubles, custom
/// scalars' JSON), go to the writer directly.
///
/// The buffer is on the stack for the length of ``withChunk(into:capacity:_:)``, which hands the
/// last run over before it returns.
struct JSONChunk: ~Copyable {
    private var writer = JSONWriter(capacity: 0)
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var count = 0

    /// Runs `body` with a chunk of `capacity` stack bytes in front of `writer`, which has everything
    /// written when it returns. (Up to 1 KiB the standard library takes the bytes from the stack
    /// unconditionally; past it, it may allocate them.)
    static func withChunk(into writer: inout JSONWriter, capacity: Int = 1024, _ body: (inout JSONChunk) -> Void) {
        precondition(capacity >= JSONWriter.maxIntLength, "a chunk holds at least the longest integer")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            // The writer's bytes move into the chunk and back (a copy would make appends copy them).
            var chunk = JSONChunk(buffer: buffer)
            swap(&chunk.writer, &writer)
            body(&chunk)
            chunk.flush()
            swap(&chunk.writer, &writer)
        }
    }

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// Moves the buffered bytes to the writer.
    private mutating func flush() {
        if count > 0 { writer.appendRaw(UnsafeBufferPointer(rebasing: buffer[0..<count])) }
        count = 0
    }

    /// Room for `size` more bytes in the buffer (flushing it if needed); false when `size` is more
    /// than the buffer holds (then it has been flushed, and the piece goes to the writer).
    @inline(__always)
    private mutating func makeRoom(_ size: Int) -> Bool {
        if count + size <= buffer.count { return true }
        flush()
        return size <= buffer.count
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == buffer.count { flush() }
        buffer[count] = byte
        count += 1
    }

    /// Bytes that are already JSON.
    mutating func appendRaw(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard makeRoom(bytes.count) else { return writer.appendRaw(bytes) }
        if let source = bytes.baseAddress, let target = buffer.baseAddress {
            (target + count).update(from: source, count: bytes.count)
        }
        count += bytes.count
    }

    mutating func appendASCII(_ text: StaticString) {
        text.withUTF8Buffer { appendRaw($0) }
    }

    mutating func appendNull() { appendASCII("null") }
    mutating func appendBool(_ value: Bool) { value ? appendASCII("true") : appendASCII("false") }

    mutating func appendInt(_ value: Int) {
        _ = makeRoom(JSONWriter.maxIntLength)  // true: a chunk holds the longest integer
        guard let target = buffer.baseAddress else { return }
        count += JSONWriter.writeInt(value, to: target + count)
    }

    mutating func appendDouble(_ value: Double) {
        flush()
        writer.appendDouble(value)
    }

    mutating func appendValue(_ value: GraphQLValue) {
        flush()
        writer.appendValue(value)
    }

    /// A string in double quotes with JSON escapes, escaped straight into the chunk: at once when
    /// it fits at six bytes a byte (the longest escape), else in pieces that do.
    mutating func appendString(_ string: String) {
        var string = string
        if makeRoom(2 + 6 * string.utf8.count), let base = buffer.baseAddress {
            let target = base + count
            count += string.withUTF8 { utf8 in
                target[0] = 34
                let end = 1 + JSONWriter.writeEscaped(utf8, to: target + 1)
                target[end] = 34
                return end + 1
            }
            return
        }
        append(34)
        string.withUTF8 { utf8 in
            let piece = buffer.count / 6
            var start = 0
            while start < utf8.count {
                let end = min(start + piece, utf8.count)
                _ = makeRoom(6 * (end - start))  // true: a piece fits the chunk
                guard let base = buffer.baseAddress else { return }
                count += JSONWriter.writeEscaped(UnsafeBufferPointer(rebasing: utf8[start..<end]), to: base + count)
                start = end
            }
        }
        append(34)
    }
}
