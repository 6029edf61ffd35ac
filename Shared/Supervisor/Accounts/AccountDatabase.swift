#if canImport(Glibc)
import Glibc
#endif
import VerticalsClient
import VerticalsServiceKit

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
        AccountEntry.find(passwd(), { getpwnam_r(name, &$0, &$1, $1.count, &$2) }) {
            User(name: name, uid: $0.pw_uid, gid: $0.pw_gid)
        }
    }

    /// The gid of group `name`, or nil when there is none.
    static func groupID(named name: String) -> UInt32? {
        AccountEntry.find(group(), { getgrnam_r(name, &$0, &$1, $1.count, &$2) }) { $0.gr_gid }
    }
}
