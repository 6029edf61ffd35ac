import Glibc
import Testing
import VerticalsTesting
import VerticalsSharedTesting

extension EngineProcessTests {
    /// An ordinary user's `up`, with no pointer folder set: its pointer goes to the user's runtime
    /// folder, where `status` from any other folder finds it, and `up` starts without a warning.
    @Suite(
        "a user's suite found from anywhere", .blocking,
        .enabled(
            if: geteuid() != 0,
            "as root, up's pointer is /run/verticals, a real suite's place (SuitePointerTests covers root)"))
    struct UserPointer {
        @Test func aUsersUp_pointsFromItsRuntimeFolder_andStatusFromAnotherFolderFindsIt() throws {
            let directory = TemporaryDirectory()
            let runtime = directory.file("runtime")
            let elsewhere = directory.file("elsewhere")
            mkdir(runtime, 0o700)
            mkdir(elsewhere, 0o755)
            let manifest = directory.file("suite.toml")
            writeText("[services.alpha]\nexecutable = \"vt-testd\"\nargs = [\"alpha\"]\n", to: manifest)
            let run = directory.file("run")
            let log = directory.file("up.log")
            // The harness sets VERTICALS_POINTER_DIR empty (no pointer) for every child: unset, the user's own places.
            let cli = "\(DaemonProcess.productsDirectory)/svc-supervisor"
            let supervisor = try DaemonProcess(
                "/usr/bin/env", ["-u", "VERTICALS_POINTER_DIR", cli, "up", "--manifest", manifest, "--run-dir", run],
                environment: ["XDG_RUNTIME_DIR": runtime], stderrPath: log)
            defer {
                _ = try? runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
                supervisor.waitForExit()
            }
            #expect(eventually { suiteReady(directory, run: run, services: 1) })
            #expect(readFile("\(runtime)/verticals/supervisor-run-dir") == "\(run)\n\(supervisor.pid)\n")

            let status = try runCommand(
                "/bin/sh", ["-c", "cd \"$0\" && exec env -u VERTICALS_POINTER_DIR \"$1\" status", elsewhere, cli],
                environment: ["XDG_RUNTIME_DIR": runtime], in: directory)
            #expect(status.status == 0 && status.standardOutput.contains("alpha "), "\(status.standardError)")
            let down = try runCommand(
                "/bin/sh", ["-c", "cd \"$0\" && exec env -u VERTICALS_POINTER_DIR \"$1\" down", elsewhere, cli],
                environment: ["XDG_RUNTIME_DIR": runtime], in: directory)
            #expect(down.status == 0, "\(down.standardError)")
            #expect(supervisor.waitForExit() != nil && supervisor.exited(with: 0))
            #expect(access("\(runtime)/verticals/supervisor-run-dir", F_OK) != 0, "the pointer outlived its supervisor")
            let said = readFile(log) ?? ""
            #expect(!said.contains("warning"), "up warned: \(said)")
        }
    }
}
