import CLibUV
import Glibc

/// Reaps the children a loop started with `vt_spawn` (``ChildProcess/Options/Launch/vfork(parentDeathSignal:)``):
/// one SIGCHLD watcher per loop, which calls `waitpid(pid, WNOHANG)` for each of its own children
/// only, never `waitpid(-1)`, so libuv's reaping of its `uv_process_t`s (by pid, too) and any
/// other loop's are untouched. Loop-confined; created at the loop's first such spawn.
final class ChildReaper {
    let loop: EventLoop
    let handle: UnsafeMutablePointer<uv_signal_t> // freed in the close callback
    /// The children not reaped yet, by pid; the reaper keeps each alive until it exits.
    var children: [Int32: ChildProcess] = [:]
    var isClosing = false

    private init(loop: EventLoop) {
        self.loop = loop
        handle = .allocate(capacity: 1)
        uv_signal_init(loop.loop, handle)
        HandleData.retain(self, into: handle.asHandle)
    }

    /// The loop's reaper, watching SIGCHLD from the moment this returns.
    static func of(_ loop: EventLoop) throws(EventLoopError) -> ChildReaper {
        if let reaper = loop.childReaper { return reaper }
        let reaper = ChildReaper(loop: loop)
        let status = uv_signal_start(reaper.handle, ChildReaper.onSignal, SIGCHLD)
        guard status == 0 else {
            reaper.close()
            throw .system(operation: "uv_signal_start", code: status)
        }
        // Like libuv's own SIGCHLD watcher, it keeps the loop running only while a child does.
        uv_unref(reaper.handle.asHandle)
        loop.childReaper = reaper
        return reaper
    }

    /// Reaps `child` when it exits, then calls its `didExit`.
    func watch(_ child: ChildProcess) {
        children[child.pid] = child
        uv_ref(handle.asHandle)
        // A child that exited before it was registered has its SIGCHLD still queued in libuv's
        // signal pipe: the callback runs after this loop turn, and finds it.
    }

    /// Lets the loop end when no child is left to wait for.
    func releaseIfIdle() {
        if children.isEmpty { uv_unref(handle.asHandle) }
    }

    /// One SIGCHLD may stand for several exits: every child is asked.
    func reap() {
        for (pid, child) in children {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            // 0: still running. -1 (ECHILD, someone reaped it against the rule): as libuv does,
            // keep waiting; nothing better is known.
            guard result == pid else { continue }
            children[pid] = nil
            child.didExit(ExitStatus(waitStatus: status))
        }
        releaseIfIdle()
    }

    func close() {
        guard !isClosing else { return }
        isClosing = true
        if loop.childReaper === self { loop.childReaper = nil }
        uv_close(handle.asHandle, ChildReaper.onClosed)
    }

    private static let onSignal: uv_signal_cb = { handle, _ in
        HandleData.owner(of: handle?.asHandle, as: ChildReaper.self).reap()
    }

    private static let onClosed: uv_close_cb = { handle in
        let reaper = HandleData.releaseOwner(of: handle, as: ChildReaper.self)
        reaper.children = [:] // as with uv_spawn's handles: past shutdown, no exit is reported
        reaper.handle.deallocate()
    }
}

extension ChildReaper: ClosedAtShutdown {}

extension ExitStatus {
    /// The status `waitpid` gives: the exit code, or the signal that ended the process.
    init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self.init(exitCode: signal == 0 ? Int64((status >> 8) & 0xff) : 0, signal: signal)
    }
}
