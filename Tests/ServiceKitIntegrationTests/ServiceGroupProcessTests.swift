import Glibc
import VerticalsTestSupport
import Testing
import VerticalsServiceKit
import VerticalsTesting

/// A vertical and a plain swift-service-lifecycle service in one `ServiceGroup`, in a separate
/// process (`vt-lifecycled`): one SIGTERM shuts both down gracefully, in order.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct ServiceGroupProcessTests {
    /// Starts `vt-lifecycled echo` for `suite` with `extra` in its environment; its standard
    /// error goes to the returned log file.
    static func lifecycled(_ suite: SuiteFixture, _ extra: [String: String]) throws -> (DaemonProcess, log: String) {
        let log = suite.directory.file("stderr")
        let daemon = try DaemonProcess(
            "vt-lifecycled", ["echo"], environment: suite.environment(extra: extra), stderrPath: log)
        return (daemon, log)
    }

    @Test func sigterm_verticalDrainsItsInFlightRequest_thenTheOtherServiceShutsDownGracefully() async throws {
        let suite = try SuiteFixture()
        let (daemon, log) = try Self.lifecycled(suite, ["VERTICALS_LOG_LEVEL": "info"])
        defer { daemon.stop() }
        #expect(eventually { (try? RawClient(path: suite.socket())) != nil }, "vt-lifecycled never listened")
        // SIGTERM only once the vertical holds the request, so the drain has something to finish.
        let slow = try await suite.heldEcho("finish me", delayMilliseconds: 2_500, timeout: nil)
        try await suite.expectSIGTERMDrains(daemon, slow, answering: "finish me", exitWithin: .seconds(10))
        let lines = (readFile(log) ?? "").split(separator: "\n").map(String.init)
        func position(_ fact: String) -> Int? { lines.firstIndex { $0.contains(fact) } }
        let order = [
            "other: running", "vertical: answered finish me", "drained: every request answered",
            "other: graceful shutdown", "other: returned",
        ]
        let positions = order.map(position)
        #expect(
            positions.allSatisfy { $0 != nil },
            "missing from vt-lifecycled's standard error:\n\(lines.joined(separator: "\n"))")
        #expect(
            positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(),
            "out of order:\n\(lines.joined(separator: "\n"))")
        #expect(position("other: cancelled") == nil)
    }

    /// The bench's idle row for a vertical inside a `ServiceGroup`: once it serves, the group's
    /// signal sources and the vertical sleep (a vertical holds no timer while idle).
    @Test func idle_inAServiceGroup_makesNoWakeUp() async throws {
        let suite = try SuiteFixture()
        let (daemon, log) = try Self.lifecycled(suite, ["VERTICALS_LOG_LEVEL": "debug"])
        defer { daemon.stop() }
        #expect(eventually { readFile(log)?.contains("serving echo on") == true }, "never served")
        // Quiet once two looks 100 ms apart agree: start-up's last steps follow that line. Threads
        // are compared one by one: a worker thread that ends on its own meanwhile is no wake-up.
        #expect(
            eventually {
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
        let (daemon, log) = try Self.lifecycled(suite, ["VT_LIFECYCLED_BESIDE_FAILS": "1"])
        defer { daemon.stop() }
        #expect(daemon.waitForExit(timeout: .seconds(10)) != nil)
        #expect(daemon.exited(with: 70))
        let text = readFile(log) ?? ""
        #expect(text.contains("cannot start the services beside the vertical"), "\(text)")
        #expect(text.contains("VT_LIFECYCLED_BESIDE_FAILS=1: the other service cannot be made"), "\(text)")
    }
}
