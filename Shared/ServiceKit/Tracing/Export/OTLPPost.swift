import Glibc

/// Where an OTLP/HTTP exporter posts: host, port and path of an `http://` URL.
public struct OTLPEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// Why a URL cannot be an endpoint.
    public struct Problem: Error, CustomStringConvertible {
        /// What is wrong, naming the URL.
        public let description: String
    }

    /// The host name or address.
    public var host: String
    /// The TCP port (default 4318, OTLP/HTTP's).
    public var port: UInt16
    /// The request path, e.g. `/v1/traces`.
    public var path: String

    /// The endpoint `url` names; `appendingPath` is added to its path (the signal's path under a
    /// base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` is read).
    public init(url: String, appendingPath: String?) throws(Problem) {
        guard url.hasPrefix("http://") else {
            throw Problem(description: "\(url): only http:// is supported (a collector beside the daemon)")
        }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" }
        var path = String(rest.dropFirst(authority.count))
        if let appendingPath { path = (path.hasSuffix("/") ? path : path + "/") + appendingPath }
        if path.isEmpty { path = "/" }
        var host = String(authority)
        var port: UInt16 = 4318
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let number = UInt16(authority[authority.index(after: colon)...]) else {
                throw Problem(description: "\(url): the port is not a number")
            }
            host = String(authority[..<colon])
            port = number
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw Problem(description: "\(url): no host") }
        self.host = host
        self.port = port
        self.path = path
    }

    /// `http://host:port/path`.
    public var description: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(path)" }
}

/// One blocking HTTP/1.1 POST of a protobuf body, on the exporter's own thread: connect, send,
/// read the status line, close. Every step is bounded by the timeout.
enum OTLPPost {
    /// Whether the collector answered 2xx.
    static func post(_ body: [UInt8], to endpoint: OTLPEndpoint, timeout: Duration) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(endpoint.host, "\(endpoint.port)", &hints, &list) == 0, let first = list else { return false }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let micros = max(1000, timeout.wholeNanoseconds / 1000)
        var limit = timeval(tv_sec: Int(micros / 1_000_000), tv_usec: Int(micros % 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        // SO_SNDTIMEO bounds a blocking connect on Linux too.
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { return false }
        let head = "POST \(endpoint.path) HTTP/1.1\r\nHost: \(endpoint.host):\(endpoint.port)\r\n"
            + "Content-Type: application/x-protobuf\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        guard writeAll(fd, Array(head.utf8) + body) else { return false }
        var answer = [UInt8](repeating: 0, count: 512)
        var count = 0
        while count < 12 {
            let read = answer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + count, 512 - count, 0) }
            if read <= 0 { return false }
            count += read
        }
        // "HTTP/1.1 200 OK": the status code's first digit.
        return answer[9] == UInt8(ascii: "2")
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }
}
