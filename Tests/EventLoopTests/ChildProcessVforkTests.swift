import CSpawn
import Foundation
import Glibc
import Testing
import VerticalsEventLoop

/// `Launch.vfork`: the child vt_spawn starts in place does vt-exec's steps itself. Facts are read
/// from `/proc` while the child sleeps (it has exec'd by the time `spawn` returns), never after a
/// fixed wait.
extension ChildProcessTests {
    /// Options for `executable` started in place, tagged for `killTaggedChildren`.
    static func inPlace(_ executable: String, _ arguments: [String], tag value: String) -> ChildProcess.Options {
        var options = ChildProcess.Options(
            executable: executable, arguments: arguments, environment: ["PATH": "/usr/bin:/bin", tag: value],
            stdout: .ignore, stderr: .ignore, detached: true)
        options.launch = .vfork(parentDeathSignal: SIGTERM)
        return options
    }

    @Test func vfork_runsTheProgramWithItsArgumentsEnvironmentAndDirectory_capturingItsOutput() async throws {
        try await withTemporaryDirectory { directory in
            try await withEventLoop { loop in
                let script = "echo \"$1|$GREETING|$(pwd)\"; echo oops >&2; exit 3"
                let outcome = try await Self.run(
                    script, on: loop,
                    configure: { options in
                        // "sh", not "/bin/sh": looked up in the child environment's PATH.
                        options.executable = "sh"
                        options.arguments += ["sh", "two words"]
                        options.environment["PATH"] = "/usr/bin:/bin"
                        options.environment["GREETING"] = "hello"
                        options.workingDirectory = directory
                        options.detached = true
                        options.launch = .vfork(parentDeathSignal: SIGTERM)
                    })
                #expect(String(decoding: outcome.stdout, as: UTF8.self) == "two words|hello|\(directory)\n")
                #expect(String(decoding: outcome.stderr, as: UTF8.self) == "oops\n")
                #expect(outcome.status == ChildExitStatus(exitCode: 3, signal: 0))
            }
        }
    }

    @Test func vfork_childLeadsItsSession_hasItsPidInListenPID_onlyItsFDs_defaultSignals_andIsReportedOnce()
        async throws
    {
        try await withEventLoop { loop in
            let value = Tagged()
            defer { killTaggedChildren(value.id) }
            var pair: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
            defer { close(pair[0]); close(pair[1]) }
            let socket = pair[0]
            var info = stat()
            fstat(socket, &info)
            // A descriptor the child must not get: open in this process, without close-on-exec.
            let stray = open("/dev/null", O_RDONLY)
            defer { close(stray) }

            let exited = Expectation<ChildExitStatus>("exit")
            let reports = LoopBound(Box(0))
            let child = try await onLoop(loop) {
                var options = Self.inPlace("/bin/sleep", ["30"], tag: value.id)
                options.environment["LISTEN_FDS"] = "1"
                options.environment["WATCHDOG_USEC"] = "1000000"
                options.inheritedFDs = [socket]
                return try ChildProcess.spawn(options, on: loop) { status in
                    reports.value.value += 1
                    exited.fulfill(status)
                }
            }
            let pid = try await loop.submit { child.value.pid }

            #expect(getsid(pid) == pid)
            #expect(getpgid(pid) == pid)
            // `spawn` returns while the child is still in execve (CLONE_VFORK resumes the parent
            // once the child's old memory is let go): its new environment shows a moment later.
            func environment() -> [Substring] {
                ((try? String(contentsOfFile: "/proc/\(pid)/environ", encoding: .utf8)) ?? "").split(separator: "\0")
            }
            try await eventually("the child's environment") { !environment().isEmpty }
            #expect(environment().contains("LISTEN_PID=\(pid)"))
            #expect(environment().contains("WATCHDOG_PID=\(pid)"))
            #expect(environment().contains("LISTEN_FDS=1"))
            // Close-on-exec descriptors go late in execve, and the dynamic loader of sleep holds
            // a library open for a moment: wait until only what stays is left.
            try await eventually("only fds 0-3 open in the child (at first: \(Self.openFDs(of: pid)))") {
                try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap(Int.init).sorted()
                    == [0, 1, 2, 3]
            }
            #expect(
                try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/3")
                    == "socket:[\(info.st_ino)]")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/0") == "/dev/null")
            // This process ignores SIGPIPE (EventLoop does): the child must not.
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8).split(separator: "\n")
            #expect(status.contains("SigBlk:\t0000000000000000"))
            #expect(status.contains("SigIgn:\t0000000000000000"))

