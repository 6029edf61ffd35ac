#if canImport(Glibc)
import Glibc
#endif

/// systemd's socket hand-off (`sd_listen_fds(3)`): listening sockets inherited from the
/// service manager, systemd itself, `systemd-socket-activate` or svc-supervisor.
///
/// The manager sets `LISTEN_FDS` (how many fds, starting at 3), `LISTEN_PID` (the pid
/// they are meant for) and optionally `LISTEN_FDNAMES` (colon-separated names).
public struct SocketActivation: Sendable, Equatable {
    /// The first inherited fd, `SD_LISTEN_FDS_START`.
    public static let firstFD: Int32 = 3

    /// The inherited fds, in order.
    public let fds: [Int32]
    /// Their names, when the manager gave names.
    public let names: [String]

    /// Reads the hand-off from `environment`; nil when there is none for process `pid`.
    public static func from(environment: [String: String], pid: Int32) -> SocketActivation? {
        guard let countText = environment["LISTEN_FDS"], let count = Int32(countText), count > 0,
            let pidText = environment["LISTEN_PID"], Int32(pidText) == pid
        else { return nil }
        let fds = (0..<count).map { firstFD + $0 }
        let names =
            environment["LISTEN_FDNAMES"].map {
                $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            } ?? []
        return SocketActivation(fds: fds, names: names)
    }

    /// The one fd this vertical serves: the one named after it, else the first.
    ///
    /// systemd names a socket after its unit, `systemd-socket-activate` only with
    /// `--fdname=`, svc-supervisor after the vertical: any single fd is adopted whatever its name.
    public func listeningFD(for service: String) -> Int32? {
        if let index = names.firstIndex(where: { $0 == service || $0 == "\(service).sock" }), index < fds.count {
            return fds[index]
        }
        return fds.first
    }

    /// Removes the hand-off variables so that children of this process do not inherit them,
    /// and marks the inherited fds close-on-exec (as `sd_listen_fds(1)` does).
    public func consume() {
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDNAMES")
        for fd in fds {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }
}
