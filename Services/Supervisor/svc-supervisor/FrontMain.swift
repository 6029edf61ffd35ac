import ArgumentParser
import Glibc
import VerticalsSupervisorCommands

/// `svc-supervisor`'s entry point: a command that talks to a running suite runs here
/// (``FrontCommand``); any other command line is handed to svc-supervisor-engine.
@main
enum FrontMain {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // A scripted `call` skips ArgumentParser's tree altogether (``CallFastPath``).
        if let call = CallFastPath.parse(arguments) {
            exit(CommandRunner.runToEnd(call, root: FrontCommand.self))
        }
        // `--version` too: the same text either way, and the cheapest start-up to measure.
        guard let first = arguments.first, FrontCommand.runs(first) || first == "--version" else {
            EngineProgram.handOver()
        }
        let command: any ParsableCommand
        do {
            command = try FrontCommand.parseAsRoot(arguments)
        } catch {
            FrontCommand.exit(withError: error)
        }
        exit(CommandRunner.runToEnd(command, root: FrontCommand.self))
    }
}
