import CLibUV
import CSpawn
import Glibc

// `Launch.vfork`: the child is started by `vt_spawn` (Shared/CSpawn), which does vt-exec's
// common steps in a CLONE_VM child and execs the program directly; the loop's ChildReaper
// reaps it. Everything here runs in the parent, on the loop thread, so it may allocate.
extension ChildProcess {
    /// What a `LISTEN_PID` or `WATCHDOG_PID` value is before the child writes its pid over it:
    /// room for any pid (`VT_SPAWN_PID_ROOM` bytes with the NUL).
    static let pidPlaceholder = String(repeating: "0", count: Int(VT_SPAWN_PID_ROOM) - 1)

    static func spawnInPlace(
        _ options: Options, parentDeathSignal: Int32?, on loop: EventLoop,
        onOutput: ((Int32, [UInt8]) -> Void)?, onExit: @escaping (ExitStatus) -> Void
    ) throws(EventLoopError) -> ChildProcess {
        // Watching SIGCHLD before the child exists: its exit cannot come before the watcher.
        let reaper = try ChildReaper.of(loop)
        let program = try executablePath(options.executable, environment: options.environment)

        var environment = options.environment
        if environment["LISTEN_FDS"] != nil { environment["LISTEN_PID"] = pidPlaceholder }
        if environment["WATCHDOG_USEC"] != nil { environment["WATCHDOG_PID"] = pidPlaceholder }
        let lines = environmentLines(environment)
        let envp = CStringArray(lines)
        let argv = CStringArray([options.executable] + options.arguments)
        /// The value part of the entry `name=`, which the child overwrites with its pid.
        func pidValue(_ name: String) -> UnsafeMutablePointer<CChar>? {
            guard environment[name] != nil, let index = lines.firstIndex(where: { $0.hasPrefix("\(name)=") }) else {
                return nil
            }
            return envp.entry(at: index).map { $0 + name.utf8.count + 1 }
        }

        var descriptors = ChildDescriptors()
        defer { descriptors.closeOwned() }
        var captures: [(stream: Int32, pipe: CapturePipe)] = []
        do throws(EventLoopError) {
            try descriptors.append(descriptors.openNull(O_RDONLY))
            for (stream, output) in [(Int32(1), options.stdout), (Int32(2), options.stderr)] {
                switch output {
                case .ignore: try descriptors.append(descriptors.openNull(O_WRONLY))
                case .inherit: descriptors.append(stream)
                case .descriptor(let fd): descriptors.append(fd)
                case .capture:
                    let (capture, writeEnd) = try descriptors.capturePipe(on: loop)
                    captures.append((stream, capture))
                    descriptors.append(writeEnd)
                }
            }
            for fd in options.inheritedFDs { descriptors.append(fd) }
            guard descriptors.fds.count <= Int(VT_SPAWN_MAX_FDS) else {
                throw .spawn(step: "request", code: -EMFILE)
            }
        } catch {
            for capture in captures { capture.pipe.close() }
            throw error
        }

        var request = vt_spawn_request()
        request.new_session = options.detached ? 1 : 0
        request.parent_death_signal = parentDeathSignal ?? 0
        request.parent = getpid()
        request.listen_pid = pidValue("LISTEN_PID")
        request.watchdog_pid = pidValue("WATCHDOG_PID")
        var pid: pid_t = 0
        var failure = vt_spawn_failure()
        let status = argv.withPointer { argv in
            envp.withPointer { envp in
                descriptors.fds.withUnsafeBufferPointer { fds in
                    request.argv = UnsafePointer(argv)
                    request.envp = UnsafePointer(envp)
                    request.fds = fds.baseAddress
                    request.fd_count = Int32(fds.count)
                    return program.withCString { path in
                        request.path = path
                        guard let directory = options.workingDirectory else {
                            return vt_spawn(&request, &pid, &failure)
                        }
                        return directory.withCString { directory in
                            request.directory = directory
                            return vt_spawn(&request, &pid, &failure)
                        }
                    }
                }
            }
        }
        guard status == 0 else {
            for capture in captures { capture.pipe.close() }
            reaper.releaseIfIdle()
            throw .spawn(step: String(cString: vt_spawn_step_name(failure.step)), code: -failure.error)
        }

        let child = ChildProcess(loop: loop, pid: pid, onOutput: onOutput, onExit: onExit)
        reaper.watch(child)
        child.startCapturing(captures)
        return child
    }

    /// `executable` itself when it holds a `/`; else the first match in the child
    /// environment's `PATH` (as `execvp` would look), looked up here because the child may not
    /// allocate.
    static func executablePath(_ executable: String, environment: [String: String]) throws(EventLoopError) -> String {
        if executable.contains("/") { return executable }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = "\(directory.isEmpty ? "." : directory)/\(executable)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw .spawn(step: "exec", code: -ENOENT)
    }
}

/// The descriptors a `vt_spawn` child gets as 0, 1, 2, 3, …, and those of them opened for it
/// here (`/dev/null`, a capture pipe's write end), which the parent closes once it has started.
struct ChildDescriptors {
    private(set) var fds: [Int32] = []
    private var owned: [Int32] = []

    mutating func append(_ fd: Int32) {
        fds.append(fd)
    }

    /// `/dev/null`, opened close-on-exec: only the child's copy (dup2 clears the flag) stays.
    mutating func openNull(_ mode: Int32) throws(EventLoopError) -> Int32 {
        let fd = open("/dev/null", mode | O_CLOEXEC)
        guard fd >= 0 else { throw .uv("open /dev/null", -errno) }
        owned.append(fd)
        return fd
    }

    /// A pipe whose read end a ``CapturePipe`` reads and whose write end is for the child.
    mutating func capturePipe(on loop: EventLoop) throws(EventLoopError) -> (CapturePipe, writeEnd: Int32) {
        var ends: [Int32] = [-1, -1]
        guard vt_spawn_pipe(&ends) == 0 else { throw .uv("pipe2", -errno) }
        owned.append(ends[1])
        let capture = CapturePipe(loop: loop)
        let status = uv_pipe_open(capture.pipe, ends[0]) // the handle owns the read end from here
        guard status == 0 else {
            close(ends[0])
            capture.close()
            throw .uv("uv_pipe_open", status)
        }
        return (capture, ends[1])
    }

    /// Closes what was opened for the child (after the start, or its failure).
    mutating func closeOwned() {
        for fd in owned { close(fd) }
        owned = []
    }
}
