import Glibc
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
        client = ServiceClient(loop: loop, sockets: SocketDirectory(directory.file("sockets")), defaultTimeout: clientTimeout)
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
        let daemon = try DaemonProcess("vt-testd", [name], environment: environment(extra: extra), stderrPath: stderrPath)
        daemons[name] = daemon
        guard waitForSocket else { return daemon }
        let path = socketDirectory.socketPath(for: name)
        #expect(eventually { (try? RawClient(path: path)) != nil }, "\(name) never listened at \(path)")
        return daemon
    }

    /// The socket path of `name`.
    func socket(_ name: String = "echo") -> String { socketDirectory.socketPath(for: name) }

    deinit {
        for daemon in daemons.values { daemon.stop() }
        client.close()
        loop.shutdown()
    }
}
