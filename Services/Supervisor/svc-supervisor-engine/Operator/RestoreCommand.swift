import VerticalsSupervisorCommands
import ArgumentParser
import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsWire

/// `svc-supervisor restore NAME FILE` and `svc-supervisor restore NAME --from-replica [--at TIME]`:
/// asks the supervisor to put a backup, or the copy on the vertical's replica, in place of a
/// vertical's store (`supervisor.restore`, audited there). It refuses unless the vertical is
/// stopped (or failed), so no process has the store open, and unless the backup is a whole store
/// of this vertical (see `StoreOwner`). The replaced store is kept whole in the supervisor's own
/// `<run>/replaced/NAME/` as `NAME.before-restore-<UTC time>.sqlite`, a file `restore` takes back.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup, or its replica's copy, in place of a stopped vertical's store (the old one is kept).",
        discussion: """
            Examples:
              svc-supervisor stop orders
              svc-supervisor restore orders /var/backups/verticals/orders-20261122T123000Z.sqlite
              svc-supervisor restore orders --from-replica --at 2026-11-22T12:30:00Z
              svc-supervisor start orders
            The replaced store is kept whole as NAME.before-restore-<UTC time>.sqlite in the
            supervisor's own <run>/replaced/NAME/; restoring that file returns to the state before.
            FILE is taken with no symbolic link on its path, as the owner of the first folder on it
            that root does not own, and only as a plain file with one name.

            --from-replica brings the store back from the replica the vertical's manifest entry
            names: Litestream restores its copy (the latest, or the last at or before --at) as the
            vertical's user, and that copy goes through the same checks as FILE. Litestream's
            local state of the replaced store is reset after, so replication goes on from the
            restored store once the vertical starts. A vertical with a replica and no store file
            yet (on a host that replaces a lost one) gets its store back this way by itself
            before it starts. Give --at a time before a vertical started on an empty store:
            once it is ready, its Litestream ships that store to the replica as the latest copy.

            Exit status 75 when the vertical is not stopped (or something holds its store); 65
            when FILE is not a whole SQLite store, or is another vertical's, or the vertical has
            no replica; 1 when Litestream fails (the replica unreachable, no copy at that time).
            """)

    @Argument(help: "The vertical, as the manifest names it.") var service: String
    @Argument(help: "The backup file (from `svc-supervisor backup`); not with --from-replica.") var file: String?
    @Flag(help: "Restore from the replica the vertical's manifest entry names, not from a file.")
    var fromReplica = false
    @Option(
        help: ArgumentHelp(
            "With --from-replica, the store as it was at this time: RFC 3339, e.g. 2026-11-22T12:30:00Z.",
            valueName: "time"))
    var at: String?
    @OptionGroup var runDirectory: RunDirectoryOption

    func validate() throws {
        switch (file, fromReplica) {
        case (nil, false): throw ValidationError("give the backup FILE to restore from, or --from-replica")
        case (_?, true): throw ValidationError("give a backup FILE or --from-replica, not both")
        default: break
        }
        guard let at else { return }
        guard fromReplica else { throw ValidationError("--at goes with --from-replica: a backup file holds one time") }
        guard Self.time(at) != nil else {
            throw ValidationError("--at must be an RFC 3339 time, e.g. 2026-11-22T12:30:00Z, not \"\(at)\"")
        }
    }

    func run() async throws {
        try await ControlClient.reporting {
            let restored: Supervisor.RestoreResult
            if let file {
                // The supervisor puts it in place (the state folder is the service's, and the
                // action is audited there), so it gets a path that does not depend on this folder.
                let absolute = file.hasPrefix("/") ? file : ProgramPaths.currentDirectory() + "/" + file
                restored = try await ControlClient.call(
                    Supervisor.restore, .init(name: service, file: absolute), location: runDirectory.location,
                    statuses: [.conflict: 75, .invalidInput: 65])
                Terminal.print("restored \(restored.path) from \(absolute)")
            } else {
                // Litestream may take as long as the supervisor lets it, then the checks run.
                restored = try await ControlClient.call(
                    Supervisor.restore, .init(name: service, fromReplica: true, at: at.flatMap(Self.time)),
                    location: runDirectory.location, timeout: SupervisorEngine.replicaRestoreTimeLimit + .seconds(300),
                    statuses: [.conflict: 75, .invalidInput: 65])
                Terminal.print(
                    "restored \(restored.path) from the replica of \(service)\(at.map { " as at \($0)" } ?? "")")
            }
            if let kept = restored.kept {
                Terminal.print(
                    "the replaced store is kept as \(kept) (to go back: svc-supervisor restore \(service) \(kept))")
            }
            Terminal.print("next: svc-supervisor start \(service)")
        }
    }

    /// `text` as an RFC 3339 time a timestamp on the wire holds, or nil.
    private static func time(_ text: String) -> Timestamp? {
        RFC3339.parse(text).flatMap { SupervisorEngine.isRFC3339(text) && $0.isInWireRange ? $0 : nil }
    }
}
