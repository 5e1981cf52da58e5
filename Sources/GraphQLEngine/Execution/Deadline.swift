/// Runs `work` and answers its value, or nil once `timeout` has passed, whichever comes first.
/// At the deadline the work is cancelled but not awaited, so a resolver that ignores cancellation
/// (or waits on something that never answers) cannot hold the answer back. Cancelling the caller
/// cancels the work. Without a timeout the work simply runs.
func withDeadline<Value: Sendable>(
    _ timeout: Duration?, _ work: sending @escaping () async -> Value
) async -> Value? {
    guard let timeout else { return await work() }
    let (answers, sink) = AsyncStream<Value?>.makeStream(bufferingPolicy: .bufferingOldest(1))
    let task = Task {
        sink.yield(await work())
        sink.finish()
    }
    let timer = Task {
        try? await Task.sleep(for: timeout)
        sink.yield(nil)
        sink.finish()
    }
    defer { timer.cancel() }
    return await withTaskCancellationHandler {
        var iterator = answers.makeAsyncIterator()
        guard let first = await iterator.next(), let value = first else {
            task.cancel()
            return nil
        }
        return value
    } onCancel: {
        task.cancel()
        sink.finish()
    }
}
