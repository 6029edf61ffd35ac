#if canImport(Glibc)
import Glibc
#endif

/// One entry of the system's account database (NSS: `/etc/passwd`, `/etc/group`), read with the
/// reentrant calls (`getpwnam_r`, `getpwuid_r`, `getgrnam_r`).
package enum AccountEntry {
    /// What `read` takes from the entry `call` finds, or nil when there is none or the lookup fails.
    /// `call` is one of the `_r` functions with its key bound: it fills `entry`, keeps the entry's
    /// strings in `buffer` (alive while `read` runs), and points `result` at `entry` when found.
    ///
    /// ```swift
    /// AccountEntry.find(passwd(), { getpwnam_r(name, &$0, &$1, $1.count, &$2) }) { $0.pw_uid }
    /// ```
    package static func find<Entry, Value>(
        _ empty: Entry,
        _ call: (_ entry: inout Entry, _ buffer: inout [CChar], _ result: inout UnsafeMutablePointer<Entry>?) -> Int32,
        _ read: (Entry) -> Value?
    ) -> Value? {
        var entry = empty
        var result: UnsafeMutablePointer<Entry>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard call(&entry, &buffer, &result) == 0, result != nil else { return nil }
        return read(entry)
    }

    /// The uid of the user `name` (the password database), if there is one.
    package static func userID(named name: String) -> UInt32? {
        find(passwd(), { getpwnam_r(name, &$0, &$1, $1.count, &$2) }) { $0.pw_uid }
    }

    /// The name of the user with `uid` (the password database), if there is one.
    package static func userName(of uid: UInt32) -> String? {
        find(passwd(), { getpwuid_r(uid, &$0, &$1, $1.count, &$2) }) { $0.pw_name.map { String(cString: $0) } }
    }

    /// The gid of the group `name` (the group database), if there is one.
    package static func groupID(named name: String) -> UInt32? {
        find(group(), { getgrnam_r(name, &$0, &$1, $1.count, &$2) }) { $0.gr_gid }
    }
}
