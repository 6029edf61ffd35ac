#if canImport(Glibc)
import Glibc
#endif
import CSpawn

/// Root's one way into a folder another user owns (a vertical's state or runtime folder): every
/// open, stat, read, rename and unlink root makes there runs with that user's file-system
/// identity, so a symbolic or hard link the user planted reaches nothing the user could not reach
/// itself, whatever the code above forgot: the kernel refuses it.
///
/// Linux checks file access against the *file-system* uid and gid (`setfsuid(2)`) and the
/// supplementary groups, all three per thread: switching them leaves the rest of the process
/// root. While they are another user's, the kernel drops `CAP_DAC_OVERRIDE`, `CAP_CHOWN`,
/// `CAP_FOWNER` and the other file capabilities from the thread, and files it creates belong to
/// that user. The supplementary groups are emptied for the thread alone (the raw `setgroups`
/// system call: glibc's changes every thread), so a file group 0 may write is out of reach too;
/// the owner's own group stays, as its fsgid. Never more than the owner can reach.
///
/// A source of root's own (a backup the operator names) is opened with ``openFile(_:)``: one
/// folder at a time without following a link, as the owner of the first folder on the way that
/// is not root's, and only a plain file with one name.
///
/// ```swift
/// try FolderOwnerAccess.run(in: "/run/verticals/state/clinics") { try SQLiteStore.keepWhole(path) }
/// ```
public enum FolderOwnerAccess {
    /// A user's file-system identity: uid and gid.
    public typealias Owner = (uid: UInt32, gid: UInt32)

    /// Runs `body` on this thread as the owner of `folder` when this process is root and the folder
    /// belongs to another user, else as this process. `body` must not suspend or hop threads (it is
    /// synchronous; SQLite and GRDB's queues run a connection's work on the calling thread).
    /// - Throws: ``StoreError`` when `folder` is not a folder (a symbolic link is not followed), or
    ///   the identity cannot be switched; whatever `body` throws.
    public static func run<T>(in folder: String, _ body: () throws -> T) throws -> T {
        guard geteuid() == 0 else { return try body() }
        return try run(as: try self.owner(of: folder), body)
    }

    /// Runs `body` on this thread with `owner`'s file-system uid and gid and no supplementary
    /// group, then gives the thread back root's (uid 0 runs `body` as it is).
    public static func run<T>(as owner: Owner, _ body: () throws -> T) throws -> T {
        guard geteuid() == 0, owner.uid != 0 else { return try body() }
        guard let setUser = switches.user, let setGroup = switches.group else {
            throw StoreError(.system, "cannot act as uid \(owner.uid): setfsuid is missing from the C library")
        }
        let saved = supplementaryGroups()
        // Groups first: setgroups needs CAP_SETGID, which the thread keeps until its fsuid changes.
        guard vt_thread_setgroups(0, nil) == 0 else {
            throw StoreError.system("cannot drop the groups to act as uid \(owner.uid)")
        }
        _ = setGroup(owner.gid)
        _ = setUser(owner.uid)
        defer {
            _ = setUser(0)
            _ = setGroup(0)
            saved.withUnsafeBufferPointer { _ = vt_thread_setgroups($0.count, $0.baseAddress) }
        }
        // setfsuid answers the previous value, never an error: ask again to see it took.
        guard UInt32(bitPattern: setUser(UInt32.max)) == owner.uid,
            UInt32(bitPattern: setGroup(UInt32.max)) == owner.gid
        else {
            throw StoreError(.system, "cannot act as uid \(owner.uid): the file-system identity did not change")
        }
        return try body()
    }

    /// The uid and gid owning `folder`, opened without following a symbolic link.
    public static func owner(of folder: String) throws -> Owner {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.system("cannot open the folder \(folder) (a symbolic link is refused)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw StoreError.system("cannot read the owner of \(folder)") }
        return (info.st_uid, info.st_gid)
    }

    /// Opens the plain file at the absolute `path` to read, the way root takes a file a request
    /// names (a backup to restore): one folder at a time from `/`, never through a symbolic link,
    /// as the owner of the first folder on the way that root does not own (so what that user
    /// planted below reaches only what it may read), with `O_NOFOLLOW|O_NONBLOCK` (a FIFO never
    /// blocks), and only a regular file with one name. Returns the descriptor; the caller closes it.
    /// - Throws: ``StoreError`` naming the step refused.
    public static func openFile(_ path: String) throws -> Int32 {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard path.hasPrefix("/"), let name = parts.last, !parts.contains(".."), !parts.contains(".") else {
            throw StoreError(.refused, "\(path) is not an absolute path without . or .. in it")
        }
        var folder = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw StoreError.system("cannot open /") }
        defer { close(folder) }
        var owner: Owner = (0, 0)
        var walked = ""
        for part in parts.dropLast() {
            walked += "/" + part
            let next = try run(as: owner) { openat(folder, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            guard next >= 0 else {
                throw StoreError.system("cannot open the folder \(walked) (a symbolic link is refused)")
            }
            close(folder)
            folder = next
            var info = stat()
            guard fstat(folder, &info) == 0 else { throw StoreError.system("cannot read \(walked)") }
            if owner.uid == 0 && info.st_uid != 0 { owner = (info.st_uid, info.st_gid) }
        }
        let file = try run(as: owner) {
            openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        }
        guard file >= 0 else {
            throw StoreError.system(
                "cannot open \(path)\(owner.uid == 0 ? "" : " as uid \(owner.uid)") (a symbolic link is refused)")
        }
        return try plain(file, path)
    }

    /// Opens `path`, in a folder this thread already acts in as its owner (inside ``run(in:_:)``),
    /// to read: `O_NOFOLLOW|O_NONBLOCK`, a regular file with one name. Nil when there is no file.
    public static func openPlainFileIfAny(_ path: String) throws -> Int32? {
        let file = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT { return nil }
            throw StoreError.system("cannot open \(path) (a symbolic link is refused)")
        }
        return try plain(file, path)
    }

    /// The open `file` when it is a regular file with one name; else it is closed, and this throws.
    static func plain(_ file: Int32, _ path: String) throws -> Int32 {
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1 else {
            close(file)
            throw StoreError(
                .refused, "\(path) is not a plain file with one name (a FIFO, a device or a hard link is refused)")
        }
        return file
    }

    /// This thread's supplementary groups.
    private static func supplementaryGroups() -> [gid_t] {
        let count = getgroups(0, nil)
        guard count > 0 else { return [] }
        var groups = [gid_t](repeating: 0, count: Int(count))
        let got = getgroups(count, &groups)
        return Array(groups.prefix(Int(max(got, 0))))
    }

    /// `setfsuid` and `setfsgid`, which Swift's Glibc module does not import (`<sys/fsuid.h>`).
    private static let switches:
        (user: (@convention(c) (UInt32) -> Int32)?, group: (@convention(c) (UInt32) -> Int32)?) = {
            typealias Switch = @convention(c) (UInt32) -> Int32
            func look(_ name: String) -> Switch? {
                dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: Switch.self) }
            }
            return (look("setfsuid"), look("setfsgid"))
        }()
}
