import Glibc
import VerticalsTestSupport
import Testing
import VerticalsServiceKit
import VerticalsTesting

/// A vertical and a plain swift-service-lifecycle service in one `ServiceGroup`, in a separate
/// process (`vt-lifecycled`): one SIGTERM shuts both down gracefully, in order.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ServiceGroupProcessTests {
    let echo = TestEcho()

    @Test func sigterm_verticalDrainsItsInFlightRequest_thenTheOtherServiceShutsDownGracefully() async throws {
        let suite = try SuiteFixture()
        let log = suite.directory.file("stderr")
        let daemon = try DaemonProcess(
            "vt-lifecycled", ["echo"], environment: suite.environment(extra: ["VERTICALS_LOG_LEVEL": "info"]),
            stderrPath: log)
        defer { daemon.stop() }
        #expect(eventually { (try? RawClient(path: suite.socket())) != nil }, "vt-lifecycled never listened")
        let client = suite.client
        let echo = self.echo
        let slow = Task { try await client.call(echo.echo, .init(text: "finish me", delayMilliseconds: 2_500)) }
        // SIGTERM only once the vertical holds the request, so the drain has something to finish.
        #expect(try await HostProcessTests.waitUntilInFlight(client, service: "echo", atLeast: 1))
        daemon.signal(SIGTERM)
        let output = try await slow.value
        #expect(output.text == "finish me")
        #expect(daemon.waitForExit(timeout: .seconds(10)) != nil)
        #expect(daemon.exited(with: 0))
        let lines = (readFile(log) ?? "").split(separator: "\n").map(String.init)
        func position(_ fact: String) -> Int? { lines.firstIndex { $0.contains(fact) } }
        let order = [
            "other: running", "vertical: answered finish me", "drained: every request answered",
            "other: graceful shutdown", "other: returned",
        ]
        let positions = order.map(position)
        #expect(positions.allSatisfy { $0 != nil }, "missing from vt-lifecycled's standard error:\n\(lines.joined(separator: "\n"))")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "out of order:\n\(lines.joined(separator: "\n"))")
        #expect(position("other: cancelled") == nil)
    }

    /// The bench's idle row for a vertical inside a `ServiceGroup`: once it serves, the group's
    /// signal sources and the vertical sleep (a vertical holds no timer while idle).
    @Test func idle_inAServiceGroup_makesNoWakeUp() async throws {
        let suite = try SuiteFixture()
        let log = suite.directory.file("stderr")
        let daemon = try DaemonProcess(
            "vt-lifecycled", ["echo"], environment: suite.environment(extra: ["VERTICALS_LOG_LEVEL": "debug"]),
            stderrPath: log)
        defer { daemon.stop() }
        #expect(eventually { readFile(log)?.contains("serving echo on") == true }, "never served")
        // Quiet once two looks 100 ms apart agree: start-up's last steps follow that line. Threads
        // are compared one by one: a worker thread that ends on its own meanwhile is no wake-up.
        #expect(eventually {
            guard let first = daemon.contextSwitchesByThread() else { return false }
            usleep(100_000)
            return daemon.contextSwitchesByThread().map { DaemonProcess.wakeUps(from: first, to: $0) } == 0
        })
        let before = try #require(daemon.contextSwitchesByThread())
        try await Task.sleep(for: .seconds(2))
        let after = try #require(daemon.contextSwitchesByThread())
        let wakeUps = DaemonProcess.wakeUps(from: before, to: after)
        #expect(wakeUps == 0, "\(wakeUps) wake-ups in 2 s of idling")
    }

    @Test func besideThrowing_exits70_namingWhatFailed() throws {
        let suite = try SuiteFixture()
        let log = suite.directory.file("stderr")
        let daemon = try DaemonProcess(
            "vt-lifecycled", ["echo"], environment: suite.environment(extra: ["VT_LIFECYCLED_BESIDE_FAILS": "1"]),
            stderrPath: log)
        defer { daemon.stop() }
        #expect(daemon.waitForExit(timeout: .seconds(10)) != nil)
        #expect(daemon.exited(with: 70))
        let text = readFile(log) ?? ""
        #expect(text.contains("cannot start the services beside the vertical"), "\(text)")
        #expect(text.contains("VT_LIFECYCLED_BESIDE_FAILS=1: the other service cannot be made"), "\(text)")
    }
}
