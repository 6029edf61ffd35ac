import VerticalsContract
import VerticalsWire

/// Who each service runs as, and who may call it: the one place the systemd export and the
/// supervisor (as root) both take them from, so the two hosts enforce the same routes.
///
/// The routes are the manifest's `depends_on`: a service admits the users of the services
/// that declare it, operators (root, and the operator group as a primary gid), and nobody else;
/// its internal operations only the declared callers.
public enum ServiceAccounts {
    /// User names start with this unless the manifest says `user = "…"`.
    public static let defaultPrefix = "verticals-"
    /// The socket folder's mode, owned by root and the operator group, under `svc-supervisor up` as
    /// root and in the systemd export alike: only root and the group traverse it. Every vertical
    /// on a Unix socket has the group as a supplementary group (it must reach its peers' sockets),
    /// operators are its members, and nobody else can connect to a 0660 socket anyway, so the
    /// world gets nothing: not even the socket names, which tell what the suite runs.
    public static let socketFolderMode: UInt32 = 0o750
    /// The longest user name `systemd-sysusers` and `useradd` accept (`UT_NAMESIZE` less its NUL).
    public static let maxUserName = 31
    /// Lists each service of the suite with its caller identity, for the callee's log:
    /// `VERTICALS_SUITE_USERS=appointments:verticals-appointments,…` (a user name or uid each).
    public static let suiteUsersVariable = DaemonSettings.suiteUsers.name

    /// The user `spec` runs as: its manifest `user`, else `<prefix><name>`.
    public static func userName(_ spec: ServiceSpec, prefix: String = defaultPrefix) -> String {
        spec.user ?? prefix + spec.name
    }

    /// The services that declare `name` in their `depends_on`, in manifest order: the only
    /// verticals that may call it.
    public static func callers(of name: String, in manifest: Manifest) -> [ServiceSpec] {
        manifest.services.filter { $0.dependsOn.contains(name) }
    }

    /// Sets the access variables of `spec` in `environment`, unless its manifest `env` set them
    /// already: `VERTICALS_ALLOWED_UIDS` (and `VERTICALS_INTERNAL_UIDS` when it has internal
    /// operations) to its callers, `VERTICALS_ALLOWED_GIDS` to the operator group, and
    /// ``suiteUsersVariable``. `identity` names a service's caller identity: its user name
    /// under systemd (resolved there), its uid under svc-supervisor (resolved by it).
    public static func applyAccess(
        to environment: inout [String: String], for spec: ServiceSpec, in manifest: Manifest,
        operatorGroup: String?, identity: (ServiceSpec) -> String
    ) {
        let callers = callers(of: spec.name, in: manifest).map(identity)
        if !callers.isEmpty {
            let list = callers.joined(separator: ",")
            if environment[DaemonSettings.allowedUIDs.name] == nil {
                environment[DaemonSettings.allowedUIDs.name] = list
            }
            if environment[DaemonSettings.internalOperations.name] != nil,
                environment[DaemonSettings.internalUIDs.name] == nil
            {
                environment[DaemonSettings.internalUIDs.name] = list
            }
        }
        if let operatorGroup, environment[DaemonSettings.allowedGIDs.name] == nil {
            environment[DaemonSettings.allowedGIDs.name] = operatorGroup
        }
        if environment[suiteUsersVariable] == nil {
            environment[suiteUsersVariable] = manifest.services.map { "\($0.name):\(identity($0))" }
                .joined(separator: ",")
        }
    }

    /// Tells `spec`'s daemon what its manifest entry declares it calls, unless its `env` did:
    /// `VERTICALS_DEPENDS_ON` (`DaemonEnvironment/dependsOnVariable`), the `depends_on` names
    /// comma-separated. A daemon whose code's calls differ from it warns at start-up, naming the
    /// edge (ServiceKit's `Callees.disagreement(environment:vertical:)`). svc-supervisor, the systemd units and the
    /// Kubernetes ConfigMaps all set it here.
    public static func applyDependencies(to environment: inout [String: String], for spec: ServiceSpec) {
        if environment[DaemonEnvironment.dependsOnVariable] == nil {
            environment[DaemonEnvironment.dependsOnVariable] = spec.routeEntries.joined(separator: ",")
        }
    }

    /// The variable that tells a callee which of its operations each caller may call
    /// (ServiceKit's `PeerAccess.allowedOperations`): `caller:operation,…`, `caller:*` for a
    /// caller that names it whole (every operation that is not operator-only).
    public static let allowedOperationsVariable = DaemonSettings.allowedOperations.name

