/// JSON written into a small fixed buffer and handed to a ``JSONWriter`` in runs: a response's
/// many small pieces (keys, numbers, short strings) then cost a bounds check each instead of an
/// array append each (a call, a uniqueness check, a capacity check). Pieces that do not fit in the
/// buffer, and the rare kinds (doubles, custom scalars' JSON), go to the writer directly.
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
        guard makeRoom(JSONWriter.maxIntLength), let target = buffer.baseAddress else { return writer.appendInt(value) }
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

    /// A string in double quotes with JSON escapes.
    mutating func appendString(_ string: String) {
        // Quotes, and at most six bytes (`\u001F`) for each byte of the string.
        guard makeRoom(2 + 6 * string.utf8.count), let base = buffer.baseAddress else { return writer.appendString(string) }
        let target = base + count
        var string = string
        count += string.withUTF8 { JSONWriter.writeQuoted($0, to: target) }
    }
}
