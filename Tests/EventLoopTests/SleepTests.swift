import Testing
import VerticalsEventLoop

/// `EventLoop.sleep(for:)`: a task's sleep kept by a libuv timer, not by libdispatch.
@Suite("EventLoop.sleep")
struct SleepTests {
    @Test func sleep_returnsOnTheLoop_noSoonerThanAsked() async throws {
        try await withEventLoop { loop in
            let clock = ContinuousClock()
            let start = clock.now
            let onLoop = try await Task(executorPreference: loop) {
                try await loop.sleep(for: .milliseconds(30))
                return loop.inEventLoop
            }.value
            // libuv keeps loop time in whole milliseconds, so a 30 ms sleep may end after 29.x ms.
            #expect(clock.now - start >= .milliseconds(29))
            #expect(onLoop, "a task that prefers the loop resumes on it")
        }
    }

    @Test func sleep_cancelled_endsAtOnceWithCancellationError() async throws {
        try await withEventLoop { loop in
            let sleeper = Task { try await loop.sleep(for: .seconds(3_600)) }
            sleeper.cancel()
            // An hour's sleep that ends before the test's time limit ended through its cancellation.
            await #expect(throws: CancellationError.self) { try await sleeper.value }
        }
    }

    @Test func sleep_cancelledAfterItBegan_endsWithCancellationError() async throws {
        try await withEventLoop { loop in
            let started = Countdown(1, "the sleep began")
            let sleeper = Task {
                started.tick()
                try await loop.sleep(for: .seconds(3_600))
            }
            try await started.reached.value()
            try await loopHasTurned(loop) // most often the timer is armed by now; either way it must end
            sleeper.cancel()
            await #expect(throws: CancellationError.self) { try await sleeper.value }
        }
    }

    @Test func sleep_onAStoppedLoop_throwsInsteadOfHanging() async throws {
        let loop = try EventLoop(name: "stopped")
        loop.shutdown()
        await #expect(throws: CancellationError.self) { try await loop.sleep(for: .seconds(3_600)) }
    }
}
