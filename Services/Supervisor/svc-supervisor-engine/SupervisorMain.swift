import ArgumentParser
import Glibc
import VerticalsSupervisorCommands
import VerticalsServiceKit
import VerticalsStorage
import VerticalsSupervisor

/// svc-supervisor-engine's entry point, and the one place its process exits: every command,
/// run when `svc-supervisor` hands one over (``EngineProgram``) or when it is run itself.
///
/// `up` is the long-lived process: parsed and run here, synchronously, its engine on its own
/// loop (``UpCommand/serve()``). ArgumentParser's async `main` would run on libdispatch's
/// global queues, whose worker-pool monitor then wakes an idle supervisor every second for as
/// long as it runs. Every other command is short-lived and runs as that async `main` would run it
/// (``CommandRunner``), which prints help and errors and exits with their status (a thrown `ExitCode` is
/// that mapping).
@main
enum SupervisorMain {
    static func main() {
        // A child the supervisor runs as a vertical's user, to read that vertical's store: nothing
        // else of this program runs in it.
        if let status = UntrustedStoreCommand.run(Array(CommandLine.arguments.dropFirst())) { exit(status) }
        ManifestNames.reader.withLock {
            $0 = { path in
                ManifestParser.load(path: path, binDirectory: "/", checkExecutables: false).0.services
                    .filter(\.socket).map(\.name)
            }
        }
        // Parsed once: building the tree of every command and reading its arguments is most of
        // what a short command like `call` costs before it reaches its socket.
        let command: any ParsableCommand
        if let call = CallFastPath.parse(Array(CommandLine.arguments.dropFirst())) {
            command = call
        } else {
            do {
                command = try SupervisorCommand.parseAsRoot()
            } catch {
                SupervisorCommand.exit(withError: error)
            }
        }
        if let up = command as? UpCommand {
            exit(up.serve())
        }
        exit(CommandRunner.runToEnd(command, root: SupervisorCommand.self))
    }
}
