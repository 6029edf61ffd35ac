#if canImport(Glibc)
import Glibc
#endif
import VerticalsEventLoop
import VerticalsSupervisorClient

/// A service's stdout and stderr pipes, made once and held by the supervisor for the service's
/// whole life, across restarts, as s6 holds a service's log pipe: each process writes into the
/// same pipes, so lines still in a pipe when a process dies are read after it, never lost, and
/// its replacement's lines follow them. Loop-confined.
final class HeldOutput {
    /// The write ends each process gets as its fd 1 and 2 (the supervisor keeps them open too,
    /// so the read side never sees an end of file between two processes).
    private(set) var stdoutFD: Int32
    private(set) var stderrFD: Int32
    private var polls: [(stream: Int32, poll: FDPoll)] = []
    private let onData: (Int32, [UInt8]) -> Void

    /// Makes both pipes and starts reading them on `loop`; `onData` gets each chunk with its
    /// stream (1 or 2). Throws the failing call's errno as a ``SupervisorError``.
    init(loop: EventLoop, onData: @escaping (_ stream: Int32, _ bytes: [UInt8]) -> Void) throws(SupervisorError) {
        self.onData = onData
        var writers: [Int32] = []
        var readers: [(Int32, Int32)] = []
        for stream: Int32 in [1, 2] {
            var fds: [Int32] = [-1, -1]
            // pipe2 is hidden behind _GNU_SOURCE; the loop thread is the only one of ours
            // that spawns, so nothing forks between pipe and FD_CLOEXEC here.
            guard pipe(&fds) == 0 else {
                for fd in writers + readers.map(\.1) { Glibc.close(fd) }
                throw SupervisorError.system("cannot make the output pipe")
            }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            // Only the supervisor's end is non-blocking: a process writing faster than the
            // supervisor reads waits, as with any pipe, instead of losing lines.
            _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
            readers.append((stream, fds[0]))
            writers.append(fds[1])
        }
        stdoutFD = writers[0]
        stderrFD = writers[1]
        for (stream, fd) in readers {
            do {
                let poll = try FDPoll(fd: fd, on: loop) { [weak self] in self?.read(stream: stream) }
                polls.append((stream, poll))
            } catch {
                Glibc.close(fd)
                close()
                throw SupervisorError(.system, "cannot watch the output pipe: \(error)", cause: error)
            }
        }
    }

    /// Reads what the pipes hold now (an exited process's last lines, before its exit is noted):
    /// at most ``drainLimit`` bytes a pipe, as one of its processes may live on and keep writing.
    func drain() {
        for (stream, _) in polls { read(stream: stream, upTo: Self.drainLimit) }
    }

    /// What one wake-up of the loop reads from a pipe: a service writing without pause must not
    /// keep the loop from everything else (`status`, other services' lines, restarts, `down`).
    /// What is left is read at the loop's next turn; meanwhile the pipe fills, and its writer
    /// waits, as with any pipe.
    static let readLimit = 65_536

    /// What ``drain()`` reads from a pipe at most: more than a pipe holds by default (64 KiB).
    static let drainLimit = 1 << 20

    /// Stops reading and closes both pipes. Idempotent.
    func close() {
        for (_, poll) in polls { poll.close() }
        polls.removeAll()
        for fd in [stdoutFD, stderrFD] where fd >= 0 { Glibc.close(fd) }
        stdoutFD = -1
        stderrFD = -1
    }

    /// Reads up to `limit` bytes of `stream`'s pipe, in chunks to `onData`.
    private func read(stream: Int32, upTo limit: Int = HeldOutput.readLimit) {
        guard let poll = polls.first(where: { $0.stream == stream })?.poll else { return }
        var chunk = [UInt8](repeating: 0, count: min(65_536, limit))
        var taken = 0
        while taken < limit {
            let count = Glibc.read(poll.fd, &chunk, min(chunk.count, limit - taken))
            if count > 0 {
                taken += count
                onData(stream, Array(chunk[..<count]))
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return // EAGAIN: all read; 0 cannot happen while the write ends are held
            }
        }
        // The limit reached: the poll (level-triggered) calls again at the loop's next turn.
    }
}
