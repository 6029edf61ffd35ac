import VerticalsContract
import VerticalsManifest

/// The suite's Kubernetes objects, generated from its manifest: pure functions from a
/// `Manifest` to file contents, as ``SystemdExport`` is for systemd.
///
/// ```swift
/// let (manifest, _) = ManifestParser.load(
///     path: "deploy/suite.toml", binDirectory: KubernetesLayout().binDirectory, checkExecutables: false)
/// for (path, text) in try KubernetesExport.files(for: manifest) { … }  // "identity.yaml": "---\n…"
/// ```
///
/// Files: `00-namespace.yaml` (the Namespace), `01-network.yaml` (default deny, operator
/// egress), per vertical `<name>.yaml` (ServiceAccount, ConfigMap, with a `replica` its
/// Litestream's ConfigMap, Service, NetworkPolicy, then StatefulSet or Deployment), the image's `Containerfile` and a `README.md` saying what does
/// not map. `kubectl apply -f DIR` applies them in that order (by file name).
public enum KubernetesExport {
    /// The first lines of every generated file.
    static let generatedHeader = [
        "Generated from the suite manifest (deploy/suite.toml) by `svc-supervisor export kubernetes`.",
        "Do not edit: change the manifest and export again.",
    ]

    /// The Kubernetes version the objects are written for and validated against (`kubernetes-validate -k`).
    public static let kubernetesVersion = "1.34.0"

    /// File names of the objects besides the per-vertical ones.
    static let namespaceFile = "00-namespace.yaml"
    static let networkFile = "01-network.yaml"

    /// Every object, by the file it is written to, in the order written.
    public static func objects(
        for manifest: Manifest, layout: KubernetesLayout = KubernetesLayout()
    ) throws(KubernetesExportError) -> [(file: String, objects: [KubernetesObject])] {
        try check(manifest, layout: layout)
        let policies = NetworkPolicyObjects.make(manifest, layout: layout)
        var files: [(file: String, objects: [KubernetesObject])] = [
            (namespaceFile, [NamespaceObject.make(layout: layout)]),
            (networkFile, Array(policies.prefix(2))),
        ]
        for (index, spec) in manifest.services.enumerated() {
            let litestream = spec.replica.map {
                [LitestreamSidecar.configMap(spec, replica: $0.forService(spec.name), layout: layout)]
            }
            files.append(
                (
                    "\(spec.name).yaml",
                    [
                        ServiceAccountObject.make(spec, layout: layout),
                        ConfigMapObject.make(spec, in: manifest, layout: layout),
                    ] + (litestream ?? []) + [
                        ServiceObject.make(spec, layout: layout),
                        policies[2 + index],
                        KubernetesWorkload.make(spec, layout: layout),
                    ]
                ))
        }
        return files
    }

    /// Every file, keyed by its path relative to the export folder. Parse the manifest with
    /// `binDirectory: layout.binDirectory` so that bare executable names become the image's paths.
    public static func files(
        for manifest: Manifest, layout: KubernetesLayout = KubernetesLayout()
    ) throws(KubernetesExportError) -> [String: String] {
        var files: [String: String] = [:]
        let header = generatedHeader.map { "# \($0)\n" }.joined()
        for (file, objects) in try objects(for: manifest, layout: layout) {
            files[file] = header + YAMLEmitter.documents(objects.map(\.node))
        }
        files[Containerfile.name] = try Containerfile.text(manifest, layout: layout)
        files[KubernetesReadme.name] = KubernetesReadme.text(manifest, layout: layout)
        return files
    }

    /// The files of an export folder that an export owns (and removes when no longer generated).
    public static func isOwned(_ name: String) -> Bool {
        name.hasSuffix(".yaml") || name == Containerfile.name || name == KubernetesReadme.name
    }

    /// What Kubernetes or the image would refuse that a manifest allows (the manifest parser has
    /// already refused environment names a container cannot hold).
    static func check(_ manifest: Manifest, layout: KubernetesLayout) throws(KubernetesExportError) {
        for spec in manifest.services {
            try LitestreamSidecar.check(spec)
            if [NetworkPolicyObjects.defaultDenyName, NetworkPolicyObjects.operatorName].contains(spec.name) {
                throw KubernetesExportError(
                    .nameTaken, service: spec.name,
                    "its NetworkPolicy would have the name of the suite's \(spec.name) policy: rename the service")
            }
            let program = Containerfile.baseName(spec.executable)
            guard ManifestText.isProgramName(program) else {
                throw KubernetesExportError(
                    .unwritable, service: spec.name,
                    "executable \(spec.executable.debugDescription) does not end in a plain program name (A-Z, a-z, "
                        + "0-9, '.', '_', '-'): the image copies the program under that name")
            }
            let expected = layout.binDirectory + "/" + program
            guard spec.executable == expected else {
                throw KubernetesExportError(
                    .unsupported, service: spec.name,
                    "executable \(spec.executable.debugDescription) is not in the image: give a bare program name (a product of the "
                        + "package), which the Containerfile builds and copies to \(layout.binDirectory)")
            }
            for key in spec.environment.keys.sorted() {
                if ConfigMapObject.exportedNames.contains(key) || key.hasPrefix(DaemonSettings.endpointPrefix) {
                    throw KubernetesExportError(
                        .reserved, service: spec.name,
                        "env.\(key) is set by the export for Kubernetes: leave it out of the manifest")
                }
            }
        }
    }
}
