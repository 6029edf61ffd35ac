#if canImport(Glibc)
import Glibc
#endif

extension SQLiteStore {
    /// Writes a consistent copy of `database` to `path` while it keeps serving: SQLite's online
    /// backup API (through GRDB) reads one snapshot, so writers carry on and the copy holds
    /// every commit up to one moment. It blocks for the copy's length: call it off the event loop
    /// (ServiceKit's `daemon.backup` runs it on `Offload`). The copy goes to a temporary file beside `path`, is
    /// synced, then renamed, so `path` is either absent or a whole store. Returns its size in bytes.
    ///
    /// - Throws: ``StoreError`` when `path` is not absolute or exists already; `DatabaseError`
    ///   (`SQLITE_FULL` when the disk fills) otherwise. The temporary file never stays behind.
    @discardableResult
    public static func backup(_ database: any DatabaseReader, to path: String) throws -> Int {
        guard path.hasPrefix("/") else { throw StoreError(message: "the backup path \(path) is not absolute") }
        guard access(path, F_OK) != 0 else {
            throw StoreError(message: "\(path) exists already: back up to a new file name")
        }
        let temporary = "\(path).tmp-\(getpid())"
        do {
            let copy = try DatabaseQueue(path: temporary)
            try database.backup(to: copy)
            try copy.close()
            try syncAndRename(temporary, to: path)
        } catch {
            unlink(temporary)
            throw error
        }
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// fsyncs `temporary`, renames it to `path`, and fsyncs the folder so the rename survives a power cut.
    static func syncAndRename(_ temporary: String, to path: String) throws {
        let fd = Glibc.open(temporary, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else {
            if fd >= 0 { close(fd) }
            throw StoreError(message: "cannot sync \(temporary): \(String(cString: strerror(errno)))")
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            throw StoreError(message: "cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
        }
        let folder = path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let folderFD = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }
}
