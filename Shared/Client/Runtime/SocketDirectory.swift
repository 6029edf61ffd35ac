#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract
import VerticalsEventLoop

/// Where the suite's sockets live: `<dir>/<name>.sock` for every vertical, unless the
/// environment names a vertical's endpoint (`VERTICALS_ENDPOINT_<NAME>=tcp:HOST:PORT`).
///
/// The same under both hosts: `VERTICALS_SOCKET_DIR` names the folder
/// (`<run dir>/sockets` under svc-supervisor, `/run/verticals` under systemd); see ``DaemonPaths``
/// for where a daemon started by hand looks.
public struct SocketDirectory: Sendable, Equatable {
    /// The longest path a Unix socket address holds (`sun_path` less its terminating NUL).
    public static let maxPathLength = 107
    /// The prefix of the variables naming a peer's endpoint: `VERTICALS_ENDPOINT_<NAME>`.
    public static let endpointVariablePrefix = DaemonSettings.endpointPrefix

    /// The folder.
    public let path: String
    /// Endpoints named by the environment, by ``endpointKey(for:)`` of the vertical's name.
    public var endpoints: [String: SocketEndpoint] = [:]
    /// The files a caller presents and verifies with over mutual TLS to a TCP endpoint
    /// (`VERTICALS_TLS_CERT`, `_KEY`, `_CA`); nil: TCP endpoints are plain (or refused).
    public var tls: TLSFiles?
    /// Why a named endpoint may not be used (it does not parse, or plain TCP is not allowed
    /// there), by ``endpointKey(for:)``: calls to that vertical fail with this message.
    public var endpointProblems: [String: String] = [:]

    /// A socket directory at `path`.
    public init(_ path: String) {
        self.path = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
    }

    /// The directory named by the environment, by ``DaemonPaths``' rule: `VERTICALS_SOCKET_DIR`,
    /// else `$VERTICALS_RUN_DIR/sockets`, else `/run/verticals` as root (systemd's layout), else `.run/sockets`.
    /// `VERTICALS_ENDPOINT_<NAME>` variables name peers' endpoints, checked against
    /// ``TransportSecurity`` (`VERTICALS_TLS`).
    public static func from(environment: [String: String], isRoot: Bool = geteuid() == 0) -> SocketDirectory {
        var directory = DaemonPaths(name: "", environment: environment, isRoot: isRoot).sockets
        let security = TransportSecurity.from(environment: environment)
        if security.usesTLS { directory.tls = security.files }
        for (variable, value) in environment where variable.hasPrefix(endpointVariablePrefix) {
            let key = String(variable.dropFirst(endpointVariablePrefix.count))
            guard !key.isEmpty else { continue }
            do {
                let endpoint = try SocketEndpoint(parsing: value)
                if let refusal = security.refusal(of: endpoint, to: "call \(key.lowercased())") {
                    directory.endpointProblems[key] = "\(variable): \(refusal)"
                } else {
                    directory.endpoints[key] = endpoint
                }
            } catch {
                directory.endpointProblems[key] = "\(variable): \(error)"
            }
        }
        return directory
    }

    /// The socket of vertical `name` in the folder.
    public func socketPath(for name: String) -> String {
        "\(path)/\(name).sock"
    }

    /// Where vertical `name` is reached: its `VERTICALS_ENDPOINT_<NAME>`, else its socket in the folder.
    public func endpoint(for name: String) -> SocketEndpoint {
        endpoints[Self.endpointKey(for: name)] ?? .unix(path: socketPath(for: name))
    }

    /// The `<NAME>` of vertical `name`'s variable: upper-cased, `-` and `.` as `_`.
    public static func endpointKey(for name: String) -> String {
        String(name.uppercased().map { $0 == "-" || $0 == "." ? "_" : $0 })
    }
}
