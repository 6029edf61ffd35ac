import Glibc
import Synchronization
import Testing
import VerticalsServiceKit

/// ``BlockingResult``: the waiting thread gets the value, and runs the errands given meanwhile,
/// in order, before it returns; an errand given once it returned never runs.
struct BlockingResultTests {
    @Test func errandsRunOnTheWaitingThread_inOrder_beforeTheValue() {
        let result = BlockingResult<Int>()
        let ran = Mutex<[String]>([])
        let waiter = Mutex<pthread_t?>(nil)
        let waiting = Thread {
            waiter.withLock { $0 = pthread_self() }
            let value = result.wait()
            ran.withLock { $0.append("value \(value)") }
        }
        result.runWhileWaiting {
            let same = waiter.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } } ?? false
            ran.withLock { $0.append("first on the waiting thread: \(same)") }
        }
        result.runWhileWaiting { ran.withLock { $0.append("second") } }
        result.set(7)
        waiting.join()
        #expect(ran.withLock { $0 } == ["first on the waiting thread: true", "second", "value 7"])

        result.runWhileWaiting { ran.withLock { $0.append("too late") } }
        #expect(ran.withLock { $0 }.count == 3, "an errand given after the wait returned never runs")
    }
}

/// A POSIX thread running `body`, joined by ``join()``.
private final class Thread: @unchecked Sendable {
    // @unchecked Sendable: `thread` is written once in init, before any other thread sees this
    // object, and read only by `join`, on the creating thread.
    private var thread = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        pthread_create(&thread, nil, { argument in
            Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
            return nil
        }, box)
    }

    func join() { pthread_join(thread, nil) }

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
