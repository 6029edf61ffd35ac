import ArgumentParser
import VerticalsSupervisorCommands
import VerticalsServiceKit

/// `svc-supervisor` with every command, as svc-supervisor-engine runs it. Each subcommand is one
/// file: those that talk to a running suite are in VerticalsSupervisorCommands (``FrontCommands``), which the
/// lean svc-supervisor runs itself; the rest (up, check, export, new, init, backup, restore) here.
///
/// `status`, `start`, `stop`, `restart`, `reload` and `down` talk to a running supervisor
/// through its control socket (the Supervisor contract); `logs` reads its log files; `call`
/// talks to any running vertical, whose contract it learns from the daemon (``LearnedContracts``):
/// the CLI links no vertical's contract. Every one of them finds the suite the same way
/// (``SuiteLocation``). ``SupervisorMain`` is the entry point.
struct SupervisorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "svc-supervisor",
        abstract: "Run and inspect a suite of Verticals daemons.",
        discussion: """
            Every command that talks to a running suite finds it the same way:
            --run-dir, else $VERTICALS_RUN_DIR, else the run directory a running `up`
            points to ($XDG_RUNTIME_DIR/verticals, /run/verticals as root;
            $VERTICALS_POINTER_DIR overrides), else .run in the current folder.
            Commands that call a vertical also take --socket-dir (/run/verticals under
            systemd). No vertical's contract is built into this program: call, open,
            operations, routes, login and admin learn each one from the running daemon
            (daemon.describe), cached in $XDG_CACHE_HOME/verticals/describe.

            \(CLIExitStatus.sentence)
            """,
        version: "svc-supervisor \(DaemonArguments.suiteVersion)",
        // Grouped by purpose, as git's and kubectl's help are; every name and flag is unchanged.
        groupedSubcommands: [
            CommandGroup(name: "Suite", subcommands: [UpCommand.self] + FrontCommands.suite),
            CommandGroup(name: "Services", subcommands: FrontCommands.services),
            CommandGroup(name: "Calls", subcommands: FrontCommands.calls),
            CommandGroup(name: "Data", subcommands: [BackupCommand.self, RestoreCommand.self]),
            CommandGroup(
                name: "Deploy",
                subcommands: [CheckCommand.self, CanIDeployCommand.self, ExportCommand.self, CertsCommand.self]),
            CommandGroup(name: "Development", subcommands: [NewCommand.self, InitCommand.self]),
        ])
}
