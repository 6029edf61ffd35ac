import ArgumentParser
import VerticalsServiceKit

/// `svc-supervisor`: runs and inspects the suite. Each subcommand is one file.
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

            Exit statuses follow sysexits: 64 bad usage or an unknown service or
            operation, 65 an invalid manifest, 69 nothing answers, 75 try again later;
            `status` is 3 while a service is failed.
            """,
        version: "svc-supervisor \(DaemonArguments.suiteVersion)",
        // Grouped by purpose, as git's and kubectl's help are; every name and flag is unchanged.
        groupedSubcommands: [
            CommandGroup(
                name: "Suite",
                subcommands: [
                    UpCommand.self, StatusCommand.self, DownCommand.self, ReloadCommand.self, MetricsCommand.self,
                ]),
            CommandGroup(
                name: "Services",
                subcommands: [
                    StartCommand.self, StopCommand.self, RestartCommand.self, LogsCommand.self, LogLevelCommand.self,
                ]),
            CommandGroup(
                name: "Calls",
                subcommands: [
                    CallCommand.self, OpenCommand.self, OperationsCommand.self, DescribeCommand.self,
                    RoutesCommand.self, LoginCommand.self, LogoutCommand.self, AdminCommand.self,
                ]),
            CommandGroup(name: "Data", subcommands: [BackupCommand.self, RestoreCommand.self]),
            CommandGroup(name: "Deploy", subcommands: [CheckCommand.self, ExportCommand.self]),
            CommandGroup(name: "Development", subcommands: [NewCommand.self, InitCommand.self]),
        ])
}
