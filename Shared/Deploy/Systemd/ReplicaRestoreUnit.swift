import VerticalsManifest

/// `verticals-<name>-restore.service`: before each start of a vertical with a `replica`, its
/// store brought back from the replica when the store file is missing, as on the first boot of
/// a host that replaces a lost one. Without it the vertical would make a new, empty store and
/// its Litestream would ship that to the replica as the latest copy.
///
/// A oneshot of its own that the vertical's unit requires and follows (`Requires=`, `After=`),
/// not an `ExecStartPre=` of the vertical's: the restore needs the replica's reach (the network
/// for SFTP or S3) and Litestream's configuration, which the vertical's sandbox does not grant
/// and its credentials folder does not hold. It has ``ReplicaServiceUnit``'s user, sandbox and
/// credential instead. `litestream restore -if-db-not-exists -if-replica-exists` writes the
/// store only where none is, without reaching the replica when there is one, and succeeds
/// without writing when the replica holds no copy yet (a first deploy: the vertical makes a new
/// store). A restore that fails (the replica unreachable, a credential missing, past
/// ``LitestreamConfiguration/restoreTimeLimit``) fails the vertical's start: never a start on an
/// empty store.
enum ReplicaRestoreUnit {
    /// The unit's file name.
    static func name(_ spec: ServiceSpec, layout: SystemdLayout) -> String {
        "\(layout.unitName(spec.name))-restore.service"
    }

    /// The unit's text, for `spec`'s own replica (``Replica/forService(_:)``).
    static func text(_ spec: ServiceSpec, replica: Replica, layout: SystemdLayout) -> String {
        let store = ReplicaServiceUnit.storePath(spec, layout: layout)
        var unit = UnitFile.Section(name: "Unit")
            .with("Description", "Verticals \(spec.name): its store restored from its replica when it has none")
            .with(
                "Before", "\(layout.unitName(spec.name)).service",
                comment: ["The vertical's unit requires it: a restore that fails leaves the vertical not started."]
            )
            .with("PartOf", layout.target)
        let remote = if case .folder = replica.target { false } else { true }
        if remote {
            unit.set(
                "Wants", "network-online.target",
                comment: ["At boot, an SFTP or S3 replica is reached once the network is up."])
            unit.set("After", "network-online.target")
        }
        var file = UnitFile(header: SystemdExport.generatedHeader)
        file.append(unit)
        let arguments = LitestreamConfiguration.restoreArguments(
            configPath: ReplicaServiceUnit.credentialPath, storePath: store, output: store, ifReplicaExists: true,
            ifOutputMissing: true)
        file.append(
            ReplicaServiceUnit.service(
                spec, replica: replica, layout: layout,
                start: [("Type", "oneshot"), ("ExecStart", ReplicaServiceUnit.command(layout, arguments))],
                lifecycle: [("TimeoutStartSec", SystemdSyntax.timeSpan(LitestreamConfiguration.restoreTimeLimit))],
                replicaFolder: nil))
        return file.text
    }
}
