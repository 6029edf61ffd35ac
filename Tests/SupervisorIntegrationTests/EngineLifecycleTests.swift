import Glibc
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisor
import VerticalsTesting

/// Every engine test that spawns real children (vt-testd, shell scripts), one at a time;
/// enabled once vt-exec takes `--setsid --pdeathsig SIG --`.
@Suite("Engine with real processes", .blocking, .serialized, .enabled(if: EngineHarness.shimTakesFlags))
struct EngineProcessTests {}

extension EngineProcessTests {
    /// Order, readiness, restarts and stopping.
    @Suite("starting, readiness, restarts and stopping", .blocking)
    struct Lifecycle {
        @Test func dependent_startsOnlyAfterItsDependencyIsReady() async throws {
            let harness = try EngineHarness([.testd("beta", dependsOn: ["alpha"]), .testd("alpha")])
            try await harness.start()
            let betaReady = try await harness.waitFor("beta", .ready)
            let alphaReady = try await harness.waitFor("alpha", .ready)
            let betaStarting = try await harness.waitFor("beta", .starting)
            #expect(betaStarting.at >= alphaReady.at, "beta spawned before alpha was ready")
            #expect(harness.events(of: "beta").first?.state == .waiting)
            #expect(betaReady.at > alphaReady.at)
            let status = try await harness.status("beta")
            #expect(status.ready && status.pid != nil && status.restarts == 0)
            await harness.shutdown()
        }

        @Test func readyTimeout_killsTheServiceAndCountsAsAFailure() async throws {
            var spec = ServiceSpec.script("mute", "exec sleep 30", readiness: .notify)
            spec.readyTimeout = .milliseconds(300)
            spec.restart = .never
            let harness = try EngineHarness([spec])
            try await harness.start()
            let started = try await harness.waitFor("mute", .starting)
            let failed = try await harness.waitFor("mute", .failed)
            #expect(failed.at - started.at >= .milliseconds(290))
            let status = try await harness.status("mute")
            #expect(status.lastExit.contains("not ready within 300 ms"), "\(status.lastExit)")
            #expect(status.pid == nil && !status.ready)
            await harness.shutdown()
        }

        @Test func crash_restartsWithGrowingBackoff() async throws {
            let harness = try EngineHarness([
                ServiceSpec.script("crashy", "exit 3").restarting(
                    after: Backoff(initial: .milliseconds(40), max: .seconds(5), multiplier: 2),
                    within: RestartBudget(maxRestarts: 10, window: .seconds(60)))
            ])
            try await harness.start()
            try await harness.waitFor("crashy", .starting, count: 4)
            let starts = harness.events(of: "crashy").filter { $0.state == .starting }.map(\.at)
            let gaps = zip(starts.dropFirst(), starts).map { $0 - $1 }
            // 40 ms, 80 ms, 160 ms: each delay the engine chose longer than the last (from its
            // notes: comparing measured gaps, a stall in the first made it look longer than the
            // second), and each wait at least that delay.
            #expect(eventually { harness.plannedDelays(of: "crashy").count >= 3 })
            let planned = harness.plannedDelays(of: "crashy")
            #expect(planned.prefix(3) == ["40 ms", "80 ms", "160 ms"], "\(planned)")
            #expect(
                gaps[0] >= .milliseconds(39) && gaps[1] >= .milliseconds(79)
                    && gaps[2] >= .milliseconds(159), "\(gaps)")
            let status = try await harness.status("crashy")
            #expect(status.restarts >= 3)
            #expect(status.lastExit == "exited with status 3")
            await harness.shutdown()
        }

        /// The `lastExit` status shows once `script`, never restarted, has ended and failed.
        private func lastExit(of script: String, readiness: Readiness) async throws -> String {
            var spec = ServiceSpec.script("unit", script, readiness: readiness)
            spec.restart = .never
            let harness = try EngineHarness([spec])
            try await harness.start()
            try await harness.waitFor("unit", .failed)
            let status = try await harness.status("unit")
            await harness.shutdown()
            return status.lastExit
        }

        @Test func exitBeforeReadiness_showsTheLastStderrLineAsTheReason() async throws {
            let script =
                "echo 'starting' >&2; echo 'svc-held: cannot start: the store is locked' >&2; echo done; exit 70"
            let lastExit = try await lastExit(of: script, readiness: .notify)
            #expect(lastExit == "exited with status 70: svc-held: cannot start: the store is locked", "\(lastExit)")
        }

        @Test func readinessNone_exitingAtOnce_showsTheLastStderrLineAsTheReason() async throws {
            // Ready as soon as it runs, so "before readiness" cannot tell: the line is recent.
            let script = "echo 'svc-plain: cannot start: no such setting' >&2; exit 1"
            let lastExit = try await lastExit(of: script, readiness: .none)
            #expect(lastExit == "exited with status 1: svc-plain: cannot start: no such setting", "\(lastExit)")
        }

