import Glibc
import Synchronization
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTestSupport
import VerticalsTesting
import VerticalsWire
import VerticalsSharedTesting

/// One vertical at a time, under load: `alpha` relays every call to `beta.echo`, and each is
/// upgraded in turn between two contract versions of the same program (vt-testd's
/// `VT_TESTD_CONTRACT`: version 2 adds an optional field to echo's Input and Output; beta's also
/// migrates its store), so every old/new pair of caller and callee meets while calls flow. None
/// may fail. The old beta refuses the migrated store and never takes over. A third build breaks
/// echo's Input: `can-i-deploy` and `upgrade` refuse it, and forced in, it takes none of the
/// calls it cannot read: the caller refuses them at connect (`daemon.contractCheck`).
/// `make soak-versions` is the long run of the same idea on the reference suite.
@Suite("A mixed-version suite under load", .blocking, .serialized, .timeLimit(.minutes(4)))
struct MixedVersionTests {
    /// The calls made through `alpha.relay` while the test runs, and how each ended.
    final class Load: Sendable {
        let made = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let stopped = Atomic<Bool>(false)
    }

    /// Calls `alpha.relay` → `beta.echo` one after another until `load.stopped`.
    static func drive(_ client: ServiceClient, _ load: Load) async {
        var index = 0
        while !load.stopped.load(ordering: .relaxed) {
            index += 1
            do {
                let answer = try await client.call(
                    TestEcho(service: "alpha").relay, .init(target: "beta", text: "call \(index)"),
                    timeout: .seconds(20))
                if answer.echoed.text != "call \(index)" {
                    load.failures.withLock { $0.append("call \(index) answered \(answer.echoed.text)") }
                }
            } catch {
                load.failures.withLock { $0.append("call \(index): \(error)") }
            }
            load.made.add(1, ordering: .relaxed)
        }
    }

    @Test func everyPairMeetsUnderLoad_noCallFails_andABreakingBuildTakesNoCall() async throws {
        let directory = TemporaryDirectory()
        // Readable by `nobody` and `games`, who run the services when the test runs as root.
        chmod(directory.path, 0o755)
        let manifest = relayManifest(in: directory, betaExtra: #"env = { VT_TESTD_MIGRATIONS = "1" }"#)
        // A build of one vertical in one contract version: a script, as `--describe` runs it
        // without the manifest's arguments and with an empty environment.
        // Beta's version 2 also migrates its store.
        func build(_ service: String, _ version: String) -> String {
            let script = directory.file("\(service)-\(version)")
            let migrations = service == "beta" && version != "1" ? "VT_TESTD_MIGRATIONS=2 " : ""
            writeText(
                "#!/bin/sh\nVT_TESTD_NAME=\(service) VT_TESTD_CONTRACT=\(version) \(migrations)"
                    + "exec \(DaemonProcess.productsDirectory)/vt-testd \"$@\"\n",
                to: script)
            chmod(script, 0o755)
            return script
        }
        let run = directory.file("run")
        let supervisor = try DaemonProcess(
            "svc-supervisor", ["up", "--manifest", manifest, "--run-dir", run])
        defer {
            _ = try? runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
            supervisor.waitForExit()
        }
        #expect(eventually { suiteReady(directory, run: run, services: 2) }, "the suite never became ready")

        let loop = try EventLoop(name: "mixed-versions")
        let sockets = SocketDirectory(run + "/sockets")
        let client = ServiceClient(loop: loop, sockets: sockets, defaultTimeout: .seconds(20))
        defer {
            client.close()
            loop.shutdown()
        }
        let load = Load()
        let driver = Task { await Self.drive(client, load) }

        // A caller ahead of its callee, both new, then the caller back: every pair meets.
        var met: [String] = ["alpha 1 → beta 1"]
        let steps: [(service: String, version: String, pair: String)] = [
            ("alpha", "2", "alpha 2 → beta 1"), ("beta", "2", "alpha 2 → beta 2"), ("alpha", "1", "alpha 1 → beta 2"),
        ]
        for step in steps {
            let before = load.made.load(ordering: .relaxed)
            #expect(
                await eventuallyAsync { load.made.load(ordering: .relaxed) > before + 20 },
                "calls stopped flowing before \(step.pair)")
            let upgrade = try runCommand(
                "svc-supervisor",
                ["upgrade", step.service, "--executable", build(step.service, step.version), "--run-dir", run],
                in: directory)
            #expect(upgrade.status == 0, "upgrade to \(step.pair): \(upgrade.standardOutput)\(upgrade.standardError)")
            met.append(step.pair)
        }
        // Beta back to version 1: its store is migrated past what it knows, so the old build
        // refuses it before it serves, says why, and version 2 is started again.
        let back = try runCommand(
            "svc-supervisor", ["upgrade", "beta", "--executable", build("beta", "1"), "--run-dir", run], in: directory)
        #expect(back.status == 1, "\(back.standardOutput)\(back.standardError)")
        #expect(back.standardError.contains("newer schema than this build knows"), "\(back.standardError)")
        #expect(back.standardError.contains("rolled back: \(build("beta", "2")) serves again"), "\(back.standardError)")
        let beforeBreaking = load.made.load(ordering: .relaxed)
        #expect(
            await eventuallyAsync { load.made.load(ordering: .relaxed) > beforeBreaking + 20 }, "calls stopped flowing")

