import VerticalsWire
extension Daemon {
    /// Changes how much a running daemon logs, at once and without a restart
    /// (`svc-supervisor log-level NAME debug`); without a level, only reports it. The level
    /// lasts until the process exits: `VERTICALS_LOG_LEVEL` sets it at the next start.
    public static let setLogLevel = Operation<LogLevelInput, LogLevelChange>(
        name, "setLogLevel",
        summary: "Set the daemon's log level until it exits (or, without a level, report it).",
        errors: [.invalidInput])

    /// How much a daemon logs: swift-log's levels, least to most severe.
    public enum LogLevel: WireEnum {
        /// Everything, including per-message detail.
        case trace
        /// Detail for finding a problem.
        case debug
        /// Normal operation (the default).
        case info
        /// Normal but significant events.
        case notice
        /// Something unexpected that the daemon handled.
        case warning
        /// A request or task failed.
        case error
        /// The daemon cannot go on.
        case critical
        /// A level this build does not know.
        case unknown(String)

        public static let knownCases: [LogLevel] = [.trace, .debug, .info, .notice, .warning, .error, .critical]
        public static let schema = EnumSchema("daemon.LogLevel", knownCases)
        public init(unknown raw: String) { self = .unknown(raw) }
        public var wireName: String {
            switch self {
            case .trace: "trace"
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            case .critical: "critical"
            case .unknown(let raw): raw
            }
        }
    }

    /// The Input of ``Daemon/setLogLevel``.
    public struct LogLevelInput: WireMessage {
        /// The new level; absent: leave it and report it.
        public var level: LogLevel?

        /// Creates the value from its fields.
        public init(level: LogLevel? = nil) {
            self.level = level
        }

        public static let schema = MessageSchema(
            "daemon.LogLevelInput", [.optional(1, "level", .enumeration(LogLevel.schema))])

        public func encode(to body: inout BodyWriter) {
            body.write(1, level)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var level: LogLevel?
            while let tag = try body.nextTag() {
                switch tag {
                case 1: level = try body.read()
                default: try body.skip()
                }
            }
            self.init(level: level)
        }
    }

    /// The Output of ``Daemon/setLogLevel``: the level before and after.
    public struct LogLevelChange: WireMessage {
        /// The vertical that answered.
        public var service: String
        /// The level before the call.
        public var previous: LogLevel
        /// The level now.
        public var level: LogLevel

        /// Creates the value from its fields.
        public init(service: String, previous: LogLevel, level: LogLevel) {
            self.service = service
            self.previous = previous
            self.level = level
        }

        public static let schema = MessageSchema(
            "daemon.LogLevelChange",
            [
                .required(1, "service", .string),
                .required(2, "previous", .enumeration(LogLevel.schema)),
                .required(3, "level", .enumeration(LogLevel.schema)),
            ])

        public func encode(to body: inout BodyWriter) {
            body.write(1, service)
            body.write(2, previous)
            body.write(3, level)
        }

        public init(from body: inout BodyReader) throws(WireDecodingError) {
            var service: String?
            var previous: LogLevel?
            var level: LogLevel?
            while let tag = try body.nextTag() {
                switch tag {
                case 1: service = try body.read()
                case 2: previous = try body.read()
                case 3: level = try body.read()
                default: try body.skip()
                }
            }
            self.init(
                service: try body.required(service, 1), previous: try body.required(previous, 2),
                level: try body.required(level, 3))
        }
    }
}
