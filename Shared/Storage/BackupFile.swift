#if canImport(Glibc)
import Glibc
#endif

/// The files backups and restores write: created owner-only (0600), synced before they are given
/// their name, and never put over an existing file.
public enum BackupFile {
    /// Creates an empty owner-only (0600) file beside `path` under a name no other writer uses
    /// (pid and a random part), for SQLite to fill; returns its path.
    static func createTemporary(beside path: String) throws -> String {
        for _ in 0..<8 {
            let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd >= 0 {
                close(fd)
                return temporary
            }
            guard errno == EEXIST else { throw StoreError.system("cannot create \(temporary)") }
        }
        throw StoreError(.exists, "cannot find a free temporary name beside \(path)")
    }

    /// fsyncs `temporary`, gives it the name `path` unless `path` exists (``StoreError`` then,
    /// `temporary` left in place), removes the name `temporary` and fsyncs the folder.
    static func syncAndLink(_ temporary: String, to path: String) throws {
        try sync(temporary)
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { throw StoreError.exists(path) }
            throw StoreError.system("cannot link \(temporary) to \(path)")
        }
        unlink(temporary)
        syncFolder(of: path)
    }

    /// Takes the backup `name` a vertical wrote under `backups/` of its state folder `stateFolder`
    /// into `folder` as `target`, or `target` with `-2`, `-3`, … before its extension when that
    /// exists: never over an existing file. Returns the new path and its size.
    ///
    /// The caller derives the path, never taking it from the vertical's answer, and the vertical
    /// is not believed about the file either: `stateFolder` is opened without following a link,
    /// then `backups/` and the backup from its descriptor as the folder's owner
    /// (``FolderOwnerAccess``), one step at a time without following a link; the backup must be a
    /// plain file with one name, owned by the state folder's owner. It is bounded: its data
    /// (holes not counted) at most `maxBytes`, and no more than the free space of `folder`. Its
    /// bytes are copied, holes kept as holes, from that open file into an owner-only (0600) file
    /// of the caller's, synced; the vertical's copy is then removed.
    ///
    /// `svc-supervisor backup` uses it to bring a backup to the folder the operator named.
    /// - Throws: ``StoreError`` naming what is wrong: a link or a foreign file refused, a backup
    ///   over its bound, a full folder, a failed read or write.
    public static func take(
        _ name: String, fromStateFolder stateFolder: String, intoFolder folder: String, as target: String,
        maxBytes: Int = .max
    ) throws -> (path: String, bytes: Int) {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            throw StoreError(.refused, "a backup's name is a plain file name, not \"\(name)\"")
        }
        let flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC
        let state = open(stateFolder, flags | O_DIRECTORY)
        guard state >= 0 else { throw StoreError.system("cannot open the state folder \(stateFolder)") }
        defer { close(state) }
        var folderInfo = stat()
        guard fstat(state, &folderInfo) == 0 else { throw StoreError.system("cannot read \(stateFolder)") }
        let owner: FolderOwnerAccess.Owner = (folderInfo.st_uid, folderInfo.st_gid)
        let backups = try FolderOwnerAccess.run(as: owner) { openat(state, "backups", flags | O_DIRECTORY) }
        guard backups >= 0 else { throw StoreError.system("cannot open \(stateFolder)/backups (a link is refused)") }
        defer { close(backups) }
        let source = "\(stateFolder)/backups/\(name)"
        let input = try FolderOwnerAccess.run(as: owner) { openat(backups, name, flags | O_NONBLOCK | O_NOCTTY) }
        guard input >= 0 else { throw StoreError.system("cannot open the backup \(source) (a link is refused)") }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw StoreError.system("cannot read \(source)") }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1, info.st_uid == folderInfo.st_uid else {
            throw StoreError(
                .refused,
                "\(source) is not a backup its vertical wrote (a plain file of uid \(folderInfo.st_uid) "
                    + "with one name): it is left where it is; look at what put it there")
        }
        // Measured once, and copied as measured: the vertical still owns the file and may grow it
        // meanwhile, and what it adds after this look is not copied, so the bound and the free
        // space checked here are the bound and the space the copy takes.
        let size = Int(info.st_size)
        let ranges = try dataRanges(input, named: source, size: size)
        let data = ranges.reduce(0) { $0 + $1.count }
        guard data <= maxBytes else {
            throw StoreError(
                .tooLarge,
                "\(source) holds \(data) bytes of data, over the \(maxBytes) a backup may "
                    + "(VERTICALS_BACKUP_MAX_BYTES): it is left where it is")
        }
        if let free = freeBytes(in: folder), data > free {
            throw StoreError(
                .tooLarge, "\(folder) has \(free) bytes free, and \(source) holds \(data): free some space first")
        }
        for attempt in 1...1000 {
            let path = "\(folder)/\(numbered(target, attempt))"
            do {
                guard lseek(input, 0, SEEK_SET) == 0 else { throw StoreError.system("cannot read \(source)") }
                try copy(input, named: source, to: path, mode: 0o600, measured: (size, ranges))
                try sync(path)
            } catch let error as StoreError where error.message.hasPrefix(StoreError.existsPrefix) {
                continue
            } catch {
                unlink(path)
                throw error
            }
            syncFolder(of: path)
            _ = try? FolderOwnerAccess.run(as: owner) { unlinkat(backups, name, 0) }
            return (path, size)
        }
        throw StoreError(.exists, "\(folder) holds a thousand backups named \(target) already: choose another folder")
    }

    /// `SEEK_DATA` and `SEEK_HOLE`, Linux's values (Swift's Glibc module leaves them out).
    static let seekData: Int32 = 3
    static let seekHole: Int32 = 4

    /// The bytes of data in the open file `input` of `size` bytes: what is not a hole.
    static func dataBytes(_ input: Int32, named source: String, size: Int) throws -> Int {
        var total = 0
        for range in try dataRanges(input, named: source, size: size) { total += range.count }
        return total
    }

    /// ``dataBytes(_:named:size:)`` of the open file `input`, whatever its size.
    static func dataBytes(of input: Int32, named source: String) throws -> Int {
        var info = stat()
        guard fstat(input, &info) == 0 else { throw StoreError.system("cannot read \(source)") }
        return try dataBytes(input, named: source, size: Int(info.st_size))
    }

    /// The ranges of the open file `input` (of `size` bytes) that hold data, in order; the whole
    /// file when the file system cannot tell.
    static func dataRanges(_ input: Int32, named source: String, size: Int) throws -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var position = 0
        while position < size {
            let data = lseek(input, off_t(position), seekData)
            if data < 0 {
                if errno == ENXIO { break } // only a hole is left
                if errno == EINVAL && ranges.isEmpty { return [0..<size] } // no SEEK_DATA here
                throw StoreError.system("cannot read \(source)")
            }
            let hole = lseek(input, data, seekHole)
            guard hole >= data else { throw StoreError.system("cannot read \(source)") }
            let end = min(Int(hole), size)
            if Int(data) < end { ranges.append(Int(data)..<end) }
            position = max(end, Int(data) + 1)
        }
        return ranges
    }

    /// The bytes an unprivileged writer may still use in `folder`, or nil when it cannot be told.
    static func freeBytes(in folder: String) -> Int? {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return nil }
        let (free, overflow) = Int(info.f_bavail).multipliedReportingOverflow(by: Int(info.f_frsize))
        return overflow ? .max : free
    }

    /// `name` with `-N` before its extension for attempt N > 1: `clinics-X.sqlite`, `clinics-X-2.sqlite`.
    static func numbered(_ name: String, _ attempt: Int) -> String {
        guard attempt > 1 else { return name }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "\(name)-\(attempt)" }
        return "\(name[..<dot])-\(attempt)\(name[dot...])"
    }

    /// A path like `base`, `base-2`, `base-3`, … that does not exist yet.
    static func unused(_ base: String) -> String {
        var attempt = 1
        while access(numbered(base, attempt), F_OK) == 0 { attempt += 1 }
        return numbered(base, attempt)
    }

    /// The current UTC time as 20261122T123000Z, for file names that sort by time.
    public static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        strftime(&buffer, buffer.count, "%Y%m%dT%H%M%SZ", &parts)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// fsyncs the file at `path`.
    static func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else {
            let failure = StoreError.system("cannot sync \(path)")
            if fd >= 0 { close(fd) }
            throw failure
        }
        close(fd)
    }

    /// The folder holding `path`: `/a/b` for `/a/b/c`, `.` for a bare name.
    static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
    }

    /// fsyncs the folder holding `path`, so a new name in it survives a power cut.
    static func syncFolder(of path: String) {
        let folder = folder(of: path)
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    /// Copies the open file `input` (`source` names it in errors) to a new file `destination`
    /// (created with `mode`, never over an existing file or through a link): its data, with its
    /// holes left holes (`SEEK_DATA`/`SEEK_HOLE`), so a sparse file costs its data and no more.
    /// `measured`: the size and data ranges already read of it, the most that is copied, whatever
    /// the file holds by then; else they are read here.
    static func copy(
        _ input: Int32, named source: String, to destination: String, mode: mode_t,
        measured: (size: Int, ranges: [Range<Int>])? = nil
    ) throws {
        let size: Int
        let ranges: [Range<Int>]
        if let measured {
            (size, ranges) = measured
        } else {
            var info = stat()
            guard fstat(input, &info) == 0 else { throw StoreError.system("cannot read \(source)") }
            size = Int(info.st_size)
            ranges = try dataRanges(input, named: source, size: size)
        }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard output >= 0 else {
            if errno == EEXIST { throw StoreError.exists(destination) }
            throw StoreError.system("cannot create \(destination)")
        }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        for range in ranges {
            var offset = range.lowerBound
            while offset < range.upperBound {
                let wanted = min(buffer.count, range.upperBound - offset)
                let count = pread(input, &buffer, wanted, off_t(offset))
                if count == 0 { break } // the file shrank meanwhile
                guard count > 0 else { throw StoreError.system("cannot read \(source)") }
                var written = 0
                while written < count {
                    let step = buffer[written..<count].withUnsafeBytes {
                        pwrite(output, $0.baseAddress, $0.count, off_t(offset + written))
                    }
                    guard step > 0 else { throw StoreError.system("cannot write \(destination)") }
                    written += step
                }
                offset += count
            }
        }
        guard ftruncate(output, off_t(size)) == 0 else { throw StoreError.system("cannot write \(destination)") }
    }
}

extension StoreError {
    /// How the message of ``exists(_:)`` starts.
    static let existsPrefix = "there is a file at "

    /// `path` exists, and a backup never replaces a file.
    static func exists(_ path: String) -> StoreError {
        StoreError(.exists, "\(existsPrefix)\(path) already: back up to a new file name")
    }

    /// `what` failed with the current `errno`.
    package static func system(_ what: String) -> StoreError {
        StoreError(.system, "\(what): \(String(cString: strerror(errno)))")
    }
}
