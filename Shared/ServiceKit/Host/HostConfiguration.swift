import Storage
import Wire

/// How a vertical's host serves: its name, where it listens, and its limits.
///
/// ``from(environment:name:)`` reads the variables both hosts set, so `main.swift`
/// needs no configuration of its own.
public struct HostConfiguration: Sendable {
    /// The vertical's name; its socket is `<name>.sock` and its operations `<name>.<op>`.
    public var name: String
    /// Where to bind when no socket is inherited.
    public var socketDirectory: SocketDirectory
    /// The inherited listening sockets, if the service manager passed any.
    public var activation: SocketActivation?
    /// The largest frame accepted from a client (default 4 MiB).
    public var maxFrameSize: Int = FrameDecoder.defaultMaxFrameSize
    /// Requests one connection may have in flight; past it, `resourceExhausted`.
    public var maxInFlightPerConnection: Int = 1024
    /// How long SIGTERM waits for in-flight requests before closing anyway.
    public var drainTimeout: Duration = .seconds(10)
    /// The environment the configuration was read from (for `NOTIFY_SOCKET`, `WATCHDOG_USEC`).
    public var environment: [String: String]

    /// A configuration for vertical `name`, bound under `socketDirectory`.
    public init(name: String, socketDirectory: SocketDirectory, activation: SocketActivation? = nil, environment: [String: String] = [:]) {
        self.name = name
        self.socketDirectory = socketDirectory
        self.activation = activation
        self.environment = environment
    }

    /// The configuration both hosts imply: socket hand-off from `LISTEN_*`, else the
    /// socket directory; `VERTICALS_MAX_FRAME_BYTES` and `VERTICALS_DRAIN_SECONDS` override limits.
    public static func from(environment: [String: String], name: String, pid: Int32) -> HostConfiguration {
        var configuration = HostConfiguration(
            name: name, socketDirectory: .from(environment: environment),
            activation: SocketActivation.from(environment: environment, pid: pid), environment: environment)
        if let text = environment["VERTICALS_MAX_FRAME_BYTES"], let value = Int(text), value > 0 {
            configuration.maxFrameSize = value
        }
        if let text = environment["VERTICALS_DRAIN_SECONDS"], let value = Double(text), value >= 0 {
            configuration.drainTimeout = .milliseconds(Int64(value * 1000))
        }
        return configuration
    }

    /// The vertical's store, for `daemon.backup` (nil: the daemon keeps none).
    public var store: (any DatabaseReader)?

    /// The path this host binds when no socket is inherited.
    public var socketPath: String { socketDirectory.socketPath(for: name) }
}
