import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// The suite on two real systemd hosts (``SystemdHosts``): units from one manifest with
/// `export systemd --host`, TCP sockets held by systemd, mutual TLS with files from
/// `LoadCredential=`, and each unit's network open only to its peers; `svc-supervisor logs` and
/// `trace` on each host with no supervisor running.
///
/// As root `make test` runs it, and `make systemd-rehearsal` alone (it boots `systemd-nspawn`
/// containers: about 20 s once the root is cached, a few minutes for the first debootstrap);
/// elsewhere it is skipped, saying why.
@Suite(
    .blocking,
    .serialized, .timeLimit(.minutes(25)),
    .enabled(if: SystemdHosts.unavailableReason == nil, "two systemd hosts: \(SystemdHosts.unavailableReason ?? "")"))
struct SystemdHostsRehearsalTests {
    @Test
    func
        twoSystemdHosts_bookFromB_refuseStrangers_loseNothingToKill9_logAndTraceWithoutASupervisor_andLogNoPriorityNoise()
        async throws
    {
        let started = ContinuousClock.now
        let hosts = try await SystemdHosts.boot()
        defer { hosts.down() }
        // systemd 252 is each host's PID 1.
        for host in ["a", "b"] {
            let version = try hosts.inside(host, ["systemctl", "--version"]).standardOutput
            #expect(version.hasPrefix("systemd 252"), "host \(host): \(version.prefix(40))")
            #expect(try hosts.inside(host, ["cat", "/proc/1/comm"]).standardOutput == "systemd\n")
        }

        let loop = try await hosts.loop(on: "b", "rehearsal-b")
        defer { loop.shutdown() }
        let client = hosts.client(presenting: "operator", loop: loop)
        defer { client.close() }

        // The booking journey, from host b: appointments there calls identity and clinics on a.
        try await BookingLedger.journey(client)

        // Another vertical's certificate: records declares identity and clinics, not appointments.
        let records = hosts.client(presenting: "records", loop: loop)
        defer { records.close() }
        do {
            _ = try await records.callRaw(service: "appointments", operation: Appointments.list.fullName, body: [])
            Issue.record("records called appointments without declaring it")
        } catch {
            #expect(error.code == .permissionDenied, "records → appointments: \(error)")
        }
        // No TLS at all: the handshake fails, nothing is served.
        let plain = hosts.client(presenting: nil, loop: loop)
        defer { plain.close() }
        do {
            _ = try await plain.call(
                Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 1, service: .gp))
            Issue.record("a caller with no certificate was served")
        } catch {
            #expect(error.code == .unavailable, "\(error)")
        }

