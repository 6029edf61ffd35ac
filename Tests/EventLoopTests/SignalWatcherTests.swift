import Glibc
import Testing
import VerticalsEventLoop

@Suite("SignalWatcher")
struct SignalWatcherTests {
    @Test func watcher_seesASignalSentToTheProcess() async throws {
        try await withEventLoop { loop in
            let received = Expectation<(Int32, Bool)>("SIGUSR1")
            let watcher = try await onLoop(loop) {
                try SignalWatcher(loop: loop, signal: SIGUSR1) { signal in received.fulfill((signal, loop.inEventLoop))
                }
            }
            // The handler is installed once init returned on the loop, so this cannot kill us.
            kill(getpid(), SIGUSR1)
            let (signal, onLoop) = try await received.value()
            #expect(signal == SIGUSR1)
            #expect(onLoop)
            try await loop.submit { watcher.value.close() }
        }
    }

    @Test func watcher_forAnInvalidSignal_throws() async throws {
        try await withEventLoop { loop in
            let error = try await loop.submit { () -> EventLoopError? in
                failure { () throws(EventLoopError) in _ = try SignalWatcher(loop: loop, signal: 4242) { _ in } }
            }
            #expect(error?.kind == .system)
        }
    }
}
