import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

extension NamespaceTests {
    /// The reference suite split across two hosts (network namespaces) over TCP with mutual TLS
    /// (``SplitSuite``): the booking journey crosses them, strangers and undeclared callers are
    /// refused, and kill -9 on one host loses and doubles no acknowledged booking. Root only.
    @Suite(.blocking) struct NamespaceSuiteTests {
        @Test func bookingJourney_crossesTwoHosts_overMutualTLS_byServiceName() async throws {
            let suite = try SplitSuite()
            try await suite.up()
            let client = suite.client
            // Host b's appointments finds host a's verticals by name, resolved through its /etc/netns hosts file.
            let appointments = Self.environment(of: suite.hostB.status()["appointments"]?.pid)
            #expect(appointments.contains("VERTICALS_ENDPOINT_IDENTITY=tcp:identity:7001"), "\(appointments)")
            // Routes come from the whole graph: a remote caller is admitted, a remote callee declared.
            #expect(appointments.contains("VERTICALS_DEPENDS_ON=identity,clinics,notifications"), "\(appointments)")
            let identity = Self.environment(of: suite.hostA.status()["identity"]?.pid)
            #expect(
                identity.contains("VERTICALS_ALLOWED_PEERS=clinics,notifications,appointments,records,operator"),
                "\(identity)")

            try await BookingLedger.journey(client)
            suite.down()
        }

        /// The environment of process `pid`, one `NAME=value` a line.
        static func environment(of pid: Int32?) -> [String] {
            pid.flatMap { readFile("/proc/\($0)/environ") }?.split(separator: "\0").map(String.init) ?? []
        }

        @Test func noCertificate_failsTheHandshake_andAnUndeclaredCaller_isDenied() async throws {
            let suite = try SplitSuite()
            try await suite.up()
            let loop = try await suite.operatorLoop("namespace-refusals")
            defer { loop.shutdown() }

            // No certificate: plain TCP from another host gets no answer, only a closed connection.
            let stranger = try suite.raw(to: "notifications")
            try stranger.send(Message.frame(Envelope(kind: .ping, correlationID: 1), rawBody: []))
            if case .message(let message) = stranger.receive() {
                Issue.record("a stranger got an answer: \(message.envelope)")
            }
            let plain = suite.caller(presenting: nil, loop: loop)
            defer { plain.close() }
            do {
                _ = try await plain.call(Notifications.inbox, .init(token: "x", limit: 1))
                Issue.record("a caller with no certificate was served")
            } catch {
                #expect(error.code == .unavailable, "\(error)")
            }

            // records' own certificate: it declares identity, not notifications or appointments.
            let records = suite.caller(presenting: suite.files(of: "records"), loop: loop)
            defer { records.close() }
            do {
                _ = try await records.call(Identity.authenticate, .init(token: "not-a-token"))
                Issue.record("a made-up token was authenticated")
            } catch {
                #expect(error.code == .unauthenticated, "a declared caller reaches identity: \(error)")
            }
            do {
                _ = try await records.call(Notifications.inbox, .init(token: "x", limit: 1))
                Issue.record("records called notifications without declaring it")
            } catch {
                #expect(error.code == .permissionDenied, "records → notifications: \(error)")
            }
            do {
                // Refused before a byte is read: the body does not matter.
                _ = try await records.callRaw(service: "appointments", operation: Appointments.list.fullName, body: [])
                Issue.record("records called appointments without declaring it")
            } catch {
                #expect(error.code == .permissionDenied, "records → appointments: \(error)")
            }
            // The operator is still served.
            #expect(try await suite.client.ping("notifications") > .zero)
            suite.down()
        }

        @Test func killMinus9OnOneHost_midLoad_losesAndDoublesNoAcknowledgedBooking() async throws {
            let suite = try SplitSuite()
            try await suite.up()
            let client = suite.client
            let clinic = try #require(
                try await client.call(
                    Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 5, service: .gp)
                )
                .clinics.first?.clinic.id)
            let slots = await BookingLedger.openSlots(client, clinic: clinic, fromDay: 3, count: 40)
            #expect(slots.count == 40, "clinic \(clinic) had only \(slots.count) open slots")
            let patient = try await suite.hostA.newPatient("load")
            let booker = Booker(client: client, token: patient, clinic: clinic, slots: slots, round: 1)
            let booking = Task { await booker.run() }
            let started = ContinuousClock.now + .seconds(60)
            while booker.attempts.current == 0, ContinuousClock.now < started {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(booker.attempts.current > 0, "the booker made no call in a minute")
            // appointments on host b, then notifications on host a, while the booker books across them.
            for (host, victim) in [(suite.hostB, "appointments"), (suite.hostA, "notifications")] {
                let before = booker.attempts.current
                let moved = ContinuousClock.now + .seconds(30)
                while booker.attempts.current < before + 3, ContinuousClock.now < moved {
                    try await Task.sleep(for: .milliseconds(10))
                }
                try await host.kill(victim)
                #expect(await host.waitUntilAllReady(timeout: .seconds(60)), "\(victim) never came back after kill -9")
            }
            booker.stop.set()
            let outcome = await booking.value
            #expect(outcome.failures.isEmpty, "bookings failed for good: \(outcome.failures.prefix(3))")
            #expect(outcome.acknowledged.count >= 8)
            let discrepancies = try await BookingLedger.verify(client, patient: patient, outcome: outcome, slots: slots)
            #expect(discrepancies == 0)
            suite.down()
        }
    }
}
