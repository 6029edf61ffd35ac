#if canImport(Glibc)
import Glibc
#endif
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop

/// Who may call a daemon, decided from the kernel's word about the caller (`SO_PEERCRED`)
/// when it connects — before a single byte of it is read.
///
/// Allowed: the daemon's own effective uid (a suite whose verticals share one user, as under
/// `svc-supervisor`), root, and any uid or primary gid on the allow-lists
/// `VERTICALS_ALLOWED_UIDS` / `VERTICALS_ALLOWED_GIDS` (numbers or names, separated by commas
/// or spaces; a manifest sets them with `env = { ... }`). Under systemd, where each vertical
/// runs as its own `verticals-<name>` user, give them one primary group and allow that gid.
/// Everyone else gets `permissionDenied` on correlation id 0 and is disconnected.
///
/// Internal operations: `VERTICALS_INTERNAL_OPERATIONS` names operations (`send` or
/// `notifications.send`) that only the daemon's own uid and the uids in
/// `VERTICALS_INTERNAL_UIDS` may call — e.g. `notifications.send` only from appointments' user.
/// Other callers get `permissionDenied` for that request. Where every vertical shares one uid
/// (svc-supervisor today) the kernel cannot tell them apart, so this separates nothing there;
/// it does under systemd, where each vertical has its own user.
///
/// Naming the caller: `VERTICALS_SUITE_USERS` (`service:user-or-uid,…`, set by the systemd export
/// and by svc-supervisor as root) lets a refusal say which vertical called and which
/// `depends_on` it lacks, in the refusal and in the callee's log (``refusal(of:service:)``).
///
/// Per operation: `VERTICALS_ALLOWED_OPERATIONS` (`caller:operation,…`, set by every host from
/// the manifest's `depends_on`) names the operations each caller may call; `caller:*` is every
/// operation that is not operator-only (a bare vertical in `depends_on`). Once it is set, a
/// caller the daemon knows as a vertical of the suite (by uid through `VERTICALS_SUITE_USERS`,
/// or by its certificate's name) may call only its own entries, plus `daemon.health`,
/// `daemon.describe` and `daemon.contractCheck`; others get `permissionDenied` naming the
/// missing edge (``CallerGrant``).
/// Unset, admitted callers may call every operation that is not operator-only, as before.
///
/// Operator-only operations (`OperationMark/operatorOnly`): only the operator may call them:
/// root, the daemon's own uid, a primary gid on `VERTICALS_ALLOWED_GIDS` (the operator group)
/// that is not a vertical's uid, or, over mutual TLS, the certificate named `operator` (or the
/// daemon's own). Nothing in `VERTICALS_ALLOWED_OPERATIONS` can grant one.
///
/// This is the second gate: the first is the file system (sockets 0660 in a 0750 folder).
///
/// Mutual TLS on TCP (the default there): the caller is the vertical its verified certificate
/// names (`URI:verticals://NAME`). `VERTICALS_ALLOWED_PEERS` lists the names that may connect
/// (unset: any the suite CA signed), `VERTICALS_INTERNAL_PEERS` those besides the daemon's own
/// that may call internal operations; refusals are as over a Unix socket.
///
/// Plain TCP (`VERTICALS_TLS=off`): the kernel names no TCP caller, so a TCP caller has no
/// identity and is a stranger to every rule that names one:
/// - it may connect only while no allow-list is set (``allowsUnidentified``): the operator chose
///   plain TCP, so the network (loopback, a firewall) is the gate; once `VERTICALS_ALLOWED_UIDS`
///   or `VERTICALS_ALLOWED_GIDS` names who may call, a caller who cannot prove to be one of them
///   is refused `permissionDenied` before a byte of it is read;
/// - it may never call an internal operation (`permissionDenied` for that request), whatever
///   `VERTICALS_INTERNAL_UIDS` says, nor the built-ins that write files or change the daemon
///   (`daemon.backup`, `daemon.setLogLevel`).
public struct PeerAccess: Sendable, Equatable {
    /// The uid every check allows besides root: the daemon's own.
    public var ownUID: UInt32
    /// Further uids allowed.
    public var allowedUIDs: Set<UInt32>
    /// Primary gids allowed.
    public var allowedGIDs: Set<UInt32>
    /// Allow-list entries that named no number, user or group (they allow nobody).
    public var unresolved: [String]
    /// Full names (`service.operation`) of the operations only internal callers may call.
    public var internalOperations: Set<String> = []
    /// Uids besides the daemon's own that may call ``internalOperations``.
    public var internalUIDs: Set<UInt32> = []
    /// The suite's verticals by their uid (`VERTICALS_SUITE_USERS`): who a refused caller is.
    public var suiteServices: [UInt32: String] = [:]
    /// Full names of the operations each call of which is logged once, with the caller and the
    /// outcome (``AuditLine``): the built-in privileged ones and `VERTICALS_AUDIT_OPERATIONS`.
    public var auditedOperations: Set<String> = PeerAccess.privilegedBuiltins
    /// `daemon.backup` and `daemon.setLogLevel`: audited in every daemon.
    public static let privilegedBuiltins: Set<String> = ["daemon.backup", "daemon.setLogLevel"]
    /// Over mutual TLS: the vertical names (their certificates' `verticals://NAME`) that may
    /// connect; empty: any the suite CA signed. `VERTICALS_ALLOWED_PEERS`.
    public var allowedPeers: Set<String> = []
    /// Over mutual TLS: the names besides the daemon's own that may call ``internalOperations``.
    /// `VERTICALS_INTERNAL_PEERS`.
    public var internalPeers: Set<String> = []
    /// The daemon's own vertical name (its certificate's), for ``internalOperations``.
    public var ownName: String?
    /// Per caller (a vertical's name, or a user name or uid admitted by hand), the operations of
    /// this daemon it may call, by their names within it; `*` is every operation that is not
    /// operator-only. Nil when `VERTICALS_ALLOWED_OPERATIONS` is unset: no per-operation rule.
    public var allowedOperations: [String: Set<String>]? = nil
    /// The name of the operator's certificate over mutual TLS.
    public static let operatorPeer = "operator"
    /// The variable that carries ``allowedOperations``.
    public static let allowedOperationsVariable = DaemonSettings.allowedOperations.name
    /// The built-ins every admitted caller may call, whatever its entries: they only look.
    public static let everyCallersBuiltins: Set<String> = ["daemon.health", "daemon.describe", "daemon.contractCheck"]

