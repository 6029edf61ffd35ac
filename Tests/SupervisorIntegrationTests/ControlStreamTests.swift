import Foundation
import Glibc
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsTesting
import VerticalsWire

extension EngineProcessTests.Control {
    /// Serves service `talker`, which has written `early` to its log once this returns, and
    /// writes `after-the-call` once the returned trigger file exists.
    static func talker(in directory: TemporaryDirectory) async throws -> (Served, trigger: String) {
        let trigger = directory.file("go")
        let script = "echo early; while [ ! -e \(trigger) ]; do sleep 0.02; done; echo after-the-call; exec sleep 30"
        let served = try await Served([.script("talker", script)])
        try await served.harness.waitFor("talker", .ready)
        #expect(eventually { readFile(served.harness.run.log(for: "talker"))?.contains("stdout early") == true })
        return (served, trigger)
    }

    @Test func logsStream_sendsTheLastLines_thenALineTheServiceWritesAfterTheCallStarted() async throws {
        let directory = TemporaryDirectory()
        let (served, trigger) = try await Self.talker(in: directory)

        var lines = served.client.stream(Supervisor.logs, .init(name: "talker", lines: 10)).makeAsyncIterator()
        var seen: [String] = []
        while let line = try await lines.next(), !line.text.hasSuffix("stdout early") { seen.append(line.text) }
        // The stream is following now: what the service writes from here on comes through it.
        #expect(access(trigger, F_OK) != 0)
        #expect(creat(trigger, 0o644) >= 0)
        while let line = try await lines.next() {
            seen.append(line.text)
            if line.text.hasSuffix("stdout after-the-call") { break }
        }
        #expect(seen.last?.hasSuffix("stdout after-the-call") == true, "the stream gave \(seen)")
        #expect(seen.allSatisfy { RFC3339.parse(String($0.prefix { $0 != " " })) != nil }, "\(seen)")
        await served.close()
    }

    @Test func logsStream_ofAnUnknownService_endsWithNotFound() async throws {
        let served = try await Served([.testd("alpha")])
        do {
            for try await line in served.client.stream(Supervisor.logs, .init(name: "gamma")) {
                Issue.record("an unknown service's log gave \(line.text)")
            }
            Issue.record("an unknown service's log stream ended without an error")
        } catch {
            #expect(error.code == .notFound)
        }
        await served.close()
    }

    @Test func logsStream_endsWhenTheServiceLeavesTheManifest() async throws {
        let served = try await Served([.testd("alpha"), .script("talker", "echo early; exec sleep 30")])
        try await served.harness.waitFor("talker", .ready)
        var lines = served.client.stream(Supervisor.logs, .init(name: "talker", lines: 1)).makeAsyncIterator()
        #expect(eventually { readFile(served.harness.run.log(for: "talker"))?.contains("stdout early") == true })
        served.nextManifest.value.withLock { $0 = Manifest(services: [.testd("alpha")]) }
        let result = try await served.client.call(Supervisor.reload, Empty())
        #expect(result.removed == ["talker"])
        var seen: [String] = []
        while let line = try await lines.next() { seen.append(line.text) }
        #expect(seen.last?.hasSuffix("removed from the manifest") == true, "\(seen)")
        await served.close()
    }

    @Test func watchStream_givesEveryStatus_thenEachChangeOfState() async throws {
        let served = try await Served([.testd("alpha"), .testd("beta", dependsOn: ["alpha"])])
        try await served.harness.waitFor("beta", .ready)
        var states = served.client.stream(Supervisor.watch, Empty()).makeAsyncIterator()
        let first = try #require(try await states.next())
        let second = try #require(try await states.next())
        #expect([first.name, second.name] == ["alpha", "beta"])
        #expect(second.state == .ready)
        _ = try await served.client.call(Supervisor.stop, .init(name: "beta"))
        var changes: [Supervisor.ServiceState] = []
        while let status = try await states.next() {
            #expect(status.name == "beta")
            changes.append(status.state)
            if status.state == .stopped { break }
        }
        #expect(changes == [.stopping, .stopped])
        await served.close()
    }

    /// `logs NAME -f` follows through the supervisor's stream: given a run directory that has
    /// the control socket (a link to it) but no log files, it still prints the service's lines,
    /// old and new, which reading the file could not.
    @Test func logsFollowCommand_printsThroughTheStream_linesWrittenAfterItStarted() async throws {
        let directory = TemporaryDirectory()
        let (served, trigger) = try await Self.talker(in: directory)
        let elsewhere = directory.file("elsewhere")
        #expect(mkdir(elsewhere, 0o755) == 0)
        #expect(symlink(served.harness.run.controlSocket, "\(elsewhere)/supervisor.sock") == 0)

        let output = directory.file("out")
        let cli = try DaemonProcess(
            "/bin/sh",
            [
                "-c", "exec \"$0\" logs talker -f -n 5 --run-dir \"$1\" > \"$2\" 2>&1",
                "\(DaemonProcess.productsDirectory)/svc-supervisor", elsewhere, output,
            ])
        #expect(eventually { readFile(output)?.contains("stdout early") == true }, "\(readFile(output) ?? "")")
        #expect(creat(trigger, 0o644) >= 0)
        #expect(eventually { readFile(output)?.contains("stdout after-the-call") == true }, "\(readFile(output) ?? "")")
        cli.stop()
        await served.close()
    }

    @Test func callCommand_printsEachEventOfAStream_asAJSONLine() async throws {
        let served = try await Served([.testd("alpha")])
        try await served.harness.waitFor("alpha", .ready)
        let directory = TemporaryDirectory()
        // Followed until killed: what it printed by then are the statuses it started with.
        let result = try runCommand(
            "svc-supervisor", ["call", "supervisor", "watch", "--socket-dir", served.harness.run.socketDirectory],
            in: directory, timeout: .seconds(2))
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardOutput)\(result.standardError)")
        let status = try Supervisor.ServiceStatus(json: String(lines.first ?? ""))
        #expect(status.name == "alpha" && status.state == .ready)
        await served.close()
    }
}
