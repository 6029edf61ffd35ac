import Glibc
import Testing
import VerticalsEventLoop

@Suite("UnixListener: bind, adopt, close")
struct UnixListenerTests {
    /// Checks that the server at `path` answers a fresh client's frame of `text` with the same frame.
    static func expectEchoes(at path: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let client = try RawClient(connectingTo: path)
        try client.send(frame(text))
        #expect(try client.receive(count: 4 + text.utf8.count) == frame(text), sourceLocation: sourceLocation)
    }

    /// A path of exactly `length` bytes inside `directory`.
    static func path(in directory: String, length: Int) -> String {
        let prefix = directory + "/"
        return prefix + String(repeating: "s", count: length - prefix.utf8.count)
    }

    @Test func bind_aPathOf107Bytes_works() async throws {
        try await withTemporaryDirectory { directory in
            try await withEventLoop { loop in
                let path = Self.path(in: directory, length: 107)
                _ = try await startEchoServer(at: path, on: loop)
                #expect(fileExists(path))
                try Self.expectEchoes(at: path, "ping")
            }
        }
    }

    @Test func bind_aPathOver107Bytes_failsWithPathTooLong_withoutCreatingAnyFile() async throws {
        try await withTemporaryDirectory { directory in
            try await withEventLoop { loop in
                let path = Self.path(in: directory, length: 108)
                let error = try await loop.submit { () -> EventLoopError? in
                    failure { () throws(EventLoopError) in
                        _ = try UnixListener.bind(path: path, on: loop)
                    }
                }
                #expect(error == .pathTooLong(path, limit: 107))
                #expect(error?.kind == .pathTooLong)
                let entries = try FileManagerLite.contents(of: directory)
                #expect(entries.isEmpty, "created \(entries)")
            }
        }
    }

    @Test func bind_inAMissingDirectory_failsWithNotFound() async throws {
        try await withSocketPath("missing/s.sock") { path, loop in
            let error = try await loop.submit { () -> EventLoopError? in
                failure { () throws(EventLoopError) in _ = try UnixListener.bind(path: path, on: loop) }
            }
            #expect(error == .notFound)
        }
    }

    @Test func bind_whereALiveServerListens_failsWithAddressInUse_andLeavesItServing() async throws {
        try await withSocketPath("live.sock") { path, loop in
            _ = try await startEchoServer(at: path, on: loop)
            let error = try await loop.submit { () -> EventLoopError? in
                failure { () throws(EventLoopError) in
                    _ = try UnixListener.bind(path: path, on: loop)
                }
            }
            #expect(error == .addressInUse(path))
            try Self.expectEchoes(at: path, "still here")
        }
    }

    @Test func bind_onAFileThatIsNotASocket_failsWithAddressInUse_andKeepsTheFile() async throws {
        try await withSocketPath("data") { path, loop in
            let fd = open(path, O_CREAT | O_WRONLY, 0o600)
            close(fd)
            let error = try await loop.submit { () -> EventLoopError? in
                failure { () throws(EventLoopError) in
                    _ = try UnixListener.bind(path: path, on: loop)
                }
            }
            #expect(error?.kind == .addressInUse)
            #expect(fileExists(path))
        }
    }

    @Test func bind_onAStaleSocketFile_replacesIt() async throws {
        try await withSocketPath("stale.sock") { path, loop in
            // The file stays and nobody listens: bound only, since a child another test forks now
            // holds a copy of every descriptor until its exec, and a listening copy would answer.
            close(try makeListeningSocket(at: path, listening: false))
            #expect(fileExists(path))
            _ = try await startEchoServer(at: path, on: loop)
            try Self.expectEchoes(at: path, "fresh")
        }
    }

    @Test func bind_withMode_setsTheSocketFilesPermissions() async throws {
        try await withSocketPath("mode.sock") { path, loop in
            _ = try await onLoop(loop) { try UnixListener.bind(path: path, on: loop, mode: 0o600) }
            var info = stat()
            #expect(lstat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o600)
        }
    }

    @Test func close_removesTheSocketFileItBound() async throws {
        try await withSocketPath("bound.sock") { path, loop in
            let listener = try await startEchoServer(at: path, on: loop)
            try await loop.submit {
                listener.value.close()
                listener.value.close() // idempotent
            }
            #expect(!fileExists(path))
        }
    }

    @Test func adopt_anInheritedListeningSocket_servesConnections_andCloseKeepsItsFile() async throws {
        try await withSocketPath("adopted.sock") { path, loop in
            let fd = try makeListeningSocket(at: path)
            let listener = try await onLoop(loop) {
                let listener = try UnixListener.adopt(fd: fd, on: loop)
                listener.start { connection in
                    connection.onFrame = { [unowned connection] in connection.write(frame($0)) }
                    connection.startReading()
                }
                return listener
            }
            #expect(listener.value.path == nil)
            try Self.expectEchoes(at: path, "adopted")
            try await loop.submit { listener.value.close() }
            #expect(fileExists(path))
        }
    }

    @Test func adopt_aDescriptorThatCannotListen_throws_andLeavesItToTheCaller() async throws {
        try await withEventLoop { loop in
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            defer { close(fds[0]); close(fds[1]) }
            let readEnd = fds[0]
            let error = try await loop.submit { () -> EventLoopError? in
                failure { () throws(EventLoopError) in
                    _ = try UnixListener.adopt(fd: readEnd, on: loop)
                }
            }
            #expect(error?.kind == .system)
            #expect(fcntl(fds[0], F_GETFD) >= 0) // still open
        }
    }

    @Test func peersThatConnectBeforeStart_areServedOnceStarted() async throws {
        try await withSocketPath("late.sock") { path, loop in
            let listener = try await onLoop(loop) { try UnixListener.bind(path: path, on: loop) }
            let early = try (0..<3).map { _ in try RawClient(connectingTo: path) }
            try await Task.sleep(for: .milliseconds(20))
            let accepted = Countdown(3, "three waiting peers accepted")
            try await loop.submit {
                listener.value.start { connection in
                    accepted.tick()
                    connection.onFrame = { [unowned connection] in connection.write(frame($0)) }
                    connection.startReading()
                }
            }
            try await accepted.reached.value()
            for client in early {
                try client.send(frame("x"))
                #expect(try client.receive(count: 5) == frame("x"))
            }
        }
    }
}

/// Directory listing without Foundation's bridging quirks.
enum FileManagerLite {
    static func contents(of directory: String) throws -> [String] {
        guard let handle = opendir(directory) else { throw TimedOut(what: "opendir", after: .zero) }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
