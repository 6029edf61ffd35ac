#if canImport(Glibc)
import Glibc
import VerticalsSupervisorClient
#endif
import VerticalsWire

/// Creates the users and the group svc-supervisor (as root) lacks, from the same sysusers.d
/// lines as the systemd export: with `systemd-sysusers` where it exists, else with
/// `groupadd`/`useradd --system` (no home, no login shell).
enum UserCreation {
    /// Where `systemd-sysusers` is looked for.
    static let sysusers = ["/usr/bin/systemd-sysusers", "/bin/systemd-sysusers", "/usr/sbin/systemd-sysusers"]

    /// Creates what `lines` (`g NAME -`, `u NAME - "GECOS" - -`) name and does not exist yet;
    /// `scratch` is a folder for the sysusers file. Throws saying what failed.
    static func create(_ lines: [String], scratch: String) throws(SupervisorError) {
        if let tool = sysusers.first(where: { access($0, X_OK) == 0 }) {
            let path = "\(scratch)/sysusers-verticals.conf"
            let text =
                "# Written by svc-supervisor: the users it runs its services as.\n" + lines.joined(separator: "\n")
                + "\n"
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw SupervisorError.system("cannot write \(path)", path: path) }
            let written = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
            guard written == text.utf8.count else {
                throw SupervisorError(.system, "cannot write \(path)", details: [ErrorDetail("path", path)])
            }
            defer { unlink(path) }
            try run(tool, [path])
            return
        }
        for line in lines {
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard words.count >= 2 else { continue }
            if words[0] == "g", AccountDatabase.groupID(named: words[1]) == nil {
                try run("/usr/sbin/groupadd", ["--system", words[1]])
            } else if words[0] == "u", AccountDatabase.user(named: words[1]) == nil {
                try run(
                    "/usr/sbin/useradd",
                    [
                        "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
                        "--user-group", words[1],
                    ])
            }
        }
    }

    /// Runs `program` with `arguments` and waits for it; throws unless it exits 0. Only at
    /// start-up and reload: the loop waits for it (a few milliseconds).
    static func run(_ program: String, _ arguments: [String]) throws(SupervisorError) {
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, nil, nil, argv, environ)
        guard spawned == 0 else {
            throw SupervisorError.system("cannot run \(program)", path: program, errno: spawned)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED && WEXITSTATUS == 0
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw SupervisorError(
                .commandFailed,
                "\(([program] + arguments).joined(separator: " ")) failed (wait status \(status)): "
                    + "create the users by hand, or run svc-supervisor as a user other than root",
                details: [ErrorDetail("path", program), ErrorDetail("status", "\(status)")])
        }
    }
}
