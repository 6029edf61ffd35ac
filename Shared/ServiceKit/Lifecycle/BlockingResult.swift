#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A value a task hands to a thread blocked waiting for it: how a daemon's synchronous `main`
/// waits for its services, which run on the loop, without an async `main` (whose top-level
/// `await`s hop to libdispatch's queues; see ``DaemonMain/runOnLoop(_:_:)``).
///
/// ```swift
/// let finished = BlockingResult<Int32>()
/// Task(executorPreference: loop) { finished.set(await run()) }
/// exit(finished.wait())
/// ```
public final class BlockingResult<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `state` is a Mutex; `semaphore` points at a POSIX semaphore, made for
    // use from any thread (sem_post/sem_wait are thread-safe), allocated in init and freed in
    // deinit, when no thread can be using it any more (both sides hold a reference while they do).
    private let state = Mutex(State())
    private let semaphore: UnsafeMutablePointer<sem_t>

    private struct State {
        var value: Value?
        /// Work for the waiting thread, run before it waits on (``runWhileWaiting(_:)``).
        var errands: [@Sendable () -> Void] = []
        /// ``wait()`` returned: no errand will run any more.
        var over = false
    }

    /// A result not handed over yet.
    public init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Hands over `result` and wakes the waiting thread; call once.
    public func set(_ result: Value) {
        state.withLock { $0.value = result }
        sem_post(semaphore)
    }

    /// Has the thread blocked in ``wait()`` run `errand`, then wait on: work that must not hold
    /// the loop, for a thread that has nothing else to do. Errands run in the order given, before
    /// the value is returned; one given once ``wait()`` has returned never runs. Any thread may
    /// call it.
    public func runWhileWaiting(_ errand: @escaping @Sendable () -> Void) {
        let taken = state.withLock { state -> Bool in
            guard !state.over else { return false }
            state.errands.append(errand)
            return true
        }
        if taken { sem_post(semaphore) }
    }

    /// Blocks the calling thread until ``set(_:)`` ran, running each errand given meanwhile;
    /// returns the value.
    public func wait() -> Value {
        while true {
            while sem_wait(semaphore) != 0 {}  // EINTR: a signal arrived; wait again
            let (errands, value) = state.withLock { state -> ([@Sendable () -> Void], Value?) in
                let errands = state.errands
                state.errands.removeAll()
                // Once the value is here, later errands are refused (an errand posts the
                // semaphore once; any still to run were taken with this wake-up).
                if errands.isEmpty, state.value != nil { state.over = true }
                return (errands, errands.isEmpty ? state.value : nil)
            }
            for errand in errands { errand() }
            if let value { return value }
        }
    }
}
