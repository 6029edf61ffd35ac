#if canImport(Glibc)
import Glibc
#endif
import VerticalsSupervisorClient

/// A short program run to its end from a thread off the loop (a store's read as its vertical's
/// user, `litestream restore`): no descriptor but the standard ones, standard input from
/// `/dev/null`, its standard error (and its output, when asked) kept, killed past a time limit.
struct FinishedChild: Sendable {
    /// The exit status, or -1 when a signal ended it.
    let status: Int32
    /// The first 64 KiB of what it said, trimmed.
    let said: String
    /// It ran past the time limit and was killed.
    let timedOut: Bool

    /// Runs `argv` (its first element the program's path) with `environment` (`NAME=value`
    /// entries) to its end; with `keepOutput`, its standard output is kept with its standard
    /// error, else discarded. Blocks: call it off the loop.
    /// - Throws: ``SupervisorError`` when the program cannot be started.
    static func run(
        _ argv: [String], environment: [String] = [], keepOutput: Bool = false, timeLimit: Duration
    ) throws(SupervisorError) -> FinishedChild {
        // Close-on-exec from birth (the loop thread spawns verticals meanwhile), which `pipe`
        // alone is not: a socket pair is made so in one call.
        var pipeEnds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pipeEnds) == 0 else {
            throw SupervisorError.system("cannot make a channel to \(argv.first ?? "a child")")
        }
        defer { close(pipeEnds[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if keepOutput {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        let pointers = argv.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var variables = environment.map { strdup($0) } + [nil]
        defer { for variable in variables { free(variable) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, pointers, &variables)
        close(pipeEnds[1])
        guard spawned == 0 else {
            throw SupervisorError.system("cannot run \(argv[0])", path: argv[0], errno: spawned)
        }
        let said = readUntilEnd(pipeEnds[0], pid: pid, timeLimit: timeLimit)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED: the low seven bits are zero; else a signal ended it.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : -1
        return FinishedChild(status: exitStatus, said: said.text, timedOut: said.timedOut)
    }

    /// Reads `descriptor` to its end, keeping the first 64 KiB; kills `pid` past `timeLimit`.
    private static func readUntilEnd(_ descriptor: Int32, pid: pid_t, timeLimit: Duration) -> (
        text: String, timedOut: Bool
    ) {
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
