import VerticalsSupervisorCommands
import ArgumentParser
import VerticalsContract
import VerticalsServiceKit
import VerticalsSupervisor
import VerticalsWire

/// `svc-supervisor restore NAME FILE`: asks the supervisor to put a backup in place of a vertical's
/// store (`supervisor.restore`, audited there). It refuses unless the vertical is stopped (or
/// failed), so no process has the store open, and unless FILE is a whole store of this vertical
/// (see `StoreOwner`). The replaced store is kept whole in the supervisor's own
/// `<run>/replaced/NAME/` as `NAME.before-restore-<UTC time>.sqlite`, a file `restore` takes back.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup in place of a stopped vertical's store (the old one is kept, and its path printed).",
        discussion: """
            Example:
              svc-supervisor stop orders
              svc-supervisor restore orders /var/backups/verticals/orders-20261122T123000Z.sqlite
              svc-supervisor start orders
            The replaced store is kept whole as NAME.before-restore-<UTC time>.sqlite in the
            supervisor's own <run>/replaced/NAME/; restoring that file returns to the state before.
            FILE is taken with no symbolic link on its path, as the owner of the first folder on it
            that root does not own, and only as a plain file with one name. Exit status 75 when the vertical is not stopped (or
            something holds its store); 65 when FILE is not a whole SQLite store, or is another vertical's.
            """)

    @Argument(help: "The vertical, as the manifest names it.") var service: String
    @Argument(help: "The backup file (from `svc-supervisor backup`).") var file: String
    @OptionGroup var runDirectory: RunDirectoryOption

    func run() async throws {
        try await ControlClient.reporting {
            // The supervisor puts it in place (the state folder is the service's, and the
            // action is audited there), so it gets a path that does not depend on this folder.
            let absolute = file.hasPrefix("/") ? file : ProgramPaths.currentDirectory() + "/" + file
            let restored = try await ControlClient.call(
                Supervisor.restore, .init(name: service, file: absolute), location: runDirectory.location,
                statuses: [.conflict: 75, .invalidInput: 65])
            Terminal.print("restored \(restored.path) from \(absolute)")
            if let kept = restored.kept {
                Terminal.print(
                    "the replaced store is kept as \(kept) (to go back: svc-supervisor restore \(service) \(kept))")
            }
            Terminal.print("next: svc-supervisor start \(service)")
        }
    }
}
