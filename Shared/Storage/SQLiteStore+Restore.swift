#if canImport(Glibc)
import Glibc
#endif

extension SQLiteStore {
    /// Puts a backup in place of a *stopped* vertical's store: checks `file` is a whole SQLite
    /// store (`PRAGMA integrity_check`), copies it beside `path`, syncs it, keeps the store it
    /// replaces (with its `-wal`/`-shm`) as `path.before-restore`, then renames the copy over
    /// `path` in one step. Nobody may have `path` open: the caller checks the vertical is stopped,
    /// and the restore holds the store's lock throughout (see ``open(directory:fileName:migrator:durability:)``),
    /// so a daemon started by hand on the store is refused too.
    ///
    /// Returns where the replaced store was kept, or nil when there was none.
    /// - Throws: ``StoreError`` naming what is wrong with `file` or the folder, or the process
    ///   that has the store open (``StoreError/isHeld``).
    @discardableResult
    public static func restore(_ file: String, to path: String) throws -> String? {
        try checkIntegrity(of: file)
        let lock = try StoreLock.acquire("\(path).lock", for: path)
        defer { withExtendedLifetime(lock) {} }
        let temporary = "\(path).restore-\(getpid())"
        do {
            try copyFile(file, to: temporary)
            let kept = "\(path).before-restore"
            var keptAny = false
            for suffix in ["", "-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
                unlink(kept + suffix)
                // A hard link for the main file keeps `path` in place until the rename below.
                let moved = suffix.isEmpty ? link(path, kept) : rename(path + suffix, kept + suffix)
                guard moved == 0 else {
                    throw StoreError(message: "cannot keep \(path + suffix) aside: \(String(cString: strerror(errno)))")
                }
                keptAny = keptAny || suffix.isEmpty
            }
            try syncAndRename(temporary, to: path)
            return keptAny ? kept : nil
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Throws unless `file` opens as an SQLite database that passes `PRAGMA integrity_check`.
    static func checkIntegrity(of file: String) throws {
        guard access(file, R_OK) == 0 else {
            throw StoreError(message: "cannot read \(file): \(String(cString: strerror(errno)))")
        }
        var configuration = Configuration()
        configuration.readonly = true
        let verdict: String
        do {
            let queue = try DatabaseQueue(path: file, configuration: configuration)
            verdict = try queue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
            try queue.close()
        } catch {
            throw StoreError(message: "\(file) is not an SQLite store: \(error)")
        }
        guard verdict == "ok" else { throw StoreError(message: "\(file) is damaged: \(verdict)") }
    }

    /// Copies `source` to a new file `destination` (mode 0640), byte for byte.
    static func copyFile(_ source: String, to destination: String) throws {
        let input = Glibc.open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw StoreError(message: "cannot open \(source): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = Glibc.open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o640)
        guard output >= 0 else {
            throw StoreError(message: "cannot create \(destination): \(String(cString: strerror(errno)))")
        }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(input, &buffer, buffer.count)
            if count == 0 { return }
            guard count > 0 else { throw StoreError(message: "cannot read \(source): \(String(cString: strerror(errno)))") }
            var offset = 0
            while offset < count {
                let written = buffer[offset..<count].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
                guard written > 0 else {
                    throw StoreError(message: "cannot write \(destination): \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }
}
