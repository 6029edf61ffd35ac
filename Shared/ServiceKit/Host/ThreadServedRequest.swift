import Glibc
import VerticalsClient
import VerticalsObservability

/// The request a handler that runs with no task (``Router/onSync(_:_:)``) serves on this thread,
/// bound as ``Serving/current`` while it runs (``serving(_:_:)``): one object per thread, made on
/// the thread's first use, whose context is written before the handler and cleared after, so
/// binding a request allocates nothing.
///
/// Read on its own thread it answers for the request that thread serves now; read on any other
/// thread (by a handler that sent ``Serving/current`` away) it answers that it serves none. A
/// handler that needs its request later keeps its ``RequestContext``, a value.
///
/// `@unchecked Sendable`, and sound: its one mutable field, `context`, is read and written on
/// its owning thread alone. `owner` is set once, at creation, on the thread the key gives the
/// object to (``slot()``); the only writer, ``serving(_:_:)``, reaches this thread's own object
/// through the key; every reader goes through ``onOwnThread``, which compares the calling thread
/// with `owner` before it touches the field. So no two threads ever access it, and nothing races.
/// (A thread id is reused only once its thread has ended; by then its last write, clearing the
/// field as its handler returned, is behind the thread's end, which the new thread comes after.)
final class ThreadServedRequest: ServedContext, @unchecked Sendable {
    private let owner: pthread_t
    private var context: RequestContext?

    private init() {
        owner = pthread_self()
    }

    /// The request served now, when asked on the owning thread; nil elsewhere.
    private var onOwnThread: RequestContext? {
        pthread_equal(owner, pthread_self()) != 0 ? context : nil
    }

    var servedContext: RequestContext? { onOwnThread }
    var deadline: Deadline? { onOwnThread?.deadline }
    var traceparent: String? { onOwnThread?.traceparent }
    var trace: TraceIdentity? { onOwnThread?.trace }
    var span: VerticalsSpan? { onOwnThread?.span }

    /// Runs `body` serving `context` on this thread: ``Serving/current`` is this thread's object,
    /// holding `context`, while it runs (unless a task it starts binds its own).
    static func serving<Result, Failure: Error>(
        _ context: RequestContext, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let slot = slot()
        let outer = slot.context
        slot.context = context
        defer { slot.context = outer }
        return try Serving.withThreadRequest(slot, body)
    }

    /// The key whose value, on each thread, is that thread's object (retained), or nil.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { slot in
            if let slot { Unmanaged<ThreadServedRequest>.fromOpaque(slot).release() }
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// This thread's object, made on its first use.
    private static func slot() -> ThreadServedRequest {
        if let slot = pthread_getspecific(key) {
            return Unmanaged<ThreadServedRequest>.fromOpaque(slot).takeUnretainedValue()
        }
        let slot = ThreadServedRequest()
        pthread_setspecific(key, Unmanaged.passRetained(slot).toOpaque())
        return slot
    }
}
