import Glibc
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// `svc-supervisor login` sends the password only to a vertical whose socket root, the CLI's
/// user or the vertical's own user holds (`SO_PEERCRED`, on the CLI's side): a socket planted in a
/// folder the CLI searches, by a real identity that carries the session mark, receives nothing.
@Suite(
    .blocking,
    .serialized, .timeLimit(.minutes(2)),
    .enabled(if: geteuid() == 0, "needs root to run the planted vertical as another user (nobody)"))
struct LoginCalleeCheckTests {
    /// The user the planted vertical runs as.
    static let nobody: UInt32 = 65534

    /// svc-identity on `<directory>/sockets/identity.sock`, run as `uid` (nil: as this process, root).
    static func identity(in directory: TemporaryDirectory, as uid: UInt32?) throws -> DaemonProcess {
        chmod(directory.path, 0o755)
        let sockets = directory.file("sockets")
        mkdir(sockets, 0o777)
        chmod(sockets, 0o777)
        let state = directory.file("state")
        mkdir(state, 0o700)
        if let uid { chown(state, uid, uid) }
        let environment = [
            "VERTICALS_SOCKET_DIR": sockets, "STATE_DIRECTORY": state,
            "IDENTITY_PWHASH_OPSLIMIT": "1", "IDENTITY_PWHASH_MEMLIMIT": "8192",
        ]
        let program = "\(DaemonProcess.productsDirectory)/svc-identity"
        let daemon: DaemonProcess
        if let uid {
            daemon = try DaemonProcess(
                "/usr/bin/setpriv", ["--reuid", "\(uid)", "--regid", "\(uid)", "--clear-groups", program],
                environment: environment)
        } else {
            daemon = try DaemonProcess(program, environment: environment)
        }
        #expect(eventually { access("\(sockets)/identity.sock", F_OK) == 0 }, "svc-identity never made its socket")
        return daemon
    }

    /// `svc-supervisor login ada@example.org` run in `directory` (no manifest, no supervisor there),
    /// looking in its socket folder, with the password on standard input.
    static func login(in directory: TemporaryDirectory) throws -> CommandResult {
        try runCommand(
            "/bin/sh",
            [
                "-c",
                "cd '\(directory.path)' && exec '\(DaemonProcess.productsDirectory)/svc-supervisor' login ada@example.org "
                    + "--socket-dir '\(directory.file("sockets"))'",
            ],
            environment: ["XDG_STATE_HOME": directory.file("home")]
                .merging(SecretRecipientsFixture.environment(in: directory, "sessions = identity")) { $1 },
            in: directory,
            standardInput: "correct horse battery staple\n")
    }

    /// How many requests of `operation` the identity at `directory` has served, by its metrics.
    static func served(_ operation: String, in directory: TemporaryDirectory) async throws -> Int {
        let loop = try EventLoop(name: "metrics-reader")
        let client = ServiceClient(loop: loop, sockets: SocketDirectory(directory.file("sockets")))
        defer {
            client.close()
            loop.shutdown()
        }
        let reply = try await client.callRaw(
            service: "identity", operation: Daemon.metrics.fullName, body: Empty().encodedBody())
        let metrics = try Daemon.Metrics(decoding: reply)
        let prefix = "verticals_requests_total{operation=\"\(operation)\"} "
        let line = metrics.exposition.split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    @Test func plantedIdentity_heldByAnotherUser_receivesNothing_andTheRefusalSaysWhoHoldsIt() async throws {
        let directory = TemporaryDirectory()
        let planted = try Self.identity(in: directory, as: Self.nobody)
        defer { planted.stop() }

        let result = try Self.login(in: directory)

        #expect(result.status != 0)
        #expect(result.standardError.contains("held by uid \(Self.nobody)"), "\(result.standardError)")
        #expect(try await Self.served("identity.login", in: directory) == 0, "the password reached the planted socket")
        #expect(
            try await Self.served("daemon.describe", in: directory) == 0, "the CLI spoke to the planted socket at all")
    }

