import Glibc
import VerticalsSupervisorCommands
import VerticalsSupervisor
import VerticalsSupervisorClient
import VerticalsWire

/// Reads the manifest `up` and `reload` apply, refusing it on any problem the parser finds
/// (unknown keys, missing executables, duplicates, unknown dependencies, cycles).
///
/// As root, the manifest says what root does: which programs run as which users, which keys are
/// handed over, which folders are made. So root reads only a manifest that root alone can have
/// written: root's, in folders of root's, none of them writable by anyone else (a sticky folder
/// such as `/tmp` excepted), no link on the way. Whoever could write it would otherwise have root
/// run any program as any account.
enum ManifestLoading {
    static func load(path: String, programDirectory: String) throws -> Manifest {
        if geteuid() == 0, !RootPlacedSocket.isPlaced(path, type: S_IFREG, by: [0]) {
            throw SupervisorError(
                .notOwned,
                "\(path) is not root's alone, and root runs what a manifest names: it reads one only when root owns it "
                    + "and every folder above it, none of them writable by group or others, with no link on the way. "
                    + "Give it to root (chown root: and chmod go-w, folders too), or run svc-supervisor as the user who owns it",
                details: [ErrorDetail("path", path)])
        }
        let (manifest, problems) = ManifestParser.load(path: path, binDirectory: programDirectory)
        guard problems.isEmpty else {
            throw SupervisorError(
                .invalidManifest,
                "\(path) has \(problems.count) problem(s); `svc-supervisor check` lists them:\n"
                    + problems.map { "  \($0)" }.joined(separator: "\n"),
                details: [ErrorDetail("path", path)] + problems.map { ErrorDetail("problem", "\($0.code)") })
        }
        return manifest
    }
}
