import VerticalsContract
import VerticalsServiceKit
import VerticalsWire

/// The Supervisor contract served over the engine: the routes of `<run>/supervisor.sock`.
public enum ControlEndpoint {
    /// Routes for every `Supervisor` operation.
    ///
    /// - Parameters:
    ///   - engine: the engine each operation acts on.
    ///   - reload: re-reads the manifest and applies it (``SupervisorEngine/apply(_:)``).
    ///   - down: called once every service stopped, after `down` answers, to end the daemon.
    public static func routes(
        engine: SupervisorEngine, reload: @escaping @Sendable () async throws -> Supervisor.ReloadResult,
        down: @escaping @Sendable () -> Void
    ) -> Router {
        var router = Router(service: Supervisor.self)
        router.on(Supervisor.status) { _, _ in
            Supervisor.StatusList(services: try await engine.status())
        }
        router.on(Supervisor.start) { input, _ in
            try await engine.startService(input.name)
        }
        router.on(Supervisor.stop) { input, _ in
            try await engine.stopService(input.name)
        }
        router.on(Supervisor.restart) { input, _ in
            try await engine.restartService(input.name)
        }
        router.on(Supervisor.reload) { _, _ in
            do {
                return try await reload()
            } catch let error as ServiceError {
                throw error
            } catch {
                throw ServiceError(.invalidInput, "the manifest was not applied: \(error)")
            }
        }
        router.on(Supervisor.restore) { input, _ in
            try await restore(input, on: engine)
        }
        router.on(Supervisor.upgrade) { input, _ in
            try await engine.upgradeService(input.name, executable: input.executable, force: input.force)
        }
        router.onStream(Supervisor.logs) { input, _ in
            guard (0...Supervisor.LogsInput.maxLines).contains(input.lines) else {
                throw ServiceError(
                    .invalidInput, "lines must be 0 ... \(Supervisor.LogsInput.maxLines), not \(input.lines)",
                    details: [ErrorDetail("field", "lines")])
            }
            return try await engine.followLog(input.name, lines: input.lines).map { Supervisor.LogLine(text: $0) }
        }
        router.onStream(Supervisor.watch) { _, _ in
            try await engine.followStates()
        }
        router.on(Supervisor.down) { _, _ in
            await engine.stopAll()
            down()
            return Empty()
        }
        return router
    }

    /// A restore from the backup file `input` names, or from the service's replica when it says
    /// `fromReplica`: exactly one of the two, and a time only with the replica.
    private static func restore(_ input: Supervisor.RestoreInput, on engine: SupervisorEngine) async throws
        -> Supervisor.RestoreResult
    {
        switch (input.file, input.fromReplica) {
        case (let file?, false):
            guard input.at == nil else {
                throw ServiceError(
                    .invalidInput, "a time to restore to goes with fromReplica: a backup file holds one moment",
                    details: [ErrorDetail("field", "at")])
            }
            return try await engine.restoreStore(input.name, from: file)
        case (nil, true):
            return try await engine.restoreStoreFromReplica(input.name, at: input.at.map(RFC3339.format))
        case (_?, true):
            throw ServiceError(
                .invalidInput, "restore \(input.name) from a backup file or from its replica, not both",
                details: [ErrorDetail("field", "file")])
        case (nil, false):
            throw ServiceError(
                .invalidInput, "name the backup to restore \(input.name) from, or restore it from its replica",
                details: [ErrorDetail("field", "file")])
        }
    }
}
