import Glibc
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsDeploy
import VerticalsSupervisor
import VerticalsTesting

/// `idle_exit` under systemd: a vertical (the test daemon, as `echo`) started by the real
/// `systemd-socket-activate` at its first call, with the idle-exit variable its exported unit
/// sets, serves that call and then exits 0 by itself once idle (a `.socket` would start it again).
@Suite(.blocking, .serialized, .timeLimit(.minutes(2))) struct SocketActivatedIdleExitTests {
    @Test func socketActivatedVertical_withItsUnitsIdleExit_servesThenExitsZero() async throws {
        let manifest = try DeployFixture.manifest(
            """
            [services.echo]
            executable = "vt-testd"
            start = "on-demand"
            idle_exit = "1s"
            """)
        let unit = try #require(try SystemdExport.files(for: manifest)["verticals-echo.service"])
        let idleExit = try #require(
            DeployFixture.values("Environment", in: unit).first { $0.contains(HostConfiguration.idleExitVariable) })
        #expect(idleExit == "\"VERTICALS_IDLE_EXIT_SECONDS=1\"")
        // The unit's floor is the budget's share (60 s / 5); this run waits for none.
        #expect(DeployFixture.values("Environment", in: unit).contains("\"VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS=12\""))

        let directory = TemporaryDirectory()
        let sockets = SocketDirectory(directory.file("sockets"))
        mkdir(sockets.path, 0o755)
        let listener = try NotifyListener(path: directory.file("notify"))
        let variables = [
            "NOTIFY_SOCKET=\(listener.path)", "STATE_DIRECTORY=\(directory.file("state"))",
            "VERTICALS_SOCKET_DIR=\(sockets.path)", String(idleExit.dropFirst().dropLast()), "VT_TEST_TAG",
            "VERTICALS_LOG_LEVEL", "VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS=0",
        ]
        let arguments =
            ["--listen=\(sockets.socketPath(for: "echo"))", "--fdname=verticals-echo.socket"]
            + variables.map { "--setenv=\($0)" } + ["\(DaemonProcess.productsDirectory)/vt-testd"]
        let daemon = try DaemonProcess("/usr/bin/systemd-socket-activate", arguments)
        defer { daemon.stop() }
        #expect(eventually { isListening(unixSocket: sockets.socketPath(for: "echo")) }, "no listening socket")

        let loop = try EventLoop(name: "idle-exit-activation-test")
        let client = ServiceClient(loop: loop, sockets: sockets, defaultTimeout: .seconds(20))
        defer {
            client.close()
            loop.shutdown()
        }
        let echoed = try await client.call(TestEcho().echo, .init(text: "first call"))
        #expect(echoed.text == "first call")
        #expect(listener.waitFor("STOPPING=1"), "it never said it was leaving")
        #expect(daemon.waitForExit(timeout: .seconds(30)) != nil, "still running 30 s after a 1 s idle exit")
        #expect(daemon.exited(with: 0))
    }
}
