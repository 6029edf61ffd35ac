import Glibc
import Testing
import VerticalsTesting
import VerticalsSharedTesting

extension EngineProcessTests {
    /// `svc-supervisor up` as a real process, on a manifest file.
    @Suite("svc-supervisor up", .blocking)
    struct Daemon {
        /// alpha, beta after it, and a worker with two children of its own.
        private func manifest(in directory: TemporaryDirectory) -> String {
            testdManifest(
                in: directory,
                extra: """
                    depends_on = ["alpha"]
                    [services.worker]
                    executable = "/bin/sh"
                    args = ["-c", "sleep 60 & sleep 60 & wait"]
                    readiness = "none"
                    socket = false
                    """)
        }

        private func allReady(_ directory: TemporaryDirectory, run: String) -> Bool {
            suiteReady(directory, run: run, services: 3)
        }

        @Test func sigkillOfTheSupervisor_leavesNoOrphan_andDownStopsEverything() throws {
            let directory = TemporaryDirectory()
            let run = directory.file("run")
            // DaemonProcess sets VT_TEST_TAG to the run's tag itself: this test's own tag names only its processes.
            let tag = "daemon-\(UInt32.random(in: 0...UInt32.max))"
            let arguments = ["up", "--manifest", manifest(in: directory), "--run-dir", run]
            let first = try DaemonProcess("svc-supervisor", arguments, environment: ["VT_DAEMON_TAG": tag])
            #expect(eventually { allReady(directory, run: run) })
            // alpha, beta, the worker's shell and both its sleeps: the worker is ready once it runs,
            // before its shell has forked them, so wait for them rather than count at once.
            #expect(eventually { EngineHarness.processes(taggedWith: tag, key: "VT_DAEMON_TAG").count >= 5 })

            first.signal(SIGKILL)
            first.waitForExit()
            // vt-exec's PDEATHSIG takes the direct children; the next `up` takes the worker's sleeps.
            #expect(
                eventually(timeout: .seconds(30)) {
                    EngineHarness.processes(taggedWith: tag, key: "VT_DAEMON_TAG").allSatisfy { pid in
                        readFile("/proc/\(pid)/cmdline")?.hasPrefix("sleep") == true
                    }
                })

            let second = try DaemonProcess("svc-supervisor", arguments, environment: ["VT_DAEMON_TAG": tag])
            #expect(eventually { allReady(directory, run: run) })
            let down = try runCommand("svc-supervisor", ["down", "--run-dir", run], in: directory)
            #expect(down.status == 0, "\(down.standardError)")
            #expect(second.waitForExit() != nil && second.exited(with: 0))
            // The worker's sleeps get the group's SIGKILL after its shell is reaped: on a loaded
            // machine one may still be on its way out when `up` has exited.
            #expect(
                eventually { EngineHarness.processes(taggedWith: tag, key: "VT_DAEMON_TAG").isEmpty },
                "left running after down")
            for pid in EngineHarness.processes(taggedWith: tag, key: "VT_DAEMON_TAG") { kill(pid, SIGKILL) }
        }
    }
}
