import Glibc
import Testing
import VerticalsEventLoop

extension ChildProcessTests {
    /// `.descriptor(fd)`: output into a pipe the parent holds, the way svc-supervisor keeps one
    /// pipe for every process of a service.
    @Test func twoChildrenInTurn_writeIntoTheParentsHeldPipe() async throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        let writer = fds[1]
        try await withEventLoop { loop in
            for text in ["first", "second"] {
                let exited = Expectation<ChildExitStatus>("exit of \(text)")
                _ = try await onLoop(loop) {
                    var options = ChildProcess.Options(executable: "/bin/sh", arguments: ["-c", "echo \(text)"])
                    options.environment[Self.tag] = "descriptor"
                    options.stdout = .descriptor(writer)
                    return try ChildProcess.spawn(options, on: loop) { exited.fulfill($0) }
                }
                #expect(try await exited.value(timeout: .seconds(10)) == ChildExitStatus(exitCode: 0, signal: 0))
            }
        }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(fds[0], &bytes, bytes.count)
        #expect(count > 0 && String(decoding: bytes[..<count], as: UTF8.self) == "first\nsecond\n")
    }
}
