import Foundation

/// Child processes of a run: the echo servers and clients, svc-supervisor. Every child
/// carries the run's `VT_BENCH_TAG` in its environment, so `make bench` can kill what a crashed
/// run left, and only that run's (each `make bench` has its own tag).
enum Subprocess {
    /// This run's tag: `make bench` sets one per run; `1` when vt-bench is run by hand.
    static let tag = ProcessInfo.processInfo.environment["VT_BENCH_TAG"].flatMap { $0.isEmpty ? nil : $0 } ?? "1"

    /// Starts `program` with `arguments`, pinned to `cpu` with taskset when given; `quiet` sends
    /// its output and errors to /dev/null (e.g. valgrind's banner).
    static func start(
        _ program: String, _ arguments: [String], cpu: Int? = nil, environment: [String: String] = [:],
        captureOutput: Bool = false, quiet: Bool = false
    ) -> Process {
        let process = Process()
        if let cpu {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/taskset")
            process.arguments = ["-c", "\(cpu)", program] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        }
        var merged = ProcessInfo.processInfo.environment
        merged["VT_BENCH_TAG"] = tag
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        if captureOutput { process.standardOutput = Pipe() }
        if quiet {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        do {
            try process.run()
        } catch {
            fail("cannot start \(program): \(error)")
        }
        return process
    }

    /// Runs `program` to its end and returns what it printed; a failure stops the run.
    static func run(_ program: String, _ arguments: [String], cpu: Int? = nil, environment: [String: String] = [:])
        -> String
    {
        finish(start(program, arguments, cpu: cpu, environment: environment, captureOutput: true))
    }

    /// Waits for `process`, started with `captureOutput`, to end and returns what it printed; a
    /// failure stops the run. For a client the run watches something else beside while it works.
    static func finish(_ process: Process) -> String {
        let output = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let command = ([process.executableURL?.path ?? "?"] + (process.arguments ?? [])).joined(separator: " ")
            fail("\(command) exited with status \(process.terminationStatus)")
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Sends SIGTERM and waits for the exit (SIGKILL after `grace`).
    static func stop(_ process: Process, grace: Duration = .seconds(5)) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + grace
        while process.isRunning && ContinuousClock.now < deadline { usleep(2_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits until a Unix socket at `path` accepts a connection (the server is listening).
    static func waitForListener(_ path: String, timeout: Duration = .seconds(15)) {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if UnixSocket.connect(path).map({ close($0) }) != nil { return }
            usleep(5_000)
        }
        fail("nothing listens on \(path) after \(timeout)")
    }
}

/// A plain blocking Unix-socket connect, for probes and idle connections.
enum UnixSocket {
    /// A connected socket to `path`, or nil.
    static func connect(_ path: String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            return nil
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
