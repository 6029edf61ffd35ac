import Foundation
import Glibc
import VerticalsEventLoop
import VerticalsWire

/// A short temporary directory (`/tmp/vt.XXXXXX`, socket paths must stay under 108 bytes),
/// removed with everything in it when `body` returns or throws.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    var template = Array("/tmp/vt.XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    let directory = String(cString: created)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try await body(directory)
}

/// Runs `body` with a fresh loop, and shuts the loop down afterwards (even when `body` throws).
func withEventLoop<T>(name: String = "test-loop", _ body: (EventLoop) async throws -> T) async throws -> T {
    let loop = try EventLoop(name: name)
    defer { loop.shutdown() }
    return try await body(loop)
}

/// Runs `body` with the path of a socket `name` in a fresh temporary directory and a fresh loop,
/// as ``withTemporaryDirectory(_:)`` and ``withEventLoop(name:_:)`` give them and clean them up.
func withSocketPath<T>(_ name: String, _ body: (String, EventLoop) async throws -> T) async throws -> T {
    try await withTemporaryDirectory { directory in
        try await withEventLoop { loop in try await body(directory + "/" + name, loop) }
    }
}

/// A loopback TCP port that refuses connections: a socket is bound to it and does not listen,
/// which the kernel answers with a reset. The socket stays bound until the test process ends, so
/// no other test's socket takes the port meanwhile (a port closed and handed back could be).
func refusingLoopbackPort() throws -> UInt16 {
    let held = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard held >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(held, $0, length) == 0 && getsockname(held, $0, &length) == 0
        }
    }
    guard bound else {
        close(held)
        throw POSIXError(.EADDRNOTAVAIL)
    }
    return UInt16(bigEndian: address.sin_port)
}

/// Runs loop-confined setup on the loop thread and returns its result (non-Sendable values
/// come back wrapped; use them only on the loop thread).
func onLoop<T>(_ loop: EventLoop, _ body: @escaping @Sendable () throws -> T) async throws -> LoopBound<T> {
    try await loop.submit { LoopBound(try body()) }
}

/// What a connect gave: `start` runs on the loop thread and hands the completion it is given to
/// the connect it begins; the connection comes back wrapped. `what` names it in a time-out.
func connectOutcome(
    _ what: String, on loop: EventLoop,
    _ start: @escaping @Sendable (@escaping (Result<Connection, EventLoopError>) -> Void) -> Void
) async throws -> Result<LoopBound<Connection>, EventLoopError> {
    let result = Expectation<Result<LoopBound<Connection>, EventLoopError>>(what)
    try await loop.submit { start { outcome in result.fulfill(outcome.map(LoopBound.init)) } }
    return try await result.value()
}

/// Carries a loop-confined value through a Sendable boundary; only touched on its loop.
struct LoopBound<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A frame with its 4-byte big-endian length prefix.
func frame(_ payload: [UInt8]) -> [UInt8] { FrameEncoder.frame(payload) }

/// A frame carrying `text`.
func frame(_ text: String) -> [UInt8] { FrameEncoder.frame(Array(text.utf8)) }

/// Starts a server at `path` that hands each accepted connection to `onConnection`, on the loop.
func startServer(
    at path: String, on loop: EventLoop, options: ConnectionOptions = .init(),
    _ onConnection: @escaping @Sendable (Connection) -> Void
) async throws -> LoopBound<UnixListener> {
    try await onLoop(loop) {
        let listener = try UnixListener.bind(path: path, on: loop, options: options)
        listener.start(onConnection)
        return listener
    }
}

/// Starts an echo server: every frame comes back, framed, on the same connection.
func startEchoServer(at path: String, on loop: EventLoop, options: ConnectionOptions = .init()) async throws
    -> LoopBound<UnixListener>
{
    try await startServer(at: path, on: loop, options: options) { connection in
        connection.onFrame = { [unowned connection] payload in connection.write(frame(payload)) }
        connection.startReading()
    }
}

/// A blocking client socket for tests that need to misbehave (never read, send garbage).
final class RawClient: @unchecked Sendable {
    // Used from one test task at a time.
    let fd: Int32

    /// Connects to `path`. The descriptor is stored only once connected: a throw after every
    /// stored property is set runs `deinit`, which would close it a second time — closing
    /// whatever another thread (an event loop's accept or connect) opened under that number.
    init(connectingTo path: String) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = unixAddress(path)
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            let code = errno
            Glibc.close(descriptor) // the only close: `self` is not initialised, so no deinit runs
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        fd = descriptor
    }

    deinit { Glibc.close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            offset += sent
        }
    }

    /// Reads until `count` bytes arrived or the peer closed; gives up after `timeout`.
    func receive(count: Int, timeout: Duration = .seconds(10)) throws -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let deadline = ContinuousClock.now + timeout
        while result.count < count {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard ContinuousClock.now < deadline else { throw TimedOut(what: "\(count) bytes", after: timeout) }
            guard poll(&poller, 1, 100) >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            guard poller.revents != 0 else { continue }
            let received = chunk.withUnsafeMutableBytes {
                recv(fd, $0.baseAddress, min($0.count, count - result.count), 0)
            }
            guard received > 0 else { break } // end of stream
            result += chunk[..<received]
        }
        return result
    }

    /// Reads everything until the peer closes (bounded by `timeout`).
    func receiveUntilClosed(timeout: Duration = .seconds(10)) throws -> [UInt8] {
        try receive(count: Int.max, timeout: timeout)
    }
}

/// A `sockaddr_un` for `path` (which must fit).
func unixAddress(_ path: String) -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    return address
}

/// A listening socket made by hand (socket, bind, listen), as systemd or the supervisor pass one;
/// with `listening` false, bound only (connects to it are refused).
func makeListeningSocket(at path: String, listening: Bool = true) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    var address = unixAddress(path)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, !listening || listen(fd, 16) == 0 else {
        let code = errno
        Glibc.close(fd)
        throw POSIXError(.init(rawValue: code) ?? .EIO)
    }
    return fd
}

/// True when something exists at `path` (lstat).
func fileExists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
}

/// The error `body` throws, or nil.
func failure(_ body: () throws(EventLoopError) -> Void) -> EventLoopError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

/// Runs blocking `work` (a `RawClient` read, say) on a thread of its own and awaits its result.
/// Not on Dispatch's global queue: on a 2-core machine its pool is two threads wide, and other
/// suites' blocking work can hold both for seconds, long enough for a peer's flush timeout to
/// give up on a reader that never started.
func onItsOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// The frames the echo server at `path` sends back on one connection that `send` writes
/// `count` frames to, once all `count` came back.
func echoedFrames(
    at path: String, on loop: EventLoop, count: Int, _ send: @escaping @Sendable (Connection) -> Void
) async throws -> [[UInt8]] {
    let received = Recorder<[UInt8]>()
    let done = Expectation<Void>("every echo")
    try await loop.submit {
        Connection.connect(path: path, on: loop) { result in
            guard case .success(let connection) = result else { return }
            connection.onFrame = { [unowned connection] payload in
                received.append(payload)
                if received.values.count == count {
                    connection.close()
                    done.fulfill(())
                }
            }
            connection.startReading()
            send(connection)
        }
    }
    try await done.value(timeout: .seconds(60))
    return received.values
}