    /// Tells `spec`'s daemon which of its operations each caller may call, unless its `env` did:
    /// ``allowedOperationsVariable``, from the `depends_on` of every service of `manifest` that
    /// names it (empty when none does: a vertical caller may then call only `daemon.health` and
    /// `daemon.describe`). The same edges as ``applyAccess(to:for:in:operatorGroup:identity:)``'s
    /// uids and ``applyPeers(to:for:in:)``'s certificate names, per operation; svc-supervisor,
    /// the systemd units and the Kubernetes ConfigMaps all set it here.
    public static func applyRoutes(to environment: inout [String: String], for spec: ServiceSpec, in manifest: Manifest)
    {
        guard environment[allowedOperationsVariable] == nil else { return }
        environment[allowedOperationsVariable] = allowedOperations(of: spec.name, in: manifest).joined(separator: ",")
    }

    /// The `caller:operation` entries of `callee`'s routes in `manifest`, in manifest order.
    public static func allowedOperations(of callee: String, in manifest: Manifest) -> [String] {
        callers(of: callee, in: manifest).flatMap { caller in
            (caller.operations(of: callee) ?? ["*"]).map { "\(caller.name):\($0)" }
        }
    }

    /// The name of the operator's certificate, which every vertical with TLS files from a
    /// certificates folder admits (the CLI over TCP, the supervisor's liveness checks).
    public static let operatorPeer = "operator"

    /// Gives `spec` the TLS files of its manifest `certificates` folder and its mutual-TLS
    /// peers (``applyPeers(to:for:in:)``), unless its `env` set them: `VERTICALS_TLS_CERT`, `_KEY`,
    /// `_CA` = `DIR/NAME/tls.crt`, `tls.key`, `ca.crt` (the layout `svc-supervisor certs` writes).
    /// Nothing without a folder.
    public static func applyCertificates(
        to environment: inout [String: String], for spec: ServiceSpec, in manifest: Manifest
    ) {
        guard let folder = spec.certificates else { return }
        let files = [
            (DaemonSettings.tlsCert.name, "tls.crt"), (DaemonSettings.tlsKey.name, "tls.key"),
            (DaemonSettings.tlsCA.name, "ca.crt"),
        ]
        for (name, file) in files where environment[name] == nil {
            environment[name] = "\(folder)/\(spec.name)/\(file)"
        }
        applyPeers(to: &environment, for: spec, in: manifest)
    }

    /// The mutual-TLS allow-lists of `spec`'s routes, unless its `env` set them:
    /// `VERTICALS_ALLOWED_PEERS` = the services that declare it in `depends_on`, and the operator;
    /// `VERTICALS_INTERNAL_PEERS` = those callers, when it has internal operations. The same
    /// graph as the uid allow-lists of ``applyAccess(to:for:in:operatorGroup:identity:)``; used
    /// by the supervisor and the systemd units (with ``applyCertificates(to:for:in:)``) and by
    /// the Kubernetes ConfigMaps.
    public static func applyPeers(to environment: inout [String: String], for spec: ServiceSpec, in manifest: Manifest)
    {
        let callers = callers(of: spec.name, in: manifest).map(\.name)
        if environment[DaemonSettings.allowedPeers.name] == nil {
            environment[DaemonSettings.allowedPeers.name] = (callers + [operatorPeer]).joined(separator: ",")
        }
        if environment[DaemonSettings.internalOperations.name] != nil,
            environment[DaemonSettings.internalPeers.name] == nil, !callers.isEmpty
        {
            environment[DaemonSettings.internalPeers.name] = callers.joined(separator: ",")
        }
    }

    /// A `user` two services share (or one in `[defaults]`, which every service inherits): the
    /// kernel could no longer tell them apart, so neither route could be enforced.
    package static func sharedUserProblems(_ manifest: Manifest) -> [ManifestError] {
        var users = FirstClaims()
        return manifest.services.compactMap { spec in
            let user = userName(spec)
            return users.claim(user, by: spec.name, key: "user", detail: "user") {
                "\"\(user)\" is \($0)'s user too: each service needs its own, or their routes cannot be told apart"
            }
        }
    }

    /// Whether `name` is a user name `useradd` and `systemd-sysusers` both accept.
    public static func isUserName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maxUserName, let first = name.unicodeScalars.first,
            first != "-", !("0"..."9").contains(first)
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0 == "_" || $0 == "-" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        }
    }
}
