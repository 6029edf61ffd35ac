import VerticalsManifest

/// Where the suite lives on a systemd host, and how its units, users and folders are named:
/// everything ``SystemdExport`` needs besides the manifest.
///
/// The defaults are the layout `make install` produces and `deploy/systemd/` is generated
/// with: programs in `/usr/local/bin`, sockets in `/run/verticals`, state in
/// `/var/lib/verticals/<name>`, unit `verticals-<name>.service` running as user
/// `verticals-<name>`.
public struct SystemdLayout: Sendable, Equatable {
    /// The installation prefix: programs are `<prefix>/bin/<executable>` (`--prefix`).
    public var prefix: String
    /// `VERTICALS_SOCKET_DIR`: each vertical's socket is `<socketDirectory>/<name>.sock`.
    public var socketDirectory = "/run/verticals"
    /// Each service's `StateDirectory=` is `<stateRoot>/<name>`, under `/var/lib`.
    public var stateRoot = "verticals"
    /// Unit and user names start with this: `verticals-identity.service`, user `verticals-identity`.
    public var namePrefix = "verticals-"
    /// The group whose members may connect to every socket (each vertical's user is one).
    public var group = "verticals"
    /// The target that pulls in the whole suite.
    public var target = "verticals.target"
    /// The manifest svc-supervisor.service runs, where `make install` puts it.
    public var installedManifest: String
    /// svc-supervisor.service's run directory: it holds the services' state, so it is persistent.
    public var supervisorRunDirectory = "/var/lib/verticals-supervisor"

    /// The layout for programs installed under `prefix` (default `/usr/local`).
    /// The socket folder's mode as systemd writes it (`0750`): `ServiceAccounts/socketFolderMode`,
    /// the same as under `svc-supervisor up`.
    public static var socketFolderMode: String {
        let octal = String(ServiceAccounts.socketFolderMode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - octal.count)) + octal
    }

    public init(prefix: String = "/usr/local") {
        var trimmed = prefix
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.prefix = trimmed
        installedManifest = "\(trimmed == "/" ? "" : trimmed)/etc/verticals/suite.toml"
    }

    /// `<prefix>/bin`: where bare executable names of the manifest are installed.
    public var binDirectory: String { prefix == "/" ? "/bin" : "\(prefix)/bin" }

    /// `verticals-<name>`: the unit name (without suffix) of service `name`.
    public func unitName(_ service: String) -> String { namePrefix + service }

    /// The user `spec` runs as: its manifest `user`, else `verticals-<name>`
    /// (`ServiceAccounts/userName(_:prefix:)`, which svc-supervisor uses as root too).
    public func userName(_ spec: ServiceSpec) -> String { ServiceAccounts.userName(spec, prefix: namePrefix) }
}
