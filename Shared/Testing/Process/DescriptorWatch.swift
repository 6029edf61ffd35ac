import Foundation
import Glibc
import Synchronization

/// Counts the descriptors another thread had closed under it while `attempt` ran `times` times
/// and for at least `duration`: a check that `attempt` never closes a descriptor it no longer
/// owns (a double close).
///
/// In a process full of threads, a second close of a number that was just freed closes whatever
/// another thread opened under it meanwhile — in the full test run an event loop's accepted or
/// connecting socket, which libuv then loses (a connection whose `onClose` never runs) or cannot
/// add to epoll again (`abort()` on the loop thread). Here a thread opens sockets back to back
/// and checks that each still names the socket it opened (same inode) before closing it; each
/// one closed under it (`EBADF`) or replaced (a new inode) counts. The kernel hands out the
/// lowest free number, so a stray close often lands on the watcher's socket; the time floor
/// gives it chances even when the two threads share a CPU.
public func descriptorsClosedUnderAnotherThread(
    repeating attempt: () -> Void, times: Int = 5_000, atLeastFor duration: Duration = .seconds(1)
) -> Int {
    let state = DescriptorWatchState()
    let watcher = Thread {
        state.isRunning.store(true, ordering: .releasing)
        while !state.shouldStop.load(ordering: .acquiring) {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { continue }
            var opened = stat()
            var now = stat()
            fstat(fd, &opened)
            if fstat(fd, &now) != 0 || now.st_ino != opened.st_ino {
                // Not ours any more: closing it again would be a stray close of our own.
                state.stolen.wrappingAdd(1, ordering: .relaxed)
            } else {
                close(fd)
            }
        }
        state.isRunning.store(false, ordering: .releasing)
    }
    watcher.start()
    while !state.isRunning.load(ordering: .acquiring) { sched_yield() }
    let end = ContinuousClock.now + duration
    var count = 0
    while count < times || ContinuousClock.now < end {
        attempt()
        count += 1
    }
    state.shouldStop.store(true, ordering: .releasing)
    while state.isRunning.load(ordering: .acquiring) { sched_yield() }
    return state.stolen.load(ordering: .relaxed)
}

private final class DescriptorWatchState: Sendable {
    let isRunning = Atomic(false)
    let shouldStop = Atomic(false)
    let stolen = Atomic(0)
}
