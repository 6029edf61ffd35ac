import Synchronization
import VerticalsEventLoop

/// Work a daemon does beside its requests (an outbox's retries), owned by the daemon's runtime:
/// it runs on the loop thread, sleeps on the loop's timers, and is cancelled and awaited when
/// the daemon drains, before the loop stops, so no background task outlives SIGTERM.
///
/// Nothing here touches libdispatch's global queues: a task started with `Task {}` or a
/// `Task.sleep` would start its worker pool, whose monitor wakes an idle process every second
/// for as long as it lives.
///
/// ```swift
/// runtime.background.start {
///     while !Task.isCancelled {
///         try? await runtime.background.sleep(for: .seconds(1))
///         await drainOutbox()
///     }
/// }
/// ```
///
/// A test builds one with no loop (``init(loop:)`` with nil): its tasks run on the default
/// executor and sleep with `Task.sleep`, which is all a unit test needs.
public final class BackgroundWork: Sendable {
    private let loop: EventLoop?
    private let state = Mutex(State())

    private struct State {
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var nextID: UInt64 = 0
        var stopped = false
    }

    /// Work on `loop`'s thread and timers; nil: the default executor and `Task.sleep` (tests).
    public init(loop: EventLoop?) {
        self.loop = loop
    }

    /// Starts `body` as a task of this daemon; false (and nothing started) once the daemon drains.
    @discardableResult
    public func start(_ body: @escaping @Sendable () async -> Void) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            let id = state.nextID
            state.nextID += 1
            let task = Task(executorPreference: loop) { [weak self] in
                await body()
                self?.state.withLock { _ = $0.tasks.removeValue(forKey: id) }
            }
            state.tasks[id] = task
            return true
        }
    }

    /// Suspends for `duration` on the loop's timers (`Task.sleep` without a loop).
    ///
    /// - Throws: `CancellationError` when the task is cancelled first, as when the daemon drains.
    public func sleep(for duration: Duration) async throws {
        if let loop {
            try await loop.sleep(for: duration)
        } else {
            try await Task.sleep(for: duration)
        }
    }

    /// True once the daemon drains: no new work starts.
    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// Refuses new work, cancels every task and waits until each has returned. ``ServiceRuntime``
    /// calls it once requests have drained, before it stops the loop.
    public func stop() async {
        let tasks = state.withLock { state in
            state.stopped = true
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }
}
