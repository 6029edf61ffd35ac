import Glibc
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsTesting
import VerticalsWire

/// A vertical (the test daemon, as `echo`) handed a TCP socket by `systemd-socket-activate -l
/// 127.0.0.1:PORT`: it finds the fd is TCP (getsockname), serves plain TCP because
/// `VERTICALS_TLS=off` asks for it, and a caller reaches it through `VERTICALS_ENDPOINT_ECHO`.
@Suite(.blocking, .serialized, .timeLimit(.minutes(2))) struct TCPSocketActivationTests {
    @Test func aVertical_socketActivatedOnTCPLoopback_servesARealCall() async throws {
        let directory = TemporaryDirectory()
        let port = try freeLoopbackPort()
        let listener = try NotifyListener(path: directory.file("n-echo"))
        let variables = [
            "NOTIFY_SOCKET=\(listener.path)", "STATE_DIRECTORY=\(directory.file("state-echo"))",
            "VERTICALS_SOCKET_DIR=\(directory.file("sockets"))", "VERTICALS_TLS=off", "VT_TEST_TAG",
            "VERTICALS_LOG_LEVEL",
        ]
        let arguments =
            ["--listen=127.0.0.1:\(port)", "--fdname=verticals-echo.socket"] + variables.map { "--setenv=\($0)" }
            + ["\(DaemonProcess.productsDirectory)/vt-testd"]
        let daemon = try DaemonProcess("/usr/bin/systemd-socket-activate", arguments)
        let loop = try EventLoop(name: "tcp-activation-test")
        let client = ServiceClient(
            loop: loop,
            sockets: SocketDirectory.from(environment: [
                "VERTICALS_SOCKET_DIR": directory.file("sockets"), "VERTICALS_TLS": "off",
                "VERTICALS_ENDPOINT_ECHO": "tcp:127.0.0.1:\(port)",
            ]),
            defaultTimeout: .seconds(20))
        defer {
            daemon.stop()
            client.close()
            loop.shutdown()
        }
        // The activator binds at once and execs the daemon at the first connection: the call is it.
        #expect(eventually { (try? RawClient(host: "127.0.0.1", port: port)) != nil }, "nothing listens on \(port)")
        let echoed = try await client.call(TestEcho().echo, .init(text: "over TCP"))
        #expect(echoed.text == "over TCP")
        #expect(listener.waitFor("READY=1"), "echo never sent READY=1")
    }
}
