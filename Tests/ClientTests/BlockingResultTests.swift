import Glibc
import Synchronization
import Testing
import VerticalsClient
import VerticalsServiceKit

/// ``BlockingResult``: the thread blocked in `wait` gets the value another thread sets.
struct BlockingResultTests {
    @Test func theWaitingThreadGetsTheValueSetElsewhere() {
        let result = BlockingResult<Int>()
        let received = Mutex<Int?>(nil)
        let waiting = Thread { received.withLock { $0 = result.wait() } }
        result.set(7)
        waiting.join()
        #expect(received.withLock { $0 } == 7)
    }
}

/// A POSIX thread running `body`, joined by ``join()``.
private final class Thread: @unchecked Sendable {
    // @unchecked Sendable: `thread` is written once in init, before any other thread sees this
    // object, and read only by `join`, on the creating thread.
    private var thread = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        pthread_create(
            &thread, nil,
            { argument in
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
