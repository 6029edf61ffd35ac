import Foundation
import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsTesting
import VerticalsWire

extension NamespaceTests {
    /// A lost host, rehearsed: host A runs the reference suite, every store replicated over SFTP to
    /// host B (Debian's OpenSSH, started by the test), under a booking load that keeps a ledger of
    /// every acknowledged booking; host A is killed whole (every process in its namespace, kill -9)
    /// at a random moment; on host B the same manifest in an empty run directory brings every store
    /// back from its replica at first start (docs/operations.md, "When a host is lost"), and the
    /// ledger is compared with what B serves. Root only.
    ///
    /// `make test` books for a few seconds; `make failover-rehearsal` for `VT_LOST_HOST_SECONDS`.
    /// The figures (bookings acknowledged and lost, how long before the kill the oldest lost one
    /// was acknowledged, the time from the kill to B serving) are printed as one line.
    @Suite(
        .blocking,
        .enabled(if: LostHostTools.unavailableReason == nil, "\(LostHostTools.unavailableReason ?? "")"))
    struct LostHostRehearsal {
        /// How often each Litestream ships what was committed: at most this much acknowledged work
        /// may be lost with the host.
        static let syncInterval = Duration.seconds(1)
        /// What the check allows beyond ``syncInterval``: one shipment's own time to reach B.
        static let shipping = Duration.seconds(2)
        static let sftpPort: UInt16 = 2222

        @Test func hostKilledWhole_midLoad_itsSuiteServesFromTheReplicasOnAnother_losingAtMostTheLastSync()
            async throws
        {
            let seconds = getenv("VT_LOST_HOST_SECONDS").flatMap { Int(String(cString: $0)) } ?? 6
            let lab = try NetworkLab(hosts: ["a", "b"])
            defer { lab.tearDown() }
            let files = TemporaryDirectory()
            let manifest = try Self.replicatedManifest(in: files, host: lab.address(of: "b"))
            let sftp = try Self.startSFTP(on: "b", of: lab, in: files)
            defer { sftp.stop() }

            // Host A: the suite, every vertical replicating to B.
            let litestream = try #require(LostHostTools.litestream)
            let a = try SupervisedSuite(
                manifest: manifest, host: (lab, "a"), environment: ["VERTICALS_LITESTREAM": litestream])
            try await a.up()
            #expect(await a.waitUntilAllReady(timeout: .seconds(120)), "host A's suite never came up")
            #expect(await Self.replicating(a), "host A's stores are not all replicating")
            let patient = Patient()
            try await patient.register(through: a.client)
            let nearest = try await a.clinicsNearLondon(limit: 1)
            let clinic = try #require(nearest.first, "no clinic near London")

            // Bookings until A dies, at a random moment in the second half of the run.
            let ledger = Ledger()
            let clientA = a.client
            let booking = Task { await ledger.book(through: clientA, patient: patient, clinic: clinic) }
            let half = Duration.seconds(seconds) / 2
            try await Task.sleep(for: half + .milliseconds(Int.random(in: 0...Int(half.components.seconds * 1_000))))
            let killedAt = ContinuousClock.now
            try Self.killWhole("a", of: lab, in: files)
            let ended = await booking.value
            let acknowledged = ended.acknowledged
            #expect(ended.failure != nil, "the booker ran out of slots before the kill: book for less long")
            // Replication must cost no user an error: the first booking that failed is the kill's.
            if let failure = ended.failure {
                #expect(failure.at >= killedAt, "a booking failed before the kill: \(failure.error)")
            }
            #expect(acknowledged.count >= 3, "host A acknowledged only \(acknowledged.count) bookings before it died")

            // Host B: the same manifest, an empty run directory.
            let b = try SupervisedSuite(
                manifest: manifest, host: (lab, "b"), environment: ["VERTICALS_LITESTREAM": litestream])
            try await b.up()
            #expect(await b.waitUntilAllReady(timeout: .seconds(120)), "host B's suite never came up")
            let token = try await patient.logIn(through: b.client)
            let servingAfter = ContinuousClock.now - killedAt

            let stored = try await Set(
                BookingLedger.stored(
                    b.client, patient: token, from: Ledger.firstSlot.adding(.seconds(-3_600)),
                    to: Ledger.firstSlot.adding(.seconds(Int64(Ledger.days + 1) * 86_400))
                ).map(\.id))
            let lost = acknowledged.filter { !stored.contains($0.id) }
            let oldestLost = lost.map { killedAt - $0.at }.max()
            print(
                "lost host: \(acknowledged.count) bookings acknowledged on A, \(lost.count) lost, the oldest lost "
                    + "acknowledged \(oldestLost.map { "\($0)" } ?? "-") before the kill; B served \(servingAfter) "
                    + "after the kill")
            #expect(
                oldestLost.map { $0 <= Self.syncInterval + Self.shipping } ?? true,
                "a booking acknowledged \(oldestLost!) before the kill was lost: more than the last sync interval")
            b.down()
        }