    /// A policy allowing `ownUID`, root, and the given ids.
    public init(
        ownUID: UInt32 = geteuid(), allowedUIDs: Set<UInt32> = [], allowedGIDs: Set<UInt32> = [],
        unresolved: [String] = []
    ) {
        self.ownUID = ownUID
        self.allowedUIDs = allowedUIDs
        self.allowedGIDs = allowedGIDs
        self.unresolved = unresolved
    }

    /// The policy the `VERTICALS_ALLOWED_*` and `VERTICALS_INTERNAL_*` variables describe, for
    /// vertical `service` (which names an internal operation given without its service).
    public static func from(environment: [String: String], service: String, ownUID: UInt32 = geteuid()) -> PeerAccess {
        var access = PeerAccess(ownUID: ownUID)
        access.allowedUIDs = access.uids(environment, DaemonSettings.allowedUIDs.name)
        access.internalUIDs = access.uids(environment, DaemonSettings.internalUIDs.name)
        access.internalOperations = Set(
            entries(environment[DaemonSettings.internalOperations.name]).map {
                $0.contains(".") ? $0 : "\(service).\($0)"
            })
        access.auditedOperations.formUnion(
            entries(environment[DaemonSettings.auditOperations.name]).map { $0.contains(".") ? $0 : "\(service).\($0)" }
        )
        for entry in entries(environment[DaemonSettings.suiteUsers.name]) {
            guard let colon = entry.firstIndex(of: ":") else { continue }
            let user = String(entry[entry.index(after: colon)...])
            if let uid = UInt32(user) ?? AccountEntry.userID(named: user) {
                access.suiteServices[uid] = String(entry[..<colon])
            }
        }
        access.allowedPeers = Set(entries(environment[DaemonSettings.allowedPeers.name]))
        access.internalPeers = Set(entries(environment[DaemonSettings.internalPeers.name]))
        access.ownName = service
        if let value = environment[allowedOperationsVariable] {
            var table: [String: Set<String>] = [:]
            for entry in entries(value) {
                guard let colon = entry.firstIndex(of: ":") else {
                    access.unresolved.append("\(allowedOperationsVariable): \"\(entry)\" is not caller:operation")
                    continue
                }
                let caller = String(entry[..<colon])
                var operation = String(entry[entry.index(after: colon)...])
                if operation.hasPrefix("\(service).") { operation.removeFirst(service.count + 1) }
                table[caller, default: []].insert(operation)
            }
            access.allowedOperations = table
        }
        for entry in entries(environment[DaemonSettings.allowedGIDs.name]) {
            if let gid = UInt32(entry) ?? AccountEntry.groupID(named: entry) {
                access.allowedGIDs.insert(gid)
            } else {
                access.unresolved.append("VERTICALS_ALLOWED_GIDS: no group \"\(entry)\"")
            }
        }
        return access
    }

