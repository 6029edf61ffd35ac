#if canImport(Glibc)
import Glibc
#endif
import VerticalsStorage
import VerticalsSupervisorClient

/// Reads a store a vertical wrote in a child that runs as that vertical's user
/// (``UntrustedStoreReader``): `vt-exec` starts it as it starts the vertical (a session of its
/// own, the vertical's limits and cgroups), drops to the user with no new privileges and no
/// descriptor but the standard ones, then runs ``program`` with ``UntrustedStoreCommand``'s
/// arguments and an empty environment; the program forbids tracing itself before it reads. Whatever the vertical's bytes make of SQLite's C code, they
/// make it in a process of the vertical's own, never in root's.
struct StoreReaderChild: Sendable {
    /// `vt-exec`.
    let execShim: String
    /// The program that answers ``UntrustedStoreCommand`` (`svc-supervisor-engine`).
    let program: String
    /// vt-exec's options: the vertical's own as a service (a session of its own, so no
    /// controlling terminal of root's; its rlimits and cgroups), then its user and group alone.
    let options: [String]
    /// How long one read may take before the child is killed and the read refused.
    var timeLimit: Duration = .seconds(600)

    /// The reader that runs each read in such a child.
    var reader: UntrustedStoreReader {
        let child = self
        return UntrustedStoreReader(
            check: { file, source, owner, known in
                let (status, said) = try child.run(["check", file, source, owner.name] + known)
                guard status == 0 else {
                    throw StoreError(
                        .readerFailed, said.isEmpty ? "\(source) could not be checked (status \(status))" : said)
                }
            },
            checkpoint: { file in _ = try? child.run(["checkpoint", file]) })
    }

    /// Runs the child with `arguments` after the flag; its exit status (or -1 when a signal ended
    /// it) and the first 64 KiB of its standard error, trimmed.
    func run(_ arguments: [String]) throws(StoreError) -> (status: Int32, said: String) {
        let argv = [execShim] + options + ["--", program, UntrustedStoreCommand.flag] + arguments
        let child: FinishedChild
        do {
            child = try FinishedChild.run(argv, timeLimit: timeLimit)
        } catch {
            throw StoreError(.readerFailed, "cannot read a store: \(error.message)")
        }
        guard !child.timedOut else {
            throw StoreError(.readerFailed, "reading the store took longer than \(timeLimit): the read was stopped")
        }
        return (child.status, child.said)
    }
}
