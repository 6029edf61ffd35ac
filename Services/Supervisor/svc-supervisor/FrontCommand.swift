import ArgumentParser
import VerticalsSupervisorCommands
import VerticalsContract

/// The lean `svc-supervisor`: the commands that talk to a running suite, parsed and run in a
/// program that links no manifest reader, store or Foundation, so a scripted `call` starts about
/// as fast as a caller with the contract compiled in (the CLI benchmark's row).
///
/// Any other command line (`up`, `check`, `export`, `new`, `init`, `backup`, `restore`, help for
/// the whole program, a mistyped command) goes whole to `svc-supervisor-engine` (``EngineProgram``),
/// which knows every command and prints the full help.
struct FrontCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "svc-supervisor",
        abstract: "Run and inspect a suite of Verticals daemons.",
        version: "svc-supervisor \(VerticalsVersion.current)",
        subcommands: FrontCommands.all)

    /// Whether this program runs the command line that starts with `first` itself.
    static func runs(_ first: String) -> Bool {
        FrontCommands.all.contains { $0.configuration.commandName == first }
    }
}
