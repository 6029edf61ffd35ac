import ArgumentParser
import Glibc
import VerticalsClient
import VerticalsSupervisorClient

/// Runs a parsed command to its end, as ArgumentParser's async `main` would, without its
/// executor, and gives the status to exit with: both programs (`svc-supervisor` and
/// `svc-supervisor-engine`) end this way, exiting in their entry file.
///
/// ArgumentParser's async `main` would run on libdispatch's global queues; a detached task and a
/// blocked main thread keep a short command off them.
package enum CommandRunner {
    /// Runs `command` on a detached task while this thread waits, and returns the status: 0 when
    /// it returns, else its error's, printed as ArgumentParser prints it (with `root`'s help and name).
    package static func runToEnd(_ command: sending any ParsableCommand, root: any ParsableCommand.Type) -> Int32 {
        // Detached: `main` is the main actor's, whose queue nothing drains while this thread waits.
        let finished = BlockingResult<Int32>()
        Task.detached {
            finished.set(await run(command, root: root))
        }
        return finished.wait()
    }

    /// Runs `command` as ArgumentParser's async `main` would after parsing, and returns the status
    /// to exit with: an error (a thrown `ExitCode` included) prints as ArgumentParser prints it.
    package static func run(_ command: any ParsableCommand, root: any ParsableCommand.Type) async -> Int32 {
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = command
                try command.run()
            }
            return 0
        } catch {
            return status(of: error, root: root)
        }
    }

    /// What ArgumentParser's `exit(withError:)` prints for `error`, printed, and the status it
    /// would exit with: help and a clean exit go to standard output, anything else to standard error.
    package static func status(of error: any Error, root: any ParsableCommand.Type) -> Int32 {
        let code = root.exitCode(for: error)
        let message = root.fullMessage(for: error)
        if !message.isEmpty {
            // Help is the programs' own text; an error's message may quote a vertical (``CLIError``
            // is shown already; other errors' words are shown through VisibleText, line by line).
            let lines: [TerminalText] = message.split(separator: "\n", omittingEmptySubsequences: false).map { "\($0)" }
            if code == .success { Terminal.print(lines: lines) } else { Terminal.error(TerminalText(lines: lines)) }
        }
        return code.rawValue
    }
}
