/// One position of the response being built. The response is a flat array of slots: an object
/// holds its plan (response keys) and the index of its first field's slot, a list the index of
/// its first item; children of one object or list are contiguous.
///
/// An object's plan is held without reference counting: the execution keeps every plan its slots
/// name alive until the response is written (see ``Execution``), so slots cost no retain when
/// laid out, written or emptied.
enum ResultSlot {
    /// A suspending resolver has not answered yet.
    case pending
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    /// A custom scalar's serialized value (any JSON).
    case value(GraphQLValue)
    case object(Unmanaged<SelectionPlan>, first: Int32)
    case list(first: Int32, count: Int32)

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// Writes a response's slots as JSON.
struct ResultWriter {
    var writer: JSONWriter

    mutating func write(_ slots: [ResultSlot], at index: Int) {
        // Slots read where they lie (a copy would retain and release each plan or string), their
        // JSON gathered in a stack chunk.
        slots.withUnsafeBufferPointer { slots in
            JSONChunk.withChunk(into: &writer) { chunk in Self.write(slots, at: index, to: &chunk) }
        }
    }

    private static func write(_ slots: UnsafeBufferPointer<ResultSlot>, at index: Int, to chunk: inout JSONChunk) {
        switch slots[index] {
        case .null, .pending: chunk.appendNull()
        case .bool(let bool): chunk.appendBool(bool)
        case .int(let int): chunk.appendInt(int)
        case .double(let double): chunk.appendDouble(double)
        case .string(let string): chunk.appendString(string)
        case .value(let value): chunk.appendValue(value)
        case .object(let plan, let first):
            chunk.append(123)
            let first = Int(first)
            plan._withUnsafeGuaranteedRef { plan in
                for offset in 0..<plan.fields.count {
                    plan.writeKey(at: offset, to: &chunk)
                    write(slots, at: first + offset, to: &chunk)
                }
            }
            chunk.append(125)
        case .list(let first, let count):
            chunk.append(91)
            let first = Int(first)
            for offset in 0..<Int(count) {
                if offset > 0 { chunk.append(44) }
                write(slots, at: first + offset, to: &chunk)
            }
            chunk.append(93)
        }
    }

    mutating func write(_ error: GraphQLError) {
        writer.appendASCII("{\"message\":")
        writer.appendString(error.message)
        if !error.locations.isEmpty {
            writer.appendASCII(",\"locations\":[")
            for (index, location) in error.locations.enumerated() {
                if index > 0 { writer.append(44) }
                writer.appendASCII("{\"line\":")
                writer.appendInt(location.line)
                writer.appendASCII(",\"column\":")
                writer.appendInt(location.column)
                writer.append(125)
            }
            writer.append(93)
        }
        if !error.path.isEmpty {
            writer.appendASCII(",\"path\":[")
            for (index, element) in error.path.enumerated() {
                if index > 0 { writer.append(44) }
                switch element {
                case .key(let key): writer.appendString(key)
                case .index(let position): writer.appendInt(position)
                }
            }
            writer.append(93)
        }
        if !error.extensions.isEmpty {
            writer.appendASCII(",\"extensions\":{")
            for (index, entry) in error.extensions.enumerated() {
                if index > 0 { writer.append(44) }
                writer.appendString(entry.key)
                writer.append(58)
                switch entry.value {
                case .string(let string): writer.appendString(string)
                case .int(let int): writer.appendInt(int)
                case .double(let double): writer.appendDouble(double)
                case .bool(let bool): writer.appendBool(bool)
                case .strings(let strings):
                    writer.append(91)
                    for (position, string) in strings.enumerated() {
                        if position > 0 { writer.append(44) }
                        writer.appendString(string)
                    }
                    writer.append(93)
                }
            }
            writer.append(125)
        }
        writer.append(125)
    }

    mutating func write(errors: [GraphQLError]) {
        writer.appendASCII("\"errors\":")
        write(errorList: errors)
    }

    /// `[…]`: the errors alone.
    mutating func write(errorList errors: [GraphQLError]) {
        writer.append(91)
        for (index, error) in errors.enumerated() {
            if index > 0 { writer.append(44) }
            write(error)
        }
        writer.append(93)
    }
}
