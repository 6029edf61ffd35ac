import VerticalsWire

/// The control interface of `svc-supervisor`: what runs, and the levers to start, stop,
/// restart, reload and take the suite down.
///
/// Not a vertical: it is served on `<run dir>/supervisor.sock` (not in the socket folder),
/// so it is listed in ``FrameworkContracts/control``, beside a product's verticals. The CLI
/// (`svc-supervisor status`, `start`, …) is its client.
///
/// Its operations are here; its messages and enumerations are declared in `supervisor.vcontract`
/// beside this file, from which VerticalsContractPlugin generates their Swift (docs/CONTRACTS.md).
public enum Supervisor: ServiceContract {
    public static let name = "supervisor"
    public static let summary =
        "Supervision of the suite's daemons: status, start, stop, restart, reload, down, restore, upgrade."

    /// Every supervised service with its state, pid, uptime, restarts and last exit.
    public static let status = Operation<Empty, StatusList>(
        name, "status", summary: "List every service with its state, pid, uptime, restarts and last exit.",
        errors: [.internal])

    /// Starts a stopped or failed service (after its dependencies are ready); answers at once.
    public static let start = Operation<ServiceName, ServiceStatus>(
        name, "start", summary: "Start a stopped or failed service once its dependencies are ready.",
        errors: [.notFound])

    /// Stops a service (stop signal, then SIGKILL after its stop timeout); answers once it stopped.
    public static let stop = Operation<ServiceName, ServiceStatus>(
        name, "stop", summary: "Stop a service and keep it down until started again.", errors: [.notFound])

    /// Stops a service and starts it again; answers once it was started again.
    public static let restart = Operation<ServiceName, ServiceStatus>(
        name, "restart", summary: "Stop a service, then start it again.", errors: [.notFound])

    /// Re-reads the manifest and applies only the difference.
    public static let reload = Operation<Empty, ReloadResult>(
        name, "reload",
        summary: "Re-read the manifest: start added services, stop removed ones, restart changed ones.",
        errors: [.invalidInput])

    /// Stops every service in reverse dependency order; the supervisor exits after answering.
    public static let down = Operation<Empty, Empty>(
        name, "down", summary: "Stop every service in reverse dependency order, then exit the supervisor.",
        errors: [.internal])

    /// Puts a backup in place of a stopped service's store, keeping the store it replaces whole
    /// beside it; the supervisor does it, so the state folder stays its service's and the
    /// operator's action is audited where the other levers are. With `fromReplica`, the backup
    /// is the copy Litestream restores from the service's replica (at `at`, or the latest):
    /// `unavailable` when Litestream fails or the replica holds no copy at that time.
    public static let restore = Operation<RestoreInput, RestoreResult>(
        name, "restore",
        summary:
            "Put a backup, or the copy on the service's replica, in place of a stopped service's store "
            + "(the replaced one is kept whole beside it).",
        errors: [.notFound, .invalidInput, .conflict, .unavailable])

    /// Starts a new process of a ready service on the socket the supervisor holds and hands over
    /// to it without dropping a request: the new one prepares while the old one serves, then waits
    /// for the store while the old one stops accepting, drains and exits (callers wait in the
    /// backlog), then opens the store and sends `READY=1`. A new process that fails before the
    /// hand-over leaves the old one serving; one that fails after it is replaced by the previous
    /// executable (and the store backup a migrating build made is put back): `unavailable`, saying why.
    public static let upgrade = Operation<UpgradeInput, UpgradeResult>(
        name, "upgrade",
        summary: "Start a new build of a ready service on its socket and hand over to it without dropping a request.",
        errors: [.notFound, .invalidInput, .conflict, .unavailable])

    /// Streams a service's log: its last `lines` lines, then each new line as the supervisor
    /// writes it, until the caller cancels (`svc-supervisor logs -f`).
    public static let logs = StreamOperation<LogsInput, LogLine>(
        name, "logs", summary: "Follow a service's log: its last lines, then each new line as it is written.",
        errors: [.notFound, .invalidInput])

    /// Streams every service's status, then a service's status each time its state changes.
    public static let watch = StreamOperation<Empty, ServiceStatus>(
        name, "watch", summary: "Every service's status now, then each service's status whenever its state changes.",
        errors: [.internal])

    public static let operations = [
        status.descriptor, start.descriptor, stop.descriptor, restart.descriptor, reload.descriptor,
        down.descriptor, logs.descriptor, watch.descriptor, restore.descriptor, upgrade.descriptor,
    ]
}

extension Supervisor.LogsInput {
    /// The largest ``lines`` accepted.
    public static let maxLines = 10_000
}
