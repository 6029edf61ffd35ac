import Glibc
import IOInterface
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsTesting
import VerticalsWire

/// A real vertical handed a TCP socket by `systemd-socket-activate -l 127.0.0.1:PORT`: it finds
/// the fd is TCP (getsockname), serves plain TCP because `VERTICALS_TLS=off` asks for it, and a
/// caller reaches it through `VERTICALS_ENDPOINT_CLINICS`.
@Suite(.serialized, .timeLimit(.minutes(2))) struct TCPSocketActivationTests {
    @Test func clinics_socketActivatedOnTCPLoopback_servesARealCall() async throws {
        let directory = TemporaryDirectory()
        let port = try freeLoopbackPort()
        let listener = try NotifyListener(path: directory.file("n-clinics"))
        let spec = try #require(try DeployFixture.suiteManifest()["clinics"])
        var variables = [
            "NOTIFY_SOCKET=\(listener.path)", "STATE_DIRECTORY=\(directory.file("state-clinics"))",
            "VERTICALS_SOCKET_DIR=\(directory.file("sockets"))", "VERTICALS_TLS=off", "VT_TEST_TAG", "VERTICALS_LOG_LEVEL",
        ]
        variables += spec.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let arguments =
            ["--listen=127.0.0.1:\(port)", "--fdname=verticals-clinics.socket"] + variables.map { "--setenv=\($0)" }
            + ["\(DaemonProcess.productsDirectory)/svc-clinics"]
        let daemon = try DaemonProcess("/usr/bin/systemd-socket-activate", arguments)
        let loop = try EventLoop(name: "tcp-activation-test")
        let client = ServiceClient(
            loop: loop,
            sockets: SocketDirectory.from(environment: [
                "VERTICALS_SOCKET_DIR": directory.file("sockets"), "VERTICALS_TLS": "off",
                "VERTICALS_ENDPOINT_CLINICS": "tcp:127.0.0.1:\(port)",
            ]),
            defaultTimeout: .seconds(20))
        defer {
            daemon.stop()
            client.close()
            loop.shutdown()
        }
        // The activator binds at once and execs the daemon at the first connection: the call is it.
        #expect(eventually { (try? RawClient(host: "127.0.0.1", port: port)) != nil }, "nothing listens on \(port)")
        let nearby = try await client.call(Clinics.nearest, .init(latitude: 51.5074, longitude: -0.1278, limit: 3))
        #expect(nearby.clinics.count == 3)
        #expect(listener.waitFor("READY=1"), "clinics never sent READY=1")
    }
}
