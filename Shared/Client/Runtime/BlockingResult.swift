#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A value a task hands to a thread blocked waiting for it: how a daemon's synchronous `main`
/// waits for its services, which run on the loop, without an async `main` (whose top-level
/// `await`s hop to libdispatch's queues; see `DaemonMain/runOnLoop(_:_:)`).
///
/// ```swift
/// let finished = BlockingResult<Int32>()
/// Task(executorPreference: loop) { finished.set(await run()) }
/// exit(finished.wait())
/// ```
public final class BlockingResult<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is a Mutex; `semaphore` points at a POSIX semaphore, made for
    // use from any thread (sem_post/sem_wait are thread-safe), allocated in init and freed in
    // deinit, when no thread can be using it any more (both sides hold a reference while they do).
    private let value = Mutex<Value?>(nil)
    private let semaphore: UnsafeMutablePointer<sem_t>

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
        value.withLock { $0 = result }
        sem_post(semaphore)
    }

    /// Blocks the calling thread until ``set(_:)`` ran; returns the value.
    public func wait() -> Value {
        while true {
            while sem_wait(semaphore) != 0 {} // EINTR: a signal arrived; wait again
            if let value = value.withLock({ $0 }) { return value }
        }
    }
}
