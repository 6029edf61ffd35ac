import Glibc

/// A TCP port on 127.0.0.1 that was free a moment ago: bound to port 0, read back, closed. For
/// a tool that must be told a port before it binds (`systemd-socket-activate -l`,
/// `VERTICALS_LISTEN`). Another process could take it in between; the kernel hands ephemeral
/// ports out in turn, so that is rare, and the test then fails at bind with a clear error.
public func freeLoopbackPort() throws -> UInt16 {
    let (fd, port) = try boundLoopbackSocket()
    close(fd)
    return port
}

/// A TCP socket listening on 127.0.0.1 at a port the kernel chose, and the port: for a test that
/// plays a peer at the byte level (reads a ClientHello, answers nothing). The caller closes it.
public func loopbackListener(backlog: Int32 = 1) throws -> (descriptor: Int32, port: UInt16) {
    let (fd, port) = try boundLoopbackSocket()
    guard listen(fd, backlog) == 0 else {
        close(fd)
        throw RawSocketError("listen on 127.0.0.1:\(port)")
    }
    return (fd, port)
}

/// A TCP socket bound to 127.0.0.1 port 0, and the port it got.
private func boundLoopbackSocket() throws -> (Int32, UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw RawSocketError("socket") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let status = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1 }
    }
    guard status == 0 else {
        close(fd)
        throw RawSocketError("bind 127.0.0.1:0")
    }
    return (fd, UInt16(bigEndian: address.sin_port))
}
