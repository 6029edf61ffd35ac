import CLibUV

extension EventLoop {
    /// The end of the loop thread: close every handle, finish the work already accepted, close
    /// the loop. Runs on the loop thread after `uv_run` returned, so never inside a callback.
    func finishShutdown() {
        isShuttingDown = true
        repeat {
            // Close callbacks and cancelled writes run user code that may queue work (a resumed
            // task) or, rarely, open a handle: keep going until neither is left.
            while closeOwnedHandles() > 0 || hasQueuedWork {
                drainQueue()
                uv_run(loop, UV_RUN_NOWAIT)
            }
            // Refuse new work from here on, then run what was accepted before.
            var leftovers: [Work] = []
            queue.withLock { state in
                state.lifecycle = .stopped
                state.armed = true // nothing may touch `wakeup` again
                swap(&state.items, &leftovers)
            }
            for work in leftovers {
                run(work)
            }
        } while closeOwnedHandles() > 0
        memoryRelease = nil // closed above; it holds the loop, which would otherwise never go

        closeInternalHandles()
        uv_run(loop, UV_RUN_DEFAULT)
        let status = uv_loop_close(loop)
        assert(status == 0, "uv_loop_close: \(EventLoopError.system(operation: "uv_loop_close", code: status))")
    }

    /// Asks the owner of every open handle to close it; returns how many handles are still
    /// in the loop (closing or not), not counting the loop's own.
    func closeOwnedHandles() -> Int {
        walkedHandleCount = 0
        uv_walk(loop, EventLoop.closeOwnedHandle, Unmanaged.passUnretained(self).toOpaque())
        return walkedHandleCount
    }

    func closeInternalHandles() {
        for handle in [wakeup.asHandle, drainCheck.asHandle, pendingIdle.asHandle] where uv_is_closing(handle) == 0 {
            uv_close(handle, nil) // memory is freed in deinit
        }
    }

    func isInternal(_ handle: UnsafeMutablePointer<uv_handle_t>) -> Bool {
        handle == wakeup.asHandle || handle == drainCheck.asHandle || handle == pendingIdle.asHandle
    }

    static let closeOwnedHandle: uv_walk_cb = { handle, argument in
        guard let handle else { return }
        let eventLoop = Unmanaged<EventLoop>.fromOpaque(argument!).takeUnretainedValue()
        guard !eventLoop.isInternal(handle) else { return }
        eventLoop.walkedHandleCount += 1
        guard uv_is_closing(handle) == 0 else { return }
        if let data = uv_handle_get_data(handle),
            let owner = Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as? any LoopHandleOwner
        {
            owner.closeForShutdown()
        } else {
            uv_close(handle, nil) // not one of ours: nothing to release
        }
    }
}
