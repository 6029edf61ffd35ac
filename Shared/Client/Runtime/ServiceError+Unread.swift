import VerticalsWire

extension ServiceError {
    /// The detail a host adds to the connection-level error (correlation id 0) it sends before
    /// closing a connection on which it has answered everything it read and will read no more
    /// (the idle timeout): every call still pending on it was never seen, so the client sends
    /// them again on a new connection instead of failing them. See docs/PROTOCOL.md.
    public static let unreadDetail = ErrorDetail("unread", "all")
}
