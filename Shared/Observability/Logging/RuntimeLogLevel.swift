import Logging
import Synchronization

/// The process's log level, changeable while it runs (`daemon.setLogLevel`).
///
/// swift-log copies a handler into every `Logger`, so a level stored in the handler could
/// not change afterwards; `LevelFollowingHandler` instead reads it from here at every
/// check, one relaxed atomic load.
public enum RuntimeLogLevel {
    /// `info`'s index in `Logger.Level.allCases`, the level at start (a literal, like
    /// ``debugIndex``: a global with a literal value is set when the program loads, where one
    /// computed at first use is checked at every read, and ``allowsDebug`` runs per request;
    /// `RuntimeLogLevelTests` holds both to `allCases`).
    @usableFromInline static let raw = Atomic<UInt8>(2)

    /// The level every logger of the process follows (unless one set its own).
    public static var current: Logger.Level {
        get { Logger.Level.allCases[Int(raw.load(ordering: .relaxed))] }
        set { raw.store(index(of: newValue), ordering: .relaxed) }
    }

    /// Whether the process's level lets `debug` lines through: one atomic load (reading
    /// ``current`` builds `Logger.Level.allCases`, an array, each time). For a per-request check.
    @inlinable package static var allowsDebug: Bool {
        raw.load(ordering: .relaxed) <= debugIndex
    }
    @usableFromInline static let debugIndex: UInt8 = 1

    static func index(of level: Logger.Level) -> UInt8 {
        UInt8(Logger.Level.allCases.firstIndex(of: level) ?? 2)
    }
}

/// A log handler that writes through `base` at ``RuntimeLogLevel/current``, or at the level
/// a logger set on itself (`logger.logLevel = .debug` for one component stays local).
struct LevelFollowingHandler: LogHandler {
    var base: StreamLogHandler
    private var ownLevel: Logger.Level?

    init(base: StreamLogHandler) {
        self.base = base
    }

    var logLevel: Logger.Level {
        get { ownLevel ?? RuntimeLogLevel.current }
        set { ownLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        base.log(event: event)
    }
}
