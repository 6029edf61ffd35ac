import Glibc

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
        // At least a millisecond: a zero timeval would mean no limit at all.
        let (seconds, attoseconds) = timeout.components
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        if seconds < 0 || (seconds == 0 && limit.tv_usec < 1000) { limit = timeval(tv_sec: 0, tv_usec: 1000) }
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        // SO_SNDTIMEO bounds a blocking connect on Linux too.
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { return false }
        let head =
            "POST \(endpoint.path) HTTP/1.1\r\nHost: \(endpoint.host):\(endpoint.port)\r\n"
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
            let count = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }
}
