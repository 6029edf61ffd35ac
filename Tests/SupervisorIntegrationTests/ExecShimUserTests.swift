import Glibc
import Testing
import VerticalsTesting

/// vt-exec's step 6, `--user UID --group GID [--groups GID,…]`: the program runs as that user,
/// with exactly those supplementary groups, no new privileges, and its parent-death signal set
/// again after the uid change (which clears it). Uids need no passwd entry.
@Suite(.blocking, .serialized) struct ExecShimUserTests {
    let directory = TemporaryDirectory()

    func shim(_ options: [String], script: String) throws -> CommandResult {
        try runCommand(
            "vt-exec", options + ["--", "/bin/sh", "-c", script], in: directory, timeout: .seconds(10))
    }

    /// Words after `Name:` in the program's /proc/self/status, one line per name.
    static let statusScript = "grep -E '^(Uid|Gid|Groups|NoNewPrivs):' /proc/self/status"

    @Test(.enabled(if: geteuid() == 0, "needs root to change uid"))
    func user_group_groups_noNewPrivs_andPdeathsigKept() throws {
        chmod(directory.path, 0o755)
        let result = try shim(
            ["--pdeathsig", "SIGTERM", "--user", "4244", "--group", "4245", "--groups", "4246,4247"],
            script: Self.statusScript)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map { $0.split(whereSeparator: \.isWhitespace) }
        #expect(lines.first { $0.first == "Uid:" }?.dropFirst() == ["4244", "4244", "4244", "4244"])
        #expect(lines.first { $0.first == "Gid:" }?.dropFirst() == ["4245", "4245", "4245", "4245"])
        #expect(lines.first { $0.first == "Groups:" }?.dropFirst() == ["4246", "4247"])
        #expect(lines.first { $0.first == "NoNewPrivs:" }?.dropFirst() == ["1"])
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to change uid"))
    func withoutGroups_theSupervisorsSupplementaryGroupsAreDropped() throws {
        chmod(directory.path, 0o755)
        let result = try runCommand(
            "/usr/bin/setpriv",
            [
                "--groups=10,20", "\(DaemonProcess.productsDirectory)/vt-exec", "--user", "4244", "--group", "4245",
                "--",
                "/bin/sh", "-c", "grep '^Groups:' /proc/self/status",
            ], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.split(whereSeparator: \.isWhitespace) == ["Groups:"], "\(result.standardOutput)")
    }

    /// The parent-death signal survives the uid change: vt-exec sets it again afterwards.
    @Test(.enabled(if: geteuid() == 0, "needs root to change uid"))
    func pdeathsig_isSetAgainAfterTheUserChange() throws {
        chmod(directory.path, 0o755)
        // A Python one-liner reads prctl(PR_GET_PDEATHSIG) of the exec'd program.
        let python = """
            import ctypes; v = ctypes.c_int(); ctypes.CDLL(None).prctl(2, ctypes.byref(v)); print(v.value)
            """
        let result = try runCommand(
            "vt-exec",
            ["--pdeathsig", "SIGTERM", "--user", "4244", "--group", "4245", "--", "/usr/bin/python3", "-c", python],
            in: directory, timeout: .seconds(10))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "\(SIGTERM)\n")
    }

    /// Not allowed to change uid (an ordinary user): exit 1 naming the step, the program never runs.
    @Test(.enabled(if: geteuid() == 0, "needs root to run vt-exec as an ordinary uid"))
    func asAnOrdinaryUser_failsNamingTheStep() throws {
        chmod(directory.path, 0o755)
        let result = try runCommand(
            "/usr/bin/setpriv",
            [
                "--reuid=4244", "--regid=4244", "--clear-groups", "\(DaemonProcess.productsDirectory)/vt-exec",
                "--user", "0", "--group", "0", "--", "/bin/echo", "ran",
            ], in: directory)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("vt-exec: setgroups: "), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test(arguments: [["--user", "1"], ["--group", "1"], ["--groups", "1"], ["--user", "x", "--group", "1"]])
    func halfAnIdentity_isAUsageError(options: [String]) throws {
        let result = try shim(options, script: "echo ran")
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }
}
