import CSpawn
import Glibc

/// One `--describe` child: started by `vt_spawn` with nothing inherited, read through two pipes
/// with `poll`, and reaped by its own pid (never `waitpid(-1)`).
struct DescribeRun {
    /// How the child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
        case tooLarge
    }

    let pid: pid_t
    let stdout: Int32
    let stderr: Int32

    /// Starts `argv` (its first element is the program run) with an empty environment in `/`.
    static func start(_ argv: [String], program: String) throws(BuildDescribeError) -> DescribeRun {
        var out: [Int32] = [-1, -1]
        var err: [Int32] = [-1, -1]
        guard Self.pipe(&out) else {
            throw BuildDescribeError(program, .notStarted, "no pipe: \(String(cString: strerror(errno)))")
        }
        guard Self.pipe(&err) else {
            let code = errno
            close(out[0])
            close(out[1])
            throw BuildDescribeError(program, .notStarted, "no pipe: \(String(cString: strerror(code)))")
        }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer {
            if null >= 0 { close(null) }
            close(out[1])
            close(err[1])
        }
        guard null >= 0 else {
            close(out[0])
            close(err[0])
            throw BuildDescribeError(program, .notStarted, "cannot open /dev/null")
        }
        let arguments = argv.map { strdup($0) } + [nil]
        let environment: [UnsafeMutablePointer<CChar>?] = [nil]
        defer { for argument in arguments { free(argument) } }
        let fds: [Int32] = [null, out[1], err[1]]
        var pid: pid_t = 0
        var failure = vt_spawn_failure()
        let status = arguments.withUnsafeBufferPointer { argvBuffer in
            environment.withUnsafeBufferPointer { envBuffer in
                fds.withUnsafeBufferPointer { fdBuffer in
                    argv[0].withCString { path in
                        "/".withCString { root in
                            var request = vt_spawn_request()
                            request.path = path
                            request.argv = argvBuffer.baseAddress
                            request.envp = envBuffer.baseAddress
                            request.directory = root
                            request.fds = fdBuffer.baseAddress
                            request.fd_count = Int32(fdBuffer.count)
                            request.new_session = 1
                            request.parent_death_signal = SIGKILL
                            request.parent = getpid()
                            return vt_spawn(&request, &pid, &failure)
                        }
                    }
                }
            }
        }
        guard status == 0 else {
            close(out[0])
            close(err[0])
            let step = String(cString: vt_spawn_step_name(failure.step))
            throw BuildDescribeError(
                program, .notStarted, "cannot be started (\(step): \(String(cString: strerror(failure.error))))")
        }
        return DescribeRun(pid: pid, stdout: out[0], stderr: err[0])
    }

    /// A pipe whose ends close on exec (glibc's `pipe2` is not visible to Swift here); this
    /// process starts no other program meanwhile, so no child inherits an end in between.
    private static func pipe(_ ends: inout [Int32]) -> Bool {
        guard Glibc.pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Reads both pipes until they close, `timeout` passes or stdout passes `maxBytes` (then the
    /// child's session is killed), and reaps the child.
    func collect(timeout: Duration, maxBytes: Int) -> (stdout: [UInt8], stderr: [UInt8], ending: Ending) {
        defer {
            close(stdout)
            close(stderr)
        }
        let deadline = ContinuousClock.now + timeout
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var open = [stdout, stderr]
        var cut: Ending?
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty, cut == nil {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                cut = .timedOut
                break
            }
            var polls = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let millis = Int32(
                clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&polls, nfds_t(polls.count), millis)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            for entry in polls where entry.revents != 0 {
                let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count <= 0 {
                    if count < 0, errno == EINTR { continue }
                    open.removeAll { $0 == entry.fd }
                } else if entry.fd == stdout {
                    output += chunk[0..<count]
                    if output.count > maxBytes { cut = .tooLarge }
                } else if errors.count < 4096 {
                    errors += chunk[0..<min(count, 4096 - errors.count)]
                }
            }
        }
        if let cut {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            _ = reap(blocking: true)
            return (output, errors, cut)
        }
        // Both pipes closed: the program is ending; give it until the deadline to exit.
        while true {
            if let ending = reap(blocking: false) { return (output, errors, ending) }
            if ContinuousClock.now >= deadline {
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
                _ = reap(blocking: true)
                return (output, errors, .timedOut)
            }
            usleep(2000)
        }
    }

    /// The child's end, once it has one.
    private func reap(blocking: Bool) -> Ending? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result < 0, errno == EINTR { continue }
            guard result == pid else { return result == 0 ? nil : .exited(-1) }
            break
        }
        if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
        return .signalled(status & 0x7f)
    }
}
