import IOInterface
import Storage

extension Builtins {
    /// Serves `daemon.backup`: a consistent copy of the store the vertical handed to
    /// ``ServiceRuntime/serve(_:store:)``, written by SQLite's online backup on the blocking-work
    /// pool while requests go on. A daemon without a store answers `unimplemented`.
    static func installBackup(into router: inout Router, configuration: HostConfiguration) {
        guard !router.routes(Daemon.backup.fullName) else { return }
        let service = configuration.name
        let store = configuration.store
        router.on(Daemon.backup) { input, context in
            guard let store else { throw ServiceError(.unimplemented, "\(service) keeps no store to back up") }
            guard input.path.hasPrefix("/"), !input.path.hasSuffix("/") else {
                throw ServiceError(
                    .invalidInput, "the backup path must be an absolute file path, not \"\(input.path)\"",
                    details: [ErrorDetail("field", "path")])
            }
            let path = input.path
            let bytes: Int
            do {
                bytes = try await Offload.run { try SQLiteStore.backup(store, to: path) }
            } catch let error as StoreError {
                throw ServiceError(.conflict, error.message, details: [ErrorDetail("field", "path")])
            }
            context.logger.notice("backed up the store to \(path) (\(bytes) bytes)")
            return Daemon.Backup(service: service, path: path, bytes: bytes)
        }
    }
}
