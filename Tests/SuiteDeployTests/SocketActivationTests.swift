import Glibc
import IOInterface // IOInterface: the reference suite under systemd-socket-activate, each vertical serving a real call
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsTesting
import VerticalsWire

/// Each vertical started by the real `systemd-socket-activate` on its socket, as a `.socket`
/// unit starts it: the same binary that runs under svc-supervisor, with only what systemd
/// passes (`LISTEN_*`, the unit's `Environment=`, `STATE_DIRECTORY`, `NOTIFY_SOCKET`).
///
/// All five run at once, so each vertical's call reaches its peers through their sockets as
/// under systemd: notifications, records and appointments authenticate the caller with
/// identity, and each peer is activated by the first call that reaches it.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2))) struct SocketActivationTests {
    @Test func everyVertical_socketActivated_reportsReady_andServesARealCall() async throws {
        let directory = TemporaryDirectory()
        let sockets = SocketDirectory(directory.file("sockets"))
        mkdir(sockets.path, 0o755)
        let manifest = try SuiteDeployFixture.suiteManifest()
        var daemons: [String: DaemonProcess] = [:]
        var listeners: [String: NotifyListener] = [:]
        let loop = try EventLoop(name: "socket-activation-test")
        let client = ServiceClient(loop: loop, sockets: sockets, defaultTimeout: .seconds(20))
        defer {
            for name in SuiteDeployFixture.referenceSuite.reversed() { daemons[name]?.stop() }
            client.close()
            loop.shutdown()
        }

        for name in SuiteDeployFixture.referenceSuite {
            let listener = try NotifyListener(path: directory.file("n-\(name)"))
            listeners[name] = listener
            let spec = try #require(manifest[name])
            var variables = [
                "NOTIFY_SOCKET=\(listener.path)", "STATE_DIRECTORY=\(directory.file("state-\(name)"))",
                // Only the folder differs from the unit's Environment=: the test's, not /run/verticals.
                "VERTICALS_SOCKET_DIR=\(sockets.path)",
                // Argon2id's real limits cost ~100 ms and 64 MiB a hash; the test keeps its shape, not its price.
                "IDENTITY_PWHASH_OPSLIMIT=1", "IDENTITY_PWHASH_MEMLIMIT=8192",
                "VT_TEST_TAG", "VERTICALS_LOG_LEVEL",
            ]
            variables += spec.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let arguments =
                ["--listen=\(sockets.socketPath(for: name))", "--fdname=verticals-\(name).socket"]
                + variables.map { "--setenv=\($0)" } + ["\(DaemonProcess.productsDirectory)/svc-\(name)"]
            daemons[name] = try DaemonProcess("/usr/bin/systemd-socket-activate", arguments)
            // systemd-socket-activate binds and listens at once (the file appears at bind, before
            // listen), and execs the daemon at the first connection.
            #expect(
                eventually { isListening(unixSocket: sockets.socketPath(for: name)) }, "\(name): no listening socket")
        }

        _ = try await client.call(
            Identity.register, .init(email: "ada@example.org", password: "analytical-engine", displayName: "Ada"))
        let session = try await client.call(
            Identity.login, .init(email: "ada@example.org", password: "analytical-engine"))
        let nearby = try await client.call(Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 3))
        #expect(nearby.clinics.count == 3)
        #expect(try await client.call(Notifications.inbox, .init(token: session.token)).notifications.isEmpty)
        #expect(try await client.call(Records.history, .init(token: session.token)).entries.isEmpty)
        let from = Timestamp(secondsSinceEpoch: 1_700_000_000)
        let listed = try await client.call(
            Appointments.list, .init(token: session.token, from: from, to: from.adding(.seconds(86_400 * 7))))
        #expect(listed.appointments.isEmpty)

        for name in SuiteDeployFixture.referenceSuite {
            #expect(listeners[name]?.waitFor("READY=1") == true, "\(name) never sent READY=1")
            // The activator exec'd the vertical in its own place: the pid it was given is the daemon.
            let pid = try #require(daemons[name]?.pid)
            #expect(Self.executable(of: pid).hasSuffix("/svc-\(name)"), "\(name): \(Self.executable(of: pid))")
        }
    }

    /// `/proc/<pid>/exe`.
    static func executable(of pid: pid_t) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
