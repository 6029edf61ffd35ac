import VerticalsEventLoop
import VerticalsWire

/// Admission: the checks a new connection passes before its first byte is read — the caller's
/// credentials (``PeerAccess``) and the daemon's connection limits (``ConnectionLimits``), the
/// caller's own and the daemon's in all.
extension ServiceHost {
    /// Why `connection` of `caller` (its ``Connection/callerKey``) may not be served, or nil when
    /// it may: then it is counted, in all and for `caller`, until ``connectionClosed(_:)``.
    func admissionRefusal(for connection: Connection, caller: String?) -> ServiceError? {
        let peer = connection.peerCredentials
        if connection.isSecure {
            let name = connection.peerName
            guard configuration.access.allows(peerNamed: name) else {
                let who = name.map { "verticals://\($0)" } ?? "a certificate that names no vertical (verticals://NAME)"
                return ServiceError(
                    .permissionDenied, "\(who) may not call \(configuration.name)",
                    details: name.map { [ErrorDetail("peer", $0)] } ?? [])
            }
        } else if connection.transport == .tcp {
            guard configuration.access.allowsUnidentified else {
                return ServiceError(
                    .permissionDenied,
                    "\(configuration.name) names its allowed callers, and a plain-TCP caller has no identity to check",
                    details: [ErrorDetail("transport", "tcp")])
            }
        } else if !configuration.access.allows(peer) {
            return ServiceError(
                .permissionDenied, configuration.access.refusal(of: peer, service: configuration.name),
                details: peer.map { [ErrorDetail("uid", "\($0.uid)"), ErrorDetail("gid", "\($0.gid)")] } ?? [])
        }
        // Counted across every loop, and counted here when admitted (released when it closes).
        let limits = configuration.limits
        guard census.admit(caller: caller, limit: limits.maxConnectionsPerPeer) else {
            return ServiceError(
                .resourceExhausted,
                "\(configuration.name) already serves \(limits.maxConnectionsPerPeer) connections of \(caller ?? "this caller"), "
                    + "its most for one caller (VERTICALS_MAX_CONNECTIONS_PER_PEER): close one, or retry later",
                details: [ErrorDetail("limit", "maxConnectionsPerPeer")], retryable: true)
        }
        guard census.admit(limit: limits.maxConnections) else {
            census.release(caller: caller)
            return ServiceError(
                .resourceExhausted,
                "\(configuration.name) already serves \(limits.maxConnections) connections; retry later",
                retryable: true)
        }
        return nil
    }

    /// Why the connection's `peer` may not call `operation` (an internal one, or an operator's
    /// built-in that needs an identified caller), or nil when it may.
    func operationRefusal(_ operation: String, on connection: Connection, isInternal: Bool) -> ServiceError? {
        guard connection.isSecure else {
            return operationRefusal(operation, peer: connection.peerCredentials, isInternal: isInternal)
        }
        let name = connection.peerName
        guard isInternal, !configuration.access.allows(peerNamed: name, toCall: operation) else { return nil }
        return ServiceError(
            .permissionDenied, "\(operation) is internal: verticals://\(name ?? "?") may not call it",
            details: [ErrorDetail("operation", operation)])
    }

    /// The same for a caller known by its credentials (a Unix socket) or by nothing (plain TCP).
    func operationRefusal(_ operation: String, peer: PeerCredentials?, isInternal: Bool = true) -> ServiceError? {
        if !isInternal {
            guard peer == nil else { return nil }
            return ServiceError(
                .permissionDenied,
                "\(operation) changes the daemon: a caller with no identity (plain TCP) may not call it",
                details: [ErrorDetail("operation", operation)])
        }
        guard !configuration.access.allows(peer, toCall: operation) else { return nil }
        return ServiceError(
            .permissionDenied,
            peer == nil
                ? "\(operation) is internal: a caller with no identity (plain TCP) may not call it"
                : configuration.access.internalRefusal(of: peer, operation: operation, service: configuration.name),
            details: [ErrorDetail("operation", operation)])
    }

    /// Tells the caller why on correlation id 0, then closes once it has hung up (see
    /// `closeLingering`): what it sends meanwhile is read and dropped, never served.
    func refuse(_ connection: Connection, _ error: ServiceError) {
        let who =
            connection.peerCredentials.map { "\($0)" } ?? connection.peerName.map { "verticals://\($0)" }
            ?? connection.peerEndpoint.map { "\($0)" } ?? "unknown"
        if error.code != .resourceExhausted {
            logger.notice("refused a connection from \(who): \(error.message)")
        } else if let unlogged = census.refusalToLog() {
            // A limit: one line a second at most, however many connections a caller floods it with.
            let since = unlogged > 0 ? " (and \(unlogged) more refused for a limit since the last such line)" : ""
            logger.notice("refused a connection from \(who): \(error.message)\(since)")
        }
        connection.writeErrorFrame(0, error)
        connection.closeLingering(timers: timers)
    }
}
