import VerticalsWire

extension ServerConnection {
    /// While the host drains (SIGTERM: a restart, an upgrade's hand-over, a stop), a connection
    /// that has nothing in flight is closed with the retryable error marked unread
    /// (``ServiceError/unreadDetail``), as an idle one is: everything read on it was answered,
    /// so its client sends whatever it still has pending again, on a new connection. Requests
    /// that arrive meanwhile are left unread, not refused. Under a service manager that holds
    /// the listening socket (svc-supervisor, systemd), that new connection waits in the backlog
    /// for the vertical's next process, so a restart or an upgrade costs the caller a wait, not
    /// an error; after a stop the caller learns the vertical is gone when it connects.
    func handOver() {
        guard !connection.isClosed else { return }
        close(
            ServiceError(
                .unavailable, "\(serviceName) is shutting down: closing; connect again",
                details: [ServiceError.unreadDetail], retryable: true))
    }
}
