#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisorClient

/// Where the engine keeps its files and how it starts programs.
public struct EngineConfiguration: Sendable {
    /// The run directory (sockets, logs, pids, state).
    public var runDirectory: RunDirectory
    /// The exec shim `vt-exec`, which a child is started through when it needs more than a
    /// session and PDEATHSIG (a user, rlimits, nice, a cgroup), or always with
    /// ``spawnsThroughShim`` (setsid, PDEATHSIG, `LISTEN_PID`/`WATCHDOG_PID` set to its own pid,
    /// then exec). Any other child is started by a vfork-style clone that does the same itself
    /// (`ChildProcess/Options/Launch/vfork(parentDeathSignal:)`): no copy of the supervisor's
    /// page tables, no second exec.
    public var execShim: String
    /// Every child through ``execShim``, none started in place: `VERTICALS_SPAWN=shim` in the
    /// supervisor's environment (the escape hatch, should the in-place start misbehave somewhere).
    public var spawnsThroughShim = EngineConfiguration.shimForcedByEnvironment
    /// Where a manifest `executable` without a `/` is looked up (beside svc-supervisor).
    public var programDirectory: String
    /// The environment every child starts from, before the manifest's `env` and the variables
    /// the supervisor sets for it: the allow-listed part of the supervisor's own
    /// (``ChildEnvironment``), never the rest of it.
    public var environment: [String: String]
    /// Each service as its own user (svc-supervisor as root), or nil (the default): every
    /// service runs as the supervisor's user.
    public var serviceUsers: ServiceUsers? = nil
    /// The program that reads a store a vertical wrote (a backup to restore, a store to keep) in
    /// a child as that vertical's user (`svc-supervisor-engine`, which answers
    /// `UntrustedStoreCommand`), with ``serviceUsers``. Nil: read in this process, as the owner
    /// of the store's folder.
    public var storeReader: String? = nil
    /// The Litestream program that copies each replicated service's store (the manifest's
    /// `replica`): a path, or a name looked up in ``environment``'s `PATH`.
    public var litestream = "litestream"

    /// A configuration. `environment` is the supervisor's own (by default this process's): its
    /// children receive only what ``ChildEnvironment/inherited(from:)`` keeps of it.
    public init(
        runDirectory: RunDirectory, execShim: String, programDirectory: String,
        environment: [String: String] = ChildProcess.currentEnvironment
    ) {
        self.runDirectory = runDirectory
        self.execShim = execShim
        self.programDirectory = programDirectory
        self.environment = ChildEnvironment.inherited(from: environment)
    }

    /// `VERTICALS_SPAWN=shim`, read once per process.
    static let shimForcedByEnvironment: Bool =
        getenv(SupervisorSettings.spawn.name).map { String(cString: $0) == "shim" } ?? false

    /// ``litestream`` as an executable file's path, or nil when there is none.
    var litestreamProgram: String? {
        let folders =
            litestream.contains("/")
            ? [""] : (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/" }
        return folders.map { $0 + litestream }.first { path in
            var status = stat()
            return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG && access(path, X_OK) == 0
        }
    }

    /// The program a manifest `executable` names: absolute as is, else beside svc-supervisor.
    func program(_ executable: String) -> String {
        if executable.hasPrefix("/") { return executable }
        if executable.contains("/") { return "\(RunDirectory(".").path)/\(executable)" }
        return "\(programDirectory)/\(executable)"
    }
}
