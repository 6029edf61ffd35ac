#if canImport(Glibc)
import Glibc
#endif
import CSpawn
import Synchronization
import VerticalsEventLoop
import VerticalsWire

/// CPU-bound work (a password hash) run in processes of the daemon's own program, each in a
/// session of its own at lower priority, so that a burst of it takes the processors only from
/// itself: not from the daemon's event loops, and not from the other daemons of the host.
///
/// Why processes and not threads: the kernel shares the processors between scheduling groups
/// first (a session's autogroup, or a cgroup), and only then between the threads of a group. A
/// thread's nice value ranks it within the daemon's group alone, so hashing threads at nice 10
/// still make the daemon's whole group as heavy as any other daemon's, and every other daemon
/// waits behind it. A process in a session of its own gets a group of its own, whose weight
/// ``BlockingWorkLimits/computeNice`` lowers (`/proc/self/autogroup`); where a cgroup
/// holds the daemon instead (systemd with CPU accounting, Kubernetes), its nice value still ranks
/// it below the daemon's loops.
///
/// A worker is the daemon's own executable (`/proc/self/exe`, so the very build that runs,
/// even after an upgrade replaced the file), started with ``flag`` and a socket on descriptor 3,
/// an empty environment, and no other descriptor but the standard ones. It forbids tracing of
/// itself, as the daemon's secrets pass through it, and dies with the thread that started it
/// (`PR_SET_PDEATHSIG`: one of ``Offload/compute(_:)``'s threads, which live as long as the
/// process). It answers one request at a time; the daemon starts one when a job finds none idle,
/// so there are never more than ``Offload/compute(_:)``'s threads, and keeps two for the next
/// jobs; a worker costs about what an idle daemon's runtime does, and nothing while it waits.
///
/// The daemon's `main.swift` answers ``serve(_:_:)`` before anything else, with the work it does:
///
/// ```swift
/// // main.swift, first: a worker answers requests with `Hashing.answer`, a `([UInt8]) throws -> [UInt8]`.
/// if let status = ComputeProcesses.serve(CommandLine.arguments.dropFirst(), Hashing.answer) { exit(status) }
///
/// // In the daemon (the World's parts): a request's bytes out, its answer's bytes back.
/// let hashing = ComputeProcesses(nice: runtime.configuration.blockingWork.computeNice)
/// let answer = try await hashing.run(request)
/// ```
public final class ComputeProcesses: Sendable {
    /// The first argument that makes the program a worker (the second is its nice value).
    public static let flag = "--compute-process"
    /// The longest request or answer, in bytes: one message on the socket.
    public static let messageLimit = 64 * 1024
    /// The most workers kept idle for the next jobs: one a burst started beyond them ends when
    /// its job does, so a host with many processors does not keep a runtime's worth of memory
    /// for each of them after the burst.
    static let idleLimit = 2

    /// The program a worker runs.
    private let program: String
    /// Its first argument: the name `ps` shows (the daemon's own).
    private let name: String
    /// Nice steps below normal for each worker's scheduling group (its autogroup).
    private let nice: Int
    /// Workers waiting for a job.
    private let idle = Mutex<[Worker]>([])

    /// Workers of the running program, each in a scheduling group `nice` steps (0 to 19) below
    /// normal; none is started until a job needs one.
    public convenience init(nice: Int = BlockingWorkLimits.defaultComputeNice) {
        self.init(program: "/proc/self/exe", name: CommandLine.arguments.first ?? "/proc/self/exe", nice: nice)
    }

    /// Workers of `program` (which must answer ``serve(_:_:)``), called `name` in `ps`: another
    /// program than the running one, for tests.
    package init(program: String, name: String, nice: Int) {
        self.program = program
        self.name = name
        self.nice = min(max(nice, 0), 19)
    }

    /// Ends the idle workers (one still busy ends when its job does: its job holds this object).
    deinit {
        for worker in idle.withLock({ $0 }) { worker.retire() }
    }

    /// Sends `request` to an idle worker (a new one when none is) on one of
    /// ``Offload/compute(_:)``'s threads and returns its answer. Throws what the worker's
    /// handler threw as `internal`, `resourceExhausted` when the compute queue is full, and
    /// `unavailable` when no worker could be started or one died twice on this request.
    public func run(_ request: [UInt8]) async throws -> [UInt8] {
        guard request.count <= Self.messageLimit else {
            throw ServiceError(.internal, "a compute request of \(request.count) bytes is over \(Self.messageLimit)")
        }
        return try await Offload.compute { try self.call(request) }
    }

