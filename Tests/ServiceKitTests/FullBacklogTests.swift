import Glibc
import VerticalsClient
import VerticalsTestSupport
import Testing
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsTesting
import VerticalsWire

/// A callee whose listen backlog is full is alive but slow to accept: a call waits for it
/// within its deadline instead of failing `unavailable` at once.
struct FullBacklogTests {
    /// A listening Unix socket at `path` that never accepts, with its backlog filled by
    /// connections that never finish; returns every descriptor, to close.
    static func fullListener(at path: String) throws -> [Int32] {
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = withUnixSocketAddress(path) { bind(listener, $0, $1) }
        guard bound == 0, listen(listener, 0) == 0 else { throw RawSocketError("cannot listen at \(path)") }
        var descriptors = [listener]
        for _ in 0..<64 {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            descriptors.append(fd)
            let status = withUnixSocketAddress(path) { connect(fd, $0, $1) }
            if status != 0 && errno == EAGAIN { return descriptors }
        }
        throw RawSocketError("the backlog never filled")
    }

    @Test func call_toACalleeWithAFullBacklog_waitsUntilItsDeadline_notUnavailableAtOnce() async throws {
        let directory = TemporaryDirectory()
        let sockets = SocketDirectory(directory.path)
        let descriptors = try Self.fullListener(at: sockets.socketPath(for: "echo"))
        defer { for fd in descriptors { close(fd) } }
        let loop = try EventLoop(name: "full-backlog-test")
        let client = ServiceClient(loop: loop, sockets: sockets)
        defer {
            client.close()
            loop.shutdown()
        }
        let start = ContinuousClock.now
        let error = await #expect(throws: ServiceError.self) {
            try await client.call(TestEcho().echo, .init(text: "anyone?"), timeout: .milliseconds(300))
        }
        #expect(error?.code == .deadlineExceeded, "\(String(describing: error))")
        #expect(ContinuousClock.now - start >= .milliseconds(250))
    }
}
