import Logging
import Synchronization

/// Sets up swift-log once per process: lines to standard error (svc-supervisor and
/// journald both capture it), at the level `VERTICALS_LOG_LEVEL` names (default `info`), which
/// ``RuntimeLogLevel`` can change while the process runs.
public enum LoggingBootstrap {
    private static let done = Mutex(false)

    /// Bootstraps logging; later calls do nothing.
    public static func bootstrap(environment: [String: String]) {
        let level = environment["VERTICALS_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        done.withLock { done in
            guard !done else { return }
            done = true
            RuntimeLogLevel.current = level
            LoggingSystem.bootstrap { label in
                LevelFollowingHandler(base: StreamLogHandler.standardError(label: label))
            }
        }
    }
}