    @Test func identityHeldByRoot_getsThePassword() async throws {
        let directory = TemporaryDirectory()
        let identity = try Self.identity(in: directory, as: nil)
        defer { identity.stop() }

        let result = try Self.login(in: directory)

        // No such account: the password was sent and checked.
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("wrong e-mail address or password"), "\(result.standardError)")
        #expect(try await Self.served("identity.login", in: directory) == 1)
    }
    /// `call` attaches the stored session token only after the same check: a user's CLI (here
    /// `daemon`, uid 1) run in a folder whose `./.run` another user (nobody) made, with no pointer,
    /// as on a systemd host, sends no token to the identity planted there, held by that user.
    @Test func callWithTheStoredToken_toAPlantedSocketInAnotherUsersRunFolder_isRefused() async throws {
        let victim: UInt32 = 1
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        let run = directory.file(".run")
        let sockets = "\(run)/sockets"
        let state = "\(run)/state"
        for folder in [run, sockets, state] {
            mkdir(folder, 0o755)
            chown(folder, Self.nobody, Self.nobody)
        }
        let planted = try DaemonProcess(
            "/usr/bin/setpriv",
            [
                "--reuid", "\(Self.nobody)", "--regid", "\(Self.nobody)", "--clear-groups",
                "\(DaemonProcess.productsDirectory)/svc-identity",
            ],
            environment: [
                "VERTICALS_SOCKET_DIR": sockets, "STATE_DIRECTORY": state, "VERTICALS_ALLOWED_UIDS": "\(victim)",
                "IDENTITY_PWHASH_OPSLIMIT": "1", "IDENTITY_PWHASH_MEMLIMIT": "8192",
            ])
        defer { planted.stop() }
        // The daemon binds, then makes its socket 0660: the planter's 0666 must come after that.
        #expect(
            eventually {
                var info = stat()
                return stat("\(sockets)/identity.sock", &info) == 0 && info.st_mode & 0o777 == 0o660
            }, "svc-identity never made its socket")
        chmod("\(sockets)/identity.sock", 0o666) // the planter lets the victim connect, and answers it
        let home = directory.file("home")
        let cache = directory.file("cache")
        for folder in [home, "\(home)/verticals", cache] {
            mkdir(folder, 0o700)
            chown(folder, victim, victim)
        }
        let session = "\(home)/verticals/session.json"
        SecretRecipientsFixture.write(#"{"token": "the-operators-session-token"}"#, to: session)
        chmod(session, 0o600)
        chown(session, victim, victim)

        let result = try runCommand(
            "/usr/bin/setpriv",
            [
                "--reuid", "\(victim)", "--regid", "\(victim)", "--clear-groups", "/bin/sh", "-c",
                "cd '\(directory.path)' && exec '\(DaemonProcess.productsDirectory)/svc-supervisor' call identity authenticate",
            ],
            environment: ["XDG_STATE_HOME": home, "XDG_CACHE_HOME": cache, "HOME": home], in: directory)

        #expect(result.status != 0, "\(result.standardOutput)")
        #expect(result.standardError.contains("held by uid \(Self.nobody)"), "\(result.standardError)")
        let loop = try EventLoop(name: "metrics-reader")
        let client = ServiceClient(loop: loop, sockets: SocketDirectory(sockets))
        defer {
            client.close()
            loop.shutdown()
        }
        let reply = try await client.callRaw(
            service: "identity", operation: Daemon.metrics.fullName, body: Empty().encodedBody())
        let exposition = try Daemon.Metrics(decoding: reply).exposition
        #expect(
            exposition.contains("verticals_requests_total{operation=\"daemon.describe\"} 1"),
            "the CLI never reached it: \(exposition)")
        #expect(
            exposition.contains("verticals_requests_total{operation=\"identity.authenticate\"} 0"),
            "the token reached the planted socket: \(exposition)")
    }
}
