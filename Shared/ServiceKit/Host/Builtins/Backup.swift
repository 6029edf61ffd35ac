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
    /// An absolute path is written where it says. A plain file name (no `/`) is written under
    /// `backups/` in the vertical's state directory, the one folder a sandboxed daemon can always
    /// write (systemd's `ProtectSystem=strict`): `svc-supervisor backup` asks for that and moves
    /// the file to the operator's folder itself. The answer's `path` is always absolute.
    static func installBackup(into router: inout Router, configuration: HostConfiguration) {
        guard !router.routes(Daemon.backup.fullName) else { return }
        let service = configuration.name
        let store = configuration.store
        let stateDirectory = configuration.stateDirectory
        router.on(Daemon.backup) { input, context in
            guard let store else { throw ServiceError(.unimplemented, "\(service) keeps no store to back up") }
            let path: String
            if input.path.hasPrefix("/"), !input.path.hasSuffix("/") {
                path = input.path
            } else if let stateDirectory, !input.path.isEmpty, !input.path.contains("/"), !input.path.hasPrefix(".") {
                let folder = Self.absolute(stateDirectory) + "/backups"
                guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
                    throw ServiceError(.internal, "cannot create \(folder): \(String(cString: strerror(errno)))")
                }
                path = "\(folder)/\(input.path)"
            } else {
                throw ServiceError(
                    .invalidInput,
                    "the backup path must be an absolute file path, or a file name to write under the state "
                        + "directory's backups/, not \"\(input.path)\"",
                    details: [ErrorDetail("field", "path")])
            }
            let bytes = try await Offload.run { try store.backup(to: path) }
            context.logger.notice("backed up the store to \(path) (\(bytes) bytes)")
            return Daemon.Backup(service: service, path: path, bytes: bytes)
        }
    }

    /// `path` made absolute against the working directory, for an answer another process reads.
    private static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
    }
}
