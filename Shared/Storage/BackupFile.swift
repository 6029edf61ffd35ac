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
        throw StoreError(message: "cannot find a free temporary name beside \(path)")
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

    /// Moves the backup `source` into `folder` as `name`, or `name` with `-2`, `-3`, … before its
    /// extension when that exists: never over an existing file. A rename where both sit on one file
    /// system, else an owner-only copy, synced, after which `source` is removed. Returns the new path.
    ///
    /// `svc-supervisor backup` uses it to bring a backup the vertical wrote under its own state
    /// directory to the folder the operator named.
    public static func move(_ source: String, intoFolder folder: String, as name: String) throws -> String {
        for attempt in 1...1000 {
            let path = "\(folder)/\(numbered(name, attempt))"
            if link(source, path) == 0 {
                unlink(source)
                syncFolder(of: path)
                return path
            }
            switch errno {
            case EEXIST: continue
            case EXDEV:
                guard access(path, F_OK) != 0 else { continue }
                do {
                    try copy(source, to: path, mode: 0o600)
                    try sync(path)
                } catch let error as StoreError where error.message.hasPrefix(StoreError.existsPrefix) {
                    continue
                } catch {
                    unlink(path)
                    throw error
                }
                syncFolder(of: path)
                unlink(source)
                return path
            default: throw StoreError.system("cannot move \(source) to \(path)")
            }
        }
        throw StoreError(message: "\(folder) holds a thousand backups named \(name) already: choose another folder")
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

    /// fsyncs the folder holding `path`, so a new name in it survives a power cut.
    static func syncFolder(of path: String) {
        let folder = path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }

    /// Copies `source` to a new file `destination` (created with `mode`, never over an existing
    /// one), byte for byte.
    static func copy(_ source: String, to destination: String, mode: mode_t) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw StoreError.system("cannot open \(source)") }
        defer { close(input) }
        try copy(input, named: source, to: destination, mode: mode)
    }

    /// Copies what is left to read of the open file `input` (`source` names it in errors) to a new
    /// file `destination` (created with `mode`, never over an existing file or through a link).
    static func copy(_ input: Int32, named source: String, to destination: String, mode: mode_t) throws {
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard output >= 0 else {
            if errno == EEXIST { throw StoreError.exists(destination) }
            throw StoreError.system("cannot create \(destination)")
        }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(input, &buffer, buffer.count)
            if count == 0 { return }
            guard count > 0 else { throw StoreError.system("cannot read \(source)") }
            var offset = 0
            while offset < count {
                let written = buffer[offset..<count].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
                guard written > 0 else { throw StoreError.system("cannot write \(destination)") }
                offset += written
            }
        }
    }
}

extension StoreError {
    /// How the message of ``exists(_:)`` starts.
    static let existsPrefix = "there is a file at "

    /// `path` exists, and a backup never replaces a file.
    static func exists(_ path: String) -> StoreError {
        StoreError(message: "\(existsPrefix)\(path) already: back up to a new file name")
    }

    /// `what` failed with the current `errno`.
    static func system(_ what: String) -> StoreError {
        StoreError(message: "\(what): \(String(cString: strerror(errno)))")
    }
}
