#if canImport(Glibc)
import Glibc
#endif

/// Where the suite's sockets live: `<dir>/<name>.sock` for every vertical.
///
/// The same under both hosts: `VERTICALS_SOCKET_DIR` names the folder
/// (`<run dir>/sockets` under svc-supervisor, `/run/verticals` under systemd); see ``DaemonPaths``
/// for where a daemon started by hand looks.
public struct SocketDirectory: Sendable, Equatable {
    /// The longest path a Unix socket address holds (`sun_path` less its terminating NUL).
    public static let maxPathLength = 107

    /// The folder.
    public let path: String

    /// A socket directory at `path`.
    public init(_ path: String) {
        self.path = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
    }

    /// The directory named by the environment, by ``DaemonPaths``' rule: `VERTICALS_SOCKET_DIR`,
    /// else `$VERTICALS_RUN_DIR/sockets`, else `/run/verticals` as root (systemd's layout), else `.run/sockets`.
    public static func from(environment: [String: String], isRoot: Bool = geteuid() == 0) -> SocketDirectory {
        DaemonPaths(name: "", environment: environment, isRoot: isRoot).sockets
    }

    /// The socket of vertical `name`.
    public func socketPath(for name: String) -> String {
        "\(path)/\(name).sock"
    }
}
