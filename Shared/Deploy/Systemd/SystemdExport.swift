import VerticalsManifest

/// The suite's systemd files, generated from its manifest: pure functions from a ``Manifest``
/// to file contents, so `svc-supervisor export systemd` and anything that scaffolds a new
/// vertical produce the same bytes.
///
/// ```swift
/// let (manifest, _) = ManifestParser.load(
///     path: "deploy/suite.toml", binDirectory: SystemdLayout().binDirectory, checkExecutables: false)
/// for (path, text) in try SystemdExport.files(for: manifest) { … }  // "verticals-identity.service": "…"
/// ```
///
/// Per service with a socket, `verticals-<name>.socket` (``VerticalSocketUnit``); per service
/// `verticals-<name>.service` (``VerticalServiceUnit``); then `verticals.target`,
/// `svc-supervisor.service`, `sysusers.d/verticals.conf` and `tmpfiles.d/verticals.conf`.
public enum SystemdExport {
    /// The first lines of every generated file.
    static let generatedHeader = [
        "Generated from the suite manifest (deploy/suite.toml) by `svc-supervisor export systemd`.",
        "Do not edit: change the manifest and export again.",
    ]

    /// Every file, keyed by its path relative to the export folder. The manifest's executables
    /// are taken as they are: parse it with `binDirectory: layout.binDirectory` so that bare
    /// names become `<prefix>/bin/<name>`.
    public static func files(
        for manifest: Manifest, layout: SystemdLayout = SystemdLayout()
    ) throws(SystemdExportError) -> [String: String] {
        try check(manifest, layout: layout)
        var files: [String: String] = [:]
        for spec in manifest.services {
            let name = layout.unitName(spec.name)
            if spec.socket { files["\(name).socket"] = VerticalSocketUnit.text(spec, layout: layout) }
            files["\(name).service"] = VerticalServiceUnit.text(spec, in: manifest, layout: layout)
        }
        files[layout.target] = SuiteTargetUnit.text(manifest, layout: layout)
        files[SupervisorServiceUnit.name] = SupervisorServiceUnit.text(manifest, layout: layout)
        files[SystemUsersFile.path] = SystemUsersFile.text(manifest, layout: layout)
        files[TemporaryFilesFile.path] = TemporaryFilesFile.text(layout: layout)
        return files
    }

    /// What systemd would refuse that a manifest allows: user names longer than 31 characters,
    /// and socket paths longer than a Unix socket address holds.
    static func check(_ manifest: Manifest, layout: SystemdLayout) throws(SystemdExportError) {
        for spec in manifest.services {
            let user = layout.userName(spec)
            if user.count > SystemUsersFile.maxUserName {
                throw SystemdExportError(
                    service: spec.name,
                    "its user \(user) would be \(user.count) characters; systemd allows "
                        + "\(SystemUsersFile.maxUserName): shorten the name to at most "
                        + "\(SystemUsersFile.maxUserName - layout.namePrefix.count) characters")
            }
            if let problem = manifest.socketPathProblems(socketDirectory: layout.socketDirectory)
                .first(where: { $0.service == spec.name })
            {
                throw SystemdExportError(service: spec.name, problem.message)
            }
        }
    }
}
