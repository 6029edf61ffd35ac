import Glibc
import VerticalsTestSupport
import Testing
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// The typed client against real daemons: reconnection, unavailability, deadlines, cancellation.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct ClientProcessTests {
    let echo = TestEcho()

    @Test func call_whenTheCalleeIsNotRunning_failsUnavailableAtOnce() async throws {
        let suite = try SuiteFixture()
        let start = ContinuousClock.now
        let error = await #expect(throws: ServiceError.self) {
            try await suite.client.call(echo.echo, .init(text: "anyone?"), timeout: .seconds(600))
        }
        // At once, not at the call's deadline: waiting for the callee would end in
        // `deadlineExceeded` after ten minutes (and the test's 2-minute limit first). The bound is
        // loose on purpose: a test thread starved by a loaded 2-core machine was seen waiting 31 s.
        #expect(error?.code == .unavailable)
        #expect(error?.retryable == true)
        #expect(ContinuousClock.now - start < .seconds(90))
    }

    @Test func call_afterTheCalleeRestarts_reconnectsAndIsServedByTheNewProcess() async throws {
        let suite = try SuiteFixture()
        let first = try suite.start()
        #expect(try await suite.client.call(echo.echo, .init(text: "one")).servedBy == Int(first.pid))
        first.stop()
        let second = try suite.start()
        // The first call after the restart may find the old connection dead: allow one unavailable.
        var servedBy: Int?
        for _ in 0..<3 {
            if let output = try? await suite.client.call(echo.echo, .init(text: "two")) {
                servedBy = output.servedBy
                break
            }
        }
        #expect(servedBy == Int(second.pid))
    }

    @Test func callsWhoseRequestsOutgrowTheHighWaterMarkTogether_areAllAnswered() async throws {
        // Four 1 MiB calls at once: the client's queue passes the callee's 1 MiB high-water mark
        // while the callee's answers fill the socket. A client that stopped reading for its own
        // queue left each side waiting for the other until the calls' deadline.
        let suite = try SuiteFixture()
        _ = try suite.start()
        let client = suite.client
        let echo = self.echo
        let text = String(repeating: "x", count: 1 << 20)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await client.call(echo.echo, .init(text: text), timeout: .seconds(20)).text.utf8.count
                }
            }
            for try await answered in group { #expect(answered == 1 << 20) }
        }
    }

    @Test func call_whileTheCalleeDiesMidCall_failsUnavailableNotHanging() async throws {
        let suite = try SuiteFixture()
        let daemon = try suite.start()
        let client = suite.client
        let echo = self.echo
        // A minute's handler and deadline: only the kill can end the call.
        let slow = Task {
            try await client.call(echo.echo, .init(text: "never", delayMilliseconds: 60_000), timeout: .seconds(60))
        }
        // Killed once the daemon holds the call (after a fixed sleep, a late task's call found no
        // daemon at all: unavailable too, but not mid-call).
        #expect(try await HostProcessTests.waitUntilInFlight(client, service: "echo", atLeast: 1, within: .seconds(30)))
        daemon.signal(SIGKILL)
        let error = await #expect(throws: ServiceError.self) { try await slow.value }
        #expect(error?.code == .unavailable)
    }

    @Test func call_madeWhileServing_carriesTheRemainingDeadlineNotAFreshOne() async throws {
        let suite = try SuiteFixture()
        try suite.start("echo")
        try suite.start("relay")
        let relay = TestEcho(service: "relay")
        // A deadline no stall of a loaded machine outruns; what arrives is at most what was given.
        let output = try await suite.client.call(
            relay.relay, .init(target: "echo", text: "via relay"), timeout: .seconds(30))
        #expect(output.echoed.text == "via relay")
        #expect(output.remainingMicroseconds > 0 && output.remainingMicroseconds <= 30_000_000)

        // The relay's own client default is 5 s; the inherited 300 ms must win.
        let start = ContinuousClock.now
        let error = await #expect(throws: ServiceError.self) {
            try await suite.client.call(
                relay.relay, .init(target: "echo", text: "too slow", delayMilliseconds: 600_000),
                timeout: .milliseconds(300))
        }
        #expect(error?.code == .deadlineExceeded)
        // Far sooner than the ten minutes the callee would sleep (a stopwatch this loose no stall reaches).
        #expect(ContinuousClock.now - start < .seconds(90))
    }

    @Test func call_shorterTimeoutAfterALongerOne_failsAtItsOwnDeadline() async throws {
        // The channel checks deadlines with one timer entry armed for the earliest: a later call
        // with an earlier deadline must move it forward.
        let suite = try SuiteFixture.servingEcho()
        let client = suite.client
        let echo = self.echo
        // The short call comes second only once the long one is armed (held by the callee); a
        // late task otherwise sent the short one first, and nothing had to move.
        let long = try await suite.heldEcho("long", inFlightWithin: .seconds(30))
        // Answered at its own 200 ms deadline (by the callee or the channel), not after the 1 s handler.
        let error = await #expect(throws: ServiceError.self) {
            try await client.call(
                echo.echo, .init(text: "short", delayMilliseconds: 1_000), timeout: .milliseconds(200))
        }
        #expect(error?.code == .deadlineExceeded)
        long.cancel()
        _ = await long.result
    }

    @Test func call_cancelledByTheCaller_failsCancelledPromptly() async throws {
        let suite = try SuiteFixture.servingEcho()
        // A minute's sleep and deadline: only the cancellation can end the call this soon, however
        // late this test's task runs on a loaded machine. Cancelled once the daemon holds the
        // call: a task cancelled before it sent anything fails `cancelled` too, without proving
        // that a call in flight can be.
        let task = try await suite.heldEcho("wait", inFlightWithin: .seconds(30))
        task.cancel()
        let result = await task.result
        guard case .failure(let error as ServiceError) = result else {
            Issue.record("expected a ServiceError, got \(result)")
            return
        }
        #expect(error.code == .cancelled)
        #expect(try await suite.client.call(echo.echo, .init(text: "after")).text == "after")
    }
}

