import VerticalsEventLoop
import VerticalsWire

/// Who a connection's caller is, as the limits counted per caller key it: `uid N` on a Unix
/// socket (`SO_PEERCRED`), `verticals://NAME` over mutual TLS (its verified certificate), `address
/// HOST` over plain TCP (its address without the port, so one host's many ports are one caller).
/// Nil when the kernel names nobody (a closed connection, a socketpair in a test).
extension Connection {
    /// The caller's key, read once when the connection is admitted.
    package var callerKey: String? {
        if isSecure { return peerName.map { "verticals://\($0)" } }
        switch transport {
        case .unix:
            return peerCredentials.map { "uid \($0.uid)" }
        case .tcp:
            guard case .tcp(let host, _)? = peerEndpoint else { return nil }
            return "address \(host)"
        }
    }
}
