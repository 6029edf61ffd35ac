#if canImport(Glibc)
import Glibc
#endif

/// Users and groups as the system's account database (NSS: `/etc/passwd`, `/etc/group`) says.
enum AccountDatabase {
    /// A user's numeric ids.
    struct User: Sendable, Equatable {
        /// Its name.
        let name: String
        /// Its uid.
        let uid: UInt32
        /// Its primary gid.
        let gid: UInt32
    }

    /// The user called `name`, or nil when there is none.
    static func user(named name: String) -> User? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return User(name: name, uid: entry.pw_uid, gid: entry.pw_gid)
    }

    /// The gid of group `name`, or nil when there is none.
    static func groupID(named name: String) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }
}
