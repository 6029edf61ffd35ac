import VerticalsClient
import VerticalsManifest
import VerticalsSupervisorClient
import VerticalsWire

#if canImport(Glibc)
import Glibc
#endif

/// What `svc-supervisor check` finds wrong with the manifest's replicas on this host: a credential
/// file missing or readable by anyone but its owner, and a folder replica overlapping a store's own
/// folder in the systemd layout or in a run directory.
public enum ReplicaFiles {
    /// Every problem with the replicas of `manifest` on this host; `runDirectory` adds the state
    /// folders of that run directory to the systemd layout's.
    public static func problems(in manifest: Manifest, runDirectory: String? = nil) -> [ManifestError] {
        var problems = manifest.replicaFolderProblems(layout: "systemd's layout") {
            "\(DaemonPaths.systemStateParent)/\($0)"
        }
        if let runDirectory {
            let run = RunDirectory(runDirectory)
            problems += manifest.replicaFolderProblems(layout: "the run directory \(runDirectory)") {
                run.stateDirectory(for: $0)
            }
        }
        for (service, replica) in manifest.replicas {
            guard let file = replica.credentialFile, let problem = credentialProblem(file) else { continue }
            problems.append(
                ManifestError(
                    .unsafeFile, service: service.name, key: credentialKey(replica), problem,
                    values: [ErrorDetail("path", file)]))
        }
        return problems
    }

    /// What is wrong with the credential file at `path`, or nil: it must be a regular file (not a
    /// link) that neither its group nor others may read or write, since it opens the replica.
    public static func credentialProblem(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            return "cannot read \(path): \(String(cString: strerror(errno))); create it, owned by the "
                + "service's user, mode 0600"
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return "\(path) is not a regular file (a link or a folder): name the file itself"
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            return "\(path) is readable by others than its owner (mode 0\(String(mode, radix: 8))): another "
                + "vertical could read the replica's credential; chmod 600 it, owned by the service's user"
        }
        return nil
    }

    private static func credentialKey(_ replica: Replica) -> String {
        if case .s3 = replica.target { return "replica.credentials_file" }
        return "replica.key_file"
    }
}
