import FoundationEssentials
import VerticalsSupervisor

extension Scaffold {
    /// Where the checkout keeps its generated systemd units.
    public static let systemdFolder = "deploy/systemd"

    /// Adds the systemd units exported from the manifest as it will be (with the new vertical),
    /// for the default prefix, as `svc-supervisor export systemd` writes them; only files that
    /// change are planned.
    public mutating func regenerateSystemdUnits() throws(ScaffoldError) {
        guard Self.exists(root, Self.systemdFolder) else { return }
        let layout = SystemdLayout()
        let (manifest, problems) = ManifestParser.parse(
            text: plannedManifest, baseDirectory: "\(root)/deploy", binDirectory: layout.binDirectory,
            checkExecutables: false)
        guard problems.isEmpty else {
            throw .checkout("\(Self.manifestPath) would have problems: \(problems.map { "\($0)" }.joined(separator: "; "))")
        }
        let files: [String: String]
        do {
            files = try SystemdExport.files(for: manifest, layout: layout)
        } catch {
            throw .checkout("the systemd units cannot be exported: \(error)")
        }
        for (name, contents) in files.sorted(by: { $0.key < $1.key }) {
            let path = "\(Self.systemdFolder)/\(name)"
            let current = FileManager.default.contents(atPath: "\(root)/\(path)").map { String(decoding: $0, as: UTF8.self) }
            if current != contents { add(path: path, contents: contents) }
        }
    }
}
