import Glibc
import Testing
import VerticalsTesting
import VerticalsSharedTesting

extension EngineProcessTests {
    /// `svc-supervisor` with one set of manners, against a real `up`: found from any folder through
    /// its pointer, sysexits for unknown names and failed services, `start` that waits, a status
    /// table that fits, and one line per crash, restart and give-up on up's own output.
    @Suite("svc-supervisor's manners with a supervisor", .blocking)
    struct CLIManners {
        static let longReason =
            "cannot open the store at /var/lib/verticals/flaky/flaky.sqlite: another process holds it, "
            + "and this sentence goes on long enough to push every other column off a terminal"

        private func manifest(in directory: TemporaryDirectory, extra: String = "") -> String {
            let path = directory.file("suite.toml")
            writeText(
                """
                [services.alpha]
                executable = "vt-testd"
                args = ["alpha"]
                """ + extra, to: path)
            return path
        }

        /// Runs `body` with a directory and the run directory of an `up` on the manifest (alpha
        /// plus `extra`; with `pointers`, its pointer in `<directory>/pointers`); `down` afterwards,
        /// whatever happens.
        private func withSuite(
            extra: String = "", pointers: Bool = false,
            _ body: (TemporaryDirectory, String, DaemonProcess) throws -> Void
        ) throws {
            let directory = TemporaryDirectory()
            let run = directory.file("run")
            let supervisor = try DaemonProcess(
                "svc-supervisor", ["up", "--manifest", manifest(in: directory, extra: extra), "--run-dir", run],
                environment: pointers ? ["VERTICALS_POINTER_DIR": directory.file("pointers")] : [:])
            defer {
                _ = try? runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
                supervisor.waitForExit()
            }
            try body(directory, run, supervisor)
        }

        /// A service that says why on stderr, exits 3 before it is ready, and is not restarted.
        private var flaky: String {
            """

            [services.flaky]
            executable = "/bin/sh"
            args = ["-c", "echo '\(Self.longReason)' >&2; exit 3"]
            socket = false
            restart = "never"
            """
        }

        @Test func everyCommand_fromAnotherFolder_findsTheRunningUp_throughItsPointer_removedOnDown() throws {
            try withSuite(pointers: true) { directory, run, supervisor in
                let pointers = directory.file("pointers")
                let elsewhere = directory.file("elsewhere")
                _ = mkdir(elsewhere, 0o755)
                #expect(eventually { suiteReady(directory, run: run, services: 1) })
                #expect(readFile("\(pointers)/supervisor-run-dir") == "\(run)\n\(supervisor.pid)\n")
                let environment = ["VERTICALS_POINTER_DIR": pointers]

                let status = try runIn(elsewhere, ["status"], environment: environment, directory)
                #expect(status.status == 0, "\(status.standardError)")
                #expect(status.standardOutput.contains("alpha "))
                let describe = try runIn(elsewhere, ["describe", "alpha"], environment: environment, directory)
                #expect(describe.status == 0, "\(describe.standardError)")
                let level = try runIn(elsewhere, ["log-level", "alpha"], environment: environment, directory)
                #expect(level.status == 0 && level.standardOutput.hasPrefix("alpha: "), "\(level.standardError)")

                // The environment comes before the pointer.
                let named = try runIn(
                    elsewhere, ["status"], environment: environment.merging(["VERTICALS_RUN_DIR": elsewhere]) { $1 },
                    directory)
                #expect(named.status == 69)
                #expect(
                    named.standardError.contains("no supervisor at \(elsewhere)/supervisor.sock"),
                    "\(named.standardError)")

                let down = try runIn(elsewhere, ["down"], environment: environment, directory)
                #expect(down.status == 0, "\(down.standardError)")
                #expect(supervisor.waitForExit() != nil && supervisor.exited(with: 0))
                #expect(access("\(pointers)/supervisor-run-dir", F_OK) != 0, "the pointer outlived its supervisor")
            }
        }

        @Test func aSecondUp_takesThePointer_andGivesItBackWhenItStops() throws {
            try withSuite(pointers: true) { directory, run, first in
                let pointers = directory.file("pointers")
                #expect(eventually { suiteReady(directory, run: run, services: 1) })
                let secondRun = directory.file("run2")
                let second = try DaemonProcess(
                    "svc-supervisor", ["up", "--manifest", directory.file("suite.toml"), "--run-dir", secondRun],
                    environment: ["VERTICALS_POINTER_DIR": pointers])
                defer {
                    _ = try? runCommand("svc-supervisor", ["down", "--run-dir", secondRun], in: directory)
                    second.waitForExit()
                }
                #expect(eventually { readFile("\(pointers)/supervisor-run-dir") == "\(secondRun)\n\(second.pid)\n" })
                #expect(try runCommand("svc-supervisor", ["down", "--run-dir", secondRun], in: directory).status == 0)
                #expect(second.waitForExit() != nil)
                #expect(readFile("\(pointers)/supervisor-run-dir") == "\(run)\n\(first.pid)\n")
            }
        }

        @Test(arguments: [
            ["restart", "nosuch"], ["stop", "nosuch"], ["start", "nosuch"], ["status", "nosuch"],
            ["describe", "nosuch"], ["log-level", "nosuch"], ["logs", "nosuch"], ["logs", "nosuch", "-f"],
        ])
        func anUnknownService_exits64_forEveryCommand(command: [String]) throws {
            try withSuite { directory, run, _ in
                #expect(eventually { suiteReady(directory, run: run, services: 1) })
                let result = try runCommand("svc-supervisor", command + ["--run-dir", run], in: directory)
                #expect(result.status == 64, "\(result.standardError)")
                #expect(result.standardError.contains("\"nosuch\"") && result.standardError.contains("alpha"))
            }
        }

