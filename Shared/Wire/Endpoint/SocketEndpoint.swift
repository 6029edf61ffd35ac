import Glibc

/// Where a vertical listens or is reached: a Unix socket (`unix:PATH`) or a TCP address
/// (`tcp:HOST:PORT`, with an IPv6 literal in brackets: `tcp:[::1]:7000`).
///
/// ```swift
/// let endpoint = try SocketEndpoint(parsing: "tcp:127.0.0.1:7001")
/// Connection.connect(to: endpoint, on: loop) { result in … }
/// ```
///
/// Named `SocketEndpoint`, not `Endpoint`: every vertical already declares an `Endpoint` (its
/// routes), and a file importing both modules could not say which it means.
public enum SocketEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// A Unix socket at an absolute or relative path.
    case unix(path: String)
    /// A TCP address: an IPv4 or IPv6 literal, or a host name resolved when connecting.
    /// Port 0 asks the kernel for a free port (listening only).
    case tcp(host: String, port: UInt16)

    /// The longest Unix socket path libuv 1.44 binds or connects to without silently truncating
    /// it (`sun_path` less its NUL): 107 bytes.
    public static let maxUnixPathLength = 107

    /// The two transports, for code that only needs to know which.
    public enum Transport: Sendable, Hashable, CustomStringConvertible {
        /// An `AF_UNIX` stream: the kernel names the peer (`SO_PEERCRED`).
        case unix
        /// A TCP stream: the peer has no identity the kernel vouches for.
        case tcp

        /// `unix` or `tcp`.
        public var description: String { self == .unix ? "unix" : "tcp" }
    }

    /// Parses `unix:PATH` or `tcp:HOST:PORT`.
    ///
    /// - Throws: ``SocketEndpointError`` naming what is wrong: an unknown scheme, an empty or
    ///   over-long path, a bad host (an unbracketed IPv6 address, a malformed name), a bad port.
    public init(parsing text: String) throws(SocketEndpointError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst("unix:".count))
            guard !path.isEmpty, !path.utf8.contains(0) else { throw SocketEndpointError(text, .emptyPath) }
            guard path.utf8.count <= Self.maxUnixPathLength else { throw SocketEndpointError(text, .pathTooLong) }
            self = .unix(path: path)
        } else if text.hasPrefix("tcp:") {
            let rest = Substring(text.dropFirst("tcp:".count))
            let host: Substring
            let portText: Substring
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { throw SocketEndpointError(text, .badHost) }
                host = rest[rest.index(after: rest.startIndex)..<close]
                let after = rest[rest.index(after: close)...]
                guard after.hasPrefix(":") else { throw SocketEndpointError(text, .missingPort) }
                portText = after.dropFirst()
                guard Self.isIPv6Literal(String(host)) else { throw SocketEndpointError(text, .badHost) }
            } else {
                guard let colon = rest.lastIndex(of: ":") else { throw SocketEndpointError(text, .missingPort) }
                host = rest[..<colon]
                portText = rest[rest.index(after: colon)...]
                // A bare IPv6 address is ambiguous (`::1:80`): it must come in brackets.
                guard !host.contains(":"), Self.isHostName(host) else { throw SocketEndpointError(text, .badHost) }
            }
            guard !portText.isEmpty, portText.utf8.count <= 5, portText.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                let port = UInt16(portText)
            else { throw SocketEndpointError(text, .badPort) }
            self = .tcp(host: String(host), port: port)
        } else {
            throw SocketEndpointError(text, .unknownScheme)
        }
    }

    /// Which transport this endpoint uses.
    public var transport: Transport {
        switch self {
        case .unix: .unix
        case .tcp: .tcp
        }
    }

    /// The text ``init(parsing:)`` reads back: `unix:/run/x.sock`, `tcp:10.0.0.2:7001`, `tcp:[::1]:7001`.
    public var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcp(let host, let port) where host.contains(":"): "tcp:[\(host)]:\(port)"
        case .tcp(let host, let port): "tcp:\(host):\(port)"
        }
    }

    /// True for a Unix socket and for a TCP address that stays on this host: `127.0.0.0/8`,
    /// `::1`, `localhost`. Any other host name counts as remote (it is not resolved here).
    public var isLoopback: Bool {
        switch self {
        case .unix: true
        case .tcp(let host, _): Self.isLoopbackHost(host)
        }
    }

    /// Letters, digits, `-` and `.` in labels of at most 63 bytes, 253 in all (RFC 1123); an
    /// IPv4 literal passes as such a name.
    static func isHostName(_ host: Substring) -> Bool {
        guard !host.isEmpty, host.utf8.count <= 253 else { return false }
        return host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy { byte in
                    (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
                        || byte == 45
                }
        }
    }

    /// An IPv6 address written as such (`::1`, `fe80::1`), without brackets.
    static func isIPv6Literal(_ host: String) -> Bool {
        var v6 = in6_addr()
        return inet_pton(AF_INET6, host, &v6) == 1
    }

    /// `localhost`, `127.0.0.0/8`, `::1` and `::ffff:127.x.y.z`.
    static func isLoopbackHost(_ host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127
    }
}
