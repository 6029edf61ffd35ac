import SupervisorCommands
import ArgumentParser
import VerticalsContract
import VerticalsServiceKit
import VerticalsStorage
import VerticalsSupervisor
import VerticalsWire

/// `svc-supervisor restore NAME FILE`: puts a backup in place of a vertical's store. Refuses
/// unless the supervisor reports the vertical stopped (or failed), so no process has the store
/// open, and unless FILE is a whole store of this vertical (see `StoreOwner`). The replaced store is
/// kept whole beside it as `NAME.before-restore-<UTC time>.sqlite`, a file `restore` takes back.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup in place of a stopped vertical's store (the old one is kept, and its path printed).",
        discussion: """
            Example:
              svc-supervisor stop clinics
              svc-supervisor restore clinics /var/backups/verticals/clinics-20261122T123000Z.sqlite
              svc-supervisor start clinics
            The replaced store is kept whole as NAME.before-restore-<UTC time>.sqlite beside it; restoring
            that file returns to the state before. Exit status 75 when the vertical is not stopped (or
            something holds its store); 65 when FILE is not a whole SQLite store, or is another vertical's.
            """)

    @Argument(help: "The vertical, e.g. clinics.") var service: String
    @Argument(help: "The backup file (from `svc-supervisor backup`).") var file: String
    @OptionGroup var runDirectory: RunDirectoryOption

    func run() async throws {
        try await ControlClient.reporting {
            let location = runDirectory.location
            let list = try await ControlClient.call(Supervisor.status, Empty(), location: location)
            guard let status = list.services.first(where: { $0.name == service }) else {
                throw CLIError(
                    status: 64,
                    "the supervisor runs no service named \"\(service)\"; it runs: "
                        + list.services.map { $0.name }.joined(separator: ", "))
            }
            guard status.state == .stopped || status.state == .failed else {
                throw CLIError(
                    status: 75,
                    "\(service) is \(status.state): stop it first (svc-supervisor stop \(service)), then restore")
            }
            let path = RunDirectory(location.runDirectory).stateDirectory(for: service) + "/\(service).sqlite"
            let kept: String?
            do {
                kept = try SQLiteStore.restore(
                    file, to: path, owner: StoreOwner(service),
                    knownOwners: list.services.map { $0.name })
            } catch let error as StoreError {
                throw CLIError(status: error.isHeld ? 75 : 65, "cannot restore \(service): \(error.message)")
            }
            print("restored \(path) from \(file)")
            if let kept {
                print("the replaced store is kept as \(kept) (to go back: svc-supervisor restore \(service) \(kept))")
            }
            print("next: svc-supervisor start \(service)")
        }
    }
}