        @Test func status_ofAFailedService_exits3_shortensTheTable_andShowsTheReasonInFull() throws {
            try withSuite(extra: flaky) { directory, run, _ in
                func status(_ arguments: [String] = []) -> CommandResult? {
                    try? runCommand(
                        "svc-supervisor", ["status"] + arguments + ["--run-dir", run], environment: ["COLUMNS": "120"],
                        in: directory)
                }
                #expect(eventually { status()?.standardOutput.contains(" failed ") == true })
                let table = try #require(status())
                #expect(table.status == 3, "\(table.standardError)")
                let lines = table.standardOutput.split(separator: "\n")
                #expect(lines.allSatisfy { $0.count <= 120 }, "\(table.standardOutput)")
                #expect(lines.contains { $0.hasPrefix("flaky ") && $0.contains("…") }, "\(table.standardOutput)")

                let one = try #require(status(["flaky"]))
                #expect(one.status == 3)
                #expect(one.standardOutput.contains(Self.longReason), "\(one.standardOutput)")
                let json = try #require(status(["--json"]))
                #expect(json.status == 3)
                #expect(json.standardOutput.contains(Self.longReason))
                let healthy = try #require(status(["alpha"]))
                #expect(healthy.status == 0, "only a failed service (or NAME) makes status non-zero")
            }
        }

        @Test func start_waitsUntilReadyOrFailed_andSaysWhich() throws {
            try withSuite(extra: flaky) { directory, run, _ in
                #expect(
                    eventually {
                        (try? runCommand("svc-supervisor", ["status", "--run-dir", run], in: directory))?.status == 3
                    })
                #expect(
                    try runCommand("svc-supervisor", ["stop", "alpha", "--run-dir", run], in: directory).status == 0)

                let started = try runCommand("svc-supervisor", ["start", "alpha", "--run-dir", run], in: directory)
                #expect(started.status == 0, "\(started.standardError)")
                #expect(started.standardOutput.hasPrefix("alpha: ready (pid "), "\(started.standardOutput)")

                let failed = try runCommand("svc-supervisor", ["start", "flaky", "--run-dir", run], in: directory)
                #expect(failed.status == 1)
                #expect(failed.standardError.contains("flaky failed: exited with status 3"), "\(failed.standardError)")

                let atOnce = try runCommand(
                    "svc-supervisor", ["start", "flaky", "--no-wait", "--run-dir", run], in: directory)
                #expect(atOnce.status == 0, "\(atOnce.standardError)")
                #expect(!atOnce.standardOutput.contains("ready"), "\(atOnce.standardOutput)")
            }
        }

        @Test func start_thatOutlastsItsWait_exits75_sayingWhereItIs() throws {
            let slow = """

                [services.slow]
                executable = "/bin/sh"
                args = ["-c", "sleep 60"]
                socket = false
                """
            try withSuite(extra: slow) { directory, run, _ in
                #expect(
                    eventually {
                        let table = try? runCommand("svc-supervisor", ["status", "--run-dir", run], in: directory)
                        return table?.standardOutput.split(separator: "\n").contains {
                            $0.hasPrefix("slow ") && $0.contains(" starting ")
                        } == true
                    })
                #expect(
                    try runCommand("svc-supervisor", ["stop", "slow", "--run-dir", run], in: directory).status == 0)
                let result = try runCommand(
                    "svc-supervisor", ["start", "slow", "--wait", "0.3", "--run-dir", run], in: directory)
                #expect(result.status == 75)
                #expect(result.standardError.contains("slow is still starting after 0.3s"), "\(result.standardError)")
            }
        }

        @Test func foregroundUp_printsOneLinePerCrashRestartAndGiveUp() throws {
            let directory = TemporaryDirectory()
            let run = directory.file("run")
            let output = directory.file("up.err")
            let crashy = """

                [services.crashy]
                executable = "/bin/sh"
                args = ["-c", "exit 3"]
                socket = false
                restart = "always"
                backoff = { initial = "10ms", max = "10ms" }
                budget = { restarts = 2, window = "60s" }
                """
            let command =
                "exec '\(DaemonProcess.productsDirectory)/svc-supervisor' up"
                + " --manifest '\(manifest(in: directory, extra: crashy))' --run-dir '\(run)' 2>'\(output)'"
            let supervisor = try DaemonProcess(
                "/bin/sh", ["-c", command], environment: ["VERTICALS_LOG_LEVEL": "info"])
            defer {
                _ = try? runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
                supervisor.waitForExit()
            }
            #expect(eventually { readFile(output)?.contains("crashy failed: ") == true }, "\(readFile(output) ?? "")")
            let lines = (readFile(output) ?? "").split(separator: "\n").filter { $0.contains("crashy") }
            #expect(lines.filter { $0.contains("crashy exited with status 3; restart ") }.count == 2, "\(lines)")
            #expect(lines.filter { $0.contains("crashy: restarting (restart ") }.count == 2, "\(lines)")
            #expect(
                lines.filter { $0.contains("crashy failed: exited with status 3; restarted 2 times") }.count == 1,
                "\(lines)")
        }
    }
}
