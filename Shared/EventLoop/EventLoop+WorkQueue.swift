import CLibUV

/// One unit of work waiting for the loop thread.
///
/// `@unchecked Sendable`: `.closure` and `.job` are Sendable; a `.local` closure is not, but it is
/// only created on the loop thread (``EventLoop/deferOnLoop(_:)`` checks) and only run there.
enum Work: @unchecked Sendable {
    case closure(@Sendable () -> Void)
    case local(() -> Void)
    case job(UnownedJob)
}

/// The cross-thread queue, guarded by ``EventLoop/queue``.
struct WorkQueue {
    enum Lifecycle { case running, stopping, stopped }

    var items: [Work] = []
    /// True while the loop is sure to look at the queue again without being woken: a wake-up was
    /// sent, or the idle handle keeps the loop from blocking, or a drain is running. Producers
    /// wake the loop only when this is false, so a burst of `execute` costs one `uv_async_send`.
    var armed = false
    var lifecycle = Lifecycle.running
}

extension EventLoop {
    /// How many work items (closures, resumed tasks) wait for the loop thread now: the loop's
    /// queue depth, for metrics. Takes the queue's lock, so read it when asked, not per request.
    public var queuedWorkCount: Int {
        queue.withLock { $0.items.count }
    }

    /// Appends `work` (any thread). Returns false, dropping it, once the loop has stopped.
    ///
    /// With `lifecycle` given, the work is accepted only in that state, which then moves to `next`.
    func enqueue(
        _ work: Work, ifLifecycleIs lifecycle: WorkQueue.Lifecycle? = nil, then next: WorkQueue.Lifecycle? = nil
    ) -> Bool {
        let onLoop = inEventLoop
        return queue.withLock { state -> Bool in
            guard state.lifecycle != .stopped else { return false }
            if let lifecycle {
                guard state.lifecycle == lifecycle else { return false }
            }
            if let next { state.lifecycle = next }
            state.items.append(work)
            if !state.armed {
                state.armed = true
                if onLoop {
                    // No syscall: an active idle handle makes this iteration's poll return at once,
                    // and the check handle drains the queue right after the I/O callbacks.
                    uv_idle_start(pendingIdle, EventLoop.onIdle)
                } else {
                    // Under the lock, so it never races the close of `wakeup` (see the class comment).
                    uv_async_send(wakeup)
                }
            }
            return true
        }
    }

    /// Runs one batch: everything queued when it starts. Work queued meanwhile waits for the next
    /// loop iteration, so a task that keeps re-enqueueing itself cannot starve I/O.
    func drainQueue() {
        var batch: [Work] = []
        swap(&batch, &spareBatch)
        let isEmpty = queue.withLock { state -> Bool in
            if state.items.isEmpty {
                if state.lifecycle != .stopped { state.armed = false }
                return true
            }
            swap(&state.items, &batch)
            return false
        }
        if isEmpty {
            spareBatch = batch
            uv_idle_stop(pendingIdle)
            return
        }
        // Indexed, as `runEndOfTurn()` is: an unspecialised iterator allocates a frame a batch.
        var index = 0
        while index < batch.count {
            run(batch[index])
            index += 1
        }
        batch.removeAll(keepingCapacity: true)
        spareBatch = batch
        let hasMore = queue.withLock { state -> Bool in
            if state.items.isEmpty {
                if state.lifecycle != .stopped { state.armed = false }
                return false
            }
            return true
        }
        if hasMore {
            uv_idle_start(pendingIdle, EventLoop.onIdle)
        } else {
            uv_idle_stop(pendingIdle)
        }
    }

    /// True when work is waiting.
    var hasQueuedWork: Bool {
        queue.withLock { !$0.items.isEmpty }
    }

    func run(_ work: Work) {
        switch work {
        case .closure(let body): body()
        case .local(let body): body()
        case .job(let job):
            // As a task executor, not isolated to the loop's serial executor: a job run isolated
            // to it had to hop back through the queue (one loop turn, one epoll_wait) at every
            // call into nonisolated async code, 8 turns per client call. Jobs of actors whose
            // executor is the loop stay exclusive all the same: every job runs on this one thread,
            // one at a time; such an actor's next hop onto itself merely goes through the queue.
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    static func from(_ handle: UnsafeMutablePointer<uv_handle_t>?) -> EventLoop {
        Unmanaged<EventLoop>.fromOpaque(uv_handle_get_data(handle)!).takeUnretainedValue()
    }

    static let onWakeup: uv_async_cb = { handle in
        EventLoop.from(handle?.asHandle).drainQueue()
    }

    static let onCheck: uv_check_cb = { handle in
        let loop = EventLoop.from(handle?.asHandle)
        loop.drainQueue()
        loop.runEndOfTurn()
    }

    /// Does nothing: an active idle handle only keeps the next poll from blocking.
    static let onIdle: uv_idle_cb = { _ in }
}
