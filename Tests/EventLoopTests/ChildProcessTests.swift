import Foundation
import Glibc
import Testing
import VerticalsEventLoop

/// Process tests run one at a time; every child carries a tag so a failing test cannot leave
/// one behind (see `killTaggedChildren`).
@Suite("ChildProcess", .serialized)
struct ChildProcessTests {
    static let tag = "VT_EVENTLOOP_TEST_CHILD"

    struct Outcome: Sendable {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var status: ChildExitStatus?
    }

    /// Runs `/bin/sh -c script`, capturing both streams, and waits for the exit; `configure`
    /// may change the options last (another launch, more arguments).
    static func run(
        _ script: String, on loop: EventLoop, inheritedFDs: [Int32] = [], timeout: Duration = .seconds(20),
        whileRunning: (@Sendable (LoopBound<ChildProcess>) async throws -> Void)? = nil,
        configure: @escaping @Sendable (inout ChildProcess.Options) -> Void = { _ in }
    ) async throws -> Outcome {
        let value = Tagged()
        let exited = Expectation<Outcome>("exit of \(script)")
        let output = LoopBound(Box(Outcome()))
        let child = try await onLoop(loop) {
            var options = ChildProcess.Options(executable: "/bin/sh", arguments: ["-c", script])
            options.environment[tag] = value.id
            options.inheritedFDs = inheritedFDs
            options.stdout = .capture
            options.stderr = .capture
            configure(&options)
            return try ChildProcess.spawn(
                options, on: loop,
                onOutput: { stream, bytes in
                    if stream == 1 { output.value.value.stdout += bytes } else { output.value.value.stderr += bytes }
                }
            ) { status in
                output.value.value.status = status
                exited.fulfill(output.value.value)
            }
        }
        defer { killTaggedChildren(value.id) }
        try await whileRunning?(child)
        return try await exited.value(timeout: timeout)
    }

    @Test func shellThatEchoesAndExits3_reportsItsOutputAndExitCode() async throws {
        try await withEventLoop { loop in
            let outcome = try await Self.run("echo hi; echo oops >&2; exit 3", on: loop)
            #expect(String(decoding: outcome.stdout, as: UTF8.self) == "hi\n")
            #expect(String(decoding: outcome.stderr, as: UTF8.self) == "oops\n")
            #expect(outcome.status == ChildExitStatus(exitCode: 3, signal: 0))
        }
    }

    @Test func childKilledWithSIGTERM_reportsSignal15() async throws {
        try await withEventLoop { loop in
            let outcome = try await Self.run("echo started; exec sleep 30", on: loop) { child in
                try await Task.sleep(for: .milliseconds(50))
                try await loop.submit { try child.value.kill(SIGTERM) }
            }
            #expect(outcome.status == ChildExitStatus(exitCode: 0, signal: SIGTERM))
        }
    }

    @Test func killAfterExit_failsWithESRCH_insteadOfSignallingARecycledPid() async throws {
        try await withEventLoop { loop in
            let exited = Expectation<LoopBound<ChildProcess>>("exit")
            _ = try await onLoop(loop) {
                let options = ChildProcess.Options(executable: "/bin/true", stdout: .ignore, stderr: .ignore)
                var child: ChildProcess?
                child = try ChildProcess.spawn(options, on: loop) { _ in exited.fulfill(LoopBound(child!)) }
                return child!
            }
            let child = try await exited.value()
            #expect(try await loop.submit { child.value.hasExited })
            let error = try await loop.submit { () -> EventLoopError? in
                failure { () throws(EventLoopError) in try child.value.kill(SIGTERM) }
            }
            #expect(error == .system(operation: "kill", code: -3)) // UV_ESRCH
        }
    }

    @Test func inheritedFD_isTheChildsFD3() async throws {
        try await withEventLoop { loop in
            var pair: [Int32] = [0, 0]
            #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
            defer { close(pair[0]); close(pair[1]) }
            var info = stat()
            fstat(pair[0], &info)
            let outcome = try await Self.run("readlink /proc/self/fd/3", on: loop, inheritedFDs: [pair[0]])
            #expect(String(decoding: outcome.stdout, as: UTF8.self) == "socket:[\(info.st_ino)]\n")
            #expect(outcome.status?.isSuccess == true)
        }
    }

    @Test func spawningAMissingExecutable_failsWithNotFound() async throws {
        try await withEventLoop { loop in
            let error = try await loop.submit { () -> EventLoopError? in
                failure { () throws(EventLoopError) in
                    _ = try ChildProcess.spawn(.init(executable: "/nonexistent/vt-binary"), on: loop) { _ in }
                }
            }
            #expect(error == .notFound)
        }
    }

    @Test func environmentAndWorkingDirectory_reachTheChild() async throws {
        try await withTemporaryDirectory { directory in
            try await withEventLoop { loop in
                let exited = Expectation<String>("exit")
                let output = LoopBound(Box([UInt8]()))
                _ = try await onLoop(loop) {
                    let options = ChildProcess.Options(
                        executable: "/bin/sh", arguments: ["-c", "echo $GREETING; pwd"],
                        environment: ["GREETING": "hello", Self.tag: "env-test"], workingDirectory: directory,
                        stdout: .capture)
                    return try ChildProcess.spawn(options, on: loop, onOutput: { output.value.value += $1 }) { _ in
                        exited.fulfill(String(decoding: output.value.value, as: UTF8.self))
                    }
                }
                #expect(try await exited.value() == "hello\n\(directory)\n")
            }
        }
    }
}

/// A unique tag value for one test's children.
struct Tagged: Sendable {
    let id = "vt-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
}

/// SIGKILLs every process whose environment carries `ChildProcessTests.tag=<value>`.
func killTaggedChildren(_ value: String) {
    let needle = Array("\(ChildProcessTests.tag)=\(value)".utf8)
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
    for entry in entries {
        guard let pid = Int32(entry), pid != getpid(),
            let environment = FileManager.default.contents(atPath: "/proc/\(entry)/environ")
        else { continue }
        if environment.split(separator: 0).contains(where: { Array($0) == needle }) {
            kill(pid, SIGKILL)
        }
    }
}
