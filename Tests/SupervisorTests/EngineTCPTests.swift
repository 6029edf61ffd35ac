import Glibc
import IOInterface
import TestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisor
import VerticalsTesting
import VerticalsWire

/// A service with `endpoint = "tcp:…"`: the supervisor binds the TCP port and hands it over as it
/// does a Unix socket; a remote service (endpoint, no executable) is neither started nor waited
/// for, and every started service is told both addresses.
extension EngineProcessTests {
    @Suite("TCP endpoints and remote services")
    struct TCPEndpoints {
        @Test func tcpService_isBoundAndHandedOver_remoteOneIsOnlyAnnounced() async throws {
            let port = try freeLoopbackPort()
            var echo = ServiceSpec.testd("echo")
            echo.endpoint = .tcp(host: "127.0.0.1", port: port)
            echo.environment = ["VERTICALS_TLS": "off"]
            var far = ServiceSpec(name: "far-away", executable: "")
            far.endpoint = .tcp(host: "192.0.2.7", port: 7001)  // TEST-NET-1: never reached here
            let directory = TemporaryDirectory()
            let seen = directory.file("seen")
            var probe = ServiceSpec.script(
                "probe", "echo \"$VERTICALS_ENDPOINT_ECHO $VERTICALS_ENDPOINT_FAR_AWAY\" > \(seen); exec sleep 60")
            probe.dependsOn = ["echo", "far-away"]
            let harness = try EngineHarness([echo, far, probe])
            try await harness.start()
            try await harness.waitFor("echo", .ready)
            try await harness.waitFor("probe", .ready)

            #expect(access(harness.run.socket(for: "echo"), F_OK) != 0, "no Unix socket for a TCP service")
            let client = try RawClient(host: "127.0.0.1", port: port)
            try client.send(Message.frame(
                Envelope(kind: .request, correlationID: 1, operation: "echo.echo"), body: TestEcho.EchoInput(text: "tcp")))
            guard case .message(let message) = client.receive() else { throw HarnessTimeout("no answer over TCP") }
            #expect(try message.decodeBody(as: TestEcho.EchoOutput.self).text == "tcp")

            #expect(eventually { readFile(seen)?.contains("\n") == true })
            #expect(readFile(seen) == "tcp:127.0.0.1:\(port) tcp:192.0.2.7:7001\n")
            let names = try await harness.engine.status().map(\.name)
            #expect(!names.contains("far-away"), "a remote service is not supervised here: \(names)")
            #expect(harness.events(of: "far-away").isEmpty)
            await harness.shutdown()
        }
    }
}
