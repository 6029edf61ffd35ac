import VerticalsEventLoop

/// Many deadlines on one libuv timer: a min-heap whose earliest entry arms the timer.
///
/// Requests and calls each have a deadline; one `uv_timer_t` per request would cost an
/// allocation and two syscalls each. The queue arms its timer only while it has entries,
/// so an idle daemon has no timer pending and its loop blocks in epoll. Loop-confined.
final class TimerQueue {
    private struct Entry {
        let deadline: MonotonicInstant
        let id: UInt64
    }

    private let loop: EventLoop
    private var timer: LoopTimer?
    private var heap: [Entry] = []
    private var actions: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1
    private var armedFor: MonotonicInstant?

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// Runs `action` on the loop at `deadline` unless cancelled first; returns a handle for ``cancel(_:)``.
    @discardableResult
    func schedule(at deadline: MonotonicInstant, _ action: @escaping () -> Void) -> UInt64 {
        loop.preconditionInEventLoop()
        let id = nextID
        nextID += 1
        actions[id] = action
        push(Entry(deadline: deadline, id: id))
        arm()
        return id
    }

    /// Forgets a scheduled action (lazily: its heap entry is skipped when it comes up).
    func cancel(_ id: UInt64) {
        actions[id] = nil
        if actions.isEmpty {
            heap.removeAll(keepingCapacity: true)
            timer?.stop()
            armedFor = nil
        }
    }

    /// Stops the timer for good.
    func close() {
        actions.removeAll()
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
            if let action = actions.removeValue(forKey: first.id) { action() }
        }
        while let first = heap.first, actions[first.id] == nil { popFirst() }
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
