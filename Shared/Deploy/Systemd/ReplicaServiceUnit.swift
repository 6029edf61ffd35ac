import VerticalsContract
import VerticalsManifest

/// `verticals-<name>-replica.service`: Litestream copying one vertical's store to its `replica`,
/// as the vertical's own user, in the vertical's sandbox.
///
/// A unit of its own, not part of the vertical's: Litestream fails and restarts on its own
/// (`Restart=always`) without restarting the vertical, its lines and state are its own in the
/// journal and `systemctl status`, and the vertical's unit pulls it in (`Wants=`) while it is
/// bound to the vertical (`BindsTo=`, `After=`): started after the store's service, stopped with it.
///
/// Its configuration is the unit's own credential (`SetCredential=`, read from `%d`): one file to
/// install, nothing another unit reads. Its sandbox is ``SystemdSandbox``'s, with the replica's
/// folder writable for a folder replica (made first where it is missing: ``makeFolder(_:replica:layout:)``),
/// and the network (not `PrivateNetwork=`) for SFTP or S3, whose host the unit cannot pin to an address.
enum ReplicaServiceUnit {
    /// The unit's file name.
    static func name(_ spec: ServiceSpec, layout: SystemdLayout) -> String {
        "\(layout.unitName(spec.name))-replica.service"
    }

    /// The store's path under the layout: `/var/lib/<stateRoot>/<name>/<name>.sqlite`.
    static func storePath(_ spec: ServiceSpec, layout: SystemdLayout) -> String {
        "/var/lib/\(layout.stateRoot)/\(spec.name)/\(spec.name).sqlite"
    }

    /// The unit's text, for `spec`'s own replica (``Replica/forService(_:)``).
    static func text(_ spec: ServiceSpec, replica: Replica, layout: SystemdLayout) -> String {
        let vertical = "\(layout.unitName(spec.name)).service"
        var file = UnitFile(header: SystemdExport.generatedHeader)
        file.append(
            UnitFile.Section(name: "Unit")
                .with("Description", "Verticals \(spec.name): Litestream, its store's replica")
                .with(
                    "BindsTo", vertical,
                    comment: [
                        "Its own unit: Litestream restarts on its own without restarting the vertical, and",
                        "stops with it; the vertical's unit wants it.",
                    ]
                )
                .with("After", vertical)
                .with("PartOf", layout.target))
        file.append(
            service(
                spec, replica: replica, layout: layout,
                start: [("Type", "exec")] + makeFolder(spec, replica: replica, layout: layout) + [
                    (
                        "ExecStart",
                        command(layout, LitestreamConfiguration.replicateArguments(configPath: credentialPath))
                    )
                ],
                lifecycle: [("Restart", "always"), ("RestartSec", SystemdSyntax.timeSpan(.seconds(5)))],
                replicaFolder: "ReadWritePaths"))
        return file.text
    }

    /// For a folder replica, the `ExecStartPre=` lines that make its `PATH/NAME` where it is
    /// missing (a first deploy), as root before the sandbox is set up (`+`), and give it to the
    /// vertical's user: Litestream's `ReadWritePaths=` needs a path that exists, else its start
    /// fails to set up its namespace (226/NAMESPACE). The setting is marked `-` (left out where
    /// missing), since systemd 252 builds that namespace for these `+` commands as well: without
    /// it the mkdir that makes the folder fails for want of it. The folder alone is made, never `PATH`: where `PATH`
    /// is missing (its disk not mounted) `chown` fails the unit, rather than Litestream writing
    /// the replica to the disk below. `PATH` is the operator's, which no user but root may write:
    /// root makes `PATH/NAME` there, and `ReadWritePaths=` would follow a link another user planted
    /// in its place. A `PATH/NAME` that is a symbolic link fails the unit (`test ! -L`) before it
    /// is given away or made writable.
    static func makeFolder(_ spec: ServiceSpec, replica: Replica, layout: SystemdLayout) -> [(String, String)] {
        guard case .folder(let path) = replica.target else { return [] }
        return [
            ("ExecStartPre", "-+/bin/mkdir -m 0700 \(SystemdSyntax.commandWord(path))"),
            ("ExecStartPre", "+/bin/test ! -L \(SystemdSyntax.commandWord(path))"),
            (
                "ExecStartPre",
                "+/bin/chown -h \(SystemdSyntax.commandWord(layout.userName(spec))) \(SystemdSyntax.commandWord(path))"
            ),
        ]
    }

    /// Where a Litestream unit reads its configuration: its own credential (`SetCredential=`).
    static let credentialPath = "%d/litestream.yml"

    /// `arguments` after the layout's Litestream, as an `ExecStart=` line: each word quoted as
    /// systemd reads it, but the credentials folder's `%d`, which systemd expands.
    static func command(_ layout: SystemdLayout, _ arguments: [String]) -> String {
        ([layout.litestream] + arguments).map { $0.hasPrefix("%d/") ? $0 : SystemdSyntax.commandWord($0) }
            .joined(separator: " ")
    }

    /// The `[Service]` section of a unit that runs Litestream on `spec`'s store: `start` (its
    /// `Type=` and command), the configuration as the unit's credential, its environment, the
    /// vertical's user and state folder, `lifecycle`, then the vertical's sandbox with the
    /// replica's reach: the network for SFTP or S3, or a folder replica's path named by the
    /// `replicaFolder` setting (`ReadWritePaths` to write it; nil to leave it as
    /// `ProtectSystem=strict` does, readable).
    static func service(
        _ spec: ServiceSpec, replica: Replica, layout: SystemdLayout, start: [(String, String)],
        lifecycle: [(String, String)], replicaFolder setting: String?
    ) -> UnitFile.Section {
        let configuration = LitestreamConfiguration(storePath: storePath(spec, layout: layout), replica: replica)
        var service = UnitFile.Section(name: "Service")
        for (key, value) in start { service.set(key, value) }
        service.set(
            "SetCredential", "litestream.yml:" + SystemdSyntax.credentialValue(configuration.yaml),
            comment: ["Litestream's configuration, written from the manifest's replica (LitestreamConfiguration)."])
        for (key, value) in configuration.environment.sorted(by: { $0.key < $1.key }) {
            service.set("Environment", SystemdSyntax.environmentAssignment(key, value))
        }
        let user = layout.userName(spec)
        service = service.with("User", user)
        if spec.user == nil { service = service.with("Group", user) }
        service =
            service
            .with("StateDirectory", "\(layout.stateRoot)/\(spec.name)")
            .with("StateDirectoryMode", "0700")
        for (key, value) in lifecycle { service.set(key, value) }
        let folder: String? = if case .folder(let path) = replica.target { path } else { nil }
        for (index, setting) in SystemdSandbox.settings.enumerated() {
            var (key, value) = (setting.key, setting.value)
            if folder == nil {
                switch key {
                case "PrivateNetwork", "IPAddressDeny": continue
                case "RestrictAddressFamilies": value = "AF_UNIX AF_INET AF_INET6"
                default: break
                }
            }
            service.set(
                key, value,
                comment: (index == 0
                    ? ["The vertical's sandbox (SystemdSandbox.swift), the replica's reach added."] : [])
                    + setting.comment)
        }
        if let folder, let setting {
            service.set(
                setting, SystemdSyntax.commandWord("-" + folder),
                comment: [
                    "`-`: left out where missing. systemd 252 builds the sandbox's namespace for the",
                    "`ExecStartPre=+` commands too, so the mkdir that makes it would fail (226/NAMESPACE).",
                ])
        }
        return service
    }
}
