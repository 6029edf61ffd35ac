#if canImport(Glibc)
import VerticalsWire
import Glibc
#endif
import GRDB
import GRDBSQLite

/// The exclusive lock an open store holds on `<store>.lock` beside it, so one process at a time
/// serves a store: the read caches (``ReadCache``) are exact only while their daemon is the
/// store's only writer.
///
/// **Why `flock(2)`.** It locks an *open file description*, not a process:
/// - a second ``SQLiteStore/open(directory:fileName:migrator:durability:)`` of the same store in
///   the same process conflicts too (its caches would be as stale as another process's), and
///   closing some other descriptor of the file never drops it. Classic POSIX `fcntl` locks are
///   per process: a second open in one process would pass, and closing *either* descriptor
///   would silently release both.
/// - the kernel drops it when the descriptor closes, and so when the process dies, however it
///   dies: there is no stale lock to clean up after a crash or a `kill -9`.
/// - it is what `flock(1)` takes, so an operator or a script can test it (`flock -n store.lock true`).
/// OFD `fcntl` locks (`F_OFD_SETLK`) behave the same but report no holder pid either, and are
/// hidden behind `_GNU_SOURCE`. Neither kind names its holder, so the holder writes its pid into
/// the file once it has the lock; a process refused reads it (and `/proc/<pid>/cmdline`) to say who.
///
/// **The file stays** when the lock is released, as `flock(1)`'s do. Removing it would let two
/// processes hold "the" lock at once: one that opened the old file just before the unlink locks
/// that (now nameless) inode, while the next creates a new file and locks that one.
///
/// The descriptor is close-on-exec, so a child the daemon spawns does not inherit the lock. It
/// still holds a copy between its fork and its exec, and a copy shares the open file description
/// and so the lock: a plain `close` would leave the lock held until that child's exec, refusing
/// whoever opens the store in those microseconds (a vertical starting while root's `restore`
/// releases its store). So the release is `flock(LOCK_UN)` first, which frees the description's
/// lock whatever copies of it exist, then `close`.
/// It is non-blocking: a held store is refused at once with a ``StoreError``, never waited for,
/// except by an upgrade's new process (``SQLiteStore/HandOver``).
final class StoreLock: Sendable {
    /// The lock file.
    let path: String
    /// The descriptor holding the lock; closed (releasing it) when this object goes.
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Takes the lock on `path` for the store at `storePath`, or throws a ``StoreError`` naming the
    /// process that holds it and what to do.
    ///
    /// With `handOver` (an upgrade's new process), a lock another process holds is waited for
    /// instead: ``SQLiteStore/HandOver/waiting`` is called, then `flock` blocks until the holder
    /// releases it (it exits, or closes the store).
    static func acquire(_ path: String, for storePath: String, handOver: SQLiteStore.HandOver? = nil) throws
        -> StoreLock
    {
        // Never through a symbolic link, and never into something that is not a plain file: the
        // folder may belong to a vertical, and root's `restore` takes this lock too.
        let flags = O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK
        var descriptor = open(path, O_RDWR | O_CREAT | flags, 0o640)
        // A lock file another user made (root's `restore` on a fresh store): flock needs no write
        // access, only the pid goes unwritten.
        if descriptor < 0 && errno == EACCES { descriptor = open(path, O_RDONLY | flags) }
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link; remove it" : String(cString: strerror(errno))
            throw StoreError(.system, "cannot open the store's lock file \(path): \(reason)")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw StoreError(.refused, "the store's lock file \(path) is not a plain file: remove it")
        }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
        if result != 0, errno == EWOULDBLOCK, let handOver {
            handOver.waiting(holderPID(descriptor))
            repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
        }
        guard result == 0 else {
            let failure = errno
            defer { close(descriptor) }
            guard failure == EWOULDBLOCK else {
                throw StoreError(.system, "cannot lock \(path): \(String(cString: strerror(failure)))")
            }
            throw StoreError.held(storePath, lockFile: path, by: holderPID(descriptor))
        }
        // The pid is only a courtesy to whoever is refused later: the lock holds without it.
        // Only into a file of this user's with no other name: one planted (or linked) by another
        // user is locked as it is, never written.
        let text = Array("\(getpid())\n".utf8)
        if info.st_uid == geteuid(), info.st_nlink == 1, ftruncate(descriptor, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return StoreLock(path: path, descriptor: descriptor)
    }

    /// Ties the lock to `db`'s SQLite connection: SQLite calls the destructor of a function
    /// registered on a connection when that connection closes, so the lock is released when the
    /// pool's writer closes (``DatabasePool/close()``, or the pool being released), not later.
    func bind(to db: Database) throws {
        let context = Unmanaged.passRetained(self).toOpaque()
        // On failure SQLite calls the destructor itself, which releases `context`.
        let code = sqlite3_create_function_v2(
            db.sqliteConnection, "verticals_store_lock", 0, SQLITE_UTF8, context,
            { call, _, _ in sqlite3_result_null(call) }, nil, nil,
            { context in if let context { Unmanaged<StoreLock>.fromOpaque(context).release() } })
        guard code == SQLITE_OK else {
            throw StoreError(.system, "cannot tie the lock \(path) to the store's connection (SQLite code \(code))")
        }
    }

    /// The pid the holder wrote into the lock file, if it has yet.
    private static func holderPID(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 24)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        return Int32(text.split(whereSeparator: \.isNewline).first ?? "").flatMap { $0 > 0 ? $0 : nil }
    }
}

extension StoreError {
    /// The store at `store` is open in another process (or in this one), which holds `lockFile`.
    static func held(_ store: String, lockFile: String, by pid: Int32?) -> StoreError {
        let holder: String
        if let pid, pid == getpid() {
            holder = "this process (pid \(pid)) has it open already; close that first"
        } else if let pid {
            let program = programName(pid).map { "\($0) " } ?? ""
            holder =
                "another process, \(program)(pid \(pid)), is serving it; stop that one, "
                + "or give this one its own STATE_DIRECTORY"
        } else {
            holder =
                "another process is serving it (it has not written its pid yet); stop that one, "
                + "or give this one its own STATE_DIRECTORY"
        }
        return StoreError(
            .held, "the store \(store) is locked (\(lockFile)): \(holder). One process serves a store at a time",
            details: pid.map { [ErrorDetail("pid", "\($0)")] } ?? [])
    }

    /// The file name of the program `pid` runs (`svc-identity`), from `/proc/<pid>/cmdline`.
    private static func programName(_ pid: Int32) -> String? {
        guard let file = fopen("/proc/\(pid)/cmdline", "r") else { return nil }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        let first = bytes[..<count].split(separator: 0, maxSplits: 1).first ?? []
        let name = String(decoding: first, as: UTF8.self).split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty ? nil : name
    }
}