        /// Whether every vertical's Litestream runs within a minute (`status --json`).
        static func replicating(_ suite: SupervisedSuite) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                if let result = try? runCommand(
                    "svc-supervisor", ["status", "--json", "--run-dir", suite.run], in: suite.directory),
                    let object = try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)),
                    let rows = (object as? [String: Any])?["services"] as? [[String: Any]],
                    rows.count == suite.services.count,
                    rows.allSatisfy({ ($0["replica"] as? [String: Any])?["state"] as? String == "running" })
                {
                    return true
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
            return false
        }

        /// The reference manifest, every vertical replicating over SFTP to `host` with a key of its
        /// own (owned by the vertical's user, as `check` asks) into the folder `replicas`.
        static func replicatedManifest(in files: TemporaryDirectory, host: String) throws -> String {
            chmod(files.path, 0o755) // the verticals' users reach their keys through it
            let keys = files.file("keys")
            mkdir(keys, 0o755)
            mkdir(files.file("replicas"), 0o700)
            for service in SupervisedSuite.services {
                let key = "\(keys)/\(service)"
                try run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key], in: files)
                let user = "verticals-\(service)"
                if getpwnam(user) == nil {
                    try run(
                        "/usr/sbin/useradd",
                        ["--system", "--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin", user],
                        in: files)
                }
                try run("/bin/chown", [user, key], in: files)
                let authorized = readFile("\(key).pub") ?? ""
                let file = fopen(files.file("authorized_keys"), "a")
                fputs(authorized, file)
                fclose(file)
            }
            try run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", files.file("host_key")], in: files)
            let hostKey = (readFile(files.file("host_key.pub")) ?? "").split(separator: " ").prefix(2)
                .joined(separator: " ")
            let replica =
                "replica = { type = \"sftp\", host = \"\(host)\", port = \(sftpPort), user = \"root\", "
                + "key_file = \"\(keys)/{name}\", host_key = \"\(hostKey)\", path = \"\(files.file("replicas"))\", "
                + "sync_interval = \"\(syncInterval.components.seconds)s\" }"
            return SupervisedSuite.referenceManifest.replacingOccurrences(
                of: "[defaults]\n", with: "[defaults]\n\(replica)\n")
        }

        /// Debian's sshd on `host`, SFTP only, for the keys of ``replicatedManifest(in:host:)``;
        /// returns once it accepts connections.
        static func startSFTP(on host: String, of lab: NetworkLab, in files: TemporaryDirectory) throws
            -> DaemonProcess
        {
            mkdir("/run/sshd", 0o755) // its privilege separation folder, which its service would make
            let config = """
                ListenAddress \(lab.address(of: host)):\(sftpPort)
                HostKey \(files.file("host_key"))
                AuthorizedKeysFile \(files.file("authorized_keys"))
                PermitRootLogin prohibit-password
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                UsePAM no
                StrictModes no
                ForceCommand internal-sftp
                Subsystem sftp internal-sftp
                PidFile none

                """
            #expect(writeFile(config, to: files.file("sshd_config"), mode: 0o600))
            let sshd = try lab.spawn(
                on: host, LostHostTools.sshd, ["-D", "-e", "-f", files.file("sshd_config")],
                stderrPath: files.file("sshd.log"))
            let deadline = ContinuousClock.now + .seconds(30)
            while try lab.connect(from: host, to: lab.address(of: host), port: sftpPort, timeout: .seconds(1))
                != .connected
            {
                guard ContinuousClock.now < deadline else {
                    throw RawSocketError("sshd never listened: \(readFile(files.file("sshd.log")) ?? "")")
                }
                usleep(50_000)
            }
            return sshd
        }

        /// kill -9 to every process in `host`'s namespace, until none is left: the host is gone.
        static func killWhole(_ host: String, of lab: NetworkLab, in files: TemporaryDirectory) throws {
            let deadline = ContinuousClock.now + .seconds(30)
            while true {
                let listed = try runCommand(
                    NetworkLab.ipPath ?? "ip", ["netns", "pids", lab.namespace(of: host)], in: files)
                let pids = listed.standardOutput.split(separator: "\n").compactMap { pid_t($0) }
                if pids.isEmpty { return }
                for pid in pids { kill(pid, SIGKILL) }
                guard ContinuousClock.now < deadline else { throw RawSocketError("\(host) outlived kill -9: \(pids)") }
                usleep(20_000)
            }
        }

        static func run(_ program: String, _ arguments: [String], in files: TemporaryDirectory) throws {
            let result = try runCommand(program, arguments, in: files)
            guard result.status == 0 else {
                throw RawSocketError("\(program) \(arguments.joined(separator: " ")): \(result.standardError)")
            }
        }

        /// The patient who books: registered on A, logged in again on B (a session is a row of
        /// identity's store, but B's identity signs with the keys of its own run directory).
        final class Patient: Sendable {
            let email = "lost-host-\(UInt32.random(in: 0...UInt32.max))@example.org"
            let password = "correct-horse-battery"

            func register(through client: ServiceClient) async throws {
                try await SupervisedSuite.register(email, password: password, name: "lost host", through: client)
            }

            func logIn(through client: ServiceClient) async throws -> String {
                try await SupervisedSuite.logIn(email, password: password, through: client)
            }
        }

        /// Books one slot after another until a booking fails (the host died).
        struct Ledger: Sendable {
            /// The days booked, from ``firstSlot`` on.
            static let days = 3_000
            /// The wait after each booking: a long rehearsal books for minutes, and runs out of
            /// slots later.
            static let pause = Duration.milliseconds(10)
            /// Two days from now at 09:00 UTC: the first slot tried.
            static let firstSlot = Timestamp(
                secondsSinceEpoch: (Timestamp.now.microsecondsSinceEpoch / 86_400_000_000 + 2) * 86_400 + 9 * 3_600)

            func book(through client: ServiceClient, patient: Patient, clinic: String) async
                -> Ended
            {
                var acknowledged: [(id: String, at: ContinuousClock.Instant)] = []
                let token: String
                do {
                    token = try await patient.logIn(through: client)
                } catch {
                    return Ended(acknowledged: [], failure: ("\(error)", ContinuousClock.now))
                }
                // Every half hour from 09:00 to 17:30 of each day: a slot the clinic closes is a
                // conflict, skipped; a host gone is any other error, the end.
                for index in 0..<(Self.days * 18) {
                    let start = Self.firstSlot.adding(.seconds(Int64(index / 18) * 86_400 + Int64(index % 18) * 1_800))
                    do {
                        let booking = try await client.call(
                            Appointments.book,
                            .init(
                                token: token, clinicID: clinic, service: .gp, startsAt: start, durationMinutes: 20,
                                reason: "lost host", requestID: "lost-host-\(index)"),
                            timeout: .seconds(10))
                        acknowledged.append((booking.id, ContinuousClock.now))
                    } catch  where error.code == .conflict || error.code == .invalidInput {
                        continue
                    } catch {
                        return Ended(acknowledged: acknowledged, failure: ("\(error)", ContinuousClock.now))
                    }
                    try? await Task.sleep(for: Self.pause)
                }
                return Ended(acknowledged: acknowledged, failure: nil)
            }

            /// How booking ended: every booking acknowledged, with the instant its answer came,
            /// and the error that ended it, when it was; nil when it ran out of slots.
            struct Ended: Sendable {
                var acknowledged: [(id: String, at: ContinuousClock.Instant)]
                var failure: (error: String, at: ContinuousClock.Instant)?
            }
        }
    }
}

/// What the lost-host rehearsal needs beyond network namespaces: an SFTP server and Litestream.
enum LostHostTools {
    /// Why the rehearsal cannot run here, or nil.
    static var unavailableReason: String? {
        if access(sshd, X_OK) != 0 { return "no \(sshd) (scripts/install-deps.sh --test installs openssh-server)" }
        if litestream == nil { return "no litestream on PATH (scripts/install-deps.sh --test installs it)" }
        return nil
    }
    static let sshd = "/usr/sbin/sshd"
    static let litestream = ToolLookup.which("litestream")
}
