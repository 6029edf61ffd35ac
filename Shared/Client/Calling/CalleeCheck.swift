import VerticalsEventLoop

/// What a client checks of a callee on each new connection, before it sends a byte: that the
/// process listening is the vertical the client means to call. A command about to send a password
/// (`svc-supervisor login`) gives its ``ServiceClient`` one, so that a socket someone else planted
/// where the client looks does not receive it.
///
/// Over mutual TLS the client refuses a certificate that does not name the callee
/// (`verticals://NAME`) before the check runs, as `permissionDenied` naming both; the check then
/// sees the name it verified.
public struct CalleeCheck: Sendable {
    /// Who listens on a new connection, as the kernel or the handshake says.
    public enum Listener: Sendable, Equatable {
        /// A Unix socket's listener, by `SO_PEERCRED` (the uid and pid of the process that called
        /// `listen`: the daemon, or the service manager that handed it the socket); nil when unreadable.
        case unixSocket(PeerCredentials?)
        /// A mutual-TLS peer, by the vertical name its verified certificate carries.
        case certificate(String?)
        /// A plain-TCP peer: nobody vouches for it.
        case unidentified
    }

    /// Why `listener` may not receive calls meant for `service`; nil when it may.
    public let refusal: @Sendable (_ service: String, _ listener: Listener) -> String?

    /// A check that refuses with `refusal`'s reason.
    public init(refusal: @escaping @Sendable (_ service: String, _ listener: Listener) -> String?) {
        self.refusal = refusal
    }
}

extension Connection {
    /// Who listens at the other end, for a ``CalleeCheck`` (loop thread).
    var calleeListener: CalleeCheck.Listener {
        if isSecure { return .certificate(peerName) }
        return transport == .unix ? .unixSocket(peerCredentials) : .unidentified
    }
}
