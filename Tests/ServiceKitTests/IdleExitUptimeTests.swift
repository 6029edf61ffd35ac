import Testing
import VerticalsClient
import VerticalsContract
@testable import VerticalsServiceKit
import VerticalsTesting

/// `VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS`: a host with an idle exit stays up at least that long
/// after it starts, so whoever starts it (starting is not admission) cannot cycle it faster.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct IdleExitUptimeTests {
    static let start = MonotonicInstant(nanoseconds: 1_000_000_000_000)

    @Test func deadline_whileTheHostIsYoungerThanItsMinimumUptime_isTheUptimeFloor() {
        let deadline = IdleExit.deadline(
            idleSince: Self.start, after: .milliseconds(100), startedAt: Self.start, minimumUptime: .seconds(12))
        #expect(deadline == Self.start + .seconds(12))
    }

    @Test func deadline_onceTheHostIsOlderThanItsMinimumUptime_isTheIdlePeriodAfterItsLastRequest() {
        let idleSince = Self.start + .seconds(30)
        let deadline = IdleExit.deadline(
            idleSince: idleSince, after: .seconds(5), startedAt: Self.start, minimumUptime: .seconds(12))
        #expect(deadline == idleSince + .seconds(5))
    }

    @Test func deadline_withNoMinimumUptime_isTheIdlePeriodAlone() {
        let deadline = IdleExit.deadline(
            idleSince: Self.start, after: .milliseconds(250), startedAt: Self.start, minimumUptime: .zero)
        #expect(deadline == Self.start + .milliseconds(250))
    }

    @Test(arguments: [("0", Duration.zero), ("2.5", .milliseconds(2_500)), ("30", .seconds(30))])
    func configuration_readsTheMinimumUptime(text: String, expected: Duration) {
        let environment = [DaemonEnvironment.idleExitMinimumUptimeVariable: text]
        #expect(HostConfiguration.from(environment: environment, name: "a", pid: 1).idleExitMinimumUptime == expected)
    }

    @Test(arguments: ["-1", "soon", "inf", ""])
    func configuration_withAnUnreadableMinimumUptime_keepsTheDefaultFloor(text: String) {
        let environment = [DaemonEnvironment.idleExitMinimumUptimeVariable: text]
        let configuration = HostConfiguration.from(environment: environment, name: "a", pid: 1)
        #expect(configuration.idleExitMinimumUptime == .seconds(12))
        #expect(
            HostConfiguration(name: "a", socketDirectory: SocketDirectory("/tmp")).idleExitMinimumUptime == .seconds(12)
        )
    }

    @Test func hostWithAShortIdleExit_isStillUpUntilItsMinimumUptime_thenExitsIdle() async throws {
        let minimumUptime = Duration.seconds(1)
        let before = ContinuousClock.now
        let served = try await MultiLoopHostTests.Served(loops: 1) {
            $0.idleExit = .milliseconds(20)
            $0.idleExitMinimumUptime = minimumUptime
        }
        _ = try await served.client().call(MultiLoopHostTests.echo.echo, .init(text: "once"))
        let host = served.host
        #expect(await eventuallyAsync { (try? await host.loop.submit { host.stopMachine.hasDrained }) == true })
        // A bound the floor guarantees, not a measurement: the host started after `before`, so
        // it cannot have exited idle sooner than the floor after it (with 20 ms idle it would).
        #expect(ContinuousClock.now - before >= minimumUptime)
        await served.close()
    }
}
