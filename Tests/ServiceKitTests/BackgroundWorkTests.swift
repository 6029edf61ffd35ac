import Synchronization
import Testing
import VerticalsEventLoop
import VerticalsServiceKit

/// A daemon's background work: on its loop, and ended (cancelled, then awaited) when it drains.
@Suite struct BackgroundWorkTests {
    @Test func stop_cancelsASleepingTask_waitsForIt_andRefusesNewWork() async throws {
        let loop = try EventLoop(name: "background-test")
        defer { loop.shutdown() }
        let background = BackgroundWork(loop: loop)
        let ended = Mutex<String?>(nil)
        let began = AsyncStream<Void>.makeStream()
        let started = background.start {
            began.continuation.yield()
            do {
                try await background.sleep(for: .seconds(3_600))
                ended.withLock { $0 = "slept the hour" }
            } catch {
                ended.withLock { $0 = loop.inEventLoop ? "cancelled, on the loop" : "cancelled, off the loop" }
            }
        }
        #expect(started)
        for await _ in began.stream { break }

        await background.stop()

        #expect(ended.withLock { $0 } == "cancelled, on the loop", "stop returned only after the task ended")
        #expect(background.isStopped)
        #expect(!background.start { Issue.record("work started after stop") })
    }
}