        // kill -9 of clinics on host a while host b books: systemd holds its socket and restarts it.
        let clinic = try #require(
            try await client.call(Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 5, service: .gp))
                .clinics.first?.clinic.id)
        let slots = await BookingLedger.openSlots(client, clinic: clinic, fromDay: 3, count: 30)
        #expect(slots.count == 30, "clinic \(clinic) had only \(slots.count) open slots")
        let patient = try await SupervisedSuite.newPatient("kill", through: client)
        let booker = Booker(client: client, token: patient, clinic: clinic, slots: slots, round: 1)
        let booking = Task { await booker.run() }
        let moving = ContinuousClock.now + .seconds(60)
        while booker.attempts.current < 3, ContinuousClock.now < moving { try await Task.sleep(for: .milliseconds(10)) }
        let victim = try hosts.mainPID("clinics", on: "a")
        #expect(victim > 0)
        // The daemon's main process, as kill -9 of it: systemctl kill's default also signals the
        // unit's other processes, and systemd 252 in a container sometimes answers that with EIO.
        let kill = try hosts.inside("a", ["/bin/sh", "-c", "kill -KILL \(victim)"])
        #expect(kill.status == 0, "\(kill.standardError)")
        var restarted = 0
        let back = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < back {
            restarted = try hosts.mainPID("clinics", on: "a")
            if restarted != 0 && restarted != victim { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(restarted != 0 && restarted != victim, "clinics never came back after kill -9 (pid \(victim))")
        let after = booker.attempts.current
        let more = ContinuousClock.now + .seconds(30)
        while booker.attempts.current < after + 3, ContinuousClock.now < more {
            try await Task.sleep(for: .milliseconds(10))
        }
        booker.stop.set()
        let outcome = await booking.value
        #expect(outcome.failures.isEmpty, "bookings failed for good: \(outcome.failures.prefix(3))")
        #expect(outcome.acknowledged.count >= 5, "only \(outcome.acknowledged.count) bookings")
        let discrepancies = try await BookingLedger.verify(client, patient: patient, outcome: outcome, slots: slots)
        #expect(discrepancies == 0)

        // No svc-supervisor runs on either host: `logs` reads the journal, `trace` asks the verticals
        // of the host's socket units over TCP as the operator.
        for (host, names) in [("a", ["identity", "clinics"]), ("b", ["notifications", "records", "appointments"])] {
            for name in names {
                let logs = try hosts.inside(host, ["/usr/local/bin/svc-supervisor", "logs", name, "-n", "200"])
                #expect(logs.status == 0, "logs \(name) on \(host): \(logs.standardError)")
                #expect(
                    logs.standardOutput.contains("serving \(name) on"),
                    "logs \(name) on \(host): \(logs.standardOutput)")
            }
            let operatorFiles = "/etc/verticals/certs/operator"
            let asOperator = [
                "env", "VERTICALS_TLS_CERT=\(operatorFiles)/tls.crt", "VERTICALS_TLS_KEY=\(operatorFiles)/tls.key",
                "VERTICALS_TLS_CA=\(operatorFiles)/ca.crt", "/usr/local/bin/svc-supervisor", "trace",
            ]
            let slowest = try hosts.inside(host, asOperator + ["--slowest", "5"])
            #expect(slowest.status == 0, "trace --slowest on \(host): \(slowest.standardError)")
            let id = slowest.standardOutput.split(separator: "\n").dropFirst().first?.split(separator: " ").last.map(
                String.init)
            let trace = try hosts.inside(host, asOperator + [id ?? "none"])
            #expect(
                trace.status == 0 && trace.standardOutput.hasPrefix("trace \(id ?? "none")"),
                "trace on \(host): \(trace)")
            #expect(names.contains { trace.standardOutput.contains($0) }, "\(trace.standardOutput)")
        }

        // Neither journal holds libdispatch's renice failures, nor a complaint of identity's
        // compute processes (the logins of the journey hashed in them, inside the unit's sandbox).
        for host in ["a", "b"] {
            let journal = try hosts.inside(host, ["journalctl", "--no-pager", "-o", "cat"]).standardOutput
            let noise = journal.split(separator: "\n").filter {
                $0.contains("Failed to set thread priority") || $0.contains(ComputeProcesses.flag)
            }
            #expect(noise.isEmpty, "host \(host): \(noise.count) lines, e.g. \(noise.first ?? "")")
        }
        print(
            "systemd rehearsal: \(outcome.acknowledged.count) bookings across kill -9, boot \(hosts.bootTime), all \(ContinuousClock.now - started)"
        )
    }

    /// The one-host units of `deploy/suite.toml` (Unix sockets, no network) under the same systemd:
    /// each vertical serves a call through its store, and the journal holds no renice failure.
    /// Then why the units allow `setpriority`: with the call denied, clinics' first request logs
    /// the failure (GRDB's async read runs on a libdispatch worker thread, which renices itself).
    @Test func oneHostUnits_serveOverUnixSockets_andLogNoPriorityNoise_unlessSetpriorityIsDenied() async throws {
        let host = try await SystemdHosts.boot(oneHost: true)
        defer { host.down() }
        let nearest = [
            "env", "VERTICALS_SOCKET_DIR=/run/verticals", "/usr/local/bin/svc-supervisor", "call", "clinics", "nearest",
            #"{"latitude": 51.5074, "longitude": -0.1278, "limit": 1}"#,
        ]
        let call = try host.inside("a", nearest)
        #expect(call.status == 0 && call.standardOutput.contains("distanceMetres"), "\(call)")
        let units = try host.inside("a", ["systemctl", "is-active", "verticals.target"])
        #expect(units.standardOutput == "active\n", "\(units)")
        let journal = try host.inside("a", ["journalctl", "--no-pager", "-o", "cat"]).standardOutput
        #expect(journal.contains("serving appointments on"), "the journal holds no vertical's start")
        let noise = journal.split(separator: "\n").filter { $0.contains("Failed to set thread priority") }
        #expect(noise.isEmpty, "\(noise.count) lines, e.g. \(noise.first ?? "")")

        // The same filter without its setpriority line, in a drop-in of clinics' unit.
        let dropIn = "/etc/systemd/system/verticals-clinics.service.d"
        let filter =
            "[Service]\nSystemCallFilter=\nSystemCallFilter=@system-service\nSystemCallFilter=~@privileged @resources\n"
        for command in [
            ["mkdir", "-p", dropIn], ["sh", "-c", "printf '\(filter)' >\(dropIn)/deny-setpriority.conf"],
            ["systemctl", "daemon-reload"], ["systemctl", "restart", "verticals-clinics.service"],
        ] {
            let result = try host.inside("a", command)
            #expect(result.status == 0, "\(command): \(result)")
        }
        let denied = try host.inside("a", nearest)
        #expect(denied.status == 0, "\(denied)")
        var refused = false
        let logged = ContinuousClock.now + .seconds(20)
        while !refused, ContinuousClock.now < logged {
            let log = try host.inside(
                "a", ["journalctl", "--no-pager", "-o", "cat", "-u", "verticals-clinics.service"])
            refused = log.standardOutput.split(separator: "\n").contains {
                $0.contains("Failed to set thread priority") && $0.hasSuffix("errno=1")
            }
            if !refused { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(refused, "clinics logged no refused setpriority: the units may not need to allow it any more")
    }
}
