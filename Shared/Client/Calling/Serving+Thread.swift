import Glibc

extension Serving {
    /// Runs `body` serving `origin` on this thread: ``current`` is `origin` while it runs, unless
    /// a task it starts binds its own ``request``.
    ///
    /// For a handler that runs with no task (a host's `onSync` handler, in the loop's read
    /// callback): binding a task-local outside a task makes the runtime allocate its storage and
    /// the value's item, then free them, on every request. This slot is one object per thread,
    /// made on the thread's first use; setting it allocates nothing. A task started in `body`
    /// does not inherit it (a task inherits task-locals alone): bind ``request`` around it, or
    /// pass the origin, where that matters.
    public static func withThreadRequest<Result, Failure: Error>(
        _ origin: any CallOrigin, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let slot = ThreadRequest.slot()
        let outer = slot.origin
        slot.origin = origin
        defer { slot.origin = outer }
        return try body()
    }
}

/// The request served on one thread outside any task (``Serving/withThreadRequest(_:_:)``),
/// found through a POSIX thread-specific key.
///
/// Only its own thread reaches it (the key gives each thread its own), so it needs no lock and
/// is not `Sendable`. It is freed when its thread ends, by the key's destructor.
final class ThreadRequest {
    var origin: (any CallOrigin)?

    /// The key whose value, on each thread, is that thread's slot (retained), or nil.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { slot in
            if let slot { Unmanaged<ThreadRequest>.fromOpaque(slot).release() }
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// This thread's slot, if it has one.
    static var onThisThread: ThreadRequest? {
        pthread_getspecific(key).map { Unmanaged<ThreadRequest>.fromOpaque($0).takeUnretainedValue() }
    }

    /// This thread's slot, made on its first use.
    static func slot() -> ThreadRequest {
        if let slot = onThisThread { return slot }
        let slot = ThreadRequest()
        pthread_setspecific(key, Unmanaged.passRetained(slot).toOpaque())
        return slot
    }
}
