import CLibUV

/// Calls back on the loop thread when the process receives a signal (`uv_signal_t`);
/// loop-confined.
///
/// ```swift
/// let terminate = try SignalWatcher(loop: loop, signal: SIGTERM) { _ in beginGracefulShutdown() }
/// ```
///
/// While a watcher for a signal is open, that signal no longer has its default effect (a
/// watched SIGTERM does not terminate). The handle keeps the watcher alive until ``close()``
/// or loop shutdown.
public final class SignalWatcher: @unchecked Sendable {
    // @unchecked Sendable: loop-confined. init and close() start with
    // `loop.preconditionInEventLoop()` and libuv runs the callbacks on the loop thread, so
    // `callback` and `isClosing` are only touched on that thread.

    /// The loop this watcher lives on.
    public let loop: EventLoop
    /// The signal watched.
    public let signal: Int32
    let handle: UnsafeMutablePointer<uv_signal_t> // freed in the close callback
    var callback: ((Int32) -> Void)?
    var isClosing = false

    /// Starts watching `signal`. Call on the loop thread.
    ///
    /// - Throws: ``EventLoopError/system(operation:code:)`` for an invalid signal number.
    public init(loop: EventLoop, signal: Int32, _ callback: @escaping (Int32) -> Void) throws(EventLoopError) {
        loop.preconditionInEventLoop()
        self.loop = loop
        self.signal = signal
        self.callback = callback
        handle = .allocate(capacity: 1)
        uv_signal_init(loop.loop, handle)
        HandleData.retain(self, into: handle.asHandle)
        let status = uv_signal_start(handle, SignalWatcher.onSignal, signal)
        guard status == 0 else {
            close()
            throw .system(operation: "uv_signal_start", code: status)
        }
    }

    /// Stops watching. Once no watcher for the signal remains, libuv restores its default action.
    /// Idempotent.
    public func close() {
        loop.preconditionInEventLoop()
        guard !isClosing else { return }
        isClosing = true
        uv_close(handle.asHandle, SignalWatcher.onClosed)
    }

    private static let onSignal: uv_signal_cb = { handle, signal in
        HandleData.owner(of: handle?.asHandle, as: SignalWatcher.self).callback?(signal)
    }

    private static let onClosed: uv_close_cb = { handle in
        let watcher = HandleData.releaseOwner(of: handle, as: SignalWatcher.self)
        watcher.callback = nil
        watcher.handle.deallocate()
    }
}

extension SignalWatcher: ClosedAtShutdown {}
