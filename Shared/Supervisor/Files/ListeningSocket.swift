#if canImport(Glibc)
import Glibc
#endif
import VerticalsEventLoop
import VerticalsSupervisorClient
import VerticalsWire

/// A service's listening socket, Unix (`<name>.sock`) or TCP (its manifest `endpoint`), bound by
/// the supervisor and handed to each of its processes as fd 3 (`LISTEN_FDS=1`).
///
/// Plain `socket`/`bind`/`listen` rather than `StreamListener`: the supervisor must never
/// accept on it, and a `uv_listen`ed pipe does — libuv accepts the first waiting peer into
/// the handle as soon as the socket is readable, so that client would be stolen from the
/// service. Here nothing watches the fd: peers that arrive while the service restarts wait in
/// the kernel's backlog until the next process adopts the socket.
enum ListeningSocket {
    /// Binds and listens on `path` (mode `mode`); returns the fd (close-on-exec: only the
    /// child's fd 3, which `uv_spawn` dup2s, crosses exec).
    ///
    /// An old socket file at `path` is replaced: the supervisor owns its socket folder, and
    /// holds the control socket (so no other supervisor runs) before it binds these.
    static func bind(path: String, mode: mode_t = 0o660, backlog: Int32 = 511) throws(SupervisorError) -> Int32 {
        guard path.utf8.count <= EventLoopError.maxSocketPathLength else {
            throw SupervisorError(
                .pathTooLong,
                "socket path \(path) is \(path.utf8.count) bytes, over the \(EventLoopError.maxSocketPathLength) a Unix socket takes: use a shorter --run-dir",
                details: [ErrorDetail("path", path)])
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SupervisorError.system("socket for \(path)", path: path) }
        if unlink(path) != 0 && errno != ENOENT {
            let error = SupervisorError.system("cannot remove old \(path)", path: path)
            close(fd)
            throw error
        }
        var address = Self.address(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, chmod(path, mode) == 0, listen(fd, backlog) == 0 else {
            let error = SupervisorError.system("cannot listen on \(path)", path: path)
            close(fd)
            unlink(path)
            throw error
        }
        return fd
    }

    /// Binds and listens on a TCP `endpoint` (`SO_REUSEADDR`, close-on-exec); returns the fd. The
    /// service finds out it is TCP with `getsockname`. A host name is looked up here (blocking, at
    /// start-up): a manifest names an IP address where it can.
    static func bind(endpoint: SocketEndpoint, backlog: Int32 = 511) throws(SupervisorError) -> Int32 {
        guard case .tcp(let host, let port) = endpoint else {
            throw SupervisorError(.refused, "\(endpoint) is not a TCP endpoint")
        }
        do {
            return try TCPSocket.listen(host: host, port: port, backlog: backlog)
        } catch {
            throw SupervisorError(.system, "cannot listen on \(endpoint): \(error)", cause: error)
        }
    }

    /// A `sockaddr_un` for `path` (which the caller checked fits).
    static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8).prefix(raw.count - 1))
        }
        return address
    }
}
