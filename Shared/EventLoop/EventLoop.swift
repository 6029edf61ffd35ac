import CLibUV
import Glibc
import Synchronization

/// One libuv loop running on its own thread: the home of every handle in a daemon.
///
/// Every libuv call happens on the loop thread. Other threads reach it only through
/// ``execute(_:)`` and ``submit(_:)`` (backed by `uv_async_send`, libuv's one thread-safe
/// entry) or by running Swift tasks on it: the loop is a `SerialExecutor` and a `TaskExecutor`,
/// so `Task(executorPreference: loop) { … }` runs nonisolated async code on the loop thread and
/// comes back to it after every `await`, without a thread hop.
///
/// ```swift
/// let loop = try EventLoop(name: "identity")
/// loop.execute {
///     let listener = try! StreamListener.bind(path: "/run/verticals/identity.sock", on: loop)
///     listener.start { connection in … }
/// }
/// …
/// loop.shutdown()   // closes every handle, stops and joins the thread
/// ```
///
/// Creating a loop ignores `SIGPIPE` process-wide (a write to a closed peer then fails with
/// `EPIPE` instead of killing the process); children spawned with ``ChildProcess`` get default
/// signal dispositions back, as `uv_spawn` resets them.
///
/// Call ``shutdown()`` when done: until then the thread keeps the loop alive.
public final class EventLoop: @unchecked Sendable {
    // Why @unchecked Sendable holds:
    // - `queue` and `joined` are Mutex-protected, `threadID` is atomic, the other `let`s never change.
    // - The libuv structures behind the pointers are touched only on the loop thread, with one
    //   exception: `wakeup` gets `uv_async_send` from any thread — libuv's one thread-safe call —
    //   always under the `queue` lock, and the loop thread closes `wakeup` only after it set
    //   `lifecycle = .stopped` under that same lock, so a send can never race the close.
    // - Every `var` is loop-confined: read and written only on the loop thread (see each comment).

    /// The name given at init; also the loop thread's name (first 15 bytes) in `/proc`.
    public let name: String

    let loop: UnsafeMutablePointer<uv_loop_t>
    let wakeup: UnsafeMutablePointer<uv_async_t>
    let drainCheck: UnsafeMutablePointer<uv_check_t>
    let pendingIdle: UnsafeMutablePointer<uv_idle_t>
    let queue = Mutex(WorkQueue())
    private let threadID = Atomic<UInt>(0)
    private var thread = pthread_t() // written in init only
    private let joined = Mutex(false)

    /// Loop-confined: the previous batch's array, reused so draining does not allocate.
    /// `@exclusivity(unchecked)`, as the end-of-turn lists below: swapped once or twice a loop
    /// turn, each run-time check about 60 instructions; sound because only the loop thread touches
    /// them and a swap or an append never calls out, so no access overlaps another.
    @exclusivity(unchecked) var spareBatch: [Work] = []
    /// Loop-confined: set by the stop work item that ``shutdown()`` enqueues.
    var stopRequested = false
    /// Loop-confined: true once shutdown started closing handles; new handles close at once.
    var isShuttingDown = false
    /// Loop-confined: handles seen by the last shutdown walk.
    var walkedHandleCount = 0
    /// Loop-confined: connections to flush at the end of this loop turn (see ``flushAtEndOfTurn(_:)``),
    /// and the spare array the next turn reuses.
    @exclusivity(unchecked) var endOfTurn: [Connection] = []
    @exclusivity(unchecked) var spareEndOfTurn: [Connection] = []
    /// Loop-confined: one read buffer shared by every stream on the loop (reads are synchronous).
    var readBuffer: UnsafeMutableRawPointer?
    var readBufferCapacity = 0
    /// Loop-confined: reaps the children started with `vt_spawn`, from the first one on.
    var childReaper: ChildReaper?
    /// Loop-confined: hands free memory back after a burst of long frames, from the first long
    /// frame on (see `EventLoop+MemoryRelease.swift`); whether another came since it was armed;
    /// and how many times it handed memory back.
    var memoryRelease: LoopTimer?
    var longFrameSinceArmed = false
    package var memoryReleaseCount = 0

    private static let sigpipeIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Creates the loop and starts its thread, which runs until ``shutdown()``.
    ///
    /// - Throws: ``EventLoopError/system(operation:code:)`` when libuv or the thread cannot start
    ///   (for example, out of file descriptors).
    public init(name: String = "event-loop") throws(EventLoopError) {
        _ = EventLoop.sigpipeIgnored
        self.name = name
        loop = .allocate(capacity: 1)
        wakeup = .allocate(capacity: 1)
        drainCheck = .allocate(capacity: 1)
        pendingIdle = .allocate(capacity: 1)

        // Every stored property is initialised from here on, so a throw runs deinit, which frees
        // the memory; `joined` tells it there is no thread to join.
        var status = uv_loop_init(loop)
        guard status == 0 else {
            joined.withLock { $0 = true }
            throw .system(operation: "uv_loop_init", code: status)
        }
        status = uv_async_init(loop, wakeup, EventLoop.onWakeup)
        guard status == 0 else {
            _ = uv_loop_close(loop)
            joined.withLock { $0 = true }
            throw .system(operation: "uv_async_init", code: status)
        }
        uv_check_init(loop, drainCheck)
        uv_idle_init(loop, pendingIdle)
        let unretainedSelf = Unmanaged.passUnretained(self).toOpaque()
        for handle in [wakeup.asHandle, drainCheck.asHandle, pendingIdle.asHandle] {
            uv_handle_set_data(handle, unretainedSelf)
        }
        uv_check_start(drainCheck, EventLoop.onCheck)
        // Only the async handle keeps the loop alive; the check and idle handles are helpers.
        uv_unref(drainCheck.asHandle)
        uv_unref(pendingIdle.asHandle)
        EventLoop.reserveSpareDescriptor(loop)

        // The thread owns one reference until it finishes, so the loop outlives its thread.
        let retained = Unmanaged.passRetained(self)
        status = pthread_create(&thread, nil, EventLoop.threadMain, retained.toOpaque())
        guard status == 0 else {
            retained.release()
            closeInternalHandles()
            uv_run(loop, UV_RUN_DEFAULT)
            _ = uv_loop_close(loop)
            joined.withLock { $0 = true }
            throw .system(operation: "pthread_create", code: -status)
        }
        // Named here, not by the thread itself: once `init` returns the name is in `/proc` (what
        // `top -H` and `ps -L` show), even if the new thread has not run yet. A daemon is ready
        // before its later loops' threads are scheduled, and a test that looked then saw one unnamed.
        var name15 = Array(name.utf8.prefix(15)).map { CChar(bitPattern: $0) }
        name15.append(0)
        _ = pthread_setname_np(thread, name15)
        // Published before any work can reach the thread: work only arrives through `queue`,
        // whose lock orders this store before the loop thread's first read.
        threadID.store(thread, ordering: .releasing)
    }

