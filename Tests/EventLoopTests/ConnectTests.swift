import Glibc
import Testing
import VerticalsEventLoop

@Suite("Connection.connect and peer credentials")
struct ConnectTests {
    static func connect(_ path: String, on loop: EventLoop) async throws -> Result<
        LoopBound<Connection>, EventLoopError
    > {
        try await connectOutcome("connect \(path)", on: loop) { Connection.connect(path: path, on: loop, $0) }
    }

    @Test func connect_toAMissingPath_failsWithNotFound() async throws {
        try await withTemporaryDirectory { directory in
            try await withEventLoop { loop in
                let result = try await Self.connect(directory + "/nobody.sock", on: loop)
                #expect(throws: EventLoopError.notFound) { try result.get() }
            }
        }
    }

    @Test func connect_toAStaleSocket_failsWithConnectionRefused() async throws {
        try await withSocketPath("stale.sock") { path, loop in
            // Bound, never listening: a child another test forks at this moment holds a copy of
            // every descriptor until its exec, and a *listening* copy would accept this connect.
            close(try makeListeningSocket(at: path, listening: false))
            let result = try await Self.connect(path, on: loop)
            #expect(throws: EventLoopError.connectionRefused) { try result.get() }
        }
    }

    @Test func connect_toAPathOver107Bytes_failsWithPathTooLong() async throws {
        try await withEventLoop { loop in
            let path = "/tmp/" + String(repeating: "x", count: 120)
            let result = try await Self.connect(path, on: loop)
            #expect(throws: EventLoopError.pathTooLong(path)) { try result.get() }
        }
    }

    @Test func peerCredentials_nameOurOwnProcess_onBothEnds() async throws {
        try await withSocketPath("cred.sock") { path, loop in
            let serverSide = Expectation<PeerCredentials?>("server-side credentials")
            _ = try await startServer(at: path, on: loop) { connection in
                serverSide.fulfill(connection.peerCredentials)
            }
            let client = try await Self.connect(path, on: loop).get()
            let clientSide = try await loop.submit { client.value.peerCredentials }
            let us = PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())
            #expect(try await serverSide.value() == us)
            #expect(clientSide == us)
            try await loop.submit { client.value.close() }
            #expect(try await loop.submit { client.value.peerCredentials } == us) // cached
        }
    }

    @Test func connectionIDs_areUnique() async throws {
        try await withSocketPath("ids.sock") { path, loop in
            _ = try await startEchoServer(at: path, on: loop)
            var ids: Set<UInt64> = []
            for _ in 0..<20 {
                let connection = try await Self.connect(path, on: loop).get()
                ids.insert(connection.value.id)
                try await loop.submit { connection.value.close() }
            }
            #expect(ids.count == 20)
        }
    }

    @Test func errors_describeWhatWentWrong() {
        #expect(EventLoopError.pathTooLong("/x", limit: 107).description.contains("107"))
        #expect(
            EventLoopError.system(operation: "bind", code: -13).description == "bind failed: EACCES (permission denied)"
        )
        #expect(EventLoopError.notFound.errnoCode == -2)
        #expect(EventLoopError.addressInUse("/a").path == "/a")
    }
}
