import CLibUV
import Glibc

/// A child process started with `uv_spawn` or `vt_spawn` (`Options/Launch`); loop-confined.
///
/// ```swift
/// let child = try ChildProcess.spawn(options, on: loop, onOutput: { stream, bytes in log(stream, bytes) }) { status in
///     print("child \(status)")   // exitCode, or the signal that killed it
/// }
/// try child.kill(SIGTERM)
/// ```
///
/// libuv (for `uv_spawn`) or the loop's `ChildReaper` (for `vt_spawn`) reaps this child by its
/// pid; nothing in the process may call `waitpid(-1)`.
/// `onExit` runs once, after the child exited and its captured output reached end of file —
/// or 250 ms after exit if a grandchild still holds the pipe open. If the loop shuts down
/// first, `onExit` never runs and the child keeps running: kill it first.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked Sendable: loop-confined. Every public method and property, except the immutable
    // `pid` and `loop`, starts with `loop.preconditionInEventLoop()`, and libuv runs every
    // callback on the loop thread (the process handle's exit, the reaper's SIGCHLD watcher, the
    // capture pipes'); so every `var` is only touched on that thread.

    /// The child's process id.
    public let pid: Int32
    /// The loop this child is watched on.
    public let loop: EventLoop

    /// The libuv handle of a `uv_spawn` child (freed in the close callback); nil for `vt_spawn`.
    let process: UnsafeMutablePointer<uv_process_t>?
    var outputHandler: ((_ stream: Int32, _ bytes: [UInt8]) -> Void)?
    var exitHandler: ((ExitStatus) -> Void)?
    var captures: [CapturePipe] = []
    var openCaptureCount = 0
    var status: ExitStatus?
    var isProcessHandleClosing = false
    var isReported = false
    var drainDeadline: LoopTimer?

    /// How long after exit `onExit` waits for captured output to reach end of file.
    static let outputDrainTimeout = Duration.milliseconds(250)

    init(
        loop: EventLoop, process: UnsafeMutablePointer<uv_process_t>, onOutput: ((Int32, [UInt8]) -> Void)?,
        onExit: @escaping (ExitStatus) -> Void
    ) {
        self.loop = loop
        self.process = process
        self.pid = process.pointee.pid
        self.outputHandler = onOutput
        self.exitHandler = onExit
        HandleData.retain(self, into: process.asHandle)
    }

    /// A child started by `vt_spawn`, which the loop's ``ChildReaper`` reaps.
    init(loop: EventLoop, pid: Int32, onOutput: ((Int32, [UInt8]) -> Void)?, onExit: @escaping (ExitStatus) -> Void) {
        self.loop = loop
        self.process = nil
        self.pid = pid
        self.outputHandler = onOutput
        self.exitHandler = onExit
    }

    /// Starts `options.executable`, as ``Options/launch`` says. Call on the loop thread; the
    /// callbacks run on it.
    ///
    /// - Parameters:
    ///   - options: what to start and how.
    ///   - loop: the loop the child's handles and callbacks belong to.
    ///   - onOutput: chunks of captured output, with the stream they came from (1 or 2).
    ///   - onExit: the exit status, once.
    /// - Throws: ``EventLoopError/notFound`` for a missing executable or working directory,
    ///   ``EventLoopError/system(operation:code:)`` for other spawn failures (e.g. `UV_EACCES`),
    ///   ``EventLoopError/closed`` while the loop shuts down; with `Options/Launch/vfork(parentDeathSignal:)`,
    ///   ``EventLoopError/spawn(step:code:)`` for a step that failed in the child.
    public static func spawn(
        _ options: Options, on loop: EventLoop,
        onOutput: ((_ stream: Int32, _ bytes: [UInt8]) -> Void)? = nil,
        onExit: @escaping (ExitStatus) -> Void
    ) throws(EventLoopError) -> ChildProcess {
        loop.preconditionInEventLoop()
        if loop.isShuttingDown { throw .closed }
        switch options.launch {
        case .uvSpawn:
            return try spawnWithLibUV(options, on: loop, onOutput: onOutput, onExit: onExit)
        case .vfork(let parentDeathSignal):
            return try spawnInPlace(
                options, parentDeathSignal: parentDeathSignal, on: loop, onOutput: onOutput, onExit: onExit)
        }
    }

    private static func spawnWithLibUV(
        _ options: Options, on loop: EventLoop, onOutput: ((Int32, [UInt8]) -> Void)?,
        onExit: @escaping (ExitStatus) -> Void
    ) throws(EventLoopError) -> ChildProcess {
        var stdio = [uv_stdio_container_t](repeating: uv_stdio_container_t(), count: 3 + options.inheritedFDs.count)
        stdio[0].flags = UV_IGNORE
        var captures: [(stream: Int32, pipe: CapturePipe)] = []
        for (stream, output) in [(Int32(1), options.stdout), (Int32(2), options.stderr)] {
            switch output {
            case .ignore:
                stdio[Int(stream)].flags = UV_IGNORE
            case .inherit:
                stdio[Int(stream)].flags = UV_INHERIT_FD
                stdio[Int(stream)].data.fd = stream
            case .descriptor(let fd):
                stdio[Int(stream)].flags = UV_INHERIT_FD
                stdio[Int(stream)].data.fd = fd
            case .capture:
                let capture = CapturePipe(loop: loop)
                captures.append((stream, capture))
                // Readable/writable are from the child's point of view: it writes.
                stdio[Int(stream)].flags = uv_stdio_flags(UV_CREATE_PIPE.rawValue | UV_WRITABLE_PIPE.rawValue)
                stdio[Int(stream)].data.stream = capture.pipe.asStream
            }
        }
        for (offset, fd) in options.inheritedFDs.enumerated() {
            stdio[3 + offset].flags = UV_INHERIT_FD
            stdio[3 + offset].data.fd = fd
        }

        let process = UnsafeMutablePointer<uv_process_t>.allocate(capacity: 1)
        let arguments = CStringArray([options.executable] + options.arguments)
        let environment = CStringArray(environmentLines(options.environment))
        let status = arguments.withPointer { argv in
            environment.withPointer { envp in
                stdio.withUnsafeMutableBufferPointer { containers in
                    var spawnOptions = uv_process_options_t()
                    spawnOptions.exit_cb = ChildProcess.onExited
                    spawnOptions.args = argv
                    spawnOptions.env = envp
                    spawnOptions.stdio_count = Int32(containers.count)
                    spawnOptions.stdio = containers.baseAddress
                    spawnOptions.flags = options.detached ? UV_PROCESS_DETACHED.rawValue : 0
                    return options.executable.withCString { file in
                        spawnOptions.file = file
                        guard let directory = options.workingDirectory else {
                            return uv_spawn(loop.loop, process, &spawnOptions)
                        }
                        return directory.withCString { cwd in
                            spawnOptions.cwd = cwd
                            return uv_spawn(loop.loop, process, &spawnOptions)
                        }
                    }
                }
            }
        }
        guard status == 0 else {
            // uv_spawn initialises the handle even when it fails: it must still be closed.
            uv_close(process.asHandle, ChildProcess.onUnspawnedClosed)
            for capture in captures { capture.pipe.close() }
            throw .uv("spawn", status)
        }

        let child = ChildProcess(loop: loop, process: process, onOutput: onOutput, onExit: onExit)
        child.startCapturing(captures)
        return child
    }

    /// Reads the child's captured streams until they end.
    func startCapturing(_ captures: [(stream: Int32, pipe: CapturePipe)]) {
        self.captures = captures.map(\.pipe)
        openCaptureCount = captures.count
        for (stream, capture) in captures {
            // Strong captures: the pipes keep the child alive until they end (cycle broken on close).
            capture.onData = { bytes in self.outputHandler?(stream, bytes) }
            capture.onEnd = { self.captureDidEnd() }
            capture.startReading()
        }
    }

    /// True once the child has exited (and been reaped).
    public var hasExited: Bool {
        loop.preconditionInEventLoop()
        return status != nil
    }

    /// How the child ended, once it has.
    public var exitStatus: ExitStatus? {
        loop.preconditionInEventLoop()
        return status
    }

    /// Sends `signal` to the child.
    ///
    /// - Throws: ``EventLoopError/system(operation:code:)`` with `UV_ESRCH` once the child has
    ///   exited (its pid may already belong to another process), or the `kill(2)` error.
    public func kill(_ signal: Int32) throws(EventLoopError) {
        loop.preconditionInEventLoop()
        guard status == nil, !isProcessHandleClosing else {
            throw .system(operation: "kill", code: UV_ESRCH.rawValue)
        }
        guard let process else {
            // Not reaped yet (status is nil), so the pid is still this child's, if only a zombie.
            guard Glibc.kill(pid, signal) == 0 else { throw .uv("kill", -errno) }
            return
        }
        let result = uv_process_kill(process, signal)
        guard result == 0 else { throw .uv("kill", result) }
    }

    /// The child ended: from libuv's exit callback, or the ``ChildReaper`` once it reaped it.
    func didExit(_ exitStatus: ExitStatus) {
        status = exitStatus
        closeProcessHandle()
        guard openCaptureCount > 0 else {
            report()
            return
        }
        let deadline = LoopTimer(loop: loop)
        deadline.start(after: ChildProcess.outputDrainTimeout) {
            for capture in self.captures { capture.close() }
        }
        drainDeadline = deadline
    }

    private func captureDidEnd() {
        openCaptureCount -= 1
        if openCaptureCount == 0, status != nil { report() }
    }

    private func report() {
        guard !isReported, let status else { return }
        isReported = true
        drainDeadline?.close()
        drainDeadline = nil
        let handler = exitHandler
        exitHandler = nil
        outputHandler = nil
        captures = []
        handler?(status)
    }

    func closeProcessHandle() {
        guard !isProcessHandleClosing else { return }
        isProcessHandleClosing = true
        if let process { uv_close(process.asHandle, ChildProcess.onClosed) }
    }

    private static let onExited: uv_exit_cb = { handle, exitCode, signal in
        let child = HandleData.owner(of: handle?.asHandle, as: ChildProcess.self)
        child.didExit(ExitStatus(exitCode: exitCode, signal: signal))
    }

    private static let onClosed: uv_close_cb = { handle in
        let child = HandleData.releaseOwner(of: handle, as: ChildProcess.self)
        child.process?.deallocate()
    }

    private static let onUnspawnedClosed: uv_close_cb = { handle in
        UnsafeMutablePointer<uv_process_t>(OpaquePointer(handle))?.deallocate()
    }
}

extension ChildProcess: LoopHandleOwner {
    func closeForShutdown() {
        closeProcessHandle()
    }
}
