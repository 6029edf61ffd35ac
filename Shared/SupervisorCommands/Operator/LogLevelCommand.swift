import ArgumentParser
import VerticalsContract

/// `svc-supervisor log-level NAME [LEVEL]`: a running vertical's log level, changed at once
/// (`daemon.setLogLevel`), without a restart; without LEVEL, prints it.
struct LogLevelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-level",
        abstract: "Show or change a running vertical's log level (until it exits; VERTICALS_LOG_LEVEL sets the start).",
        discussion: """
            Example: svc-supervisor log-level orders debug
            Exit status: 0 on success, 1 when the vertical refuses, 64 when the suite has
            no such vertical, 69 when it cannot be reached.
            """)

    @Argument(help: "The vertical, as the manifest names it.") var service: String
    @Argument(help: "trace, debug, info, notice, warning, error or critical.") var level: String?
    @OptionGroup var connection: VerticalConnectionOptions

    func validate() throws {
        if let level, !Daemon.LogLevel(wireName: level).isKnown {
            let known = Daemon.LogLevel.knownCases.map { $0.wireName }.joined(separator: ", ")
            throw ValidationError("\"\(level)\" is not a log level; levels: \(known)")
        }
    }

    func run() async throws {
        try await ControlClient.reporting {
            try await UnknownVertical.refuse(service, sockets: connection.sockets)
            let change = try await VerticalCaller.call(
                Daemon.setLogLevel, .init(level: level.map(Daemon.LogLevel.init(wireName:))), service: service,
                connection: connection)
            if level == nil {
                Terminal.print("\(change.service): \(change.level)")
            } else {
                Terminal.print("\(change.service): \(change.previous) → \(change.level)")
            }
        }
    }
}
