import Glibc
import VerticalsContract
import VerticalsObservability
/// What the request path needs of one routed operation, found with one lookup by name: its
/// route, its counts, and whether only internal peers may call it. The host builds the table once (``ServiceHost/served``).
///
/// An object holding the route, not the route itself in a dictionary: a closure stored as a
/// dictionary value is kept at the most general abstraction, so every call went through a
/// reabstraction thunk, and that thunk's return hopped executors (a task status-record lock).
/// A class, not a struct: a request copies its operation out of the table, and a struct's copy
/// retained and released each of its references (three closures and counts, a name).
final class ServedOperation {
    let route: Router.Route
    /// The route without suspending, when its handler answers at once (``Router/onSync(_:_:)``).
    let answersAtOnce: Router.SyncRoute?
    /// How a request is prepared with its Input decoded on the loop (``Router/Handler/prepare``).
    let prepare: Router.Preparing?
    /// Where its requests are counted (its loop's).
    let counts: OperationCounts
    /// Listed in `PeerAccess.internalOperations`: the peer's uid is checked before it runs.
    let isInternal: Bool
    /// Internal, or an operator's built-in that changes the daemon (``identifiedOnly``): a caller
    /// with no identity (plain TCP) is refused it. One flag, so the request path checks one bool.
    let needsIdentity: Bool
    /// A streaming operation: it may never end by itself, so a draining host ends it.
    let isStream: Bool
    /// Its full name when each call is audited (``AuditLine``), else nil.
    let audited: String?
    /// Whether a call of it keeps a host with an idle exit up (``IdleExit``): every operation
    /// but the ``observing`` built-ins.
    let keepsDaemonUp: Bool
    /// Marked ``OperationMark/operatorOnly``: only an operator's connection may call it.
    let operatorOnly: Bool
    /// Its place in the table, for a connection's ``CallerGrant`` as one flag per operation.
    var index = 0
    /// Its name as a route names it: within the daemon (`authenticate`), `daemon.health` for a built-in.
    var routeName = ""
    /// Its full name, the table's key: a request that names it gets this `String`, not a new one.
    var name = ""
    /// ``name``'s UTF-8 bytes, which a request's are compared with (``ServedNames``).
    var nameBytes: [UInt8] = []

    /// Whether `bytes` are this operation's full name: one `memcmp` of the counted bytes
    /// (`elementsEqual` over raw buffers walks them byte by byte, and cost more than the
    /// `String` this lookup spares).
    func isNamed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == nameBytes.count else { return false }
        guard let given = bytes.baseAddress, !bytes.isEmpty else { return true }
        return nameBytes.withUnsafeBytes { memcmp($0.baseAddress!, given, bytes.count) == 0 }
    }

    init(
        route: @escaping Router.Route, answersAtOnce: Router.SyncRoute?, counts: OperationCounts, isInternal: Bool,
        needsIdentity: Bool, isStream: Bool, audited: String?, keepsDaemonUp: Bool, operatorOnly: Bool = false,
        prepare: Router.Preparing? = nil
    ) {
        self.prepare = prepare
        self.operatorOnly = operatorOnly
        self.route = route
        self.answersAtOnce = answersAtOnce
        self.counts = counts
        self.isInternal = isInternal
        self.needsIdentity = needsIdentity
        self.isStream = isStream
        self.audited = audited
        self.keepsDaemonUp = keepsDaemonUp
    }

    /// The table of every operation `router` routes, counted in `counts`.
    static func table(_ router: Router, counts: LoopCounts, access: PeerAccess) -> [String: ServedOperation] {
        var table: [String: ServedOperation] = [:]
        let operatorOnly = Set(router.operations.filter(\.isOperatorOnly).map(\.fullName))
        for (index, (name, handler)) in router.routes.sorted(by: { $0.key < $1.key }).enumerated() {
            let isInternal = access.internalOperations.contains(name)
            let marked = operatorOnly.contains(name)
            let served = ServedOperation(
                route: handler.route, answersAtOnce: handler.answersAtOnce, counts: counts.operation(name),
                isInternal: isInternal,
                needsIdentity: isInternal || identifiedOnly.contains(name) || marked, isStream: handler.isStream,
                // Every call of an operator-only operation is audited, with its caller.
                audited: marked || access.auditedOperations.contains(name) || router.auditedOperations.contains(name)
                    ? name : nil,
                keepsDaemonUp: !observing.contains(name), operatorOnly: marked, prepare: handler.prepare)
            served.index = index
            served.name = name
            served.nameBytes = Array(name.utf8)
            served.routeName =
                name.hasPrefix(router.service + ".") ? String(name.dropFirst(router.service.count + 1)) : name
            table[name] = served
        }
        return table
    }

    /// The built-ins that write files or change the daemon: over a Unix socket the admission rule
    /// already limits who calls them; a plain-TCP caller, who has no identity, may not.
    static let identifiedOnly: Set<String> = [Daemon.backup.fullName, Daemon.setLogLevel.fullName]

    /// The built-ins that look at a daemon without using it: the supervisor's liveness check, a
    /// metrics scrape, a contract lookup. They do not keep a daemon with an idle exit up, or a
    /// liveness check every few seconds would keep it up for ever.
    static let observing: Set<String> = [Daemon.health.fullName, Daemon.metrics.fullName, Daemon.describe.fullName]
}

/// The served operations by the bytes of their full names, for a request's envelope: found with
/// no `String` made from the bytes (``Message/init(frame:knownOperation:)``). Built once per host.
struct ServedNames {
    private var buckets: [UInt64: [ServedOperation]] = [:]

    init(_ table: [String: ServedOperation]) {
        for operation in table.values.sorted(by: { $0.index < $1.index }) {
            operation.nameBytes.withUnsafeBytes { buckets[Self.hash($0), default: []].append(operation) }
        }
    }

    /// The operation whose full name is `bytes`, if one is served.
    func operation(named bytes: UnsafeRawBufferPointer) -> ServedOperation? {
        guard let bucket = buckets[Self.hash(bytes)] else { return nil }
        // Indexed: an unspecialised iterator (a debug build) allocates its read coroutine's frame.
        var index = 0
        while index < bucket.count {
            if bucket[index].isNamed(bytes) { return bucket[index] }
            index += 1
        }
        return nil
    }

    /// FNV-1a: a few instructions a byte, over names of a few tens of bytes.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
