import CLibUV

/// A one-shot or repeating timer on the loop thread; loop-confined.
///
/// ```swift
/// let heartbeat = LoopTimer(loop: loop)
/// heartbeat.start(after: .seconds(1), repeating: .seconds(1)) { notify("WATCHDOG=1") }
/// …
/// heartbeat.close()
/// ```
///
/// The handle keeps the timer (and its callback) alive until ``close()`` or loop shutdown, so
/// close a timer you no longer need. libuv timers have millisecond resolution; shorter
/// durations round up to 1 ms.
public final class LoopTimer: @unchecked Sendable {
    // @unchecked Sendable: loop-confined. Every public method starts with
    // `loop.preconditionInEventLoop()` and libuv runs the callbacks on the loop thread, so
    // `callback` and `isClosing` are only touched on that thread.

    /// The loop this timer lives on.
    public let loop: EventLoop
    let timer: UnsafeMutablePointer<uv_timer_t> // freed in the close callback
    var callback: (() -> Void)?
    var isClosing = false

    /// Creates a stopped timer. Call on the loop thread.
    public init(loop: EventLoop) {
        loop.preconditionInEventLoop()
        self.loop = loop
        timer = .allocate(capacity: 1)
        uv_timer_init(loop.loop, timer)
        HandleData.retain(self, into: timer.asHandle)
    }

    /// Calls `callback` once after `delay`, then every `interval` if one is given.
    /// Starting a started timer restarts it with the new schedule and callback.
    public func start(after delay: Duration, repeating interval: Duration? = nil, _ callback: @escaping () -> Void) {
        loop.preconditionInEventLoop()
        guard !isClosing else { return }
        self.callback = callback
        uv_update_time(loop.loop) // measure from now, not from the start of this loop iteration
        let repeatMilliseconds = interval.map { max(1, milliseconds($0)) } ?? 0
        uv_timer_start(timer, LoopTimer.onFire, milliseconds(delay), repeatMilliseconds)
    }

    /// Stops the timer; ``start(after:repeating:_:)`` may start it again.
    public func stop() {
        loop.preconditionInEventLoop()
        guard !isClosing else { return }
        uv_timer_stop(timer)
    }

    /// True while the timer is scheduled to fire.
    public var isActive: Bool {
        loop.preconditionInEventLoop()
        return !isClosing && uv_is_active(timer.asHandle) != 0
    }

    /// How long until the timer fires, to the millisecond (libuv's resolution); nil while it is
    /// not scheduled.
    public var remaining: Duration? {
        loop.preconditionInEventLoop()
        guard isActive else { return nil }
        uv_update_time(loop.loop) // from now, not from the start of this loop iteration
        return .milliseconds(Int64(clamping: uv_timer_get_due_in(timer)))
    }

    /// Stops the timer for good and releases its callback. Idempotent.
    public func close() {
        loop.preconditionInEventLoop()
        guard !isClosing else { return }
        isClosing = true
        uv_close(timer.asHandle, LoopTimer.onClosed)
    }

    private static let onFire: uv_timer_cb = { handle in
        HandleData.owner(of: handle?.asHandle, as: LoopTimer.self).callback?()
    }

    private static let onClosed: uv_close_cb = { handle in
        let timer = HandleData.releaseOwner(of: handle, as: LoopTimer.self)
        timer.callback = nil
        timer.timer.deallocate()
    }
}

extension LoopTimer: ClosedAtShutdown {}
