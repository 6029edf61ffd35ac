import VerticalsContract
import VerticalsEventLoop
import VerticalsSettings
import VerticalsWire

/// What one daemon grants its clients: every bound a hostile or broken client could
/// otherwise push past, each with a safe default and an environment variable to change it.
///
/// | limit | default | variable | past it |
/// |---|---|---|---|
/// | ``maxFrameSize`` | 4 MiB | `VERTICALS_MAX_FRAME_BYTES` | `protocolError`, connection closed |
/// | ``maxInFlightPerConnection`` | 1024 | `VERTICALS_MAX_IN_FLIGHT` | that request answered `resourceExhausted` |
/// | ``maxConnections`` | 1024 | `VERTICALS_MAX_CONNECTIONS` | the new connection gets `resourceExhausted`, closed |
/// | ``maxConnectionsPerPeer`` | 128 | `VERTICALS_MAX_CONNECTIONS_PER_PEER` | the same, for one caller (`Connection/callerKey`) |
/// | ``outboundHighWater`` | 1 MiB | `VERTICALS_OUTBOUND_HIGH_WATER_BYTES` | the connection stops being read until it drains |
/// | ``maxOutboundBytes`` | 16 MiB | `VERTICALS_MAX_OUTBOUND_BYTES` | the connection is closed (its peer does not read) |
/// | ``handshakeTimeout`` | 10 s | `VERTICALS_HANDSHAKE_TIMEOUT_SECONDS` | no first frame: `deadlineExceeded`, closed |
/// | ``tlsHandshakeTimeout`` | 5 s | `VERTICALS_TLS_HANDSHAKE_TIMEOUT_SECONDS` | TLS not established: closed |
/// | ``startups`` | 64:30:256 | `VERTICALS_MAX_STARTUPS` | a new TLS peer dropped at accept, at random from `start`, all from `full` |
/// | ``startups`` (per address) | 32 | `VERTICALS_MAX_STARTUPS_PER_ADDRESS` | a new TLS peer from that address dropped at accept |
/// | ``frameTimeout`` | 10 s | `VERTICALS_FRAME_TIMEOUT_SECONDS` | a frame begun but not finished: `deadlineExceeded`, closed |
/// | ``idleTimeout`` | 600 s | `VERTICALS_IDLE_TIMEOUT_SECONDS` | nothing in flight, no frame: `unavailable` (retryable), closed |
///
/// A value that does not parse, or is not positive, is ignored (the default stays), so a typo
/// never turns a limit off.
public struct ConnectionLimits: Sendable, Equatable {
    /// The largest frame payload accepted from a client.
    public var maxFrameSize: Int = FrameDecoder.defaultMaxFrameSize
    /// Requests one connection may have in flight at once.
    public var maxInFlightPerConnection: Int = 1024
    /// Client connections the daemon holds open at once.
    public var maxConnections: Int = 1024
    /// Client connections one caller (a uid, a certificate's vertical, a TCP address) may hold
    /// open at once, so that one admitted caller cannot take every connection the daemon serves.
    public var maxConnectionsPerPeer: Int = 128
    /// Queued reply bytes above which a connection stops being read (backpressure); it reads
    /// again at a quarter of this.
    public var outboundHighWater: Int = 1 << 20
    /// Queued reply bytes above which the connection is closed: its peer sends but does not read.
    public var maxOutboundBytes: Int = 16 << 20
    /// How long a new connection may take to send its first whole frame.
    public var handshakeTimeout: Duration = .seconds(10)
    /// How long a TCP peer may take to finish its TLS handshake, counted from accept: short, since
    /// until then the peer is a stranger holding a descriptor.
    public var tlsHandshakeTimeout: Duration = .seconds(5)
    /// The bounds on TLS peers accepted and not yet through their handshake (`StartupGate`).
    public var startups = StartupGate.Limits(start: 64, rate: 30, full: 256, perAddress: 32)
    /// How long a frame, once begun, may take to arrive whole (a byte-a-second client).
    public var frameTimeout: Duration = .seconds(10)
    /// How long a connection with nothing in flight may stay silent before it is closed.
    public var idleTimeout: Duration = .seconds(600)

    /// The defaults.
    public init() {}

    /// The defaults, overridden by whichever `VERTICALS_*` variables of the table are set.
    public static func from(environment: [String: String]) -> ConnectionLimits {
        var limits = ConnectionLimits()
        func integer(_ setting: Setting<Int>) -> Int? { setting.validValue(in: environment) }
        func seconds(_ setting: Setting<Double>) -> Duration? {
            setting.validValue(in: environment).map { .milliseconds(Int64(min($0, 1e9) * 1000)) }
        }
        if let value = integer(DaemonSettings.maxFrameBytes) { limits.maxFrameSize = min(value, Int(UInt32.max)) }
        if let value = integer(DaemonSettings.maxInFlight) { limits.maxInFlightPerConnection = value }
        if let value = integer(DaemonSettings.maxConnections) { limits.maxConnections = value }
        if let value = integer(DaemonSettings.maxConnectionsPerPeer) { limits.maxConnectionsPerPeer = value }
        if let value = integer(DaemonSettings.outboundHighWaterBytes) { limits.outboundHighWater = value }
        if let value = integer(DaemonSettings.maxOutboundBytes) { limits.maxOutboundBytes = value }
        if let value = seconds(DaemonSettings.handshakeTimeoutSeconds) { limits.handshakeTimeout = value }
        if let value = seconds(DaemonSettings.tlsHandshakeTimeoutSeconds) { limits.tlsHandshakeTimeout = value }
        if let value = DaemonSettings.maxStartups.validValue(in: environment) {
            limits.startups = StartupGate.Limits(
                start: value[0], rate: value[1], full: value[2], perAddress: limits.startups.perAddress)
        }
        if let value = integer(DaemonSettings.maxStartupsPerAddress) { limits.startups.perAddress = value }
        if let value = seconds(DaemonSettings.frameTimeoutSeconds) { limits.frameTimeout = value }
        if let value = seconds(DaemonSettings.idleTimeoutSeconds) { limits.idleTimeout = value }
        return limits
    }

    /// The options each accepted ``Connection`` gets from these limits.
    var connectionOptions: ConnectionOptions {
        ConnectionOptions(
            maxFrameSize: maxFrameSize, highWaterMark: outboundHighWater, lowWaterMark: outboundHighWater / 4)
    }

    /// Descriptors the daemon may need at once for its clients: every connection it admits and
    /// every one it may hold unadmitted (TLS on TCP), beside ``reservedDescriptors`` of its own.
    public func descriptorsNeeded(tls: Bool) -> Int {
        let (connections, startups) = maxConnections.addingReportingOverflow(tls ? self.startups.full : 0)
        let (total, overflow) = connections.addingReportingOverflow(Self.reservedDescriptors)
        return startups || overflow ? Int.max : total
    }

    /// Descriptors a daemon keeps for itself beside its clients' (its store, logs, listener,
    /// libuv's own, the callees it calls), in ``descriptorsNeeded(tls:)``.
    public static let reservedDescriptors = 64

    /// How often the host checks its connections against the timeouts: a quarter of the
    /// shortest, between 50 ms and 5 s, so a timeout fires at most a quarter late.
    var sweepInterval: Duration {
        let shortest = min(handshakeTimeout, frameTimeout, idleTimeout)
        return max(.milliseconds(50), min(.seconds(5), shortest / 4))
    }
}
