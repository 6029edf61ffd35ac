import ArgumentParser

/// `svc-supervisor`: runs and inspects the suite. Each subcommand is one file.
///
/// The daemon half (`up`, `status`, `logs`, …) arrives with the supervisor issue; `call`
/// already talks to any running vertical.
@main
struct SupervisorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "svc-supervisor",
        abstract: "Run and inspect a suite of Verticals daemons.",
        subcommands: [CallCommand.self, OperationsCommand.self])
}
