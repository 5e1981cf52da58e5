import Synchronization

/// Result-slot arrays kept from one execution to the next, emptied but with their capacity: a
/// response's slots fill memory an earlier response already grew, instead of reallocating (and
/// copying) as the walk appends and touching fresh pages the kernel must fault in.
///
/// Bounded: at most ``maxBuffers`` arrays, none holding more than ``maxSlots`` slots (3 MiB),
/// so an idle executor keeps at most a few MiB.
final class SlotBufferPool: Sendable {
    static let maxBuffers = 2
    static let maxSlots = 1 << 17

    /// An empty array: only its capacity is kept, so nothing is shared between executions.
    private struct EmptyBuffer: @unchecked Sendable {
        var slots: [ResultSlot]
    }

    private let buffers = Mutex<[EmptyBuffer]>([])

    /// An empty array for an execution's slots, with the capacity of an earlier one when there is one.
    func take() -> [ResultSlot] {
        buffers.withLock { $0.popLast()?.slots } ?? []
    }

    /// Takes back an execution's slots once its response is written (they are emptied here).
    func recycle(_ slots: inout [ResultSlot]) {
        var taken: [ResultSlot] = []
        swap(&taken, &slots)
        guard taken.capacity <= Self.maxSlots else { return }
        taken.removeAll(keepingCapacity: true)
        let buffer = EmptyBuffer(slots: taken)
        buffers.withLock { buffers in
            if buffers.count < Self.maxBuffers { buffers.append(buffer) }
        }
    }
}
