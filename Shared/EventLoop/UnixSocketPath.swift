import CLibUV
import Glibc

/// Checks on socket paths made before libuv sees them, and the probe that tells a live socket
/// from a stale one.
enum UnixSocketPath {
    /// Why `path` cannot be used as given, or nil. libuv 1.44 silently truncates a path over
    /// 107 bytes (and binds the wrong file), and a C string stops at an embedded NUL.
    static func validate(_ path: String, operation: String) -> EventLoopError? {
        if path.utf8.count > EventLoopError.maxSocketPathLength { return .pathTooLong(path) }
        if path.isEmpty || path.utf8.contains(0) { return .system(operation: operation, code: UV_EINVAL.rawValue) }
        return nil
    }

    /// Makes `path` free for `bind`: nothing there, or a stale socket (removed here).
    ///
    /// - Throws: ``EventLoopError/addressInUse(_:)`` when a server answers there (or its
    ///   backlog is full) or when a file that is not a socket is there.
    static func clearStale(_ path: String) throws(EventLoopError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw .system(operation: "lstat", code: -errno)
        }
        let fileTypeMask: mode_t = 0o170000
        let socketType: mode_t = 0o140000
        guard info.st_mode & fileTypeMask == socketType else { throw .addressInUse(path) }

        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw .system(operation: "socket", code: -errno) }
        defer { Glibc.close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { destination in
            let bytes = Array(path.utf8)
            destination.copyBytes(from: bytes.prefix(destination.count - 1))
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        let failure = status == 0 ? 0 : errno
        switch failure {
        case 0, EAGAIN, EINPROGRESS:
            throw .addressInUse(path) // a live server: it accepted, or its backlog is full
        case ECONNREFUSED:
            if unlink(path) != 0, errno != ENOENT { throw .system(operation: "unlink", code: -errno) }
        case ENOENT:
            return // removed meanwhile
        default:
            throw .system(operation: "connect", code: -failure)
        }
    }

    /// The error for a failed `uv_pipe_bind`. libuv reports a missing directory as `EACCES`
    /// (for Windows' sake); name it ``EventLoopError/notFound`` when the directory is missing.
    static func bindError(_ status: Int32, path: String) -> EventLoopError {
        if status == UV_EACCES.rawValue {
            let directory = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? "."
            if access(directory.isEmpty ? "/" : directory, F_OK) != 0, errno == ENOENT { return .notFound }
        }
        return .uv("bind", status, path: path)
    }
}
