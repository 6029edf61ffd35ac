#if canImport(Glibc)
import Glibc
import VerticalsSupervisorClient
#endif
import VerticalsWire

/// A service's TLS key given to the service's user by root (`svc-supervisor up` with a user per
/// vertical), without following a link anyone planted on the way.
///
/// Root hands over only a key laid out as `svc-supervisor certs` writes one, `DIR/NAME/tls.key`
/// for service NAME: a path the manifest names otherwise (`/etc/shadow`) is refused, so a value of
/// the manifest never makes root give away a file of its own. A key elsewhere that the service's
/// user can already read needs no hand-over.
///
/// The key's folder is opened `O_NOFOLLOW` and must be root's or the user's already; it becomes
/// the user's, 0700. The key is opened from that folder's descriptor, `O_NOFOLLOW`, must be a
/// plain file with one name, and becomes the user's, 0600.
enum KeyHandover {
    /// Gives `key` (and its folder named `service`) to `uid`:`gid`, named `userName` in errors.
    /// - Throws: ``SupervisorError`` naming what was refused and why.
    static func give(_ key: String, service: String, uid: UInt32, gid: UInt32, userName: String) throws(SupervisorError)
    {
        let slash = key.lastIndex(of: "/")
        let folderPath = slash.map { key[..<$0].isEmpty ? "/" : String(key[..<$0]) } ?? "."
        let name = slash.map { String(key[key.index(after: $0)...]) } ?? key
        func refused(_ what: String, _ code: SupervisorError.Code = .refused) -> SupervisorError {
            SupervisorError(
                code, "cannot give \(service)'s TLS key \(key) to user \(userName): \(what)",
                details: [ErrorDetail("path", key), ErrorDetail("service", service)])
        }
        guard name == "tls.key", folderPath.split(separator: "/").last.map(String.init) == service else {
            throw refused(
                "root hands over only a key laid out as `svc-supervisor certs` writes it, DIR/\(service)/tls.key; "
                    + "move it there, or make it readable by the user yourself")
        }
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            throw refused("cannot open \(folderPath) (a link is refused): \(SupervisorError.errnoText())", .system)
        }
        defer { close(folder) }
        var folderInfo = stat()
        guard fstat(folder, &folderInfo) == 0 else { throw refused(SupervisorError.errnoText(), .system) }
        guard folderInfo.st_uid == 0 || folderInfo.st_uid == uid else {
            throw refused("\(folderPath) belongs to uid \(folderInfo.st_uid), neither root nor the service", .notOwned)
        }
        let file = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard file >= 0 else {
            throw refused("cannot open it (a link is refused): \(SupervisorError.errnoText())", .system)
        }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1 else {
            throw refused("it is not a plain file with one name")
        }
        guard fchown(file, uid, gid) == 0, fchmod(file, 0o600) == 0 else {
            throw refused(SupervisorError.errnoText(), .system)
        }
        guard fchown(folder, uid, gid) == 0, fchmod(folder, 0o700) == 0 else {
            throw refused(SupervisorError.errnoText(), .system)
        }
    }
}
