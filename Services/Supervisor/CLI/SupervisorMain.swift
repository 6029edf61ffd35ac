import ArgumentParser
import Glibc
import VerticalsServiceKit

/// svc-supervisor's entry point, and the one place its process exits.
///
/// `up` is the long-lived process: parsed and run here, synchronously, its engine on its own
/// loop (``UpCommand/serve()``). ArgumentParser's async `main` would run on libdispatch's
/// global queues, whose worker-pool monitor then wakes an idle supervisor every second for as
/// long as it runs. Every other command is short-lived and runs as that async `main` would run it
/// (``run(_:)``), which prints help and errors and exits with their status (a thrown `ExitCode` is
/// that mapping).
@main
enum SupervisorMain {
    static func main() {
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
        // Detached: `main` is the main actor's, whose queue nothing drains while this thread waits.
        let finished = BlockingResult<Void>()
        Task.detached {
            await run(command)
            finished.set(())
        }
        finished.wait()
        exit(0)
    }

    /// Runs `command` as ArgumentParser's async `main` would after parsing: an error (a thrown
    /// `ExitCode` included) prints as ArgumentParser prints it and exits with its status.
    static func run(_ command: any ParsableCommand) async {
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = command
                try command.run()
            }
        } catch {
            SupervisorCommand.exit(withError: error)
        }
    }
}
