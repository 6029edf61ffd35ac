import Logging
import Synchronization
import VerticalsClient
import VerticalsContract

/// Sets up swift-log once per process: lines to standard error (svc-supervisor and
/// journald both capture it), at the level `VERTICALS_LOG_LEVEL` names (default `info`), which
/// ``RuntimeLogLevel`` can change while the process runs. A line written while serving a request
/// carries its `trace_id` and `span_id` (`Logging/Logger/MetadataProvider/requestTrace`).
public enum LoggingBootstrap {
    private static let done = Mutex(false)

    /// Bootstraps logging; later calls do nothing.
    public static func bootstrap(environment: [String: String]) {
        let level = environment[DaemonSettings.logLevel.name].flatMap(Logger.Level.init(rawValue:)) ?? .info
        done.withLock { done in
            guard !done else { return }
            done = true
            RuntimeLogLevel.current = level
            LoggingSystem.bootstrap(
                { label, provider in
                    LevelFollowingHandler(
                        base: StreamLogHandler.standardError(label: label, metadataProvider: provider))
                }, metadataProvider: .requestTrace)
        }
    }
}

extension Logger.MetadataProvider {
    /// The trace and span ids of the request the current task serves (`Serving/request`, a ``TracedRequest``),
    /// added to every line logged while serving it. Read only when a line is written.
    public static let requestTrace = Logger.MetadataProvider {
        guard let trace = Serving.traced?.trace else { return [:] }
        return ["trace_id": "\(trace.traceID)", "span_id": "\(trace.spanIDText)"]
    }
}
