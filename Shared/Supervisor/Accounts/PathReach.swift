#if canImport(Glibc)
import Glibc
import VerticalsSupervisorClient
#endif

/// Whether a user can reach a path: search (x) permission on every folder on the way, and the
/// access wanted on the path itself, decided from the mode bits as the kernel does for a
/// process of that uid, gid and supplementary groups (ACLs are not read).
///
/// Checked before the supervisor (as root) starts anything, so that a checkout under `/root`
/// (mode 0700) is refused naming the folder, not found later as a service's "permission denied".
enum PathReach {
    /// What the user needs of the path itself.
    enum Need: Sendable {
        /// Execute a program.
        case execute
        /// Search a folder.
        case search
        /// Write (connect to a socket, send a datagram).
        case write
        /// Read a file (a TLS key).
        case read

        var bit: mode_t {
            switch self {
            case .execute, .search: 1
            case .write: 2
            case .read: 4
            }
        }

        var text: String {
            switch self {
            case .execute: "execute"
            case .search: "enter"
            case .write: "write to"
            case .read: "read"
            }
        }
    }

    /// Nil when `uid` (of group `gid`, also in `groups`) can reach `path` for `need`, else why
    /// not, naming the path or the folder on the way that stops it.
    static func problem(_ path: String, _ need: Need, uid: UInt32, gid: UInt32, groups: [UInt32]) -> String? {
        guard let resolved = realpath(path, nil) else {
            return "\(path): \(SupervisorError.errnoText())"
        }
        let real = String(cString: resolved)
        free(resolved)
        var prefix = ""
        let components = real.split(separator: "/")
        var folders = ["/"]
        for component in components.dropLast() {
            prefix += "/" + component
            folders.append(prefix)
        }
        for folder in folders {
            guard allows(folder, bit: 1, uid: uid, gid: gid, groups: groups) else {
                return
                    "\(folder) is not searchable by uid \(uid) (mode \(modeText(folder))), so it cannot reach \(real)"
            }
        }
        guard allows(real, bit: need.bit, uid: uid, gid: gid, groups: groups) else {
            return "uid \(uid) may not \(need.text) \(real) (mode \(modeText(real)))"
        }
        return nil
    }

    /// Whether the mode bits of `path` give `bit` (1 x, 2 w, 4 r) to that user.
    static func allows(_ path: String, bit: mode_t, uid: UInt32, gid: UInt32, groups: [UInt32]) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let mode = info.st_mode
        if info.st_uid == uid { return (mode >> 6) & bit == bit }
        if info.st_gid == gid || groups.contains(info.st_gid) { return (mode >> 3) & bit == bit }
        return mode & bit == bit
    }

    private static func modeText(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "unknown" }
        return "0" + String(info.st_mode & 0o7777, radix: 8) + ", uid \(info.st_uid) gid \(info.st_gid)"
    }
}
