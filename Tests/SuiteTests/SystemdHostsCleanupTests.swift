import Glibc
import Testing
import VerticalsSupervisorClient
import VerticalsTesting

/// A run of `scripts/systemd-hosts.sh up` killed outright in the middle of the boot, as a test
/// process killed by SIGKILL leaves it: its containers keep running, with their overlays,
/// namespaces and veth pair. `scripts/kill-tagged.sh TAG` must end and remove all of it.
///
/// The run gets a tag nested in this run's (`TAG+…`), so that this test's `kill-tagged` spares the
/// test process while the whole run's `kill-tagged` would still find it.
@Suite(
    .blocking,
    .serialized, .timeLimit(.minutes(25)),
    .enabled(if: SystemdHosts.unavailableReason == nil, "two systemd hosts: \(SystemdHosts.unavailableReason ?? "")"))
struct SystemdHostsCleanupTests {
    @Test func upKilledMidBoot_leavesContainersMountsNamespacesAndVeths_thatKillTaggedRemoves() async throws {
        let directory = TemporaryDirectory()
        let work = directory.file("h")
        let tag = "\(TestRunTag.value)+killed\(getpid())"
        let names = "vt" + String(try sha256(of: work + "\n").prefix(8))
        let records = "/run/verticals-systemd-hosts/\(tag)"
        let script = "\(NewCommandTests.repositoryRoot)/scripts/systemd-hosts.sh"
        let killTagged = "\(NewCommandTests.repositoryRoot)/scripts/kill-tagged.sh"

        // `env` carries this run's tag; the script it execs, and all it starts, the nested one.
        let up = try DaemonProcess(
            "/usr/bin/env",
            [
                "VT_TEST_TAG=\(tag)", "VT_HOSTS_MANIFEST=\(SystemdHosts.manifest)",
                "VT_HOSTS_BIN=\(DaemonProcess.productsDirectory)", "/bin/bash", script, "up", work,
            ],
            stderrPath: directory.file("up.log"))
        // Whatever fails below, nothing of the nested run outlives the test (a second run finds nothing).
        defer { _ = try? runCommand("/bin/bash", [killTagged, tag], in: TemporaryDirectory(), timeout: .seconds(180)) }
        let upPID = up.pid
        // Mid-boot: both containers' systemd started, the suite not yet up (no hosts.env). Then the
        // script is killed as its test would be, with no chance to clean up.
        let midBoot = try await offThePool {
            // Every 50 ms: each look reads every process's environment. Minutes when the Debian root
            // is not cached yet (debootstrap), seconds once it is.
            let deadline = ContinuousClock.now + .seconds(1200)
            while ContinuousClock.now < deadline, Self.containers(of: names).count < 2, !Self.hasExited(upPID) {
                usleep(50_000)
            }
            let caught = Self.containers(of: names).count >= 2 && access("\(work)/hosts.env", F_OK) != 0
            kill(upPID, SIGKILL)
            return caught
        }
        up.waitForExit(timeout: .seconds(10))
        #expect(midBoot, "the hosts were not caught booting: \(readFile(directory.file("up.log")) ?? "")")

        // What the killed run left.
        #expect(Self.containers(of: names).count >= 2)
        #expect(mounts(under: work).count == 2)
        #expect(namespaces(named: names).count == 2)
        #expect(access("\(records)/\(names.dropFirst(2))", F_OK) == 0, "no record of \(work) in \(records)")

        let killed = try await offThePool {
            try runCommand("/bin/bash", [killTagged, tag], in: TemporaryDirectory(), timeout: .seconds(180))
        }
        #expect(killed.status == 0)
        #expect(
            killed.standardError.contains("taking down leftover systemd hosts in \(work)"), "\(killed.standardError)")

        #expect(Self.containers(of: names).isEmpty)
        #expect(mounts(under: work).isEmpty)
        #expect(namespaces(named: names).isEmpty)
        let veths = try runCommand("/usr/sbin/ip", ["-o", "link", "show"], in: directory).standardOutput
        #expect(!veths.contains(names), "\(veths)")
        #expect(access(work, F_OK) != 0, "\(work) is still there")
        #expect(access(records, F_OK) != 0, "\(records) is still there")
        #expect(Self.processes(with: "VT_TEST_TAG=\(tag)").isEmpty)
    }

    /// The first 64 hex digits of `text`'s SHA-256, as `sha256sum` prints them.
    private func sha256(of text: String) throws -> String {
        let result = try runCommand("/usr/bin/sha256sum", [], in: TemporaryDirectory(), standardInput: text)
        return String(result.standardOutput.prefix(64))
    }

    /// Whether `pid` has exited (a zombie not yet waited for counts).
    private static func hasExited(_ pid: pid_t) -> Bool {
        guard let stat = readFile("/proc/\(pid)/stat"), let end = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: end)...].hasPrefix(" Z")
    }

    /// The pids whose environment holds `VARIABLE=VALUE`.
    private static func processes(with entry: String) -> [String] {
        FolderEntries.names(in: "/proc").filter { $0.allSatisfy(\.isNumber) }.filter { pid in
            guard let environ = readFile("/proc/\(pid)/environ") else { return false }
            return environ.split(separator: "\0").contains { $0 == entry }
        }
    }

    /// The containers' PID 1s of the hosts named `names` (`systemd-hosts.sh` tags them).
    private static func containers(of names: String) -> [String] {
        processes(with: "VT_SYSTEMD_HOSTS=\(names.dropFirst(2))")
    }

    /// The mount points under `folder`.
    private func mounts(under folder: String) -> [Substring] {
        (readFile("/proc/self/mountinfo") ?? "").split(separator: "\n").compactMap { line in
            let point = line.split(separator: " ").dropFirst(4).first
            return point.map { $0.hasPrefix(folder + "/") ? $0 : nil } ?? nil
        }
    }

    /// The network namespaces whose names start with `names`.
    private func namespaces(named names: String) -> [String] {
        FolderEntries.names(in: "/run/netns").filter { $0.hasPrefix(names) }
    }
}
