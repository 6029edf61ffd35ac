import Synchronization

/// Thrown when an ``Expectation`` is not met in time.
struct TimedOut: Error, CustomStringConvertible {
    let what: String
    let after: Duration
    var description: String { "timed out after \(after) waiting for \(what)" }
}

/// A one-shot value that loop callbacks fulfil and a test awaits, with a deadline, so no test
/// can hang. Fulfilling twice keeps the first value.
final class Expectation<Value: Sendable>: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Value, any Error>?)
        case done(Result<Value, any Error>)
    }

    private let state = Mutex(State.waiting(nil))
    private let what: String

    init(_ what: String) {
        self.what = what
    }

    func fulfill(_ value: Value) {
        finish(.success(value))
    }

    func fail(_ error: any Error) {
        finish(.failure(error))
    }

    private func finish(_ result: Result<Value, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .done(result)
            return continuation
        }
        waiter?.resume(with: result)
    }

    /// The value, or ``TimedOut`` after `timeout`.
    func value(timeout: Duration = .seconds(20)) async throws -> Value {
        let deadline = Task {
            try await Task.sleep(for: timeout)
            self.fail(TimedOut(what: what, after: timeout))
        }
        defer { deadline.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<Value, any Error>? in
                switch state {
                case .done(let result): return result
                case .waiting: state = .waiting(continuation); return nil
                }
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}

/// A counter for callbacks on any thread; fulfils `reached` when it hits `target`.
final class Countdown: Sendable {
    private let count = Mutex(0)
    let target: Int
    let reached: Expectation<Void>

    init(_ target: Int, _ what: String) {
        self.target = target
        self.reached = Expectation(what)
        if target == 0 { reached.fulfill(()) }
    }

    func tick() {
        let now = count.withLock { count in
            count += 1
            return count
        }
        if now == target { reached.fulfill(()) }
    }

    var value: Int { count.withLock { $0 } }
}

/// Values recorded from callbacks, readable from the test.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    var values: [Element] { storage.withLock { $0 } }
}

/// Polls `condition` until it holds, or throws ``TimedOut``.
func eventually(
    _ what: String, timeout: Duration = .seconds(20), _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while try await !condition() {
        guard clock.now < deadline else { throw TimedOut(what: what, after: timeout) }
        try await Task.sleep(for: .milliseconds(5))
    }
}
