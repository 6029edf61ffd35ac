import Glibc
import VerticalsTestSupport
import Testing
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// `SO_PEERCRED` access control with real uids: a `vt-testd` run as uid 4242 (through
/// `setpriv`, no passwd entry needed) relays a call to an `echo` daemon run as the test's own
/// uid. Needs root to switch uids; skipped with that reason otherwise.
@Suite(
    .blocking, .serialized, .timeLimit(.minutes(2)),
    .enabled(if: geteuid() == 0, "needs root to run a caller as another uid"))
struct PeerCredentialProcessTests {
    static let strangerUID = 4242

    /// A `vt-testd` copied into a 0755 folder (a process of another uid cannot exec from /root),
    /// sockets in a folder group root may write (the file-system gate passes: this tests the
    /// daemon's own check), and the relay started as uid 4242, group root.
    private func startStrangerRelay(_ suite: SuiteFixture) throws -> DaemonProcess {
        chmod(suite.directory.path, 0o755)
        mkdir(suite.socketDirectory.path, 0o770)
        chmod(suite.socketDirectory.path, 0o770)
        let bin = suite.directory.file("bin")
        mkdir(bin, 0o755)
        let copy = "\(bin)/vt-testd"
        try copyExecutable(from: "\(DaemonProcess.productsDirectory)/vt-testd", to: copy, in: suite.directory)
        let path = suite.socket("relay")
        let relay = try DaemonProcess(
            "/usr/bin/setpriv", ["--reuid=\(Self.strangerUID)", "--regid=0", "--clear-groups", copy, "relay"],
            environment: suite.environment())
        let listening = eventually(timeout: .seconds(30)) {
            (try? RawClient(path: path)) != nil || relay.waitForExit(timeout: .milliseconds(1)) != nil
        }
        guard listening, relay.exitStatus == nil else {
            Issue.record("the relay never listened at \(path) (wait status \(String(describing: relay.exitStatus)))")
            throw RawSocketError("relay")
        }
        return relay
    }

    /// A hard link when both sides share a file system (nothing is written, so nothing is busy);
    /// else a copy made by `cp`, a process of its own. Written from this process, the copy's
    /// descriptor (close-on-exec or not) was inherited by whatever another test forked
    /// meanwhile, until that child exec'd, and an exec of the copy failed with ETXTBSY (a fixed
    /// settle and retries guessed at how long). Once `cp` has exited, nobody can hold it open
    /// for writing.
    private func copyExecutable(from source: String, to destination: String, in directory: TemporaryDirectory) throws {
        if link(source, destination) == 0 { return }
        let copied = try runCommand("/bin/cp", [source, destination], in: directory)
        guard copied.status == 0 else { throw RawSocketError("cp \(source) \(destination): \(copied.standardError)") }
        chmod(destination, 0o755)
    }

    /// A caller of another uid is refused for the request: by its uid when no allow-list names
    /// it, by the operation when the allow-list lets it connect but the operation is internal.
    /// The daemon's own uid (the test's) is still served.
    @Test(arguments: [
        ([String: String](), "uid \(strangerUID)"),
        (["VERTICALS_ALLOWED_GIDS": "0", "VERTICALS_INTERNAL_OPERATIONS": "echo"], "echo.echo is internal"),
    ])
    func callerOfAnotherUID_isDeniedWithPermissionDenied_namingWhy(extra: [String: String], excerpt: String)
        async throws
    {
        let suite = try SuiteFixture()
        try suite.start("echo", extra: extra)
        let relay = try startStrangerRelay(suite)
        defer { relay.stop() }
        let error = await #expect(throws: ServiceError.self) {
            try await suite.client.call(TestEcho(service: "relay").relay, .init(target: "echo", text: "let me in"))
        }
        #expect(error?.code == .permissionDenied)
        #expect(error?.message.contains(excerpt) == true, "\(String(describing: error))")
        #expect(try await suite.client.call(TestEcho().echo, .init(text: "owner")).text == "owner")
    }

    @Test(arguments: [
        ["VERTICALS_ALLOWED_UIDS": "\(strangerUID)"], ["VERTICALS_ALLOWED_UIDS": "1, 2,\(strangerUID)"],
        ["VERTICALS_ALLOWED_GIDS": "0"],
        [
            "VERTICALS_ALLOWED_GIDS": "0", "VERTICALS_INTERNAL_OPERATIONS": "echo",
            "VERTICALS_INTERNAL_UIDS": "\(strangerUID)",
        ],
    ])
    func callerOnTheAllowList_isServed(allowList: [String: String]) async throws {
        let suite = try SuiteFixture()
        try suite.start("echo", extra: allowList)
        let relay = try startStrangerRelay(suite)
        defer { relay.stop() }
        let output = try await suite.client.call(
            TestEcho(service: "relay").relay, .init(target: "echo", text: "allowed"))
        #expect(output.echoed.text == "allowed")
    }

    @Test func rootCaller_isServedByADaemonOfAnotherUID() async throws {
        let suite = try SuiteFixture()
        let relay = try startStrangerRelay(suite)
        defer { relay.stop() }
        let raw = try RawClient(path: suite.socket("relay"))
        try raw.send(Message.frame(Envelope(kind: .ping, correlationID: 3), rawBody: []))
        guard case .message(let pong) = raw.receive() else {
            Issue.record("root was not served by a daemon of another uid")
            return
        }
        #expect(pong.envelope.kind == .pong)
    }
}
