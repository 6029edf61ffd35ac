import Glibc
import IOInterface
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// The reference suite under `svc-supervisor up` as root with a user per vertical and the
/// reference suite's routes, operation by operation: `ps` shows each under its own user, the
/// booking journey passes across those users (the internal `notifications.send` included) with
/// no operation beyond those the code declares, and a call the manifest does not declare, made as
/// one vertical's user, is refused naming the missing `depends_on`.
///
/// Users and the operator group carry a test-unique prefix (manifest `user`,
/// `VERTICALS_OPERATOR_GROUP`) and are deleted afterwards; the programs are linked or copied
/// into a 0755 folder, which every service user can reach.
@Suite(
    .blocking,
    .serialized, .timeLimit(.minutes(3)),
    .enabled(if: geteuid() == 0, "needs root: creates users and runs each vertical as its own"))
struct UserPerVerticalSuiteTests {
    static let services = ["identity", "clinics", "notifications", "appointments"]

    @Test func bookingJourney_passes_eachVerticalUnderItsUser_andAnUndeclaredCallIsRefused() async throws {
        try await UserPerVerticalSuite.run(
            tag: "vtt", services: Self.services,
            manifest: { prefix in
                """
                [defaults]
                stop_timeout = "5s"
                [services.identity]
                executable = "svc-identity"
                user = "\(prefix)identity"
                env = { IDENTITY_PWHASH_OPSLIMIT = "1", IDENTITY_PWHASH_MEMLIMIT = "8192", VERTICALS_LOG_LEVEL = "notice" }
                [services.clinics]
                executable = "svc-clinics"
                user = "\(prefix)clinics"
                depends_on = ["identity.authenticate"]
                [services.notifications]
                executable = "svc-notifications"
                user = "\(prefix)notifications"
                depends_on = ["identity.authenticate", "identity.getUser"]
                env = { VERTICALS_INTERNAL_OPERATIONS = "send", VERTICALS_LOG_LEVEL = "notice" }
                [services.appointments]
                executable = "svc-appointments"
                user = "\(prefix)appointments"
                depends_on = ["identity.authenticate", "clinics.checkSlot", "notifications.send"]
                """
            }
        ) { suite in
            let (prefix, directory, run) = (suite.prefix, suite.directory, suite.run)

            // ps: each vertical under its own user.
            for (name, row) in suite.status() {
                let pid = try #require(row.pid)
                let ps = try runCommand("/bin/ps", ["-o", "user:32=", "-p", String(pid)], in: directory)
                #expect(
                    ps.standardOutput.split(whereSeparator: { $0 == " " || $0 == "\n" }) == [Substring(prefix + name)])
            }

            // The booking journey, as root (an operator).
            let loop = try EventLoop(name: "users-suite-client")
            defer { loop.shutdown() }
            let client = ServiceClient(
                loop: loop, sockets: SocketDirectory("\(run)/sockets"), defaultTimeout: .seconds(10))
            defer { client.close() }
            let email = "users-\(UInt32.random(in: 0...UInt32.max))@example.org"
            _ = try await client.call(
                Identity.register, .init(email: email, password: "correct-horse-battery", displayName: "Ada"))
            let token = try await client.call(Identity.login, .init(email: email, password: "correct-horse-battery"))
                .token
            let nearby = try await client.call(
                Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 1, service: .gp))
            let clinic = try #require(nearby.clinics.first?.clinic)
            let today = Timestamp.now.microsecondsSinceEpoch / 86_400_000_000 * 86_400
            var slot: Timestamp?
            for day in 1..<15 where slot == nil {
                for hour in [10, 11, 14] where slot == nil {
                    let start = Timestamp(secondsSinceEpoch: today + Int64(day) * 86_400 + Int64(hour) * 3_600)
                    let check = try await client.call(
                        Clinics.checkSlot,
                        .init(clinicID: clinic.id, service: .gp, startsAt: start, endsAt: start.adding(.seconds(1_200)))
                    )
                    if check.isOpen && check.offersService { slot = start }
                }
            }
            let start = try #require(slot)
            let booked = try await client.call(
                Appointments.book,
                .init(
                    token: token, clinicID: clinic.id, service: .gp, startsAt: start, durationMinutes: 20,
                    reason: "cough", requestID: "users-1"))
            #expect(booked.status == .booked, "a booking across four users")
            var inbox = 0
            for _ in 0..<100 where inbox == 0 {
                inbox = (try? await client.call(Notifications.inbox, .init(token: token)).notifications.count) ?? 0
                if inbox == 0 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(inbox == 1, "appointments → notifications.send, an internal operation, across users")

            // An undeclared route, from inside clinics' user: clinics does not declare notifications.
            let undeclared = try suite.call(as: "clinics", "notifications", "inbox", "{\"token\": \"\(token)\"}")
            #expect(undeclared.status != 0)
            #expect(
                undeclared.standardError.contains("vertical clinics, which does not declare notifications"),
                "\(undeclared.standardError)")
            let logged = eventually(timeout: .seconds(10)) {
                (readFile("\(run)/logs/notifications.log") ?? "").contains("depends_on = [\"notifications\"]")
            }
            #expect(logged, "the callee's log names the missing depends_on")

            // Files in each state folder belong to their vertical.
            for name in Self.services {
                let uid = try #require(getpwnam(prefix + name)).pointee.pw_uid
                let folder = "\(run)/state/\(name)"
                for entry in [folder] + Self.entries(folder) {
                    var info = stat()
                    #expect(lstat(entry, &info) == 0 && info.st_uid == uid, "\(entry) belongs to \(prefix)\(name)")
                }
            }
        }
    }

    /// Every path under `folder`, recursively.
    static func entries(_ folder: String) -> [String] {
        guard let handle = opendir(folder) else { return [] }
        defer { closedir(handle) }
        var found: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            let path = "\(folder)/\(name)"
            found.append(path)
            found += entries(path)
        }
        return found
    }
}
