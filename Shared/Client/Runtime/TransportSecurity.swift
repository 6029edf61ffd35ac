import VerticalsContract
import VerticalsEventLoop

/// What TCP runs, from `VERTICALS_TLS` and the `VERTICALS_TLS_CERT`/`_KEY`/`_CA` files.
///
/// TCP carries no caller identity the kernel vouches for (no `SO_PEERCRED`), so by default it
/// is mutual TLS 1.3, and plain TCP must be asked for explicitly:
///
/// | `VERTICALS_TLS` | a TCP endpoint on loopback | on any other address |
/// |---|---|---|
/// | unset, `on` | mutual TLS (refused when the three files are not named) | mutual TLS (likewise) |
/// | `off` | plain TCP | refused |
/// | `off-insecure` | plain TCP | plain TCP |
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
    /// The certificate, key and CA files for mutual TLS, when all three are named.
    public var files: TLSFiles?
    /// The `VERTICALS_TLS_*` variables missing when only some are set.
    public var missingFiles: [String] = []

    /// Whether TCP runs mutual TLS (the default, with the files).
    public var usesTLS: Bool { plainTCP == .refused && invalidSetting == nil && files != nil }

    /// A policy allowing `plainTCP`.
    public init(plainTCP: PlainTCP = .refused) {
        self.plainTCP = plainTCP
    }

    /// The policy `VERTICALS_TLS` sets (see the type's table).
    public static func from(environment: [String: String]) -> TransportSecurity {
        var policy = TransportSecurity()
        switch environment[DaemonSettings.tls.name] {
        case nil, "", "on": break
        case "off": policy.plainTCP = .loopbackOnly
        case "off-insecure": policy.plainTCP = .anyAddress
        case let other?: policy.invalidSetting = other
        }
        let names = [DaemonSettings.tlsCert.name, DaemonSettings.tlsKey.name, DaemonSettings.tlsCA.name]
        let values = names.map { environment[$0].flatMap { $0.isEmpty ? nil : $0 } }
        if values.allSatisfy({ $0 != nil }) {
            policy.files = TLSFiles(certificate: values[0]!, key: values[1]!, authority: values[2]!)
        } else if values.contains(where: { $0 != nil }) {
            policy.missingFiles = zip(names, values).filter { $0.1 == nil }.map(\.0)
        }
        return policy
    }

    /// Why `endpoint` may not be used, or nil when it may: to `action` it ("serve", "call …").
    public func refusal(of endpoint: SocketEndpoint, to action: String) -> String? {
        guard endpoint.transport == .tcp else { return nil }
        if let invalidSetting {
            return
                "cannot \(action) on \(endpoint): VERTICALS_TLS=\(invalidSetting) is not one of on, off, off-insecure"
        }
        switch plainTCP {
        case .refused where files == nil:
            let missing =
                missingFiles.isEmpty
                ? "VERTICALS_TLS_CERT, VERTICALS_TLS_KEY and VERTICALS_TLS_CA" : missingFiles.joined(separator: ", ")
            return "cannot \(action) on \(endpoint): TCP needs TLS, and \(missing) name no certificate files; "
                + "or set VERTICALS_TLS=off for plain TCP on loopback (VERTICALS_TLS=off-insecure for other addresses)"
        case .refused:
            return nil
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
            + "internal and operator-only operations (daemon.backup, daemon.setLogLevel, …) are refused to them"
    }

    /// The one start-up line saying this daemon calls `service` over plain TCP at `endpoint`.
    public func callingWarning(_ service: String, _ endpoint: SocketEndpoint) -> String {
        "calling \(service) over plain TCP at \(endpoint) without TLS (VERTICALS_TLS=\(setting)): "
            + "nothing proves who answers"
    }

    private var setting: String { plainTCP == .anyAddress ? "off-insecure" : "off" }
}
