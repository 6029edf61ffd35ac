import VerticalsEventLoop

/// Whether plain (unencrypted, unauthenticated) TCP may be used, from `VERTICALS_TLS`.
///
/// TCP carries no caller identity (no `SO_PEERCRED`), and this release has no TLS yet, so TCP
/// is plain TCP and must be asked for explicitly:
///
/// | `VERTICALS_TLS` | a TCP endpoint on loopback | on any other address |
/// |---|---|---|
/// | unset, `on` | refused (TLS is not built yet) | refused |
/// | `off` | allowed | refused |
/// | `off-insecure` | allowed | allowed |
///
/// Unix sockets are never affected. A daemon that serves or calls plain TCP logs so once at start-up.
public struct TransportSecurity: Sendable, Equatable {
    /// What plain TCP may reach.
    public enum PlainTCP: Sendable, Equatable {
        /// No plain TCP at all (the default).
        case refused
        /// Plain TCP on loopback addresses only (`VERTICALS_TLS=off`).
        case loopbackOnly
        /// Plain TCP on any address (`VERTICALS_TLS=off-insecure`): anyone on the network may call.
        case anyAddress
    }

    /// What plain TCP may reach.
    public var plainTCP: PlainTCP
    /// The value of `VERTICALS_TLS` that was not understood, if any (then plain TCP is refused).
    public var invalidSetting: String?

    /// A policy allowing `plainTCP`.
    public init(plainTCP: PlainTCP = .refused) {
        self.plainTCP = plainTCP
    }

    /// The policy `VERTICALS_TLS` sets (see the type's table).
    public static func from(environment: [String: String]) -> TransportSecurity {
        switch environment["VERTICALS_TLS"] {
        case nil, "", "on": TransportSecurity()
        case "off": TransportSecurity(plainTCP: .loopbackOnly)
        case "off-insecure": TransportSecurity(plainTCP: .anyAddress)
        case let other?:
            {
                var policy = TransportSecurity()
                policy.invalidSetting = other
                return policy
            }()
        }
    }

    /// Why `endpoint` may not be used, or nil when it may: to `action` it ("serve", "call …").
    public func refusal(of endpoint: SocketEndpoint, to action: String) -> String? {
        guard endpoint.transport == .tcp else { return nil }
        if let invalidSetting {
            return "cannot \(action) on \(endpoint): VERTICALS_TLS=\(invalidSetting) is not one of on, off, off-insecure"
        }
        switch plainTCP {
        case .refused:
            return "cannot \(action) on \(endpoint): TCP needs TLS, which this release does not have yet; "
                + "set VERTICALS_TLS=off for plain TCP on loopback (VERTICALS_TLS=off-insecure for other addresses)"
        case .loopbackOnly where !endpoint.isLoopback:
            return "cannot \(action) on \(endpoint) without TLS: plain TCP is allowed only on loopback with "
                + "VERTICALS_TLS=off; set VERTICALS_TLS=off-insecure to force it (anyone on the network may then call)"
        case .loopbackOnly, .anyAddress:
            return nil
        }
    }

    /// The one start-up line saying this daemon serves plain TCP on `endpoint`.
    public func servingWarning(_ endpoint: SocketEndpoint) -> String {
        "serving plain TCP on \(endpoint) without TLS (VERTICALS_TLS=\(setting)): callers have no identity; "
            + "internal operations, daemon.backup and daemon.setLogLevel are refused to them"
    }

    /// The one start-up line saying this daemon calls `service` over plain TCP at `endpoint`.
    public func callingWarning(_ service: String, _ endpoint: SocketEndpoint) -> String {
        "calling \(service) over plain TCP at \(endpoint) without TLS (VERTICALS_TLS=\(setting)): "
            + "nothing proves who answers"
    }

    private var setting: String { plainTCP == .anyAddress ? "off-insecure" : "off" }
}
