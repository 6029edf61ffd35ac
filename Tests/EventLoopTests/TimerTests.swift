import Testing
import VerticalsEventLoop

@Suite("LoopTimer")
struct TimerTests {
    @Test func oneShotTimer_firesOnceAfterItsDelay() async throws {
        try await withEventLoop { loop in
            let fired = Countdown(1, "one-shot timer")
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await onLoop(loop) {
                let timer = LoopTimer(loop: loop)
                timer.start(after: .milliseconds(30)) {
                    if loop.inEventLoop { fired.tick() }
                }
                return timer
            }
            try await fired.reached.value()
            // libuv keeps loop time in whole milliseconds, so a 30 ms timer may fire after 29.x ms.
            #expect(clock.now - start >= .milliseconds(29))
            // Once: a second firing would be due 30 ms after the first, and the loop has run
            // everything due by the end of this sleep (not only slept: a stalled loop runs late).
            try await Task.sleep(for: .milliseconds(80))
            try await loopHasTurned(loop)
            #expect(fired.value == 1)
        }
    }

    @Test func remaining_isTheDelayLessWhatPassed_andNilOnceStopped() async throws {
        try await withEventLoop { loop in
            let clock = ContinuousClock()
            let start = clock.now
            let timer = try await onLoop(loop) {
                let timer = LoopTimer(loop: loop)
                timer.start(after: .seconds(60)) {}
                return timer
            }
            let (left, afterStop) = try await loop.submit { () -> (Duration?, Duration?) in
                let left = timer.value.remaining
                timer.value.stop()
                return (left, timer.value.remaining)
            }
            let passed = clock.now - start
            let remaining = try #require(left)
            // libuv keeps whole milliseconds: at most the delay, at least the delay less what passed and one.
            #expect(remaining <= .seconds(60) && remaining >= .seconds(60) - passed - .milliseconds(1), "\(remaining)")
            #expect(afterStop == nil)
            try await loop.submit { timer.value.close() }
        }
    }

    @Test func repeatingTimer_firesUntilStopped() async throws {
        try await withEventLoop { loop in
            let ticks = Countdown(3, "three ticks")
            let timer = try await onLoop(loop) {
                let timer = LoopTimer(loop: loop)
                timer.start(after: .milliseconds(5), repeating: .milliseconds(5)) { ticks.tick() }
                return timer
            }
            try await ticks.reached.value()
            let stoppedAt = try await loop.submit {
                timer.value.stop()
                return (ticks.value, timer.value.isActive)
            }
            #expect(!stoppedAt.1)
            // Twelve ticks would have been due; the loop has run what was due by now.
            try await Task.sleep(for: .milliseconds(60))
            try await loopHasTurned(loop)
            #expect(ticks.value == stoppedAt.0)
            try await loop.submit { timer.value.close() }
        }
    }

    @Test func closedTimer_releasesItsCallback_andNeverFires() async throws {
        try await withEventLoop { loop in
            final class Token: Sendable {}
            let fired = Countdown(1, "never")
            let weakToken = try await loop.submit { () -> WeakBox<Token> in
                let token = Token()
                let timer = LoopTimer(loop: loop)
                timer.start(after: .milliseconds(20)) {
                    _ = token; fired.tick()
                }
                timer.close()
                timer.close() // idempotent
                return WeakBox(token)
            }
            // Past its due time, and the loop has run what was due by now (and the close
            // callback, which releases the callback, of the turn that closed it).
            try await Task.sleep(for: .milliseconds(60))
            try await loopHasTurned(loop)
            #expect(fired.value == 0)
            #expect(weakToken.object == nil)
        }
    }

    @Test func restartingATimer_replacesItsSchedule() async throws {
        try await withEventLoop { loop in
            let which = Recorder<String>()
            let done = Expectation<Void>("second schedule")
            _ = try await onLoop(loop) {
                let timer = LoopTimer(loop: loop)
                timer.start(after: .milliseconds(40)) { which.append("first") }
                timer.start(after: .milliseconds(5)) {
                    which.append("second")
                    timer.close()
                    done.fulfill(())
                }
            }
            try await done.value()
            // Past the first schedule's 40 ms, and the loop has run what was due by now.
            try await Task.sleep(for: .milliseconds(60))
            try await loopHasTurned(loop)
            #expect(which.values == ["second"])
        }
    }
}

/// A weak reference that can cross to the test thread (the object is Sendable).
final class WeakBox<Object: AnyObject & Sendable>: Sendable {
    nonisolated(unsafe) weak var object: Object?
    init(_ object: Object) { self.object = object }
}
