import VerticalsEventLoop
import VerticalsWire

/// Admission: the checks a new connection passes before its first byte is read — the caller's
/// credentials (``PeerAccess``) and the daemon's connection limit (``ConnectionLimits``).
extension ServiceHost {
    /// Why `connection` may not be served, or nil when it may.
    func admissionRefusal(for connection: Connection) -> ServiceError? {
        let peer = connection.peerCredentials
        guard configuration.access.allows(peer) else {
            return ServiceError(
                .permissionDenied, configuration.access.refusal(of: peer, service: configuration.name),
                details: peer.map { [ErrorDetail("uid", "\($0.uid)"), ErrorDetail("gid", "\($0.gid)")] } ?? [])
        }
        guard connections.count < configuration.limits.maxConnections else {
            return ServiceError(
                .resourceExhausted,
                "\(configuration.name) already serves \(configuration.limits.maxConnections) connections; retry later",
                retryable: true)
        }
        return nil
    }

    /// Why the connection's `peer` may not call `operation` (an internal one), or nil when it may.
    func operationRefusal(_ operation: String, peer: PeerCredentials?) -> ServiceError? {
        guard !configuration.access.allows(peer, toCall: operation) else { return nil }
        return ServiceError(
            .permissionDenied,
            configuration.access.internalRefusal(of: peer, operation: operation, service: configuration.name),
            details: [ErrorDetail("operation", operation)])
    }

    /// Tells the caller why on correlation id 0, then closes once it has hung up (see
    /// `closeLingering`): what it sends meanwhile is read and dropped, never served.
    func refuse(_ connection: Connection, _ error: ServiceError) {
        logger.notice("refused a connection from \(connection.peerCredentials.map { "\($0)" } ?? "unknown"): \(error.message)")
        connection.write(ServerConnection.errorFrame(0, error))
        connection.closeLingering(timers: timers)
    }
}
