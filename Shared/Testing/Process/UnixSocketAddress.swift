import Glibc

/// Calls `call` (`bind` or `connect`) with `path` as a Unix socket address and its length, and
/// returns what it returns. A path longer than the 107 bytes an address holds is not cut (that
/// would reach another file): the answer is then -1 with `errno` `ENAMETOOLONG`, as from the
/// call itself.
public func withUnixSocketAddress(_ path: String, _ call: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_un()
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
        errno = ENAMETOOLONG
        return -1
    }
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}
