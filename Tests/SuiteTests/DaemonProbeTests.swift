import Glibc
import Testing
import VerticalsTesting

/// `svc-NAME --probe`, the exec probe of `export kubernetes`: `daemon.health` on the running
/// daemon where a caller would find it; 0 when it answers, 1 when nothing answers or the
/// answer misses the deadline, 64 for a deadline that is not one. It opens no store.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2)))
struct DaemonProbeTests {
    @Test func probe_isHealthyWhileTheDaemonServes_andUnhealthyWhenStoppedOrGone() throws {
        let directory = TemporaryDirectory()
        let clinics = try LoneVertical("clinics", in: directory)
        let daemon = clinics.daemon
        defer { daemon.stop() }
        var environment = clinics.environment

        let healthy = try runCommand("svc-clinics", ["--probe"], environment: environment, in: directory)
        #expect(healthy.status == 0, "\(healthy.standardError)")
        #expect(healthy.standardOutput == "svc-clinics --probe: healthy\n")

        // A daemon that accepts (the kernel does, into the backlog) but never answers: a stuck
        // loop, as a liveness probe must find it. The deadline bounds the probe.
        daemon.signal(SIGSTOP)
        environment["VERTICALS_PROBE_TIMEOUT_SECONDS"] = "0.3"
        let started = ContinuousClock.now
        let stuck = try runCommand("svc-clinics", ["--probe"], environment: environment, in: directory)
        let took = ContinuousClock.now - started
        daemon.signal(SIGCONT)
        #expect(stuck.status == 1, "\(stuck.standardOutput)\(stuck.standardError)")
        #expect(
            stuck.standardError.hasPrefix("svc-clinics --probe: unhealthy: daemon.health: "), "\(stuck.standardError)")
        #expect(stuck.standardError.contains("deadline"), "\(stuck.standardError)")
        #expect(took < .seconds(10), "the probe took \(took)")

        let again = try runCommand("svc-clinics", ["--probe"], environment: environment, in: directory)
        #expect(again.status == 0, "healthy again once it runs: \(again.standardError)")

        daemon.stop()
        let gone = try runCommand("svc-clinics", ["--probe"], environment: environment, in: directory)
        #expect(gone.status == 1 && gone.standardError.contains("unhealthy"), "\(gone.standardError)")
        #expect(
            access(directory.file("state-clinics/clinics.sqlite"), F_OK) == 0, "the daemon's store, not the probe's")
    }

    @Test func probe_withNothingServing_isUnhealthy_andCreatesNothing() throws {
        let directory = TemporaryDirectory()
        let environment = [
            "VERTICALS_SOCKET_DIR": directory.file("sockets"), "STATE_DIRECTORY": directory.file("state"),
        ]
        let probe = try runCommand("svc-records", ["--probe"], environment: environment, in: directory)
        #expect(probe.status == 1, "\(probe.standardError)")
        #expect(probe.standardError.contains("unhealthy"))
        #expect(access(directory.file("state"), F_OK) != 0, "the probe opened no store")
    }

    @Test func probe_withADeadlineThatIsNotOne_isAUsageError() throws {
        let directory = TemporaryDirectory()
        for value in ["soon", "0", "-1", "99999"] {
            let environment = [
                "VERTICALS_SOCKET_DIR": directory.file("sockets"), "VERTICALS_PROBE_TIMEOUT_SECONDS": value,
            ]
            let probe = try runCommand("svc-records", ["--probe"], environment: environment, in: directory)
            #expect(probe.status == 64, "\(value): \(probe.status) \(probe.standardError)")
            #expect(probe.standardError.contains("VERTICALS_PROBE_TIMEOUT_SECONDS=\(value)"))
            let check = try runCommand("svc-records", ["--check"], environment: environment, in: directory)
            #expect(
                check.status == 78 && check.standardError.contains("VERTICALS_PROBE_TIMEOUT_SECONDS"),
                "--check says so too")
        }
    }
}