    /// ``run(_:)`` on the calling thread, which it blocks. A request is a pure function of its
    /// bytes, so one a worker died on is sent once more, to a new worker.
    private func call(_ request: [UInt8]) throws -> [UInt8] {
        var attempt = 0
        while true {
            attempt += 1
            let worker = try idle.withLock { $0.popLast() } ?? start()
            do {
                let answer = try worker.exchange(request)
                let kept = idle.withLock {
                    guard $0.count < Self.idleLimit else { return false }
                    $0.append(worker)
                    return true
                }
                if !kept { worker.retire() }
                return try Self.unwrap(answer)
            } catch let lost as WorkerLost {
                worker.retire()
                if attempt >= 2 { throw ServiceError(.unavailable, "the compute process \(lost.reason)") }
            }
        }
    }

    /// Starts a worker: a new session (and so a new autogroup), killed with the calling thread.
    private func start() throws -> Worker {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw ServiceError(
                .unavailable, "cannot make a compute process's socket: \(String(cString: strerror(errno)))")
        }
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer {
            close(ends[1])
            if null >= 0 { close(null) }
        }
        guard null >= 0 else {
            close(ends[0])
            throw ServiceError(
                .unavailable, "cannot open /dev/null for a compute process: \(String(cString: strerror(errno)))")
        }
        let arguments = CStringArray([name, Self.flag, String(nice)])
        let environment = CStringArray([])
        var request = vt_spawn_request()
        request.new_session = 1
        request.parent_death_signal = SIGKILL
        request.parent = getpid()
        var pid: pid_t = 0
        var failure = vt_spawn_failure()
        let fds = [null, null, 2, ends[1]]
        let status = arguments.withPointer { argv in
            environment.withPointer { envp in
                fds.withUnsafeBufferPointer { fds in
                    program.withCString { path in
                        request.path = path
                        request.argv = UnsafePointer(argv)
                        request.envp = UnsafePointer(envp)
                        request.fds = fds.baseAddress
                        request.fd_count = Int32(fds.count)
                        return vt_spawn(&request, &pid, &failure)
                    }
                }
            }
        }
        guard status == 0 else {
            close(ends[0])
            throw ServiceError(
                .unavailable,
                "cannot start a compute process (\(program)): \(String(cString: vt_spawn_step_name(failure.step))): "
                    + String(cString: strerror(failure.error)))
        }
        return Worker(pid: pid, socket: ends[0])
    }

    /// The answer's payload, or the handler's failure as `internal`.
    private static func unwrap(_ answer: [UInt8]) throws -> [UInt8] {
        switch answer.first {
        case Answer.done: return Array(answer.dropFirst())
        case Answer.failed: throw ServiceError(.internal, String(decoding: answer.dropFirst(), as: UTF8.self))
        default: throw ServiceError(.internal, "a compute process answered a message of unknown kind")
        }
    }

    /// The first byte of an answer.
    private enum Answer {
        static let done: UInt8 = 0
        static let failed: UInt8 = 1
    }

    /// A worker died or broke the protocol; it is retired. Its ``code`` is `requestNotSent`,
    /// `ended` or `oversized`, and the worker's pid is the detail `pid`.
    fileprivate struct WorkerLost: CodedError {
        /// What kind of loss it is.
        typealias Code = ErrorKind<WorkerLost>

        /// What kind of loss it is.
        let code: Code
        /// The worker's process.
        let pid: Int32
        /// What happened to it, after "the compute process".
        let reason: String

        /// The ``reason``.
        var message: String { reason }
        /// The worker's pid, as the detail `pid`.
        var details: [ErrorDetail] { [ErrorDetail("pid", "\(pid)")] }
    }

    /// One worker: its process and the daemon's end of its socket. A worker is used by one
    /// thread at a time (taken from ``idle`` and put back), so its socket is never shared.
    private struct Worker: Sendable {
        let pid: Int32
        let socket: Int32

        /// Sends `request` and waits for the answer.
        func exchange(_ request: [UInt8]) throws(WorkerLost) -> [UInt8] {
            var sent = 0
            repeat {
                sent = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            } while sent < 0 && errno == EINTR
            guard sent == request.count else {
                throw WorkerLost(
                    code: .requestNotSent, pid: pid,
                    reason: "\(pid) took no request: \(sent < 0 ? String(cString: strerror(errno)) : "short send")")
            }
            var answer = [UInt8](repeating: 0, count: ComputeProcesses.messageLimit + 1)
            var received = 0
            repeat {
                received = answer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_TRUNC)) }
            } while received < 0 && errno == EINTR
            guard received > 0 else {
                throw WorkerLost(
                    code: .ended, pid: pid,
                    reason:
                        "\(pid) ended before it answered\(received < 0 ? ": \(String(cString: strerror(errno)))" : "")")
            }
            guard received <= ComputeProcesses.messageLimit else {
                throw WorkerLost(
                    code: .oversized, pid: pid,
                    reason: "\(pid) answered \(received) bytes, over \(ComputeProcesses.messageLimit)")
            }
            answer.removeSubrange(received...)
            return answer
        }

        /// Ends the process and reaps it.
        func retire() {
            close(socket)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }
}

