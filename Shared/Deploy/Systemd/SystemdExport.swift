import VerticalsManifest

/// The suite's systemd files, generated from its manifest: pure functions from a `Manifest`
/// to file contents, so `svc-supervisor export systemd` and anything that scaffolds a new
/// vertical produce the same bytes.
///
/// ```swift
/// let (manifest, _) = ManifestParser.load(
///     path: "deploy/suite.toml", binDirectory: SystemdLayout().binDirectory, checkExecutables: false)
/// for (path, text) in try SystemdExport.files(for: manifest) { … }  // "verticals-identity.service": "…"
/// ```
///
/// Per service with a socket, `verticals-<name>.socket` (`VerticalSocketUnit`); per service
/// `verticals-<name>.service` (`VerticalServiceUnit`) and, with a `replica`,
/// `verticals-<name>-replica.service` (`ReplicaServiceUnit`) and `verticals-<name>-restore.service`
/// (`ReplicaRestoreUnit`); then `verticals.target`,
/// `svc-supervisor.service`, `sysusers.d/verticals.conf`, `tmpfiles.d/verticals.conf` and
/// `verticals-secrets.conf` (`SecretRecipientsUnitFile`).
public enum SystemdExport {
    /// The first lines of every generated file.
    static let generatedHeader = [
        "Generated from the suite manifest (deploy/suite.toml) by `svc-supervisor export systemd`.",
        "Do not edit: change the manifest and export again.",
    ]

    /// Every file, keyed by its path relative to the export folder. The manifest's executables
    /// are taken as they are: parse it with `binDirectory: layout.binDirectory` so that bare
    /// names become `<prefix>/bin/<name>`.
    ///
    /// `host` (`--host`) writes the units of one host of a manifest that places its services
    /// (`host = "a"`): the services placed there or nowhere; the others, and remote services
    /// (an endpoint, no executable), get no unit and are reached at their endpoint
    /// (`SystemdPlacement`).
    public static func files(
        for manifest: Manifest, layout: SystemdLayout = SystemdLayout(), host: String? = nil
    ) throws(SystemdExportError) -> [String: String] {
        let placement = try SystemdPlacement(manifest, host: host)
        let local = placement.local
        try check(local, layout: layout)
        var files: [String: String] = [:]
        var networks: [SystemdNetwork] = []
        for spec in local.services {
            let name = layout.unitName(spec.name)
            let network = try SystemdNetwork.of(spec, in: placement)
            if let network { networks.append(network) }
            if spec.socket { files["\(name).socket"] = VerticalSocketUnit.text(spec, network: network, layout: layout) }
            files["\(name).service"] = try VerticalServiceUnit.text(
                spec, in: placement, network: network, layout: layout)
            if let replica = spec.replica?.forService(spec.name) {
                files[ReplicaServiceUnit.name(spec, layout: layout)] = ReplicaServiceUnit.text(
                    spec, replica: replica, layout: layout)
                files[ReplicaRestoreUnit.name(spec, layout: layout)] = ReplicaRestoreUnit.text(
                    spec, replica: replica, layout: layout)
            }
        }
        files[layout.target] = SuiteTargetUnit.text(local, layout: layout)
        files[layout.supervisorUnit] = SupervisorServiceUnit.text(
            local, layout: layout, network: SystemdNetwork.union(networks))
        files[layout.usersFile] = SystemUsersFile.text(local, layout: layout)
        files[layout.temporaryFilesFile] = TemporaryFilesFile.text(layout: layout)
        files[layout.secretsFile] = SecretRecipientsUnitFile.text(manifest)
        return files
    }

    /// What systemd would refuse that a manifest allows: user names longer than 31 characters,
    /// and socket paths longer than a Unix socket address holds.
    static func check(_ manifest: Manifest, layout: SystemdLayout) throws(SystemdExportError) {
        for spec in manifest.services {
            let user = layout.userName(spec)
            if user.count > SystemUsersFile.maxUserName {
                throw SystemdExportError(
                    .nameTaken, service: spec.name,
                    "its user \(user) would be \(user.count) characters; systemd allows "
                        + "\(SystemUsersFile.maxUserName): shorten the name to at most "
                        + "\(SystemUsersFile.maxUserName - layout.namePrefix.count) characters")
            }
            if let problem = manifest.socketPathProblems(socketDirectory: layout.socketDirectory)
                .first(where: { $0.service == spec.name })
            {
                throw SystemdExportError(.nameTaken, service: spec.name, problem.message)
            }
        }
    }
}