        @Test func aCrashReport_givesItsHeadline_notTheBacktracesLastLine() async throws {
            // What Swift's backtracer prints on a crash: the headline, then the backtrace.
            let script =
                "echo '*** Signal 4: Backtracing from 0x1... done ***' >&2; "
                + "echo '*** Program crashed: Illegal instruction at 0x000055b2fcb39750 ***' >&2; "
                + "echo 'Thread 0 crashed:' >&2; echo 'Backtrace took 0.00s' >&2; kill -ILL $$"
            let lastExit = try await lastExit(of: script, readiness: .none)
            #expect(
                lastExit == "killed by signal 4 (SIGILL): crashed: Illegal instruction at 0x000055b2fcb39750",
                "\(lastExit)")
        }

        @Test func aKillFromOutside_isNotExplainedByTheLastStderrLine() async throws {
            let lastExit = try await lastExit(of: "echo 'warning: cache cold' >&2; kill -KILL $$", readiness: .none)
            #expect(lastExit == "killed by signal 9 (SIGKILL)", "\(lastExit)")
        }

        @Test func exitStatus78_isFailedAtOnce_withoutSpendingTheRestartBudget() async throws {
            let script = "echo 'svc-held: cannot start: the store is locked' >&2; exit 78"
            let harness = try EngineHarness([
                ServiceSpec.script("held", script, readiness: .notify).restarting(after: .every(.milliseconds(5)))
            ])
            try await harness.start()
            try await harness.waitFor("held", .failed)
            let status = try await harness.status("held")
            #expect(status.restarts == 0)
            #expect(harness.events(of: "held").filter { $0.state == .starting }.count == 1)
            #expect(status.statusText.contains("restart cannot help"), "\(status.statusText)")
            #expect(
                status.lastExit == "exited with status 78: svc-held: cannot start: the store is locked",
                "\(status.lastExit)")

            // Once the cause is fixed, a start asked for runs it again.
            _ = try await harness.engine.startService("held")
            try await harness.waitFor("held", .failed, count: 2)
            #expect(harness.events(of: "held").filter { $0.state == .starting }.count == 2)
            await harness.shutdown()
        }

        @Test func crashLoop_isFailedAfterTheBudget_andStaysDown() async throws {
            let harness = try EngineHarness([
                ServiceSpec.script("looping", "exit 1").restarting(
                    after: .every(.milliseconds(5)), within: RestartBudget(maxRestarts: 3, window: .seconds(60)))
            ])
            try await harness.start()
            try await harness.waitFor("looping", .failed)
            // "Stays down" is a check that nothing happens: with a 5 ms backoff, a restart the
            // budget failed to stop would come within this wait on an idle machine. A stalled
            // one could hide it, never fail it; that a crash does restart after its backoff is
            // proven by crash_restartsWithGrowingBackoff, and the budget's count below is exact.
            try await Task.sleep(for: .milliseconds(100))
            let status = try await harness.status("looping")
            #expect(status.state == .failed)
            #expect(status.restarts == 3)
            #expect(harness.events(of: "looping").filter { $0.state == .starting }.count == 4)
            #expect(status.statusText.contains("stays down"), "\(status.statusText)")

            // A start asked for gives it a fresh budget.
            _ = try await harness.engine.startService("looping")
            try await harness.waitFor("looping", .failed, count: 2)
            await harness.shutdown()
        }

        @Test func missedWatchdog_killsAndRestarts() async throws {
            var spec = ServiceSpec.script("sleepy", "exec sleep 30")
            spec.watchdog = .milliseconds(200)
            spec.backoff = .every(.milliseconds(10))
            let harness = try EngineHarness([spec])
            try await harness.start()
            let ready = try await harness.waitFor("sleepy", .ready)
            let backoff = try await harness.waitFor("sleepy", .backoff)
            #expect(backoff.at - ready.at >= .milliseconds(190))
            try await harness.waitFor("sleepy", .ready, count: 2)
            let status = try await harness.status("sleepy")
            #expect(status.lastExit.contains("watchdog"), "\(status.lastExit)")
            await harness.shutdown()
        }

        @Test(.enabled(if: geteuid() == 0, "systemd-notify speaks for the script's main pid only as root"))
        func shellScript_readyThroughTheRealSystemdNotify_isSeenReady() async throws {
            // --pid=$$ makes the datagram's credentials the script's (root may name another pid
            // in SCM_CREDENTIALS); without it systemd-notify's own pid sends, which is not the
            // service's main process and is ignored, as systemd's NotifyAccess=main ignores it.
            let spec = ServiceSpec.script(
                "notifier", "systemd-notify --ready --status='warmed up' --pid=$$; exec sleep 30",
                readiness: .notify)
            let harness = try EngineHarness([spec])
            try await harness.start()
            try await harness.waitFor("notifier", .ready)
            let status = try await harness.status("notifier")
            #expect(status.ready)
            #expect(status.statusText == "warmed up")
            await harness.shutdown()
        }

        @Test func stopAll_stopsInReverseOrder_andLeavesNoProcess() async throws {
            let harness = try EngineHarness([
                .testd("first"), .testd("second", dependsOn: ["first"]),
                .testd("third", dependsOn: ["second"]),
                .script("grandparent", "sleep 30 & sleep 30 & wait"),
            ])
            try await harness.start()
            for name in ["first", "second", "third", "grandparent"] {
                try await harness.waitFor(name, .ready)
            }
            // grandparent is ready once it runs, before its shell has forked both sleeps.
            #expect(eventually { EngineHarness.processes(taggedWith: harness.tag).count >= 6 })

            await harness.engine.stopAll()
            let stops = harness.events.filter { $0.state == .stopping }.map(\.service)
            #expect(stops == ["grandparent", "third", "second", "first"])
            // Each stopped before the next began to stop.
            let stopped = try await harness.waitFor("third", .stopped)
            let secondStopping = try await harness.waitFor("second", .stopping)
            #expect(stopped.at <= secondStopping.at)
            // The group's SIGKILL follows the main process's reap: a sleep may still be on its way
            // out when stopAll returns (killed, not yet scheduled to die) on a loaded machine.
            #expect(eventually { EngineHarness.processes(taggedWith: harness.tag).isEmpty }, "left running")
            for name in ["first", "second", "third", "grandparent"] {
                #expect(try await harness.status(name).state == .stopped)
            }
            await harness.shutdown()
        }
    }
}
