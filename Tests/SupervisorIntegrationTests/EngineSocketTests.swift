import Glibc
import VerticalsTestSupport
import Testing
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisor
import VerticalsTesting
import VerticalsWire

/// The sockets the engine holds for its services, the notify socket, logs and pid files.
extension EngineProcessTests {
    @Suite("sockets, logs and leftovers", .blocking)
    struct Sockets {
        private func echo(_ client: RawClient, id: UInt64, text: String) throws {
            try client.send(
                Message.frame(
                    Envelope(kind: .request, correlationID: id, operation: "echo.echo"),
                    body: TestEcho.EchoInput(text: text)))
        }

        private func answer(_ client: RawClient) throws -> TestEcho.EchoOutput {
            guard case .message(let message) = client.receive() else { throw HarnessTimeout("no answer") }
            return try message.decodeBody(as: TestEcho.EchoOutput.self)
        }

        @Test func socket_isBoundBySupervisor_0660_in0750Folder() async throws {
            let harness = try EngineHarness([.testd("echo")])
            try await harness.start()
            var info = stat()
            #expect(stat(harness.run.socket(for: "echo"), &info) == 0 && info.st_mode & 0o777 == 0o660)
            #expect(stat(harness.run.socketDirectory, &info) == 0 && info.st_mode & 0o777 == 0o750)
            try await harness.waitFor("echo", .ready)
            let client = try RawClient(path: harness.run.socket(for: "echo"))
            try echo(client, id: 1, text: "hello")
            let output = try answer(client)
            #expect(output.text == "hello")
            #expect(output.servedBy == (try await harness.status("echo")).pid)
            await harness.shutdown()
        }

        @Test func clientConnectingWhileTheServiceRestarts_waitsInTheBacklog_andIsServed() async throws {
            let harness = try EngineHarness([
                ServiceSpec.testd("echo").restarting(
                    after: Backoff(initial: .milliseconds(200), max: .seconds(1), multiplier: 2))
            ])
            let (oldPID, _) = try await harness.startThenKill("echo")
            // Nobody serves now: the connection waits in the kernel's backlog of the held socket.
            let client = try RawClient(
                path: harness.run.socket(for: "echo"), receiveTimeout: .seconds(10))
            try echo(client, id: 7, text: "during restart")
            let output = try answer(client)
            #expect(output.text == "during restart")
            #expect(output.servedBy != oldPID)
            #expect(output.servedBy == (try await harness.status("echo")).pid)
            await harness.shutdown()
        }

        @Test func operatorStop_removesTheSocket_soAConnectFailsAtOnce_andStartBindsItAgain() async throws {
            let harness = try EngineHarness([.testd("echo")])
            try await harness.start()
            try await harness.waitFor("echo", .ready)
            let path = harness.run.socket(for: "echo")

            _ = try await harness.engine.stopService("echo")
            // No file, so no backlog to wait in: a caller is refused instead of held to its deadline.
            #expect(access(path, F_OK) != 0, "the socket file is gone")
            #expect(throws: (any Error).self) { try RawClient(path: path) }

            _ = try await harness.engine.startService("echo")
            #expect(access(path, F_OK) == 0, "bound again before the service is even ready")
            try await harness.waitFor("echo", .ready)
            let client = try RawClient(path: path)
            try echo(client, id: 3, text: "back")
            #expect(try answer(client).text == "back")
            await harness.shutdown()
        }

        @Test func output_isLoggedLineByLine_stamped_andRotated() async throws {
            var spec = ServiceSpec.script(
                "chatty",
                "echo hello; echo oops >&2; i=0; while [ $i -lt 25 ]; do echo line $i; i=$((i+1)); done; exec sleep 30"
            )
            spec.logMaxBytes = 1_000
            spec.logRotation.compress = false
            let harness = try EngineHarness([spec])
            try await harness.start()
            let log = harness.run.log(for: "chatty")
            #expect(eventually { (readFile(log) ?? "").contains("stdout line 24") })
            #expect(eventually { readFile(log + ".1") != nil })
            let rotated = try #require(readFile(log + ".1"))
            // stdout and stderr are two pipes, read as they come: "oops" may land in either file.
            #expect(
                rotated.contains("stdout hello")
                    && (rotated + (readFile(log) ?? "")).contains("stderr oops"))
            #expect(rotated.utf8.count <= 1_000)
            let first = try #require(rotated.split(separator: "\n").first { $0.contains("stdout hello") })
            #expect(
                first.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z stdout hello/) != nil,
                "\(first)")
            await harness.shutdown()
        }

        @Test func pidRecords_letTheNextEngineKillWhatACrashedOneLeft() async throws {
            let crashed = try EngineHarness([.testd("echo"), .script("worker", "sleep 60 & wait")])
            try await crashed.start()
            try await crashed.waitFor("echo", .ready)
            try await crashed.waitFor("worker", .ready)
            let record = try #require(readFile(crashed.run.pidFile(for: "echo")))
            let pid = try #require(try await crashed.status("echo").pid)
            #expect(record.hasPrefix("\(pid) \(pid) "))
            // echo, the worker's shell and its `sleep`, which the shell forks in its own time.
            #expect(eventually(timeout: .seconds(30)) { EngineHarness.processes(taggedWith: crashed.tag).count >= 3 })
            // The supervisor "crashes": its loop ends without stopping anyone.
            crashed.loop.shutdown()

            let next = try EngineHarness([], runDirectory: crashed.run.path, tag: crashed.tag)
            try await next.start()
            #expect(
                eventually(timeout: .seconds(30)) {
                    EngineHarness.processes(taggedWith: crashed.tag).isEmpty
                })
            #expect(readFile(crashed.run.pidFile(for: "echo")) == nil)
            await next.shutdown()
            await crashed.shutdown()
        }
    }
}
