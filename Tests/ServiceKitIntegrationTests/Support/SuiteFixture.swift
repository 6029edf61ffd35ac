import Glibc
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting

/// A run directory with test daemons in it and a client to call them: one per test.
final class SuiteFixture {
    let directory = TemporaryDirectory()
    let notify: NotifyListener
    let loop: EventLoop
    let client: ServiceClient
    private(set) var daemons: [String: DaemonProcess] = [:]

    var socketDirectory: SocketDirectory { SocketDirectory(directory.file("sockets")) }

    init(clientTimeout: Duration = .seconds(5)) throws {
        notify = try NotifyListener(path: directory.file("notify"))
        loop = try EventLoop(name: "test-client")
        client = ServiceClient(
            loop: loop, sockets: SocketDirectory(directory.file("sockets")), defaultTimeout: clientTimeout)
    }

    /// A fixture whose `vt-testd echo` already serves: what most tests start from.
    static func servingEcho() throws -> SuiteFixture {
        let suite = try SuiteFixture()
        try suite.start()
        return suite
    }

    /// The environment a daemon of this fixture gets.
    func environment(extra: [String: String] = [:]) -> [String: String] {
        var environment = ["VERTICALS_SOCKET_DIR": socketDirectory.path, "NOTIFY_SOCKET": notify.path]
        environment.merge(extra) { $1 }
        return environment
    }

    /// Starts `vt-testd NAME` and waits until its socket accepts connections (unless
    /// `waitForSocket` is false: it serves elsewhere, or must fail); `stderrPath` keeps its log.
    @discardableResult
    func start(
        _ name: String = "echo", extra: [String: String] = [:], waitForSocket: Bool = true, stderrPath: String? = nil
    ) throws -> DaemonProcess {
        let daemon = try DaemonProcess(
            "vt-testd", [name], environment: environment(extra: extra), stderrPath: stderrPath)
        daemons[name] = daemon
        guard waitForSocket else { return daemon }
        let path = socketDirectory.socketPath(for: name)
        #expect(eventually { (try? RawClient(path: path)) != nil }, "\(name) never listened at \(path)")
        return daemon
    }

    /// Calls `echo.echo` with `text`, which the handler holds for `delayMilliseconds`, and returns
    /// the call once the daemon reports it in flight (expected within `wait`): whatever the test
    /// does next meets a request the daemon holds, not one still on its way.
    func heldEcho(
        _ text: String, delayMilliseconds: Int = 60_000, timeout: Duration? = .seconds(60),
        inFlightWithin wait: Duration = .seconds(5), sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Task<TestEcho.EchoOutput, any Error> {
        let client = self.client
        let echo = TestEcho()
        let call = Task {
            try await client.call(echo.echo, .init(text: text, delayMilliseconds: delayMilliseconds), timeout: timeout)
        }
        let held = try await HostProcessTests.waitUntilInFlight(client, service: echo.service, atLeast: 1, within: wait)
        #expect(held, "\(echo.service) never reported the call in flight", sourceLocation: sourceLocation)
        return call
    }

    /// Sends SIGTERM to `daemon` while it holds `held` (a `heldEcho` of `text`) and expects a
    /// drain: the held call answered in full, then the daemon's exit with status 0 within `wait`.
    func expectSIGTERMDrains(
        _ daemon: DaemonProcess, _ held: Task<TestEcho.EchoOutput, any Error>, answering text: String,
        exitWithin wait: Duration, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        daemon.signal(SIGTERM)
        let output = try await held.value
        #expect(output.text == text, sourceLocation: sourceLocation)
        #expect(
            daemon.waitForExit(timeout: wait) != nil, "still running \(wait) after SIGTERM",
            sourceLocation: sourceLocation)
        #expect(daemon.exited(with: 0), sourceLocation: sourceLocation)
    }

    /// The socket path of `name`.
    func socket(_ name: String = "echo") -> String { socketDirectory.socketPath(for: name) }

    deinit {
        for daemon in daemons.values { daemon.stop() }
        client.close()
        loop.shutdown()
    }
}
