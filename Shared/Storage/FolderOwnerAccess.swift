#if canImport(Glibc)
import Glibc
#endif

/// Root's file work in a folder another user owns (a vertical's state folder), done with that
/// user's file-system identity, so a symbolic or hard link the user planted there reaches nothing
/// the user could not reach itself.
///
/// Linux checks file access against the *file-system* uid and gid (`setfsuid(2)`), which belong to
/// one thread: switching them leaves the rest of the process root. While they are another user's,
/// the kernel drops `CAP_DAC_OVERRIDE`, `CAP_CHOWN`, `CAP_FOWNER` and the other file capabilities
/// from the thread, and files it creates belong to that user. The supplementary groups stay the
/// process's own (glibc changes those for every thread at once).
///
/// ```swift
/// try FolderOwnerAccess.run(in: "/run/verticals/state/clinics") { try SQLiteStore.keepWhole(path) }
/// ```
public enum FolderOwnerAccess {
    /// Runs `body` on this thread as the owner of `folder` when this process is root and the folder
    /// belongs to another user, else as this process. `body` must not suspend or hop threads (it is
    /// synchronous; SQLite and GRDB's queues run a connection's work on the calling thread).
    /// - Throws: ``StoreError`` when `folder` is not a folder (a symbolic link is not followed), or
    ///   the identity cannot be switched; whatever `body` throws.
    public static func run<T>(in folder: String, _ body: () throws -> T) throws -> T {
        guard geteuid() == 0 else { return try body() }
        let owner = try self.owner(of: folder)
        guard owner.uid != 0 else { return try body() }
        guard let setUser = switches.user, let setGroup = switches.group else {
            throw StoreError(message: "cannot act as the owner of \(folder): setfsuid is missing from the C library")
        }
        _ = setGroup(owner.gid)
        _ = setUser(owner.uid)
        defer {
            _ = setUser(0)
            _ = setGroup(0)
        }
        // setfsuid answers the previous value, never an error: ask again to see it took.
        guard UInt32(bitPattern: setUser(UInt32.max)) == owner.uid, UInt32(bitPattern: setGroup(UInt32.max)) == owner.gid else {
            throw StoreError(message: "cannot act as uid \(owner.uid) in \(folder): the file-system identity did not change")
        }
        return try body()
    }

    /// The uid and gid owning `folder`, opened without following a symbolic link.
    public static func owner(of folder: String) throws -> (uid: UInt32, gid: UInt32) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.system("cannot open the folder \(folder) (a symbolic link is refused)") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw StoreError.system("cannot read the owner of \(folder)") }
        return (info.st_uid, info.st_gid)
    }

    /// `setfsuid` and `setfsgid`, which Swift's Glibc module does not import (`<sys/fsuid.h>`).
    private static let switches: (user: (@convention(c) (UInt32) -> Int32)?, group: (@convention(c) (UInt32) -> Int32)?) = {
        typealias Switch = @convention(c) (UInt32) -> Int32
        func look(_ name: String) -> Switch? {
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: Switch.self) }
        }
        return (look("setfsuid"), look("setfsgid"))
    }()
}
