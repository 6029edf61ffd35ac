import Synchronization
import Testing
import VerticalsServiceKit

/// A serial worker runs its jobs one at a time, in the order given, and says when they are done.
struct SerialWorkerTests {
    /// What the jobs saw, shared by them.
    final class Log: Sendable {
        let order = Mutex<[Int]>([])
        let running = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)
    }

    @Test func jobs_runOneAtATime_inTheOrderGiven_andWaitForPendingSeesThemAll() {
        let worker = SerialWorker()
        let log = Log()
        for index in 0..<200 {
            worker.run {
                if log.running.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                    log.overlapped.store(true, ordering: .sequentiallyConsistent)
                }
                log.order.withLock { $0.append(index) }
                log.running.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
        worker.waitForPending()
        #expect(log.order.withLock { $0 } == Array(0..<200))
        #expect(log.overlapped.load(ordering: .sequentiallyConsistent) == false)
    }
}
