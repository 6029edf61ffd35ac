import VerticalsClient
import VerticalsEventLoop

/// What one admitted connection's caller may call, decided once when it is admitted: whether it
/// is the operator (who may call every operation, operator-only ones included), who it is (for
/// refusals and audit lines), and, when the daemon has per-operation routes
/// (``PeerAccess/allowedOperations``), which of its operations.
public struct CallerGrant: Sendable, Equatable {
    /// Root, the daemon's own uid or certificate, the operator group, or the operator certificate.
    public var isOperator: Bool
    /// Who calls, for a refusal and an audit line: the vertical's name, `verticals://NAME` of a
    /// certificate, a user name, `uid N`, or `a caller with no identity`.
    public var caller: String
    /// The routed name an edge is drawn from: the vertical's name when the caller is one.
    public var vertical: String?
    /// The operations (names within the daemon; `*` for every one that is not operator-only)
    /// it may call; nil: every operation that is not operator-only.
    public var operations: Set<String>?

    /// Whether it may call `operation` (its name within the daemon, `service.operation` for a
    /// built-in) by the routes. Operator-only operations are checked apart (``isOperator``).
    public func allows(_ operation: String, operatorOnly: Bool) -> Bool {
        if isOperator { return true }
        if operatorOnly { return false }
        guard let operations else { return true }
        return operations.contains("*") || operations.contains(operation)
            || PeerAccess.everyCallersBuiltins.contains(operation)
    }
}

extension PeerAccess {
    /// The grant of a caller known by its credentials (a Unix socket), its verified certificate
    /// name (mutual TLS), or neither (plain TCP).
    public func grant(peer: PeerCredentials?, peerName: String?, secure: Bool) -> CallerGrant {
        if secure {
            guard let name = peerName else {
                return CallerGrant(isOperator: false, caller: "a certificate that names no vertical", operations: [])
            }
            if name == Self.operatorPeer || name == ownName {
                return CallerGrant(isOperator: true, caller: "verticals://\(name)", vertical: nil, operations: nil)
            }
            return CallerGrant(
                isOperator: false, caller: name, vertical: name, operations: allowedOperations.map { $0[name] ?? [] })
        }
        guard let peer else {
            // Plain TCP: no identity, so no rule that names a caller applies; operator-only never does.
            return CallerGrant(isOperator: false, caller: "a caller with no identity (plain TCP)", operations: nil)
        }
        if peer.uid == 0 || peer.uid == ownUID {
            return CallerGrant(isOperator: true, caller: callerName(peer) ?? "uid \(peer.uid)", operations: nil)
        }
        if let vertical = suiteServices[peer.uid] {
            return CallerGrant(
                isOperator: false, caller: vertical, vertical: vertical,
                operations: allowedOperations.map { $0[vertical] ?? [] })
        }
        if allowedGIDs.contains(peer.gid) {
            return CallerGrant(isOperator: true, caller: callerName(peer) ?? "uid \(peer.uid)", operations: nil)
        }
        // Admitted by a hand-written VERTICALS_ALLOWED_UIDS (someone the operator let in, not a
        // vertical): its entries under its user name or uid when the table has any, else every
        // operation that is not operator-only, as the allow-list said.
        let user = AccountEntry.userName(of: peer.uid)
        let named = allowedOperations.flatMap { table -> Set<String>? in
            let entries = (user.flatMap { table[$0] } ?? []).union(table["\(peer.uid)"] ?? [])
            return entries.isEmpty ? nil : entries
        }
        return CallerGrant(
            isOperator: false, caller: user ?? "uid \(peer.uid)", vertical: user ?? "\(peer.uid)", operations: named)
    }

    /// The operations `caller` may call here by ``allowedOperations``, sorted, for a refusal.
    public func declaredOperations(of caller: String?) -> [String] {
        guard let caller, let table = allowedOperations else { return [] }
        return (table[caller] ?? []).sorted()
    }
}
