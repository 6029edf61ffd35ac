import Glibc
import Synchronization

/// A TCP port on 127.0.0.1 that was free a moment ago, for a tool that must be told a port
/// before it binds (`systemd-socket-activate -l`, `VERTICALS_LISTEN`).
///
/// Chosen below the kernel's ephemeral range (`net.ipv4.ip_local_port_range`), never from it: a
/// port the kernel picked for `bind(0)` and given back is the kind it hands the next `bind(0)` or
/// outgoing connection, so a test's server could find it taken (seen under the parallel tests: a
/// listener bound to port 0 took it). The kernel never picks a port below that range by itself,
/// and each port is handed out once per process, from a start that depends on the pid, then
/// checked free by binding it. Another process that chooses ports by hand could still take one
/// in between; the test then fails at bind with a clear error.
public func freeLoopbackPort() throws -> UInt16 {
    let (low, high) = handPickedPorts
    let span = high - low
    for _ in 0..<span {
        let port = UInt16(low + nextHandPicked.wrappingAdd(1, ordering: .relaxed).oldValue % span)
        if let fd = try? boundLoopbackSocket(port: port) {
            close(fd.0)
            return port
        }
    }
    throw RawSocketError("no free port on 127.0.0.1 in \(low)..<\(high)")
}

/// The ports ``freeLoopbackPort()`` chooses from: 10000 up to the ephemeral range's first port.
private let handPickedPorts: (Int, Int) = {
    let first =
        readFile("/proc/sys/net/ipv4/ip_local_port_range")
        .flatMap { $0.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } } ?? 32768
    return (10_000, max(first, 10_001))
}()

/// The next of ``handPickedPorts`` to try, counted from a start that differs between processes.
private let nextHandPicked = Atomic<Int>(Int(getpid()) &* 7919 & 0xFFFF)

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

/// A TCP socket bound to 127.0.0.1 at `port` (0: one the kernel chooses), and the port it got.
private func boundLoopbackSocket(port: UInt16 = 0) throws -> (Int32, UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw RawSocketError("socket") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    address.sin_port = port.bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let status = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1
        }
    }
    guard status == 0 else {
        close(fd)
        throw RawSocketError("bind 127.0.0.1:\(port)")
    }
    return (fd, UInt16(bigEndian: address.sin_port))
}
