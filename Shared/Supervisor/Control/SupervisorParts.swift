#if canImport(Glibc)
import Glibc
#endif
import Logging
import Synchronization
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit

/// The engine as a part of the supervisor's lifecycle: starts every vertical in dependency order,
/// says once when all of them are ready (``SuiteReadiness``), and at shutdown stops them all
/// (dependents before their dependencies) and closes its sockets.
struct EnginePart: DaemonPart {
    let engine: SupervisorEngine
    /// The manifest's services.
    let services: Set<String>
    let runDirectory: String
    /// When `up` started: the ready line says how long ago.
    let startedAt: ContinuousClock.Instant
    let logger: Logger

    func run() async throws {
        do {
            try await engine.start()
        } catch {
            await engine.stopAll()
            await engine.close()
            throw error
        }
        logger.info("supervising \(services.count) service\(services.count == 1 ? "" : "s") from \(runDirectory)")
        // The ready line is news, not supervision: without a follower the suite runs on unannounced.
        let states = try? await engine.followStates()
        await withDiscardingTaskGroup { group in
            if let states {
                group.addTask { [services, startedAt, logger] in
                    guard await SuiteReadiness.waitForAll(services, in: states) else { return }
                    let elapsed = ContinuousClock.now - startedAt
                    logger.info("\(SuiteReadiness.line(services: services.count, after: elapsed))")
                }
            }
            await waitForShutdown()
            group.cancelAll()
        }
        await engine.stopAll()
        await engine.close()
    }
}

/// SIGHUP re-reads the manifest and applies the difference, for as long as the supervisor runs.
struct HangupReloadPart: DaemonPart {
    let loop: EventLoop
    let reload: @Sendable () async throws -> Supervisor.ReloadResult
    let logger: Logger

    func run() async throws {
        let loop = self.loop
        let reload = self.reload
        let logger = self.logger
        let watcher = try await loop.submit {
            try SignalWatcher(loop: loop, signal: SIGHUP) { _ in
                logger.info("SIGHUP: reloading the manifest")
                Task(executorPreference: loop) {
                    do { _ = try await reload() } catch { logger.error("reload failed: \(error)") }
                }
            }
        }
        await waitForShutdown()
        try? await loop.submit { watcher.close() }
    }
}

/// `down`: the control endpoint answers, stops every service, then ends this part, which
/// ends the supervisor's lifecycle; cancelled with the lifecycle otherwise.
struct DownPart: DaemonPart {
    let request: DownRequest

    func run() async throws {
        await withTaskCancellationHandler {
            await request.wait()
        } onCancel: {
            request.finish()
        }
    }
}

/// The operator's `down`: finished once by the control endpoint (or the lifecycle's shutdown),
/// awaited by ``DownPart``.
final class DownRequest: Sendable {
    private let state = Mutex<(done: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.done else { return nil }
            state.done = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if !state.done { state.waiter = continuation }
                return state.done
            }
            if done { continuation.resume() }
        }
    }
}