    deinit {
        // The thread held a reference until it returned, so the loop is closed by now.
        let mustJoin = joined.withLock { done in
            defer { done = true }
            return !done
        }
        if mustJoin {
            if pthread_self() == thread {
                pthread_detach(thread) // the loop thread dropped the last reference
            } else {
                pthread_join(thread, nil)
            }
        }
        readBuffer?.deallocate()
        freeMemory()
    }

    private func freeMemory() {
        loop.deallocate()
        wakeup.deallocate()
        drainCheck.deallocate()
        pendingIdle.deallocate()
    }

    /// True when called on this loop's thread.
    public var inEventLoop: Bool {
        pthread_self() == threadID.load(ordering: .acquiring)
    }

    /// Stops the process unless called on this loop's thread; every loop-confined API checks it.
    public func preconditionInEventLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(inEventLoop, "must be called on event loop '\(name)''s thread", file: file, line: line)
    }

    /// Runs `work` on the loop thread, after the current callback returns.
    ///
    /// Thread-safe and FIFO (two calls from one thread run in call order); never runs `work`
    /// inline, even on the loop thread. Work submitted after the loop has stopped is dropped,
    /// and the result says so: false when `work` will never run.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        enqueue(.closure(work))
    }

    /// Runs `work` on the loop thread and returns its result.
    ///
    /// - Throws: what `work` throws, or ``EventLoopError/closed`` when the loop has stopped.
    public func submit<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let accepted = enqueue(.closure { continuation.resume(with: Result { try work() }) })
            if !accepted {
                continuation.resume(throwing: EventLoopError.closed)
            }
        }
    }

    /// Runs loop-confined `work` later on the loop thread (never inline); called on the loop thread.
    ///
    /// For completions that must not run inside the call that triggered them. After the loop
    /// stopped accepting work (the last moments of shutdown) it runs at once instead.
    func deferOnLoop(_ work: @escaping () -> Void) {
        preconditionInEventLoop()
        if !enqueue(.local(work)) {
            work()
        }
    }

    /// Stops the loop: closes every handle (their `onClose` callbacks run), runs the loop until
    /// every close callback has run, stops it and joins its thread.
    ///
    /// Thread-safe and idempotent. Off the loop thread it returns once the thread has finished.
    /// On the loop thread it only schedules the stop (a thread cannot join itself); the loop
    /// finishes after the current callback returns.
    public func shutdown() {
        _ = enqueue(
            .closure { [self] in
                stopRequested = true
                uv_stop(loop)
            }, ifLifecycleIs: .running, then: .stopping)
        guard !inEventLoop else { return }
        joined.withLock { done in
            guard !done else { return }
            pthread_join(thread, nil)
            done = true
        }
    }

    /// The loop thread's body: run until stopped, then close everything.
    private func runThread() {
        acceptSignals()
        while !stopRequested {
            uv_run(loop, UV_RUN_DEFAULT)
        }
        finishShutdown()
    }

    /// Unblocks every signal on the loop thread, where libuv handles the ones the process
    /// watches: SIGCHLD for ``ChildProcess`` exits, and each ``SignalWatcher``'s. A thread starts
    /// with its creator's mask, and a process with its parent's: one started from a thread that
    /// blocks them all (any libdispatch or Swift concurrency worker, as in the tests) would keep
    /// SIGTERM pending and never see a child exit.
    private func acceptSignals() {
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
    }

    private static let threadMain: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = {
        argument in
        let eventLoop = Unmanaged<EventLoop>.fromOpaque(argument!).takeRetainedValue()
        eventLoop.runThread()
        return nil
    }

    /// A buffer for one read on this loop; valid until the read callback returns.
    func readBuffer(size: Int) -> uv_buf_t {
        if size > readBufferCapacity {
            readBuffer?.deallocate()
            readBuffer = .allocate(byteCount: size, alignment: 16)
            readBufferCapacity = size
        }
        return uv_buf_init(readBuffer!.assumingMemoryBound(to: CChar.self), UInt32(size))
    }
}

extension EventLoop {
    /// The CPUs this process may run on (its affinity mask: libuv's `uv_available_parallelism`,
    /// at least 1); a cgroup's CPU quota is not counted here (see ServiceKit's `LoopCount`).
    public static var availableParallelism: Int {
        Int(uv_available_parallelism())
    }
}