            try await loop.submit { try child.value.kill(SIGTERM) }
            #expect(try await exited.value() == ChildExitStatus(exitCode: 0, signal: SIGTERM))
            // Another child's exit runs the reaper again: the first is not reported twice.
            let second = Expectation<ChildExitStatus>("second exit")
            _ = try await onLoop(loop) {
                try ChildProcess.spawn(Self.inPlace("/bin/true", [], tag: value.id), on: loop) { second.fulfill($0) }
            }
            #expect(try await second.value().isSuccess)
            #expect(try await loop.submit { reports.value.value } == 1)
            // Reaped: no zombie left, and kill refuses instead of signalling a recycled pid.
            #expect(waitpid(pid, nil, WNOHANG) == -1 && errno == ECHILD)
            let error = try await loop.submit { () -> EventLoopError? in
                failure { () throws(EventLoopError) in try child.value.kill(SIGTERM) }
            }
            #expect(error == .system(operation: "kill", code: -ESRCH))
        }
    }

    @Test func vfork_missingExecutable_failsNamingTheExecStep() async throws {
        try await withEventLoop { loop in
            let error = try await loop.submit { () -> EventLoopError? in
                failure { () throws(EventLoopError) in
                    _ = try ChildProcess.spawn(Self.inPlace("/nonexistent/vt-binary", [], tag: "missing"), on: loop) {
                        _ in
                    }
                }
            }
            #expect(error == .spawn(step: "exec", code: -ENOENT))
            #expect(error?.kind == .spawn)
            #expect(error?.step == "exec")
            #expect(error?.description.hasPrefix("spawn: exec: ENOENT") == true)
        }
    }

    @Test func vtSpawn_aFailedChild_isReaped_andAParentAlreadyGone_failsThePdeathsigStep() throws {
        // The parent check: a `parent` that is not this process stands for a supervisor that
        // died before prctl, so no signal would ever come.
        for (path, parent, step, error) in [
            ("/nonexistent/vt-binary", getpid(), VT_SPAWN_EXEC, ENOENT),
            ("/bin/true", 1, VT_SPAWN_PDEATHSIG, ESRCH),
        ] {
            let argv = [strdup(path), nil]
            let envp: [UnsafeMutablePointer<CChar>?] = [nil]
            defer { free(argv[0]) }
            let fds: [Int32] = [0, 1, 2]
            var pid: pid_t = 0
            var result = vt_spawn_failure()
            let status = argv.withUnsafeBufferPointer { argv in
                envp.withUnsafeBufferPointer { envp in
                    fds.withUnsafeBufferPointer { fds in
                        path.withCString { path in
                            var request = vt_spawn_request()
                            request.path = path
                            request.argv = argv.baseAddress
                            request.envp = envp.baseAddress
                            request.fds = fds.baseAddress
                            request.fd_count = 3
                            request.new_session = 1
                            request.parent_death_signal = SIGTERM
                            request.parent = parent
                            return vt_spawn(&request, &pid, &result)
                        }
                    }
                }
            }
            #expect(status == -1)
            #expect(result.step == Int32(step.rawValue), "\(path)")
            #expect(result.error == error)
            #expect(result.pid > 0)
            #expect(waitpid(result.pid, nil, WNOHANG) == -1 && errno == ECHILD, "the failed child is reaped")
        }
    }

    @Test func vfork_childGetsItsParentDeathSignal_whenTheSpawningLoopThreadEnds() async throws {
        let value = Tagged()
        defer { killTaggedChildren(value.id) }
        let loop = try EventLoop(name: "pdeathsig")
        let pid = try await loop.submit {
            try ChildProcess.spawn(Self.inPlace("/bin/sleep", ["30"], tag: value.id), on: loop) { _ in }.pid
        }
        loop.shutdown() // joins the loop thread, which cloned the child: SIGTERM is sent
        // Nobody reaps it now (the loop's reaper is closed): it stays a zombie until this does.
        let deadline = ContinuousClock.now + .seconds(10)
        var exitStatus: Int32 = 0
        var reaped: pid_t = 0
        while reaped == 0, ContinuousClock.now < deadline {
            reaped = waitpid(pid, &exitStatus, WNOHANG)
            if reaped == 0 { try await Task.sleep(for: .milliseconds(10)) }
        }
        if reaped == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
        }
        #expect(reaped == pid, "the child outlived the thread that spawned it")
        #expect(exitStatus & 0x7f == SIGTERM)
    }
}

extension ChildProcessTests {
    /// `/proc/PID/fd`: each descriptor and what it points at.
    static func openFDs(of pid: Int32) -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.sorted().map { fd in
            "\(fd) → \((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) ?? "?")"
        }
    }
}
