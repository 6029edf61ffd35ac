import CLibUV
import Glibc

/// An IPv4 or IPv6 socket address (`sockaddr_in` / `sockaddr_in6` in a `sockaddr_storage`), as
/// `bind`, `connect` and libuv take it, with the parsing and resolving that produce one.
struct SocketAddress {
    var storage = sockaddr_storage()
    var length: socklen_t = 0

    var family: Int32 { Int32(storage.ss_family) }

    /// The address of an IPv4 or IPv6 literal, or nil for anything else (a host name).
    static func numeric(host: String, port: UInt16) -> SocketAddress? {
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            return SocketAddress(copying: v4)
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            return SocketAddress(copying: v6)
        }
        return nil
    }

    /// The address held in `raw`, a `sockaddr_in` or `sockaddr_in6`.
    private init<Raw>(copying raw: Raw) {
        var storage = sockaddr_storage()
        withUnsafeBytes(of: raw) { source in
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
        }
        self.storage = storage
        length = socklen_t(MemoryLayout<Raw>.size)
    }

    /// The address `call` writes (`getsockname`, `getpeername` and the like: a buffer and its
    /// length in, the length used out), or nil when it fails (returns other than 0).
    init?(writtenBy call: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, &length) }
        }
        guard status == 0 else { return nil }
        self.storage = storage
        self.length = length
    }

    /// Copies one `getaddrinfo` result.
    init?(_ info: UnsafePointer<addrinfo>) {
        guard let source = info.pointee.ai_addr, Int(info.pointee.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size
        else { return nil }
        length = info.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &storage) {
            $0.copyMemory(from: UnsafeRawBufferPointer(start: source, count: Int(length)))
        }
    }

    init() {}

    /// Resolves `host` (a literal or a name) with the blocking `getaddrinfo`: call it off the
    /// loop, or at start-up before serving. The loop's own connects use `uv_getaddrinfo`.
    static func resolve(host: String, port: UInt16) throws(EventLoopError) -> [SocketAddress] {
        if let address = numeric(host: host, port: port) { return [address] }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let results else {
            throw .system(
                operation: "getaddrinfo \(host)",
                code: status == EAI_NONAME ? UV_EAI_NONAME.rawValue : UV_EAI_FAIL.rawValue)
        }
        defer { freeaddrinfo(results) }
        return list(results)
    }

    /// Every address of a `getaddrinfo` result list, in its order.
    static func list(_ first: UnsafeMutablePointer<addrinfo>) -> [SocketAddress] {
        var addresses: [SocketAddress] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let info = next {
            if let address = SocketAddress(info) { addresses.append(address) }
            next = info.pointee.ai_next
        }
        return addresses
    }

    /// The local address a socket is bound to, or nil when it is not an IP socket.
    static func local(ofSocket fd: Int32) -> SocketAddress? {
        guard let address = SocketAddress(writtenBy: { getsockname(fd, $0, $1) }),
            address.family == AF_INET || address.family == AF_INET6
        else { return nil }
        return address
    }

    /// The address family of socket `fd` (`AF_UNIX`, `AF_INET`, `AF_INET6`), or nil when it is no socket.
    static func family(ofSocket fd: Int32) -> Int32? {
        SocketAddress(writtenBy: { getsockname(fd, $0, $1) })?.family
    }

    /// This address as a ``SocketEndpoint/tcp(host:port:)``.
    var endpoint: SocketEndpoint {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var port: UInt16 = 0
        withUnsafeBytes(of: storage) { raw in
            if family == AF_INET {
                var v4 = raw.loadUnaligned(as: sockaddr_in.self)
                port = UInt16(bigEndian: v4.sin_port)
                _ = inet_ntop(AF_INET, &v4.sin_addr, &text, socklen_t(text.count))
            } else {
                var v6 = raw.loadUnaligned(as: sockaddr_in6.self)
                port = UInt16(bigEndian: v6.sin6_port)
                _ = inet_ntop(AF_INET6, &v6.sin6_addr, &text, socklen_t(text.count))
            }
        }
        return .tcp(
            host: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), port: port)
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }
}
