#if canImport(Glibc)
import Glibc
#endif
import EventLoop

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
/// This is the second gate: the first is the file system (sockets 0660 in a 0750 folder).
public struct PeerAccess: Sendable, Equatable {
    /// The uid every check allows besides root: the daemon's own.
    public var ownUID: UInt32
    /// Further uids allowed.
    public var allowedUIDs: Set<UInt32>
    /// Primary gids allowed.
    public var allowedGIDs: Set<UInt32>
    /// Allow-list entries that named no number, user or group (they allow nobody).
    public var unresolved: [String]

    /// A policy allowing `ownUID`, root, and the given ids.
    public init(ownUID: UInt32 = geteuid(), allowedUIDs: Set<UInt32> = [], allowedGIDs: Set<UInt32> = [], unresolved: [String] = []) {
        self.ownUID = ownUID
        self.allowedUIDs = allowedUIDs
        self.allowedGIDs = allowedGIDs
        self.unresolved = unresolved
    }

    /// The policy `VERTICALS_ALLOWED_UIDS` and `VERTICALS_ALLOWED_GIDS` describe.
    public static func from(environment: [String: String], ownUID: UInt32 = geteuid()) -> PeerAccess {
        var access = PeerAccess(ownUID: ownUID)
        for entry in entries(environment["VERTICALS_ALLOWED_UIDS"]) {
            if let uid = UInt32(entry) ?? userID(named: entry) {
                access.allowedUIDs.insert(uid)
            } else {
                access.unresolved.append("VERTICALS_ALLOWED_UIDS: no user \"\(entry)\"")
            }
        }
        for entry in entries(environment["VERTICALS_ALLOWED_GIDS"]) {
            if let gid = UInt32(entry) ?? groupID(named: entry) {
                access.allowedGIDs.insert(gid)
            } else {
                access.unresolved.append("VERTICALS_ALLOWED_GIDS: no group \"\(entry)\"")
            }
        }
        return access
    }

    /// Whether `peer` may call; unknown credentials never may.
    public func allows(_ peer: PeerCredentials?) -> Bool {
        guard let peer else { return false }
        return peer.uid == 0 || peer.uid == ownUID || allowedUIDs.contains(peer.uid) || allowedGIDs.contains(peer.gid)
    }

    private static func entries(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }

    private static func userID(named name: String) -> UInt32? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.pw_uid
    }

    private static func groupID(named name: String) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }
}
