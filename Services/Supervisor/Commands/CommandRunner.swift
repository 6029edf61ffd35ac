import ArgumentParser
import Glibc
import VerticalsServiceKit

/// Runs a parsed command to its end and exits, as ArgumentParser's async `main` would, without
/// its executor: both programs (`svc-supervisor` and `svc-supervisor-engine`) end this way.
///
/// ArgumentParser's async `main` would run on libdispatch's global queues; a detached task and a
/// blocked main thread keep a short command off them.
package enum CommandRunner {
    /// Runs `command` and exits: 0 when it returns, else its error's status, printed as
    /// ArgumentParser prints it (with `root`'s help and name).
    package static func runAndExit(_ command: sending any ParsableCommand, root: any ParsableCommand.Type) -> Never {
        // Detached: `main` is the main actor's, whose queue nothing drains while this thread waits.
        let finished = BlockingResult<Void>()
        Task.detached {
            await run(command, root: root)
            finished.set(())
        }
        finished.wait()
        exit(0)
    }

    /// Runs `command` as ArgumentParser's async `main` would after parsing: an error (a thrown
    /// `ExitCode` included) prints as ArgumentParser prints it and exits with its status.
    package static func run(_ command: any ParsableCommand, root: any ParsableCommand.Type) async {
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = command
                try command.run()
            }
        } catch {
            root.exit(withError: error)
        }
    }
}
