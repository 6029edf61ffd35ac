import VerticalsManifest

/// Where the suite lives on a systemd host, and how its units, users and folders are named:
/// everything ``SystemdExport`` needs besides the manifest.
///
/// The defaults are the layout `make install` produces and `deploy/systemd/` is generated
/// with: programs in `/usr/local/bin`, sockets in `/run/verticals`, state in
/// `/var/lib/verticals/<name>`, unit `verticals-<name>.service` running as user
/// `verticals-<name>`. Every name starts from the suite's (`Manifest/suiteName`,
/// ``init(prefix:suite:)``): a product `acme` has `/run/acme`, `acme-<name>.service`, user
/// `acme-<name>`, group `acme`, `acme.target`, so two products on one host share none.
public struct SystemdLayout: Sendable, Equatable {
    /// The installation prefix: programs are `<prefix>/bin/<executable>` (`--prefix`).
    public var prefix: String
    /// `VERTICALS_SOCKET_DIR`: each vertical's socket is `<socketDirectory>/<name>.sock`.
    public var socketDirectory: String
    /// Each service's `StateDirectory=` is `<stateRoot>/<name>`, under `/var/lib`.
    public var stateRoot: String
    /// Unit and user names start with this: `verticals-identity.service`, user `verticals-identity`.
    public var namePrefix: String
    /// The group whose members may connect to every socket (each vertical's user is one).
    public var group: String
    /// The target that pulls in the whole suite.
    public var target: String
    /// The manifest svc-supervisor.service runs, where `make install` puts it.
    public var installedManifest: String
    /// The Litestream program the replica units run: where its release package installs it.
    public var litestream = "/usr/bin/litestream"
    /// svc-supervisor.service's run directory: it holds the services' state, so it is persistent.
    public var supervisorRunDirectory: String

    /// The suite's name (`[suite] name`), which the other names start from.
    public var suite: String
    /// The unit that runs the suite under svc-supervisor instead of ``target``:
    /// `svc-supervisor.service` for the framework's suite, `<suite>-supervisor.service` for another.
    public var supervisorUnit: String
    /// The sysusers.d file that makes the operator group and every service's user.
    public var usersFile: String { "sysusers.d/\(suite).conf" }
    /// The tmpfiles.d file that makes the socket folder.
    public var temporaryFilesFile: String { "tmpfiles.d/\(suite).conf" }
    /// The file naming the vertical that receives each kind of secret, installed beside the units.
    public var secretsFile: String { "\(suite)-secrets.conf" }

    /// The socket folder's mode as systemd writes it (`0750`): `ServiceAccounts/socketFolderMode`,
    /// the same as under `svc-supervisor up`.
    public static var socketFolderMode: String {
        let octal = String(ServiceAccounts.socketFolderMode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - octal.count)) + octal
    }

    /// The layout for programs installed under `prefix` (default `/usr/local`), of the framework's
    /// suite, `verticals`.
    public init(prefix: String = "/usr/local") {
        self.init(prefix: prefix, suite: SuiteName.default)
    }

    /// The layout for programs installed under `prefix`, of suite `suite` (a valid `SuiteName`).
    public init(prefix: String = "/usr/local", suite: String) {
        var trimmed = prefix
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.prefix = trimmed
        self.suite = suite
        socketDirectory = "/run/\(suite)"
        stateRoot = suite
        namePrefix = "\(suite)-"
        group = suite
        target = "\(suite).target"
        supervisorRunDirectory = "/var/lib/\(suite)-supervisor"
        supervisorUnit = suite == SuiteName.default ? "svc-supervisor.service" : "\(suite)-supervisor.service"
        installedManifest = "\(trimmed == "/" ? "" : trimmed)/etc/\(suite)/suite.toml"
    }

    /// The layout of `manifest`'s suite, for programs installed under `prefix`.
    public init(prefix: String = "/usr/local", for manifest: Manifest) {
        self.init(prefix: prefix, suite: manifest.suiteName)
    }

    /// `<prefix>/bin`: where bare executable names of the manifest are installed.
    public var binDirectory: String { prefix == "/" ? "/bin" : "\(prefix)/bin" }

    /// `verticals-<name>`: the unit name (without suffix) of service `name`.
    public func unitName(_ service: String) -> String { namePrefix + service }

    /// The user `spec` runs as: its manifest `user`, else `verticals-<name>`
    /// (`ServiceAccounts/userName(_:prefix:)`, which svc-supervisor uses as root too).
    public func userName(_ spec: ServiceSpec) -> String { ServiceAccounts.userName(spec, prefix: namePrefix) }
}
