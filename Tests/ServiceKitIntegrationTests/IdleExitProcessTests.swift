import Glibc
import VerticalsTestSupport
import Testing
import VerticalsServiceKit
import VerticalsTesting

/// `VERTICALS_IDLE_EXIT_SECONDS` on a daemon alone, no supervisor: it exits 0 by
/// itself, and waiting for that deadline costs no wake-up before it.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct IdleExitProcessTests {
    let echo = TestEcho()

    @Test func daemonWithAnIdleExit_exitsZeroOnItsOwn_closingItsIdleConnection() async throws {
        let suite = try SuiteFixture()
        let daemon = try suite.start(
            extra: [HostConfiguration.idleExitVariable: "1", "VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS": "0"])
        // The client keeps this connection open: it does not keep the daemon up.
        _ = try await suite.client.call(echo.echo, .init(text: "once"))
        #expect(daemon.waitForExit(timeout: .seconds(30)) != nil, "still running 30 s after a 1 s idle exit")
        #expect(daemon.exited(with: 0))
    }

    @Test func daemonWaitingForItsIdleExit_withAnIdleOpenConnection_wakesNever() async throws {
        let suite = try SuiteFixture()
        let daemon = try suite.start(
            extra: IdleWakeUpTests.quickSweep.merging([HostConfiguration.idleExitVariable: "60"]) { $1 })
        _ = try await suite.client.call(echo.echo, .init(text: "then idle"))
        let wakeUps = try await DaemonProcess.quietestWindow(of: daemon.pid)
        #expect(wakeUps == 0, "vt-testd woke \(wakeUps) times in every 3 s window while its idle exit was armed")
        // A call meanwhile moves the deadline; the daemon still serves.
        _ = try await suite.client.call(echo.echo, .init(text: "awake again"))
        #expect(daemon.waitForExit(timeout: .milliseconds(10)) == nil, "it exited 60 s early")
    }
}