        // The breaking build: refused before it runs, by both.
        let asked = try runCommand(
            "svc-supervisor",
            [
                "can-i-deploy", "beta", "--executable", build("beta", "breaking"), "--manifest",
                manifest,
                "--run-dir", run,
            ],
            in: directory)
        #expect(asked.status == 2, "can-i-deploy: \(asked.standardOutput)\(asked.standardError)")
        #expect(asked.standardOutput.contains("alpha → beta: BREAKS"), "\(asked.standardOutput)")
        let refused = try runCommand(
            "svc-supervisor", ["upgrade", "beta", "--executable", build("beta", "breaking"), "--run-dir", run],
            in: directory)
        #expect(refused.status == 2, "\(refused.standardOutput)\(refused.standardError)")

        load.stopped.store(true, ordering: .relaxed)
        await driver.value
        let made = load.made.load(ordering: .relaxed)
        let failures = load.failures.withLock { $0 }
        #expect(made > 100, "only \(made) calls were made")
        #expect(failures.isEmpty, "\(failures.count) of \(made) calls failed; pairs met: \(met): \(failures.prefix(5))")

        // Forced in, the breaking beta serves, but alpha refuses at connect every call beta
        // could not read: not one reaches beta's echo.
        let forced = try runCommand(
            "svc-supervisor",
            ["upgrade", "beta", "--executable", build("beta", "breaking"), "--force", "--run-dir", run],
            in: directory)
        #expect(forced.status == 0, "\(forced.standardOutput)\(forced.standardError)")
        let error = await #expect(throws: ServiceError.self) {
            try await client.call(TestEcho(service: "alpha").relay, .init(target: "beta", text: "after the break"))
        }
        #expect(error?.code == .unimplemented, "\(String(describing: error))")
        #expect(error?.details.contains { $0.key == "incompatibleContract" } == true, "\(String(describing: error))")
        #expect(
            error?.details.contains(ErrorDetail("field", "test.EchoInput.volume")) == true,
            "\(String(describing: error))")
        #expect(try await ServedRequests.count(of: "beta.echo", service: "beta", sockets: sockets) == 0)

        // alpha says so where no supervisor would: in its daemon.health.
        let body = try await client.callRaw(
            service: "alpha", operation: Daemon.health.fullName, body: Empty().encodedBody())
        let health = try Daemon.Health(decoding: body)
        #expect(health.callees.first { $0.service == "beta" }?.state == "incompatible", "\(health.callees)")
        #expect(health.callees.first { $0.service == "beta" }?.refused == ["beta.echo"], "\(health.callees)")
        // And in its status line.
        #expect(
            eventually {
                (try? runCommand("svc-supervisor", ["status", "--run-dir", run], in: directory))?.standardOutput
                    .contains("refusing 1 operation of beta") == true
            }, "alpha's status line never said what it refuses")
    }
}
