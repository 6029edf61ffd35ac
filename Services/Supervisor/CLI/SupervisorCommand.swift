import ArgumentParser

/// `svc-supervisor`: runs and inspects the suite. Each subcommand is one file.
///
/// `status`, `start`, `stop`, `restart`, `reload` and `down` talk to a running supervisor
/// through its control socket (the Supervisor contract); `logs` reads its log files; `call`
/// talks to any running vertical.
@main
struct SupervisorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "svc-supervisor",
        abstract: "Run and inspect a suite of Verticals daemons.",
        subcommands: [
            UpCommand.self, StatusCommand.self, StartCommand.self, StopCommand.self, RestartCommand.self,
            LogsCommand.self,
            ReloadCommand.self, DownCommand.self, CheckCommand.self, CallCommand.self, OpenCommand.self,
            RoutesCommand.self, OperationsCommand.self, DescribeCommand.self, ExportCommand.self, NewCommand.self,
            AdminCommand.self, LoginCommand.self, LogoutCommand.self, LogLevelCommand.self, BackupCommand.self,
            RestoreCommand.self, MetricsCommand.self,
        ])
}
