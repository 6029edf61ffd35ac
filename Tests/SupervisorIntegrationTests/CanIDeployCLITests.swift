import Foundation
import Glibc
import Testing
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsTestSupport
import VerticalsTesting
import VerticalsWire
import VerticalsSharedTesting

/// `svc-supervisor can-i-deploy` against a running suite of vt-testd verticals: `alpha` calls
/// `beta.echo` (its `--describe` says so; the manifest's `depends_on` too). A "new build" is a
/// script printing a build description the test made, run as untrusted code (as the manifest's user
/// when root).
@Suite("svc-supervisor can-i-deploy", .blocking, .serialized, .timeLimit(.minutes(3)))
struct CanIDeployCLITests {
    final class RunningSuite {
        let directory = TemporaryDirectory()
        let supervisor: DaemonProcess
        var run: String { directory.file("run") }
        var manifest: String { directory.file("suite.toml") }

        init() throws {
            // Readable by `nobody` and `games` (Debian's unprivileged accounts, one per service), who
            // run the new builds when the test runs as root; the verticals themselves run as the
            // tests' user (VERTICALS_SERVICE_USERS=off).
            chmod(directory.path, 0o755)
            supervisor = try DaemonProcess(
                "svc-supervisor",
                ["up", "--manifest", relayManifest(in: directory), "--run-dir", directory.file("run")])
            #expect(
                eventually { suiteReady(self.directory, run: self.run, services: 2) }, "the suite never became ready")
        }

        /// A new build: a script that prints `build`'s `--describe` output.
        func newBuild(_ name: String, _ build: BuildDescription) throws -> String {
            let json = directory.file("\(name).json")
            writeText(try build.printed(), to: json)
            chmod(json, 0o644)
            let script = directory.file(name)
            writeText("#!/bin/sh\nexec /bin/cat \(json)\n", to: script)
            chmod(script, 0o755)
            return script
        }

        func canIDeploy(_ arguments: [String]) throws -> CommandResult {
            try runCommand(
                "svc-supervisor", ["can-i-deploy"] + arguments + ["--manifest", manifest, "--run-dir", run],
                in: directory)
        }

