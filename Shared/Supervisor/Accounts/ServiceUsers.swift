import VerticalsDeploy
import VerticalsManifest

/// How svc-supervisor runs its services when it runs as root: each as its own user
/// (`ServiceAccounts/userName(_:prefix:)`), in the operator group only as a supplementary
/// group (to reach the sockets), with the allow-lists of ``ServiceAccounts``.
///
/// Nil in ``EngineConfiguration/serviceUsers`` (not root): every service runs as the
/// supervisor's user, and the kernel cannot tell the verticals apart.
public struct ServiceUsers: Sendable, Equatable {
    /// User names start with this (a manifest `user` excepted): `verticals-`.
    public var prefix: String
    /// The group that owns the socket folder and the sockets, and whose members (as their
    /// primary group) may call user-facing operations: `verticals`.
    public var operatorGroup: String
    /// Whether missing users and the group are created (`systemd-sysusers`, else `useradd`).
    public var createMissing: Bool

    /// The layout `make install` and the systemd export use.
    public init(
        prefix: String = ServiceAccounts.defaultPrefix, operatorGroup: String = "verticals", createMissing: Bool = true
    ) {
        self.prefix = prefix
        self.operatorGroup = operatorGroup
        self.createMissing = createMissing
    }

    /// The sysusers.d lines for the operator group and the users of `manifest`, exactly as the
    /// systemd export writes them.
    func sysusersLines(_ manifest: Manifest) -> [String] {
        var layout = SystemdLayout()
        layout.namePrefix = prefix
        layout.group = operatorGroup
        return SystemUsersFile.lines(manifest, layout: layout)
    }
}

/// The resolved identity one service runs as.
struct ServiceIdentity: Sendable, Equatable {
    /// Its user.
    let user: AccountDatabase.User
    /// The operator group's gid, its one supplementary group.
    let operatorGID: UInt32

    /// vt-exec's options to become it.
    var execOptions: [String] {
        ["--user", String(user.uid), "--group", String(user.gid), "--groups", String(operatorGID)]
    }
}
