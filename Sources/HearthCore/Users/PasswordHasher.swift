import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// bcrypt on NIO's blocking thread pool, so hashing (a quarter second at cost 12) never holds a
/// thread of Swift's cooperative pool, behind a server-wide gate: at most `concurrency` hashes
/// run at once and at most `maxWaiting` wait; past that a check is refused as `busy`, so a flood
/// of password checks cannot take every core.
///
/// bcrypt reads only the first 72 bytes of its input, so the password is first reduced to the
/// base64 of its SHA-256 (44 bytes): every character of a 256-character password counts.
public struct PasswordHasher: Sendable {
    public let cost: Int
    let gate: HashingGate

    public init(cost: Int, concurrency: Int = max(1, ProcessInfo.processInfo.activeProcessorCount), maxWaiting: Int = 32) {
        self.cost = min(max(cost, 4), 31)
        self.gate = HashingGate(slots: max(1, concurrency), maxWaiting: max(0, maxWaiting))
    }

    public func hash(_ password: String) async throws -> String {
        let cost = UInt8(cost)
        return try await gate.run { try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(Self.prehash(password), cost: cost) } }
    }

    public func verify(_ password: String, against hash: String) async throws -> Bool {
        try await gate.run { try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(Self.prehash(password), hash: hash) } }
    }

    /// Spends the time a real verification takes, for an email that has no account: hashing
    /// runs the same key schedule at the same cost as verifying.
    public func spendVerificationTime(_ password: String) async throws {
        _ = try await hash(password)
    }

    static func prehash(_ password: String) -> String {
        Data(SHA256.hash(data: Array(password.utf8))).base64EncodedString()
    }

    /// How many hashes run and wait now (for health and tests).
    public var load: (running: Int, waiting: Int) { gate.load }
}

/// A counting semaphore with a bounded queue: work past the slots waits its turn in order; work
/// past the queue is refused at once with ``ServiceError/busy(retryAfter:)``.
final class HashingGate: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    let slots: Int
    let maxWaiting: Int

    init(slots: Int, maxWaiting: Int) {
        self.slots = slots
        self.maxWaiting = maxWaiting
    }

    var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count) } }

    func run<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await work()
    }

    private func acquire() async throws {
        enum Admission { case now, wait, refuse }
        let admission = state.withLock { state -> Admission in
            if state.running < slots {
                state.running += 1
                return .now
            }
            return state.waiting.count < maxWaiting ? .wait : .refuse
        }
        switch admission {
        case .now: return
        case .refuse: throw ServiceError.busy(retryAfter: 1)
        case .wait:
            await withCheckedContinuation { continuation in
                // A slot may have come free meanwhile: take it, else queue (the releaser hands its slot over).
                let admitted = state.withLock { state -> Bool in
                    if state.running < slots {
                        state.running += 1
                        return true
                    }
                    state.waiting.append(continuation)
                    return false
                }
                if admitted { continuation.resume() }
            }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()  // the slot passes to the first waiter
        }
        next?.resume()
    }
}
