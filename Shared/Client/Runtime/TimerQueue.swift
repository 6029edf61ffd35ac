import VerticalsEventLoop

/// Many deadlines on one libuv timer: a min-heap whose earliest entry arms the timer.
///
/// Requests and calls each have a deadline; one `uv_timer_t` per request would cost an
/// allocation and two syscalls each. The queue arms its timer only while it has entries,
/// so an idle daemon has no timer pending and its loop blocks in epoll. Loop-confined.
///
/// Each entry is a ``Handle`` that holds its action, not an id filed in a dictionary: cancelling
/// one clears its action, with no hashing, and a daemon's first request makes no dictionary
/// keyed by `UInt64`, whose storage's first instantiation in a process has the Swift runtime
/// look `UInt64: Hashable` up in every conformance record of the binary.
package final class TimerQueue {
    /// A scheduled action, from ``TimerQueue/schedule(at:_:)``: hand it to ``TimerQueue/cancel(_:)``
    /// to forget it. Loop-confined, as its queue.
    package final class Handle {
        /// Nil once it ran or was cancelled.
        fileprivate var action: (() -> Void)?

        fileprivate init(_ action: @escaping () -> Void) {
            self.action = action
        }
    }

    private struct Entry {
        let deadline: MonotonicInstant
        let handle: Handle
    }

    private let loop: EventLoop
    private var timer: LoopTimer?
    private var heap: [Entry] = []
    /// Entries whose action has neither run nor been cancelled.
    private var pending = 0
    private var armedFor: MonotonicInstant?

    package init(loop: EventLoop) {
        self.loop = loop
    }

    /// Runs `action` on the loop at `deadline` unless cancelled first; returns a handle for ``cancel(_:)``.
    @discardableResult
    package func schedule(at deadline: MonotonicInstant, _ action: @escaping () -> Void) -> Handle {
        loop.preconditionInEventLoop()
        let handle = Handle(action)
        pending += 1
        push(Entry(deadline: deadline, handle: handle))
        arm()
        return handle
    }

    /// Forgets a scheduled action (lazily: its heap entry is skipped when it comes up).
    package func cancel(_ handle: Handle) {
        guard handle.action != nil else { return }
        handle.action = nil
        pending -= 1
        if pending == 0 {
            heap.removeAll(keepingCapacity: true)
            timer?.stop()
            armedFor = nil
        }
    }

    /// Stops the timer for good.
    package func close() {
        for entry in heap { entry.handle.action = nil }
        pending = 0
        heap.removeAll()
        timer?.close()
        timer = nil
    }

    private func fire() {
        armedFor = nil
        // libuv timers have millisecond granularity: treat what is due within 1 ms as due now.
        let now = MonotonicInstant.now + .milliseconds(1)
        while let first = heap.first, first.deadline <= now {
            popFirst()
            if let action = first.handle.action {
                first.handle.action = nil
                pending -= 1
                action()
            }
        }
        while let first = heap.first, first.handle.action == nil { popFirst() }
        arm()
    }

    private func arm() {
        guard let first = heap.first else {
            timer?.stop()
            armedFor = nil
            return
        }
        if let armedFor, armedFor <= first.deadline { return }
        if timer == nil { timer = LoopTimer(loop: loop) }
        let delay = max(.zero, first.deadline - .now)
        armedFor = first.deadline
        timer?.start(after: delay) { [weak self] in self?.fire() }
    }

    private func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func popFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count && heap[right].deadline < heap[smallest].deadline { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
