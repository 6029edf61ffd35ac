import Glibc
import VerticalsTestSupport
import Testing
import VerticalsTesting
import VerticalsWire
import VerticalsSharedTesting

extension EngineProcessTests {
    /// `svc-supervisor up` on a manifest with an on-demand, idle-exiting vertical (as
    /// under `make run`): what `status` says before, during and after.
    @Suite("svc-supervisor up, on demand", .blocking)
    struct OnDemandCLI {
        /// `svc-supervisor status`'s row for `service`, or nil.
        private func row(_ service: String, _ directory: TemporaryDirectory, run: String) -> String? {
            guard let result = try? runCommand("svc-supervisor", ["status", "--run-dir", run], in: directory),
                result.status == 0
            else { return nil }
            return result.standardOutput.split(separator: "\n").first { $0.hasPrefix(service + " ") }.map(String.init)
        }

        @Test func status_saysIdleOnDemand_untilACallStartsIt_andAgainAfterItsIdleExit() throws {
            let directory = TemporaryDirectory()
            let run = directory.file("run")
            let manifest = directory.file("suite.toml")
            writeText(
                """
                [services.lazy]
                executable = "vt-testd"
                args = ["lazy"]
                start = "on-demand"
                idle_exit = "1s"
                env = { VERTICALS_IDLE_EXIT_MIN_UPTIME_SECONDS = "0" }
                [services.eager]
                executable = "vt-testd"
                args = ["eager"]
                depends_on = ["lazy"]
                """, to: manifest)
            let tag = "ondemand-\(UInt32.random(in: 0...UInt32.max))"
            let up = try DaemonProcess(
                "svc-supervisor", ["up", "--manifest", manifest, "--run-dir", run], environment: ["VT_DAEMON_TAG": tag])
            defer {
                up.stop()
                for pid in EngineHarness.processes(taggedWith: tag, key: "VT_DAEMON_TAG") { kill(pid, SIGKILL) }
            }
            // eager does not wait for lazy; lazy is idle, not stopped.
            #expect(eventually { row("eager", directory, run: run)?.contains(" ready ") == true })
            let idle = try #require(row("lazy", directory, run: run))
            #expect(idle.contains("idle (on demand)"), "\(idle)")
            #expect(!idle.contains("stopped"))

            let client = try RawClient(path: "\(run)/sockets/lazy.sock", receiveTimeout: .seconds(30))
            try client.send(
                Message.frame(
                    Envelope(kind: .request, correlationID: 1, operation: TestEcho(service: "lazy").echo.fullName),
                    body: TestEcho.EchoInput(text: "hello")))
            guard case .message(let message) = client.receive() else { throw HarnessTimeout("no answer") }
            #expect(try message.decodeBody(as: TestEcho.EchoOutput.self).text == "hello")
            // Then it idles for a second, exits 0, and is idle (on demand) again.
            #expect(
                eventually {
                    guard let lazy = row("lazy", directory, run: run) else { return false }
                    return lazy.contains("idle (on demand)") && lazy.contains("exited with status 0")
                })
            let down = try runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
            #expect(down.status == 0, "\(down.standardError)")
            #expect(up.waitForExit() != nil && up.exited(with: 0))
        }
    }
}
