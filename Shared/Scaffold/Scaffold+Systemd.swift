import FoundationEssentials
import VerticalsDeploy
import VerticalsManifest

extension Scaffold {
    /// Where the checkout keeps its generated systemd units.
    public static let systemdFolder = "deploy/systemd"

    /// Reads a manifest's text (with its folder and svc-supervisor's) into a `Manifest` and its
    /// problems, without checking that the programs exist: the engine's `ManifestParser.parsePlanned`,
    /// handed in, so that the scaffold links no TOML reader.
    ///
    /// ```swift
    /// try scaffold.regenerateSystemdUnits(reading: ManifestParser.parsePlanned)
    /// ```
    public typealias ManifestReader = (_ text: String, _ baseDirectory: String, _ binDirectory: String) -> (
        Manifest, [ManifestError]
    )

    /// Adds the systemd units exported from the manifest as it will be (with the new vertical),
    /// for the default prefix and the manifest's suite name, as `svc-supervisor export systemd`
    /// writes them; only files that
    /// change are planned. `read` turns the planned manifest's text into its model.
    public mutating func regenerateSystemdUnits(reading read: ManifestReader) throws(ScaffoldError) {
        guard Self.exists(root, Self.systemdFolder) else { return }
        let layout = SystemdLayout()
        let (manifest, problems) = read(plannedManifest, "\(root)/deploy", layout.binDirectory)
        guard problems.isEmpty else {
            throw .checkout(
                "\(Self.manifestPath) would have problems: \(problems.map { "\($0)" }.joined(separator: "; "))")
        }
        let files: [String: String]
        do {
            files = try SystemdExport.files(for: manifest, layout: SystemdLayout(for: manifest))
        } catch {
            throw .checkout("the systemd units cannot be exported: \(error)")
        }
        for (name, contents) in files.sorted(by: { $0.key < $1.key }) {
            let path = "\(Self.systemdFolder)/\(name)"
            let current = FileManager.default.contents(atPath: "\(root)/\(path)").map {
                String(decoding: $0, as: UTF8.self)
            }
            if current != contents { add(path: path, contents: contents) }
        }
    }
}
