import CLibUV

/// A Swift object that owns libuv handles on one ``EventLoop``.
///
/// Every owner follows the same lifetime rule: at init it retains itself into its handle's
/// `data` (`Unmanaged.passRetained`), and its `uv_close` callback releases that reference and
/// frees the handle memory. Shutdown finds owners through `uv_walk` and asks them to close.
protocol LoopHandleOwner: AnyObject {
    /// Closes the owner's handle because its loop is shutting down. Called on the loop thread.
    func closeForShutdown()
}

/// An owner whose shutdown is its own ``close()``: timers, watchers, pipes and listeners.
protocol ClosedAtShutdown: LoopHandleOwner {
    /// Closes the handle; idempotent.
    func close()
}

extension ClosedAtShutdown {
    func closeForShutdown() {
        close()
    }
}

/// Conversions between libuv's C "subclasses" (`uv_pipe_t` is-a `uv_stream_t` is-a `uv_handle_t`).
///
/// Swift only ever passes these pointers to C; it reads and writes `data` through
/// `uv_handle_get_data`/`uv_handle_set_data`, so no Swift code accesses one memory block
/// through two struct types.
extension UnsafeMutablePointer {
    var asHandle: UnsafeMutablePointer<uv_handle_t> { UnsafeMutablePointer<uv_handle_t>(OpaquePointer(self)) }
    var asStream: UnsafeMutablePointer<uv_stream_t> { UnsafeMutablePointer<uv_stream_t>(OpaquePointer(self)) }
    var asRequest: UnsafeMutablePointer<uv_req_t> { UnsafeMutablePointer<uv_req_t>(OpaquePointer(self)) }
}

/// The retain/release half of the handle lifetime rule.
enum HandleData {
    /// Retains `owner` into `handle.data`; balanced by ``releaseOwner(of:as:)`` in the close callback.
    static func retain(_ owner: AnyObject, into handle: UnsafeMutablePointer<uv_handle_t>) {
        uv_handle_set_data(handle, Unmanaged.passRetained(owner).toOpaque())
    }

    /// The owner stored in `handle.data`, without changing its retain count (for I/O callbacks).
    static func owner<Owner: AnyObject>(of handle: UnsafeMutablePointer<uv_handle_t>?, as _: Owner.Type) -> Owner {
        Unmanaged<Owner>.fromOpaque(uv_handle_get_data(handle)!).takeUnretainedValue()
    }

    /// Takes back the reference retained at init; call once, from the handle's close callback.
    static func releaseOwner<Owner: AnyObject>(of handle: UnsafeMutablePointer<uv_handle_t>?, as _: Owner.Type) -> Owner
    {
        let owner = Unmanaged<Owner>.fromOpaque(uv_handle_get_data(handle)!).takeRetainedValue()
        uv_handle_set_data(handle, nil)
        return owner
    }
}

/// Milliseconds for libuv's timer API, rounded up so a short delay never becomes "now".
func milliseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, duration > .zero else { return 0 }
    let attosecondsPerMillisecond: Int64 = 1_000_000_000_000_000
    let fraction = (attoseconds + attosecondsPerMillisecond - 1) / attosecondsPerMillisecond
    return UInt64(seconds) * 1000 + UInt64(fraction)
}
