#if canImport(Glibc)
import Glibc
#endif
import VerticalsStorage
import VerticalsSupervisorClient

/// Reads a store a vertical wrote in a child that runs as that vertical's user
/// (``UntrustedStoreReader``): `vt-exec` starts it as it starts the vertical (a session of its
/// own, the vertical's limits and cgroups), drops to the user with no new privileges and no
/// descriptor but the standard ones, then runs ``program`` with ``UntrustedStoreCommand``'s
/// arguments and an empty environment; the program forbids tracing itself before it reads. Whatever the vertical's bytes make of SQLite's C code, they
/// make it in a process of the vertical's own, never in root's.
struct StoreReaderChild: Sendable {
    /// `vt-exec`.
    let execShim: String
    /// The program that answers ``UntrustedStoreCommand`` (`svc-supervisor-engine`).
    let program: String
    /// vt-exec's options: the vertical's own as a service (a session of its own, so no
    /// controlling terminal of root's; its rlimits and cgroups), then its user and group alone.
    let options: [String]
    /// How long one read may take before the child is killed and the read refused.
    var timeLimit: Duration = .seconds(600)

    /// The reader that runs each read in such a child.
    var reader: UntrustedStoreReader {
        let child = self
        return UntrustedStoreReader(
            check: { file, source, owner, known in
                let (status, said) = try child.run(["check", file, source, owner.name] + known)
                guard status == 0 else {
                    throw StoreError(
                        .readerFailed, said.isEmpty ? "\(source) could not be checked (status \(status))" : said)
                }
            },
            checkpoint: { file in _ = try? child.run(["checkpoint", file]) })
    }

    /// Runs the child with `arguments` after the flag; its exit status (or -1 when a signal ended
    /// it) and the first 64 KiB of its standard error, trimmed.
    func run(_ arguments: [String]) throws(StoreError) -> (status: Int32, said: String) {
        let argv = [execShim] + options + ["--", program, UntrustedStoreCommand.flag] + arguments
        // Close-on-exec from birth (the loop thread spawns verticals meanwhile), which `pipe`
        // alone is not: a socket pair is made so in one call.
        var pipeEnds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pipeEnds) == 0 else {
            throw StoreError.system("cannot make a channel to read a store")
        }
        defer { close(pipeEnds[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        let pointers = argv.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] = [nil]
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, execShim, &actions, nil, pointers, &environment)
        close(pipeEnds[1])
        guard spawned == 0 else {
            throw StoreError(
                .readerFailed, "cannot run \(execShim) to read a store: \(SupervisorError.errnoText(spawned))")
        }
        let said = readUntilEnd(pipeEnds[0], pid: pid)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard !said.timedOut else {
            throw StoreError(.readerFailed, "reading the store took longer than \(timeLimit): the read was stopped")
        }
        // WIFEXITED: the low seven bits are zero; else a signal ended it.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : -1
        return (exitStatus, said.text)
    }

    /// Reads `descriptor` to its end, keeping the first 64 KiB; kills `pid` past the time limit.
    private func readUntilEnd(_ descriptor: Int32, pid: pid_t) -> (text: String, timedOut: Bool) {
        let clock = ContinuousClock()
        let deadline = clock.now + timeLimit
        var kept: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else {
                kill(pid, SIGKILL)
                return ("", true)
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1_000 + 1, 60_000))
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { continue }
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            if kept.count < 65_536 { kept += chunk[..<min(count, 65_536 - kept.count)] }
        }
        let text = String(decoding: kept, as: UTF8.self)
        return (String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()), false)
    }
}
