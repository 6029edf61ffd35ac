#if canImport(Glibc)
import Glibc
#endif
import EventLoop
import IOInterface
import Logging
import ServiceKit
import Synchronization

/// `svc-supervisor up`: the engine, its control socket and its signals, until SIGTERM,
/// SIGINT or `down`.
///
/// ```swift
/// let status = await SupervisorDaemon.run(configuration: configuration, loadManifest: { try load(path) })
/// exit(status)
/// ```
public enum SupervisorDaemon {
    /// Runs the supervisor in the foreground; returns the process exit status (0 after an
    /// orderly stop, 65 (EX_DATAERR) when the manifest is invalid, 1 when it could not start).
    ///
    /// - SIGTERM, SIGINT, `down`: stop every service in reverse dependency order, then return 0.
    /// - SIGHUP, `reload`: re-read the manifest with `loadManifest` and apply the difference.
    /// - `pointer`: where to leave a note of the run directory while it serves (``SuitePointer``),
    ///   so the CLI finds the suite from any folder; removed on an orderly stop.
    public static func run(
        configuration: EngineConfiguration, loadManifest: @escaping @Sendable () throws -> Manifest,
        pointer: SuitePointer? = nil, logger: Logger = Logger(label: "supervisor")
    ) async -> Int32 {
        let manifest: Manifest
        do {
            manifest = try loadManifest()
        } catch {
            // A restart cannot fix a manifest: 65 (EX_DATAERR) as `check` says, and the exported
            // unit's RestartPreventExitStatus= keeps systemd from looping on it.
            logger.critical("cannot start: \(error)")
            return 65
        }
        let loop: EventLoop
        do {
            try configuration.runDirectory.prepare()
            loop = try EventLoop(name: "supervisor")
        } catch {
            logger.critical("cannot start: \(error)")
            return 1
        }
        let engine = SupervisorEngine(manifest: manifest, configuration: configuration, loop: loop, logger: logger)
        let ending = Ending()
        let reload: @Sendable () async throws -> Supervisor.ReloadResult = {
            let result = try await engine.apply(try loadManifest())
            logger.info(
                "reloaded: added \(result.added), removed \(result.removed), changed \(result.changed)")
            return result
        }
        let router = ControlEndpoint.routes(engine: engine, reload: reload) { ending.finish() }
        let host = ServiceHost(
            configuration: HostConfiguration(
                name: Supervisor.name, socketDirectory: SocketDirectory(configuration.runDirectory.path)),
            router: router, loop: loop, logger: logger)
        defer { loop.shutdown() }
        do {
            // The control socket first: it refuses to start a second supervisor on this run
            // directory before this one touches the other's children or sockets.
            try await host.start()
        } catch let error as EventLoopError where error.kind == .addressInUse {
            logger.critical(
                "a supervisor already runs at \(configuration.runDirectory.controlSocket): stop it with `svc-supervisor down`")
            return 1
        } catch {
            logger.critical("cannot serve \(configuration.runDirectory.controlSocket): \(error)")
            return 1
        }
        let replaced = pointer?.liveTarget()
        do {
            try pointer?.write(runDirectory: configuration.runDirectory.path)
        } catch {
            logger.warning("\(error): `svc-supervisor status` finds this suite only with --run-dir")
        }
        defer { pointer?.remove(restoring: replaced) }
        let watchers = Watchers()
        do {
            try await loop.submit {
                for signal in [SIGTERM, SIGINT] {
                    watchers.add(try SignalWatcher(loop: loop, signal: signal) { received in
                        logger.info("signal \(received): stopping every service")
                        ending.finish()
                    })
                }
                watchers.add(try SignalWatcher(loop: loop, signal: SIGHUP) { _ in
                    logger.info("SIGHUP: reloading the manifest")
                    Task(executorPreference: loop) {
                        do { _ = try await reload() } catch { logger.error("reload failed: \(error)") }
                    }
                })
            }
            try await engine.start()
            logger.info("supervising \(manifest.services.count) services from \(configuration.runDirectory.path)")
        } catch {
            logger.critical("cannot start: \(error)")
            await engine.stopAll()
            await engine.close()
            await host.stop()
            return 1
        }
        await ending.wait()
        await engine.stopAll()
        await engine.close()
        await host.stop()
        try? await loop.submit { watchers.closeAll() }
        logger.info("every service stopped")
        return 0
    }
}

/// Signal watchers kept until the daemon ends; touched only on the loop thread.
private final class Watchers: @unchecked Sendable {
    // @unchecked Sendable: `add` and `closeAll` are only called inside `loop.submit`.
    private var watchers: [SignalWatcher] = []
    func add(_ watcher: SignalWatcher) { watchers.append(watcher) }
    func closeAll() {
        for watcher in watchers { watcher.close() }
        watchers.removeAll()
    }
}

/// The daemon's end: finished once by a signal or `down`, awaited by ``SupervisorDaemon/run``.
private final class Ending: Sendable {
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
