#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract
import VerticalsWire

extension Builtins {
    /// Serves `daemon.backup`: a consistent copy of the ``VerticalStore`` the vertical handed to
    /// ``ServedVertical``, written by the store (SQLite's online backup, for VerticalsStorage) on
    /// the blocking-work pool while requests go on. A daemon without a store answers `unimplemented`.
    ///
    /// Confined to `backups/` in the vertical's state directory (``BackupPlace``): a plain file
    /// name is written there, and so is an absolute path naming that folder and a file in it;
    /// anything else (another folder, `..`, a hidden name, a link where the folder or the file
    /// should be) is `invalidInput`, naming the path. At most ``HostConfiguration/backupKeep``
    /// files are kept there (`resourceExhausted` past it). `svc-supervisor backup` asks for a
    /// file name and moves the file to the operator's folder itself. The answer's `path` is
    /// always absolute. The operation is operator-only (``OperationMark/operatorOnly``).
    static func installBackup(into router: inout Router, configuration: HostConfiguration) {
        guard !router.routes(Daemon.backup.fullName) else { return }
        let service = configuration.name
        let store = configuration.store
        let stateDirectory = configuration.stateDirectory.map(Self.absolute)
        let keep = configuration.backupKeep
        router.on(Daemon.backup) { input, context in
            guard let store else { throw ServiceError(.unimplemented, "\(service) keeps no store to back up") }
            guard let stateDirectory else {
                throw ServiceError(.unimplemented, "\(service) has no state directory to write its backups under")
            }
            let place = try BackupPlace(input.path, stateDirectory: stateDirectory, keep: keep)
            let bytes = try await Offload.run { try place.write(store) }
            context.logger.notice("backed up the store to \(place.path) (\(bytes) bytes)")
            return Daemon.Backup(service: service, path: place.path, bytes: bytes)
        }
    }

    /// `path` made absolute against the working directory, for an answer another process reads.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
    }
}

/// Where one `daemon.backup` writes: a new file directly in `<state>/backups/`, named by the
/// caller, and nowhere else. The folder is created 0700 if missing, and must be a real folder
/// (not a link) of the daemon's own user; the file must not exist yet (not even as a link); the
/// name is a plain one (no `/`, not `.` or `..`, not hidden, at most 255 bytes).
struct BackupPlace {
    /// `<state>/backups/<name>`.
    let path: String
    /// `<state>/backups`.
    let folder: String
    /// The file's name.
    let name: String

    /// Checks `requested` (a file name, or `<state>/backups/<name>`) against the state folder
    /// and the kept files; throws `invalidInput` naming the path, or `resourceExhausted`.
    init(_ requested: String, stateDirectory: String, keep: Int) throws(ServiceError) {
        folder = Self.trimmed(stateDirectory) + "/backups"
        let name: String
        if requested.hasPrefix("/") {
            guard requested.hasPrefix(folder + "/") else {
                throw Self.refusal(requested, "it is outside \(folder), the only folder a backup may be written to")
            }
            name = String(requested.dropFirst(folder.count + 1))
        } else {
            name = requested
        }
        guard !name.isEmpty, !name.contains("/") else {
            throw Self.refusal(requested, "give a plain file name, written under \(folder)")
        }
        guard name != ".", name != "..", !name.hasPrefix("."), name.utf8.count <= 255, !name.utf8.contains(0) else {
            throw Self.refusal(requested, "a backup's name may not be hidden, `.` or `..`, nor longer than 255 bytes")
        }
        self.name = name
        path = folder + "/" + name
        try Self.prepareFolder(folder, requested: requested)
        var info = stat()
        if lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFLNK { throw Self.refusal(requested, "\(path) is a link") }
            throw ServiceError(
                .conflict, "\(path) exists already: a backup never overwrites a file",
                details: [ErrorDetail("field", "path")])
        }
        let kept = Self.entries(of: folder)
        guard kept < keep else {
            throw ServiceError(
                .resourceExhausted,
                "\(folder) already keeps \(kept) files, the most it may (VERTICALS_BACKUP_KEEP=\(keep)): move or remove "
                    + "some first (`svc-supervisor backup` moves each one it takes)",
                details: [ErrorDetail("field", "path"), ErrorDetail("kept", "\(kept)")])
        }
    }

    /// Writes the copy (owner-only). Only the daemon's own user can change its 0700 folder
    /// between the checks and the write.
    func write(_ store: any VerticalStore) throws -> Int {
        let bytes = try store.backup(to: path)
        chmod(path, 0o600)
        return bytes
    }

    /// Makes `folder` (0700) if missing; refuses a link or anything but a folder of our own.
    private static func prepareFolder(_ folder: String, requested: String) throws(ServiceError) {
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw ServiceError(.internal, "cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(folder, &info) == 0 else {
            throw ServiceError(.internal, "cannot read \(folder): \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw refusal(
                requested,
                "\(folder) is \(info.st_mode & S_IFMT == S_IFLNK ? "a link" : "not a folder"), not the backups folder")
        }
        guard info.st_uid == geteuid() else {
            throw refusal(requested, "\(folder) belongs to uid \(info.st_uid), not to this daemon's user")
        }
    }

    /// How many entries `folder` holds (not `.` and `..`).
    private static func entries(of folder: String) -> Int {
        guard let directory = opendir(folder) else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { count += 1 }
        }
        return count
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private static func refusal(_ requested: String, _ why: String) -> ServiceError {
        ServiceError(
            .invalidInput, "the backup path \"\(requested)\" is refused: \(why)",
            details: [ErrorDetail("field", "path")])
    }
}
