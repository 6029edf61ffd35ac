import CLibUV
import Glibc

/// Plain-socket helpers for TCP endpoints: binding a listening socket to hand to another
/// process (as svc-supervisor does), and reading what an inherited socket is bound to.
public enum TCPSocket {
    /// Binds and listens on `host:port` and returns the fd (close-on-exec, blocking; nothing
    /// accepts on it). `SO_REUSEADDR` is set, so a restart binds again while old connections
    /// linger in `TIME_WAIT`. A host name is resolved with the blocking `getaddrinfo`: call this
    /// at start-up, not from a loop that serves. Every address of the name is tried in order.
    ///
    /// - Throws: ``EventLoopError`` (`addressInUse` when another socket holds the port).
    public static func listen(host: String, port: UInt16, backlog: Int32 = 511) throws(EventLoopError) -> Int32 {
        var lastError = EventLoopError.system(operation: "bind \(host)", code: UV_EADDRNOTAVAIL.rawValue)
        for address in try SocketAddress.resolve(host: host, port: port) {
            let fd = socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastError = .system(operation: "socket", code: -errno)
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            let bound = address.withSockaddr { Glibc.bind(fd, $0, $1) }
            if bound == 0, Glibc.listen(fd, backlog) == 0 { return fd }
            let code = -errno
            Glibc.close(fd)
            lastError =
                code == UV_EADDRINUSE.rawValue
                ? .addressInUse("tcp:\(host):\(port)") : .system(operation: "bind tcp:\(host):\(port)", code: code)
        }
        throw lastError
    }

    /// The addresses of `host` as numeric endpoints (`tcp:IP:PORT`), in `getaddrinfo`'s order;
    /// an IP literal is returned as it is. Blocking: call it off the loop, or at start-up.
    public static func resolve(host: String, port: UInt16) throws(EventLoopError) -> [SocketEndpoint] {
        try SocketAddress.resolve(host: host, port: port).map(\.endpoint)
    }

    /// What the TCP socket `fd` is bound to (with the port the kernel chose for port 0), or
    /// nil when `fd` is not an IP socket.
    public static func localEndpoint(of fd: Int32) -> SocketEndpoint? {
        SocketAddress.local(ofSocket: fd)?.endpoint
    }

    /// Whether `fd` is an IPv4 or IPv6 socket (`getsockname`'s family), as opposed to a Unix one.
    public static func isTCP(_ fd: Int32) -> Bool {
        guard let family = SocketAddress.family(ofSocket: fd) else { return false }
        return family == AF_INET || family == AF_INET6
    }
}
