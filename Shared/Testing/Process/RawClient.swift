import Glibc
import VerticalsWire

/// A blocking Unix-socket client that speaks bytes, not types: for sending what a
/// well-behaved client never would (garbage, bad lengths) and reading what comes back.
public final class RawClient {
    let fd: Int32
    private var decoder = FrameDecoder()
    /// A process carrying this client's bytes (``overTLS(host:port:files:namespace:receiveTimeout:)``),
    /// stopped when the client goes.
    var carrier: DaemonProcess?

    /// Connects to `path`; throws ``RawSocketError`` when the socket cannot be made or nobody listens.
    ///
    /// The descriptor is stored only once connected. A class whose stored properties are all set
    /// runs its `deinit` when its initializer throws, so an `fd` stored before a failed connect
    /// would be closed twice (here, then in `deinit`) — and the second close, in a test process
    /// full of event-loop threads, closes whatever another thread opened in between under that
    /// number. Polling a daemon's socket until it listens fails hundreds of times a run.
    public init(path: String, receiveTimeout: Duration = .seconds(5)) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw RawSocketError("socket for \(path)") }
        let connected = withUnixSocketAddress(path) { connect(descriptor, $0, $1) }
        guard connected == 0 else {
            let error = RawSocketError("connect \(path)")
            close(descriptor) // the only close: `self` is not initialised, so no deinit runs
            throw error
        }
        Self.setReceiveTimeout(receiveTimeout, on: descriptor)
        fd = descriptor
    }

    /// Connects over TCP to an IPv4 literal `host` and `port` (a daemon served on TCP loopback),
    /// from the IPv4 literal `source` when given (another loopback address, e.g. 127.0.0.2, is
    /// another caller to the daemon); throws ``RawSocketError`` when nobody listens. The same
    /// descriptor rule as ``init(path:receiveTimeout:)``.
    public init(host: String, port: UInt16, from source: String? = nil, receiveTimeout: Duration = .seconds(5)) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw RawSocketError("socket for \(host):\(port)") }
        if let source {
            guard Self.ipv4(source, port: 0, { bind(descriptor, $0, $1) }) else {
                close(descriptor) // as below: `self` is not initialised
                throw RawSocketError("bind \(source)")
            }
        }
        guard Self.ipv4(host, port: port, { connect(descriptor, $0, $1) }) else {
            let error = RawSocketError("connect \(host):\(port)")
            close(descriptor) // the only close: `self` is not initialised, so no deinit runs
            throw error
        }
        Self.setReceiveTimeout(receiveTimeout, on: descriptor)
        fd = descriptor
    }

    /// Whether `call` (a `bind` or `connect`) succeeded with the address of the IPv4 literal
    /// `host` and `port`; false, without calling it, when `host` is no IPv4 literal.
    private static func ipv4(
        _ host: String, port: UInt16, _ call: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return false }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Takes over `descriptor`, a connected stream socket (closed with the client).
    public init(descriptor: Int32, receiveTimeout: Duration = .seconds(5)) {
        Self.setReceiveTimeout(receiveTimeout, on: descriptor)
        fd = descriptor
    }

    /// Makes a read on `descriptor` give up after `timeout` (`SO_RCVTIMEO`).
    private static func setReceiveTimeout(_ timeout: Duration, on descriptor: Int32) {
        let (seconds, attoseconds) = timeout.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes raw bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard written > 0 else { throw RawSocketError("send") }
            offset += written
        }
    }

    /// Writes as much of `bytes` as the socket takes without blocking; returns how much that was
    /// (0 when its buffer is full: the peer does not read). For clients that never read.
    public func sendWithoutBlocking(_ bytes: [UInt8]) -> Int {
        let written = bytes.withUnsafeBytes {
            Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        return max(0, written)
    }

    /// Sends `frame(id)` for id = `first` + 1, + 2, … without reading a reply, until `limit` or
    /// until the socket takes nothing for `stall` (the peer stopped reading: backpressure);
    /// returns the last id tried. For clients that never read.
    public func sendUntilStalled(
        after first: UInt64, upTo limit: UInt64, stall: Duration = .milliseconds(500), _ frame: (UInt64) -> [UInt8]
    ) -> UInt64 {
        var id = first
        var stalledSince: ContinuousClock.Instant?
        while id < limit {
            id += 1
            let bytes = frame(id)
            var offset = 0
            while offset < bytes.count {
                let written = sendWithoutBlocking(Array(bytes[offset...]))
                offset += written
                if written == 0 {
                    if stalledSince == nil { stalledSince = .now }
                    if ContinuousClock.now - stalledSince! > stall { break }
                    usleep(10_000)
                } else {
                    stalledSince = nil
                }
            }
            if offset < bytes.count { break }
        }
        return id
    }

    /// Reads and drops replies until the peer closes the connection (true), or a read times out
    /// with it still open (false). For a client that never read, once the peer should give up on it.
    public func drainUntilClosed() -> Bool {
        while true {
            switch receive() {
            case .message: continue
            case .closed: return true
            case .timedOut: return false
            }
        }
    }

    /// Closes the sending half (`shutdown(SHUT_WR)`): the peer sees end of stream, replies still come.
    public func finishSending() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Sends a request frame with `body`.
    public func sendRequest(id: UInt64, operation: String, body: [UInt8], deadlineMicroseconds: UInt64 = 0) throws {
        try send(
            Message.frame(
                Envelope(
                    kind: .request, correlationID: id, operation: operation, deadlineMicroseconds: deadlineMicroseconds),
                rawBody: body))
    }

    /// What reading produced.
    public enum Received {
        case message(Message)
        case closed
        case timedOut
    }

    /// Reads the next frame, or reports that the peer closed or nothing came in time.
    public func receive() -> Received {
        while true {
            do {
                if let payload = try decoder.nextFrame() {
                    if let message = try? Message(payload: payload) { return .message(message) }
                    return .closed
                }
            } catch {
                return .closed
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = recv(fd, &chunk, chunk.count, 0)
            if count == 0 { return .closed }
            if count < 0 { return errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .closed }
            decoder.append(chunk[..<count])
        }
    }

    /// Reads the next frame and decodes it as an error frame.
    public func receiveError() -> (envelope: Envelope, error: ServiceError)? {
        guard case .message(let message) = receive(), message.envelope.kind == .error,
            let error = try? message.decodeBody(as: ServiceError.self)
        else { return nil }
        return (message.envelope, error)
    }

    /// Reads up to `count` response frames, in the order they come; stops early at the first
    /// frame that is no response, at the end of the stream or at the receive timeout, so fewer
    /// than `count` means something else came (or nothing).
    public func receiveResponses(_ count: Int) -> [Message] {
        var responses: [Message] = []
        while responses.count < count, case .message(let message) = receive(), message.envelope.kind == .response {
            responses.append(message)
        }
        return responses
    }

    deinit {
        close(fd)
        carrier?.stop()
    }
}
