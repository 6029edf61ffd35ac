import Testing
import VerticalsSharedTesting
import VerticalsContract
import VerticalsSupervisorClient
import VerticalsTesting

extension EngineProcessTests {
    /// Two suites on one machine and one CLI: `up` says when its suite is ready and when it takes
    /// the CLI's pointer from a suite still running (naming it), and `status` names the suite it shows.
    @Suite("Two suites, one CLI", .blocking)
    struct TwoSuites {
        @Test func up_saysWhenReadyAndWhoseCLIItTakes_andStatusNamesTheSuiteItShows() throws {
            let directory = TemporaryDirectory()
            let manifest = testdManifest(in: directory)
            let pointers = directory.file("pointers")
            let environment = [SuitePointer.folderVariable: pointers, DaemonSettings.logLevel.name: "info"]
            let (firstRun, secondRun) = (directory.file("run1"), directory.file("run2"))
            let (firstLog, secondLog) = (directory.file("up1.log"), directory.file("up2.log"))

            /// `up` on `run`, its output in `log`, once it said its services are ready.
            func up(_ run: String, log: String) throws -> DaemonProcess {
                let supervisor = try DaemonProcess(
                    "svc-supervisor", ["up", "--manifest", manifest, "--run-dir", run], environment: environment,
                    stderrPath: log)
                #expect(
                    eventually(timeout: .seconds(60)) { readFile(log)?.contains("all 2 services ready in ") == true },
                    "\(readFile(log) ?? "")")
                return supervisor
            }
            let first = try up(firstRun, log: firstLog)
            defer {
                _ = try? runCommand("svc-supervisor", ["down", "--run-dir", firstRun], in: directory)
                first.waitForExit()
            }
            #expect(readFile(firstLog)?.contains("the CLI now reaches") == false, "no other suite ran")

            let second = try up(secondRun, log: secondLog)
            defer {
                _ = try? runCommand("svc-supervisor", ["down", "--run-dir", secondRun], in: directory)
                second.waitForExit()
            }
            let taken =
                "the CLI now reaches this suite, not the one still running at \(firstRun) (svc-supervisor pid \(first.pid))"
            #expect(readFile(secondLog)?.contains(taken) == true, "\(readFile(secondLog) ?? "")")

            // Without --run-dir the CLI shows the suite started last, and says so; with it, the one named.
            let latest = try runCommand(
                "svc-supervisor", ["status"], environment: [SuitePointer.folderVariable: pointers], in: directory)
            #expect(latest.status == 0, "\(latest.standardError)")
            #expect(
                latest.standardOutput.hasPrefix(
                    "suite at \(secondRun) (the last `up` started; --run-dir DIR for another)\nNAME "),
                "\(latest.standardOutput)")
            let named = try runCommand("svc-supervisor", ["status", "--run-dir", firstRun], in: directory)
            #expect(named.standardOutput.hasPrefix("suite at \(firstRun)\nNAME "), "\(named.standardOutput)")
        }
    }
}
