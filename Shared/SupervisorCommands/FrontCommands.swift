import ArgumentParser

/// The commands that talk to a running suite: both programs run them, and the lean
/// `svc-supervisor` runs only these (every other goes to ``EngineProgram``).
package enum FrontCommands {
    /// Those about the whole suite, in the order of svc-supervisor's help (its "Suite" group).
    package static let suite: [any ParsableCommand.Type] = [
        StatusCommand.self, DownCommand.self, ReloadCommand.self, MetricsCommand.self, TraceCommand.self,
    ]
    /// Those about one service ("Services").
    package static let services: [any ParsableCommand.Type] = [
        StartCommand.self, StopCommand.self, RestartCommand.self, UpgradeCommand.self, LogsCommand.self,
        LogLevelCommand.self,
    ]
    /// Those that call verticals ("Calls").
    package static let calls: [any ParsableCommand.Type] = [
        CallCommand.self, OpenCommand.self, OperationsCommand.self, DescribeCommand.self,
        RoutesCommand.self, LoginCommand.self, LogoutCommand.self, PasswordCommand.self, AdminCommand.self,
    ]
    /// Every one of them.
    package static let all = suite + services + calls
}
