/// Where the suite's sockets live: `<dir>/<name>.sock` for every vertical.
///
/// The same under both hosts: `VERTICALS_SOCKET_DIR` names the folder
/// (`<run dir>/sockets` under svc-supervisor, `/run/verticals` under systemd).
public struct SocketDirectory: Sendable, Equatable {
    /// The longest path a Unix socket address holds (`sun_path` less its terminating NUL).
    public static let maxPathLength = 107

    /// The folder.
    public let path: String

    /// A socket directory at `path`.
    public init(_ path: String) {
        self.path = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
    }

    /// The directory named by the environment: `VERTICALS_SOCKET_DIR`, else
    /// `$VERTICALS_RUN_DIR/sockets`, else `/run/verticals` (systemd's layout).
    public static func from(environment: [String: String]) -> SocketDirectory {
        if let dir = environment["VERTICALS_SOCKET_DIR"], !dir.isEmpty { return SocketDirectory(dir) }
        if let run = environment["VERTICALS_RUN_DIR"], !run.isEmpty { return SocketDirectory(run + "/sockets") }
        return SocketDirectory("/run/verticals")
    }

    /// The socket of vertical `name`.
    public func socketPath(for name: String) -> String {
        "\(path)/\(name).sock"
    }
}