        deinit {
            _ = try? runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
            supervisor.waitForExit()
        }
    }

    /// A build of `name` serving TestEcho and calling `calls`.
    static func build(_ name: String, calls: Callees? = Callees.none) -> BuildDescription {
        BuildDescription.of(name: name, summary: "", operations: TestEcho(service: name).operations, calls: calls)
    }

    /// `build`, built against a beta whose echo Output had a required field beta does not send.
    static func builtAgainstANewerBeta(_ build: BuildDescription) -> BuildDescription {
        var build = build
        let output = TestEcho.EchoOutput.schema.name
        for index in build.callees.indices where build.callees[index].name == "beta" {
            for message in build.callees[index].messages.indices
            where build.callees[index].messages[message].name == output {
                build.callees[index].messages[message].fields.append(
                    .init(tag: 99, name: "shard", type: "string", presence: .required))
            }
        }
        return build
    }

    @Test func aNewCaller_isJudgedAgainstItsRunningCallee_yesNoAndUnreachable() throws {
        let suite = try RunningSuite()
        let beta = Callees(TestEcho(service: "beta").echo)

        let same = try suite.canIDeploy([
            "alpha", "--executable", try suite.newBuild("alpha-same", Self.build("alpha", calls: beta)),
        ])
        #expect(same.status == 0, "\(same.standardOutput)\(same.standardError)")
        #expect(same.standardOutput.hasPrefix("yes"), "\(same.standardOutput)")

        let newer = try suite.newBuild("alpha-newer", Self.builtAgainstANewerBeta(Self.build("alpha", calls: beta)))
        let broken = try suite.canIDeploy(["alpha", "--executable", newer])
        #expect(broken.status == 2, "\(broken.standardOutput)\(broken.standardError)")
        #expect(broken.standardOutput.contains("alpha → beta: BREAKS"), "\(broken.standardOutput)")
        #expect(broken.standardOutput.contains("EchoOutput.shard"), "\(broken.standardOutput)")

        let json = try suite.canIDeploy(["alpha", "--executable", newer, "--json"])
        #expect(json.status == 2)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(document["answer"] as? String == "no")
        let edges = try #require(document["edges"] as? [[String: Any]])
        #expect(
            edges.contains {
                $0["caller"] as? String == "alpha" && $0["callee"] as? String == "beta"
                    && $0["outcome"] as? String == "breaking"
            })

        let gamma = Callees(TestEcho(service: "beta").echo, TestEcho(service: "gamma").echo)
        let unreachable = try suite.canIDeploy([
            "alpha", "--executable", try suite.newBuild("alpha-gamma", Self.build("alpha", calls: gamma)),
        ])
        #expect(unreachable.status == 4, "\(unreachable.standardOutput)\(unreachable.standardError)")
        #expect(
            unreachable.standardOutput.contains("alpha → gamma: not checked: gamma cannot be reached"),
            "\(unreachable.standardOutput)")
    }

    @Test func upgrade_refusesABuildThatBreaksARunningCallee_unlessForced() throws {
        let suite = try RunningSuite()
        let beta = Callees(TestEcho(service: "beta").echo)
        let newer = try suite.newBuild("alpha-newer", Self.builtAgainstANewerBeta(Self.build("alpha", calls: beta)))

        let refused = try runCommand(
            "svc-supervisor", ["upgrade", "alpha", "--executable", newer, "--run-dir", suite.run], in: suite.directory)
        #expect(refused.status == 2, "\(refused.standardOutput)\(refused.standardError)")
        #expect(
            refused.standardError.contains("alpha → beta: BREAKS")
                && refused.standardError.contains("EchoOutput.shard"),
            "\(refused.standardError)")

        // Forced, the check is skipped and the build is started: a script, not a daemon, so the
        // upgrade fails before the hand-over (status 1), and the old process serves on.
        let forced = try runCommand(
            "svc-supervisor", ["upgrade", "alpha", "--executable", newer, "--force", "--run-dir", suite.run],
            in: suite.directory)
        #expect(forced.status == 1, "\(forced.standardOutput)\(forced.standardError)")
        #expect(
            forced.standardError.contains("before the hand-over") && !forced.standardError.contains("BREAKS"),
            "\(forced.standardError)")
    }

    @Test func aNewCallee_isJudgedAgainstWhatItsRunningCallerWasBuiltAgainst() throws {
        let suite = try RunningSuite()
        var dropped = Self.build("beta")
        let output = TestEcho.EchoOutput.schema.name
        let index = try #require(dropped.serves.messages.firstIndex { $0.name == output })
        dropped.serves.messages[index].fields.removeAll { $0.name == "servedBy" }

        let result = try suite.canIDeploy(["beta", "--executable", try suite.newBuild("beta-dropped", dropped)])

        // Under the tests as root the verticals run as root (VERTICALS_SERVICE_USERS=off), and a
        // running caller's build is run as its manifest user (nobody), who may not follow root's
        // process's /proc/PID/exe: its build is described by the path it runs from, the same file.
        #expect(result.status == 2, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("alpha → beta: BREAKS"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("servedBy"), "\(result.standardOutput)")
        let same = try suite.canIDeploy(["beta", "--executable", try suite.newBuild("beta-same", Self.build("beta"))])
        #expect(same.status == 0, "\(same.standardOutput)\(same.standardError)")
    }

    /// Where no supervisor answers (systemd's units, or nothing runs), a caller is judged by its
    /// program on disk, not refused as "no supervisor".
    @Test func withoutASupervisor_aCallerIsJudgedByItsProgramOnDisk() throws {
        let directory = TemporaryDirectory()
        chmod(directory.path, 0o755)
        writeText(
            """
            [services.alpha]
            executable = "vt-testd"
            depends_on = ["beta"]
            user = "nobody"
            [services.beta]
            executable = "vt-testd"
            user = "games"

            """, to: directory.file("suite.toml"))
        var dropped = Self.build("beta")
        let output = TestEcho.EchoOutput.schema.name
        let index = try #require(dropped.serves.messages.firstIndex { $0.name == output })
        dropped.serves.messages[index].fields.removeAll { $0.name == "servedBy" }
        let json = directory.file("beta.json")
        writeText(try dropped.printed(), to: json)
        chmod(json, 0o644)
        let script = directory.file("beta-dropped")
        writeText("#!/bin/sh\nexec /bin/cat \(json)\n", to: script)
        chmod(script, 0o755)

        let result = try runCommand(
            "svc-supervisor",
            [
                "can-i-deploy", "beta", "--executable", script, "--manifest", directory.file("suite.toml"),
                "--run-dir", directory.file("run"),
            ], in: directory)

        #expect(result.status != 69, "\(result.standardOutput)\(result.standardError)")
        #expect(
            result.standardError.contains("judged by its program on disk")
                || result.standardError.contains("systemd's units"), "\(result.standardError)")
        if geteuid() == 0 {
            // As root, `nobody` describes the caller's program, which it may not reach in every checkout.
            #expect(
                result.standardOutput.contains("alpha → beta: BREAKS")
                    || result.standardOutput.contains("alpha → beta: not checked"), "\(result.standardOutput)")
        } else {
            #expect(result.status == 2, "\(result.standardOutput)\(result.standardError)")
            #expect(result.standardOutput.contains("alpha → beta: BREAKS"), "\(result.standardOutput)")
        }
    }

    @Test func aBuildThatCannotDescribeItself_orAnUnknownService_isATypedRefusal() throws {
        let suite = try RunningSuite()
        let script = suite.directory.file("broken")
        writeText("#!/bin/sh\necho 'not a build' >&2\nexit 3\n", to: script)
        chmod(script, 0o755)

        let broken = try suite.canIDeploy(["alpha", "--executable", script])
        #expect(broken.status == 1, "\(broken.standardError)")
        #expect(
            broken.standardError.contains("cannot describe itself") && broken.standardError.contains("status 3"),
            "\(broken.standardError)")

        let unknown = try suite.canIDeploy(["gamma", "--executable", script])
        #expect(unknown.status == 64, "\(unknown.standardError)")
    }
}