extension ComputeProcesses {
    /// The worker's side: when `arguments` (the program's, after its name) start with ``flag``,
    /// answers each request on descriptor 3 with `handler` until the daemon closes its end, and
    /// returns the exit status; nil when they do not ask for it. `handler` answers bytes with
    /// bytes; what it throws travels back as its description.
    public static func serve(
        _ arguments: some Collection<String>, _ handler: ([UInt8]) throws -> [UInt8]
    ) -> Int32? {
        guard arguments.first == flag else { return nil }
        guard arguments.count == 2, let nice = arguments.dropFirst().first.flatMap({ Int($0) }), (0...19).contains(nice)
        else {
            say("usage: \(flag) NICE (0 to 19), with a SOCK_SEQPACKET socket on descriptor 3")
            return 64
        }
        var status = stat()
        guard fstat(socket, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else {
            say("\(flag): descriptor 3 is not a socket")
            return 64
        }
        // First, while its /proc files are still its own: a process that forbids tracing has them owned by root.
        lowerPriority(by: nice)
        // The daemon's secrets pass through here: no other process of its user may read them.
        guard vt_forbid_tracing() == 0 else {
            say("\(flag): cannot forbid tracing: \(String(cString: strerror(errno)))")
            return 70
        }
        var request = [UInt8](repeating: 0, count: messageLimit + 1)
        while true {
            var received = 0
            repeat {
                received = request.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_TRUNC)) }
            } while received < 0 && errno == EINTR
            if received == 0 { return 0 } // the daemon closed its end
            guard received > 0 else {
                say("\(flag): cannot read a request: \(String(cString: strerror(errno)))")
                return 74
            }
            var answer: [UInt8]
            if received > messageLimit {
                answer = [Answer.failed] + Array("a request of \(received) bytes is over \(messageLimit)".utf8)
            } else {
                do {
                    answer = try [Answer.done] + handler(Array(request[..<received]))
                } catch {
                    answer = [Answer.failed] + Array(String(describing: error).utf8)
                }
                if answer.count > messageLimit {
                    answer = [Answer.failed] + Array("an answer of \(answer.count) bytes is over \(messageLimit)".utf8)
                }
            }
            var sent = 0
            repeat {
                sent = answer.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            } while sent < 0 && errno == EINTR
            guard sent == answer.count else { return sent < 0 && errno == EPIPE ? 0 : 74 }
        }
    }

    /// Descriptor 3, where a worker's socket is.
    private static let socket: Int32 = 3

    /// Lowers the session's autogroup (the worker is its only process) by `nice` steps. The
    /// process itself keeps the nice value of the thread that started it, one of
    /// ``Offload/compute(_:)``'s, which is ``BlockingWorkLimits/computeNice`` below the daemon:
    /// what ranks it where a cgroup, not an autogroup, holds the daemon. A refusal (no autogroups,
    /// a read-only `/proc`) is said on standard error and does no other harm.
    private static func lowerPriority(by nice: Int) {
        guard nice > 0 else { return }
        let group = open("/proc/self/autogroup", O_WRONLY | O_CLOEXEC)
        guard group >= 0 else {
            // ENOENT: a kernel without autogroups, where the process's nice value is what counts.
            if errno != ENOENT { say("\(flag): cannot open /proc/self/autogroup: \(String(cString: strerror(errno)))") }
            return
        }
        defer { close(group) }
        let value = Array("\(nice)\n".utf8)
        // Without CAP_SYS_ADMIN the kernel takes one change per tenth of a second from the whole
        // host (EAGAIN in between); a worker starts rarely, so it waits for its turn, up to two
        // seconds: room for twenty workers starting at once on the host.
        for _ in 0..<100 {
            if value.withUnsafeBytes({ write(group, $0.baseAddress, $0.count) }) == value.count { return }
            guard errno == EAGAIN || errno == EINTR else { break }
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&pause, nil)
        }
        say("\(flag): cannot lower the session's scheduling group: \(String(cString: strerror(errno)))")
    }

    /// Writes `text` to standard error as one line.
    private static func say(_ text: String) {
        let bytes = Array((String(text.map { $0.isNewline ? " " : $0 }) + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}

extension ErrorKind where Domain == ComputeProcesses.WorkerLost {
    /// The worker did not take the whole request.
    fileprivate static var requestNotSent: Self { Self("requestNotSent") }
    /// The worker ended (or its socket failed) before it answered.
    fileprivate static var ended: Self { Self("ended") }
    /// The worker answered more than a message may hold.
    fileprivate static var oversized: Self { Self("oversized") }
}
