import Logging
import VerticalsContract
import VerticalsObservability
import VerticalsWire

extension Builtins {
    /// Serves `daemon.setLogLevel`: sets ``RuntimeLogLevel/current``, which every logger of the
    /// process reads at each check, and answers the level before and after.
    static func installLogLevel(into router: inout Router, configuration: HostConfiguration) {
        guard !router.routes(Daemon.setLogLevel.fullName) else { return }
        let service = configuration.name
        router.onSync(Daemon.setLogLevel) { input, context in
            let previous = RuntimeLogLevel.current
            if let wanted = input.level {
                guard let level = Logger.Level(rawValue: wanted.wireName) else {
                    let known = Daemon.LogLevel.knownCases.map(\.wireName).joined(separator: ", ")
                    throw ServiceError(
                        .invalidInput, "\"\(wanted.wireName)\" is not a log level; levels: \(known)",
                        details: [ErrorDetail("field", "level")])
                }
                RuntimeLogLevel.current = level
                context.logger.notice("log level \(previous) → \(level) (daemon.setLogLevel)")
            }
            return Daemon.LogLevelChange(
                service: service, previous: Daemon.LogLevel(wireName: previous.rawValue),
                level: Daemon.LogLevel(wireName: RuntimeLogLevel.current.rawValue))
        }
    }
}
