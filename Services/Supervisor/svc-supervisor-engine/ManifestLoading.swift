import VerticalsSupervisorCommands
import VerticalsSupervisor
import VerticalsSupervisorClient

/// Reads the manifest `up` and `reload` apply, refusing it on any problem the parser finds
/// (unknown keys, missing executables, duplicates, unknown dependencies, cycles).
enum ManifestLoading {
    static func load(path: String, programDirectory: String) throws -> Manifest {
        let (manifest, problems) = ManifestParser.load(path: path, binDirectory: programDirectory)
        guard problems.isEmpty else {
            throw SupervisorError(
                "\(path) has \(problems.count) problem(s); `svc-supervisor check` lists them:\n"
                    + problems.map { "  \($0)" }.joined(separator: "\n"))
        }
        return manifest
    }
}
