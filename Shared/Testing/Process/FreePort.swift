import Glibc

/// A TCP port on 127.0.0.1 that was free a moment ago: bound to port 0, read back, closed. For
/// a tool that must be told a port before it binds (`systemd-socket-activate -l`,
/// `VERTICALS_LISTEN`). Another process could take it in between; the kernel hands ephemeral
/// ports out in turn, so that is rare, and the test then fails at bind with a clear error.
public func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw RawSocketError("socket") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let status = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1 }
    }
    guard status == 0 else { throw RawSocketError("bind 127.0.0.1:0") }
    return UInt16(bigEndian: address.sin_port)
}
