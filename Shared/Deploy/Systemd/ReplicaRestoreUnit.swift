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
/// credential instead, and runs only where the store file is missing (`ConditionPathExists=!`:
/// a store there is left as it is, the replica not reached; a skipped unit lets the vertical start).
///
/// A replica is written by a less-trusted place (an SFTP host, a bucket), so what it holds is
/// never written where the store goes: `litestream restore -if-replica-exists` writes a copy
/// beside it (`NAME.from-replica.sqlite`), and the vertical's own program puts it in place only
/// once it passed every check of a backup's restore (`svc-NAME --place-replica-copy`:
/// VerticalsStorage's `SQLiteStore.placeReplicaCopy`, as svc-supervisor's first start does). A
/// replica that holds no copy yet (a first deploy) restores nothing, and the vertical makes a new
/// store. A restore that fails (the replica unreachable, a credential missing, past
/// ``LitestreamConfiguration/restoreTimeLimit``, a copy that fails a check, kept aside as
/// `NAME.from-replica.refused.sqlite`) fails the vertical's start: never a start on that copy,
/// nor on an empty store.
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
            .with(
                "ConditionPathExists", "!/var/lib/\(layout.stateRoot)/\(spec.name)/\(spec.name).sqlite",
                comment: ["Only where the store is missing; skipped, the unit lets the vertical start on its store."]
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
        let copy = copyPath(spec, layout: layout)
        let arguments = LitestreamConfiguration.restoreArguments(
            configPath: ReplicaServiceUnit.credentialPath, storePath: store, output: copy, ifReplicaExists: true,
            ifOutputMissing: true)
        file.append(
            ReplicaServiceUnit.service(
                spec, replica: replica, layout: layout,
                start: [
                    ("Type", "oneshot"), ("ExecStart", ReplicaServiceUnit.command(layout, arguments)),
                    ("ExecStart", placeCommand(spec)),
                ],
                lifecycle: [("TimeoutStartSec", SystemdSyntax.timeSpan(LitestreamConfiguration.restoreTimeLimit))],
                replicaFolder: nil))
        return file.text
    }

    /// Where Litestream writes the copy to check, beside the store: `NAME.from-replica.sqlite`.
    static func copyPath(_ spec: ServiceSpec, layout: SystemdLayout) -> String {
        "/var/lib/\(layout.stateRoot)/\(spec.name)/\(spec.name).from-replica.sqlite"
    }

    /// `svc-NAME --place-replica-copy`: the vertical's own program checks the copy and puts it in place.
    static func placeCommand(_ spec: ServiceSpec) -> String {
        [spec.executable, "--place-replica-copy"].map(SystemdSyntax.commandWord).joined(separator: " ")
    }
}
