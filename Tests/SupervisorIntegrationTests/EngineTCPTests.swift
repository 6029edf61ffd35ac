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

/// A service with `endpoint = "tcp:…"`: the supervisor binds the TCP port and hands it over as it
/// does a Unix socket; a remote service (endpoint, no executable) is neither started nor waited
/// for, and every started service is told both addresses.
extension EngineProcessTests {
    @Suite("TCP endpoints and remote services", .blocking)
    struct TCPEndpoints {
        @Test func tcpService_isBoundAndHandedOver_remoteOneIsOnlyAnnounced() async throws {
            let port = try freeLoopbackPort()
            var echo = ServiceSpec.testd("echo")
            echo.endpoint = .tcp(host: "127.0.0.1", port: port)
            echo.environment = ["VERTICALS_TLS": "off"]
            var far = ServiceSpec(name: "far-away", executable: "")
            far.endpoint = .tcp(host: "192.0.2.7", port: 7001) // TEST-NET-1: never reached here
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
            try client.send(
                Message.frame(
                    Envelope(kind: .request, correlationID: 1, operation: "echo.echo"),
                    body: TestEcho.EchoInput(text: "tcp")))
            guard case .message(let message) = client.receive() else { throw HarnessTimeout("no answer over TCP") }
            #expect(try message.decodeBody(as: TestEcho.EchoOutput.self).text == "tcp")

            #expect(eventually { readFile(seen)?.contains("\n") == true })
            #expect(readFile(seen) == "tcp:127.0.0.1:\(port) tcp:192.0.2.7:7001\n")
            let names = try await harness.engine.status().map(\.name)
            #expect(!names.contains("far-away"), "a remote service is not supervised here: \(names)")
            #expect(harness.events(of: "far-away").isEmpty)
            await harness.shutdown()
        }

        /// A split suite: a local service's routes come from the whole manifest, so
        /// a remote caller is among its allowed peers (with the operations it names) and a remote
        /// callee's operation in its `depends_on`.
        @Test func remoteCallersAndCallees_areInTheRoutesOfALocalService() async throws {
            let directory = TemporaryDirectory()
            let seen = directory.file("seen")
            var caller = ServiceSpec(name: "far-caller", executable: "")
            caller.endpoint = .tcp(host: "192.0.2.7", port: 7001) // TEST-NET-1: never reached here
            caller.setDependsOn(["probe.look", "probe.touch"])
            var callee = ServiceSpec(name: "far-callee", executable: "")
            callee.endpoint = .tcp(host: "192.0.2.8", port: 7002)
            var probe = ServiceSpec.script(
                "probe",
                "echo \"$VERTICALS_ALLOWED_PEERS $VERTICALS_DEPENDS_ON $VERTICALS_ALLOWED_OPERATIONS\" > \(seen); exec sleep 60"
            )
            probe.setDependsOn(["far-callee.serve"])
            probe.certificates = directory.file("certs")
            let harness = try EngineHarness([caller, callee, probe])
            try await harness.start()
            try await harness.waitFor("probe", .ready)
            #expect(eventually { readFile(seen)?.contains("\n") == true })
            // The same operation graph as the units' and the ConfigMaps' (DeclaredRoutesTests).
            #expect(readFile(seen) == "far-caller,operator far-callee.serve far-caller:look,far-caller:touch\n")
            await harness.shutdown()
        }

        /// `certificates = DIR`: the service serves mutual TLS with `DIR/NAME/`'s files
        /// and admits its declared callers and the operator; the supervisor's liveness checks
        /// present the operator's certificate, so a checked TLS service is never restarted.
        @Test func certificatesFolder_givesTLSFilesAndPeers_andLivenessChecksPassOverTLS() async throws {
            let directory = TemporaryDirectory()
            let certs = try MintedCertificates.make(for: ["echo"], in: directory)
            let port = try freeLoopbackPort()
            var echo = EngineProcessTests.Liveness.checked("echo", timeout: .seconds(5))
            echo.endpoint = .tcp(host: "127.0.0.1", port: port)
            echo.certificates = certs
            let harness = try EngineHarness([echo])
            try await harness.start()
            try await harness.waitFor("echo", .ready)

            let loop = try EventLoop(name: "certificates-test")
            defer { loop.shutdown() }
            var sockets = SocketDirectory(directory.file("no-sockets"))
            sockets.endpoints[SocketDirectory.endpointKey(for: "echo")] = .tcp(host: "127.0.0.1", port: port)
            sockets.tls = TLSFiles(
                certificate: "\(certs)/operator/tls.crt", key: "\(certs)/operator/tls.key",
                authority: "\(certs)/operator/ca.crt")
            let client = ServiceClient(loop: loop, sockets: sockets)
            defer { client.close() }
            var lastError = "none"
            func healthChecks() async -> Int? {
                do {
                    let body = try await client.callRaw(
                        service: "echo", operation: VerticalsContract.Daemon.metrics.fullName,
                        body: Empty().encodedBody())
                    let metrics = try VerticalsContract.Daemon.Metrics(decoding: body)
                    return EngineProcessTests.Liveness.healthCalls(in: metrics.exposition)
                } catch {
                    lastError = "\(error)"
                    return nil
                }
            }
            // Ten liveness checks answered over TLS, counted by the daemon itself.
            var counted = 0
            let deadline = ContinuousClock.now + .seconds(60)
            while counted < 10, ContinuousClock.now < deadline {
                counted = await healthChecks() ?? 0
                if counted < 10 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(
                counted >= 10,
                "the supervisor's liveness checks never reached the daemon over TLS (\(counted); last error: \(lastError); log: \(readFile(harness.run.log(for: "echo")) ?? "-"))"
            )
            let status = try await harness.status("echo")
            #expect(status.state == .ready && status.restarts == 0, "\(status)")
            await harness.shutdown()
        }
    }
}