/// How a daemon gets its socket: bound itself, or handed over by a service manager.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct SocketHandOffTests {
    let echo = TestEcho()

    @Test func daemon_underSystemdSocketActivate_servesOnTheInheritedSocketAndReportsReady() async throws {
        let suite = try SuiteFixture()
        let activate = "/usr/bin/systemd-socket-activate"
        guard access(activate, X_OK) == 0 else {
            Issue.record("systemd-socket-activate is not installed")
            return
        }
        mkdir(suite.socketDirectory.path, 0o750)
        // The real systemd tool binds the socket and passes it as fd 3 with LISTEN_FDS/LISTEN_PID.
        // Our daemon must not bind anything itself: its own socket directory does not exist.
        let manager = try DaemonProcess(
            activate,
            [
                "-l", suite.socket(), "-E", "NOTIFY_SOCKET=\(suite.notify.path)", "-E",
                "VERTICALS_SOCKET_DIR=/nonexistent",
                "-E", "VERTICALS_LOG_LEVEL=warning",
                "\(DaemonProcess.productsDirectory)/vt-testd", "echo",
            ],
            environment: [:])
        defer { manager.stop() }
        // The tool binds (creating the file) before it listens: wait for a connect to succeed, not
        // for the file, or the call below can be refused in between. That first connection is what
        // makes systemd-socket-activate start the daemon (Accept=no); the daemon accepts it too.
        #expect(eventually { (try? RawClient(path: suite.socket())) != nil })
        let output = try await suite.client.call(echo.echo, .init(text: "activated"))
        #expect(output.text == "activated")
        #expect(suite.notify.waitFor("READY=1"))
    }

    @Test func daemon_socketPathTooLong_exitsWithATypedErrorAndCreatesNothing() throws {
        let directory = TemporaryDirectory()
        let longDir = directory.file(String(repeating: "d", count: 100))
        let daemon = try DaemonProcess("vt-testd", ["echo"], environment: ["VERTICALS_SOCKET_DIR": longDir])
        #expect(daemon.waitForExit(timeout: .seconds(10)) != nil)
        #expect(!daemon.exited(with: 0))
        #expect(access("\(longDir)/echo.sock", F_OK) != 0)
    }

    @Test func daemon_socketPathTakenByALiveServer_exitsAndLeavesTheOtherServing() async throws {
        let suite = try SuiteFixture()
        let first = try suite.start()
        let second = try DaemonProcess("vt-testd", ["echo"], environment: suite.environment())
        #expect(second.waitForExit(timeout: .seconds(10)) != nil)
        #expect(second.exited(with: 69))
        let output = try await suite.client.call(echo.echo, .init(text: "first"))
        #expect(output.servedBy == Int(first.pid))
    }

    @Test func daemon_staleSocketFile_isReplaced() async throws {
        let suite = try SuiteFixture()
        let first = try suite.start()
        first.signal(SIGKILL)
        first.waitForExit()
        // SIGKILL left the socket file behind with nobody listening.
        #expect(access(suite.socket(), F_OK) == 0)
        try suite.start()
        #expect(try await suite.client.call(echo.echo, .init(text: "fresh")).text == "fresh")
    }
}
