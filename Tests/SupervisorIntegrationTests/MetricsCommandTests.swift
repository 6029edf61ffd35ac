import Glibc
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsSupervisor
import VerticalsTesting
import VerticalsWire
import VerticalsSharedTesting

extension EngineProcessTests {
    /// `svc-supervisor metrics` against a real supervisor and real daemons, its output read by a
    /// strict parser of the text format written for the test (``StrictExposition``).
    @Suite("svc-supervisor metrics", .blocking)
    struct Metrics {
        /// Sends `alpha` three echoes and two failing requests, and reads the five answers.
        private func exercise(_ socket: String) throws {
            let client = try RawClient(path: socket)
            let contract = TestEcho(service: "alpha")
            for id in 1...3 {
                try client.sendRequest(
                    id: UInt64(id), operation: contract.echo.fullName,
                    body: TestEcho.EchoInput(text: "hi").encodedBody())
            }
            for id in 4...5 {
                try client.sendRequest(
                    id: UInt64(id), operation: contract.fail.fullName,
                    body: TestEcho.FailInput(code: .notFound, message: "no").encodedBody())
            }
            for _ in 1...5 {
                guard case .message = client.receive() else { throw RawSocketFailure() }
            }
        }

        struct RawSocketFailure: Error {}

        @Test func metrics_ofARunningSuite_isValidExposition_countingRequestsErrorsAndServices() throws {
            let directory = TemporaryDirectory()
            let run = directory.file("run")
            let supervisor = try DaemonProcess(
                "svc-supervisor", ["up", "--manifest", testdManifest(in: directory), "--run-dir", run])
            defer {
                _ = try? runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
                supervisor.waitForExit()
            }
            #expect(eventually { suiteReady(directory, run: run, services: 2) })
            try exercise("\(run)/sockets/alpha.sock")

            let result = try runCommand("svc-supervisor", ["metrics", "--run-dir", run], in: directory)
            #expect(result.status == 0, "\(result.standardError)")
            let metrics = try StrictExposition(result.standardOutput)

            let echo = ["service": "alpha", "operation": "alpha.echo"]
            #expect(metrics.value("verticals_requests_total", echo) == 3)
            #expect(metrics.value("verticals_request_duration_seconds_count", echo) == 3)
            #expect(
                metrics.value(
                    "verticals_request_errors_total",
                    ["service": "alpha", "operation": "alpha.fail", "code": "notFound"]) == 2)
            #expect(
                metrics.value("verticals_request_errors_total", ["service": "alpha", "operation": "alpha.echo"]) == nil)
            #expect(metrics.value("verticals_connections_accepted_total", ["service": "alpha"]).map { $0 >= 1 } == true)
            // The one request in flight is the scrape itself.
            #expect(metrics.value("verticals_requests_in_flight", ["service": "beta"]) == 1)
            #expect(metrics.value("verticals_loop_queue_depth", ["service": "beta"]) != nil)
            // The supervisor's view, and the supervisor's own request metrics.
            #expect(metrics.value("verticals_service_state", ["service": "beta", "state": "ready"]) == 1)
            #expect(metrics.value("verticals_service_state", ["service": "beta", "state": "failed"]) == 0)
            #expect(metrics.value("verticals_service_restarts_total", ["service": "alpha"]) == 0)
            #expect(
                metrics.value("verticals_service_resident_memory_bytes", ["service": "alpha"]).map { $0 > 1_000_000 }
                    == true)
            #expect(metrics.value("verticals_service_scrape_up", ["service": "beta"]) == 1)
            #expect(
                metrics.value(
                    "verticals_requests_total", ["service": "supervisor", "operation": "supervisor.status"]
                ).map { $0 >= 1 } == true)
            #expect(metrics.types["verticals_request_duration_seconds"] == "histogram")

            let textfiles = directory.file("textfiles")
            mkdir(textfiles, 0o755)
            let written = try runCommand(
                "svc-supervisor", ["metrics", "--run-dir", run, "--textfile", textfiles], in: directory)
            #expect(written.status == 0, "\(written.standardError)")
            #expect(written.standardOutput.isEmpty)
            let file = try #require(readFile("\(textfiles)/verticals.prom"))
            #expect(try StrictExposition(file).value("verticals_requests_total", echo) == 3)
            #expect(
                try runCommand("/bin/ls", ["-A", textfiles], in: directory).standardOutput == "verticals.prom\n",
                "the temporary file was left behind")
        }

        @Test func metrics_withoutASupervisor_exits69() throws {
            let directory = TemporaryDirectory()
            let result = try runCommand("svc-supervisor", ["metrics", "--run-dir", directory.path], in: directory)
            #expect(result.status == 69)
        }
    }
}