    /// Whether `peer` may call `operation` (a full name), once connected. A caller with no
    /// credentials (plain TCP) may call no internal operation.
    public func allows(_ peer: PeerCredentials?, toCall operation: String) -> Bool {
        guard !internalOperations.isEmpty, internalOperations.contains(operation) else { return true }
        guard let peer else { return false }
        return peer.uid == ownUID || internalUIDs.contains(peer.uid)
    }

    /// Whether the vertical `name` (verified by mutual TLS) may connect: any name while
    /// ``allowedPeers`` is empty, else only those listed and the vertical itself (its own
    /// `--probe`, as its own uid always may over a Unix socket); a certificate that names none may not.
    public func allows(peerNamed name: String?) -> Bool {
        guard let name else { return false }
        return allowedPeers.isEmpty || allowedPeers.contains(name) || name == ownName
    }

    /// Whether the vertical `name` (verified by mutual TLS) may call `operation` (a full name).
    public func allows(peerNamed name: String?, toCall operation: String) -> Bool {
        guard !internalOperations.isEmpty, internalOperations.contains(operation) else { return true }
        guard let name else { return false }
        return name == ownName || internalPeers.contains(name)
    }

    /// Whether a caller with no identity (plain TCP) may connect: only while no allow-list is set.
    public var allowsUnidentified: Bool {
        allowedUIDs.isEmpty && allowedGIDs.isEmpty
    }

    /// Whether `peer` may connect; unknown credentials never may.
    public func allows(_ peer: PeerCredentials?) -> Bool {
        guard let peer else { return false }
        return peer.uid == 0 || peer.uid == ownUID || allowedUIDs.contains(peer.uid) || allowedGIDs.contains(peer.gid)
    }

    /// Why `peer` may not connect to vertical `service`, naming the caller (its vertical when it
    /// is one of the suite's, else its user) and, for a vertical, the `depends_on` it lacks.
    public func refusal(of peer: PeerCredentials?, service: String) -> String {
        guard let peer else { return "a caller of unknown credentials may not call \(service)" }
        let user = AccountEntry.userName(of: peer.uid).map { " (user \($0))" } ?? ""
        let who = "uid \(peer.uid)\(user) gid \(peer.gid)"
        if let caller = suiteServices[peer.uid] {
            return "\(who) is vertical \(caller), which does not declare \(service): "
                + "its manifest entry lacks depends_on = [\"\(service)\"] (routes are the manifest's)"
        }
        return "\(who) may not call \(service): not root, not a vertical that declares it "
            + "in depends_on, and not in the operator group"
    }

    /// Who `peer` is, for a log: its vertical, else its user name, else its uid.
    public func callerName(_ peer: PeerCredentials?) -> String? {
        guard let peer else { return nil }
        if let vertical = suiteServices[peer.uid] { return "vertical \(vertical)" }
        return AccountEntry.userName(of: peer.uid)
    }

    /// Why `peer` may not call internal `operation` of vertical `service`.
    public func internalRefusal(of peer: PeerCredentials?, operation: String, service: String) -> String {
        let uid = peer.map { "uid \($0.uid)" } ?? "uid unknown"
        if let peer, let caller = suiteServices[peer.uid] {
            return "\(operation) is internal: \(uid) is vertical \(caller), which does not declare \(service) "
                + "(depends_on = [\"\(service)\"] missing)"
        }
        return "\(operation) is internal: \(uid) may not call it"
    }

    private mutating func uids(_ environment: [String: String], _ variable: String) -> Set<UInt32> {
        var uids: Set<UInt32> = []
        for entry in Self.entries(environment[variable]) {
            if let uid = UInt32(entry) ?? AccountEntry.userID(named: entry) {
                uids.insert(uid)
            } else {
                unresolved.append("\(variable): no user \"\(entry)\"")
            }
        }
        return uids
    }

    private static func entries(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }
}
