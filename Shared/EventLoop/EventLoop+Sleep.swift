import Synchronization

extension EventLoop {
    /// Suspends the calling task for `duration`, woken by a libuv timer on this loop.
    ///
    /// Use it instead of `Task.sleep` in a daemon: on Linux, `Task.sleep` hands its wake-up to
    /// libdispatch's global queues, whose worker-pool monitor then wakes the process every
    /// second for as long as it lives. This sleep costs one timer on a loop that runs anyway.
    ///
    /// ```swift
    /// try await loop.sleep(for: .seconds(2))   // CancellationError if the task is cancelled first
    /// ```
    ///
    /// - Throws: `CancellationError` when the task is cancelled before the time is up (the timer
    ///   is closed at once), or when the loop has stopped and cannot keep time any more.
    public func sleep(for duration: Duration) async throws {
        let sleep = LoopSleep()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleep.wait(continuation) else { return }
                let queued = execute { [self] in
                    let timer = LoopTimer(loop: self)
                    guard sleep.armed(timer) else {
                        timer.close()
                        return
                    }
                    timer.start(after: duration) {
                        timer.close()
                        sleep.finish(nil)
                    }
                }
                if !queued { sleep.finish(CancellationError()) }
            }
        } onCancel: {
            // The timer lives on the loop thread: close it there; the task resumes at once.
            if let timer = sleep.finish(CancellationError()) {
                _ = execute { timer.close() }
            }
        }
    }
}

/// One ``EventLoop/sleep(for:)``: its continuation and timer, shared by the sleeping task, the
/// loop thread and a cancelling thread; whichever finishes first resumes the task, once.
private final class LoopSleep: Sendable {
    private enum State {
        case new
        case waiting(CheckedContinuation<Void, any Error>, LoopTimer?)
        case finished
    }

    private let state = Mutex(State.new)

    /// Stores the continuation; false when the sleep already finished (cancelled before it began).
    func wait(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            guard case .new = state else { return true }
            state = .waiting(continuation, nil)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Keeps the started timer (on the loop thread); false when the sleep finished meanwhile.
    func armed(_ timer: LoopTimer) -> Bool {
        state.withLock { state in
            guard case .waiting(let continuation, nil) = state else { return false }
            state = .waiting(continuation, timer)
            return true
        }
    }

    /// Resumes the task with `error` (or normally) unless it was resumed already; returns the
    /// timer to close, if one was armed.
    @discardableResult
    func finish(_ error: (any Error)?) -> LoopTimer? {
        let ended = state.withLock { state -> (CheckedContinuation<Void, any Error>?, LoopTimer?) in
            switch state {
            case .new:
                state = .finished
                return (nil, nil)
            case .waiting(let continuation, let timer):
                state = .finished
                return (continuation, timer)
            case .finished:
                return (nil, nil)
            }
        }
        guard let continuation = ended.0 else { return nil }
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        return ended.1
    }
}
