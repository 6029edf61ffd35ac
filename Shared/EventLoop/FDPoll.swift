import CLibUV
import Glibc

/// Calls back on the loop thread whenever a file descriptor is readable (`uv_poll_t`);
/// loop-confined. For sockets libuv has no stream type for, e.g. a datagram socket read with
/// `recvmsg` to get its ancillary data (the supervisor's `NOTIFY_SOCKET` with `SO_PASSCRED`).
///
/// ```swift
/// let poll = try FDPoll(fd: datagramSocket, on: loop) {
///     while let message = receiveOne(datagramSocket) { handle(message) }   // read until EAGAIN
/// }
/// …
/// poll.close()   // closes the fd too, after libuv let go of it
/// ```
///
/// The poll owns `fd` from a successful init on and closes it in its close callback (closing
/// it earlier would leave libuv watching a number the kernel may hand out again). The fd
/// should be non-blocking; the callback must read until `EAGAIN`, or it fires again at once.
/// The handle keeps the poll alive until ``close()`` or loop shutdown.
public final class FDPoll: @unchecked Sendable {
    // @unchecked Sendable: loop-confined. init and close() start with
    // `loop.preconditionInEventLoop()` and libuv runs the callbacks on the loop thread, so
    // `callback` and `isClosing` are only touched on that thread.

    /// The loop this poll lives on.
    public let loop: EventLoop
    /// The descriptor watched (and owned).
    public let fd: Int32
    let handle: UnsafeMutablePointer<uv_poll_t> // freed in the close callback
    var callback: (() -> Void)?
    var isClosing = false

    /// Starts watching `fd` for readability. Call on the loop thread.
    ///
    /// - Throws: ``EventLoopError/system(operation:code:)`` when libuv cannot poll `fd` (for
    ///   example a regular file, `UV_EPERM`); the caller then still owns `fd`.
    public init(fd: Int32, on loop: EventLoop, onReadable: @escaping () -> Void) throws(EventLoopError) {
        loop.preconditionInEventLoop()
        if loop.isShuttingDown { throw .closed }
        self.loop = loop
        self.fd = fd
        handle = .allocate(capacity: 1)
        var status = uv_poll_init(loop.loop, handle, fd)
        guard status == 0 else {
            handle.deallocate() // a failed uv_poll_init leaves no handle in the loop
            throw .system(operation: "uv_poll_init", code: status)
        }
        callback = onReadable
        HandleData.retain(self, into: handle.asHandle)
        status = uv_poll_start(handle, Int32(UV_READABLE.rawValue), FDPoll.onEvent)
        guard status == 0 else {
            ownsDescriptor = false // the caller keeps the fd when init throws
            close()
            throw .system(operation: "uv_poll_start", code: status)
        }
    }

    var ownsDescriptor = true

    /// Stops watching and closes the fd once libuv has let go of it. Idempotent.
    public func close() {
        loop.preconditionInEventLoop()
        guard !isClosing else { return }
        isClosing = true
        uv_close(handle.asHandle, FDPoll.onClosed)
    }

    private static let onEvent: uv_poll_cb = { handle, status, _ in
        let poll = HandleData.owner(of: handle?.asHandle, as: FDPoll.self)
        guard !poll.isClosing else { return }
        // An error (e.g. EBADF) is reported as readable too: the callback's read sees it.
        _ = status
        poll.callback?()
    }

    private static let onClosed: uv_close_cb = { handle in
        let poll = HandleData.releaseOwner(of: handle, as: FDPoll.self)
        poll.callback = nil
        poll.handle.deallocate()
        if poll.ownsDescriptor { Glibc.close(poll.fd) }
    }
}

extension FDPoll: ClosedAtShutdown {}
