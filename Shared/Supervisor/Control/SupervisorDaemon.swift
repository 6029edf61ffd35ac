#if canImport(Glibc)
import Glibc
#endif
import Logging
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisorClient

/// `svc-supervisor up`: the engine, its control socket and its signals, until SIGTERM,
/// SIGINT or `down`.
///
/// The control socket is bound first (it refuses a second supervisor on the run directory);
/// then one `DaemonLifecycle` on the loop runs the control socket, SIGHUP's reload, `down` and
/// the engine, and stops them in the reverse order: every vertical (dependents first), then
/// the reload watcher, then the control socket. The status returned is the one place a failure
/// becomes an exit status; svc-supervisor's entry point exits with it, and nothing here exits.
///
/// ```swift
/// let status = SupervisorDaemon.run(configuration: configuration, loadManifest: { try load(path) })
/// // svc-supervisor's entry point ends the process with it
/// ```
public enum SupervisorDaemon {
    /// Runs the supervisor in the foreground; returns the process exit status (0 after an
    /// orderly stop, 65 (EX_DATAERR) when the manifest is invalid, 1 when it could not start).
    ///
    /// - SIGTERM, SIGINT, `down`: stop every service in reverse dependency order, then return 0.
    /// - SIGHUP, `reload`: re-read the manifest with `loadManifest` and apply the difference.
    /// - `pointer`: where to leave a note of the run directory while it serves (`SuitePointer`),
    ///   so the CLI finds the suite from any folder; removed on an orderly stop.
    ///
    /// Blocks the calling thread (`main`'s) while the supervisor runs on its loop thread: the
    /// whole daemon lives on the loop, so an idle supervisor sleeps.
    public static func run(
        configuration: EngineConfiguration, loadManifest: @escaping @Sendable () throws -> Manifest,
        pointer: SuitePointer? = nil, logger: Logger = Logger(label: "supervisor")
    ) -> Int32 {
        let startedAt = ContinuousClock.now
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
        let status = DaemonMain.runOnLoop(loop) {
            await serve(
                manifest: manifest, configuration: configuration, loadManifest: loadManifest, pointer: pointer,
                startedAt: startedAt, logger: logger, loop: loop)
        }
        loop.shutdown()
        return status
    }

    /// The supervisor's life on `loop`, once the manifest was read: its status.
    private static func serve(
        manifest: Manifest, configuration: EngineConfiguration,
        loadManifest: @escaping @Sendable () throws -> Manifest, pointer: SuitePointer?,
        startedAt: ContinuousClock.Instant, logger: Logger, loop: EventLoop
    ) async -> Int32 {
        let engine = SupervisorEngine(manifest: manifest, configuration: configuration, loop: loop, logger: logger)
        let down = DownRequest()
        let reload: @Sendable () async throws -> Supervisor.ReloadResult = {
            let result = try await engine.apply(try loadManifest())
            logger.info(
                "reloaded: added \(result.added), removed \(result.removed), changed \(result.changed)")
            return result
        }
        let router = ControlEndpoint.routes(engine: engine, reload: reload) { down.finish() }
        var hostConfiguration = HostConfiguration(
            name: Supervisor.name, socketDirectory: SocketDirectory(configuration.runDirectory.path))
        // Each start, stop, restart, reload, down, restore and upgrade is an audit line: who, and how it ended.
        hostConfiguration.access.auditedOperations.formUnion(
            [Supervisor.start, Supervisor.stop, Supervisor.restart].map(\.fullName)
                + [Supervisor.reload.fullName, Supervisor.down.fullName, Supervisor.restore.fullName]
                + [Supervisor.upgrade.fullName])
        let host = ServiceHost(configuration: hostConfiguration, router: router, loop: loop, logger: logger)
        do {
            // The control socket first, before the group: it refuses to start a second supervisor
            // on this run directory before this one touches the other's children or sockets.
            try await host.start()
        } catch let error as EventLoopError where error.kind == .addressInUse {
            logger.critical(
                "a supervisor already runs at \(configuration.runDirectory.controlSocket): stop it with `svc-supervisor down`"
            )
            return 1
        } catch {
            logger.critical("cannot serve \(configuration.runDirectory.controlSocket): \(error)")
            return 1
        }
        // The supervisor's own user alone may ask it anything (root, under a user per vertical):
        // the operator group calls the verticals, never the supervisor that runs them as root.
        guard chmod(configuration.runDirectory.controlSocket, ControlSocket.mode) == 0 else {
            logger.critical(
                "cannot make \(configuration.runDirectory.controlSocket) its user's alone: \(SupervisorError.errnoText())"
            )
            await host.stop()
            return 1
        }
        let replaced = pointer?.liveTarget()
        do {
            // Readable by the operator group the suite's sockets belong to.
            try pointer?.write(
                runDirectory: configuration.runDirectory.path,
                group: configuration.serviceUsers?.operatorGroup ?? "verticals")
            if let replaced, replaced.runDirectory != configuration.runDirectory.path {
                // Two suites, one CLI: say which one its commands now reach, and how to reach the other.
                let other = "the one still running at \(replaced.runDirectory) (svc-supervisor pid \(replaced.pid))"
                logger.info(
                    "the CLI now reaches this suite, not \(other): pass --run-dir \(replaced.runDirectory) to reach that one"
                )
            }
        } catch {
            logger.warning("\(error): `svc-supervisor status` finds this suite only with --run-dir")
        }
        defer { pointer?.remove(restoring: replaced) }
        // One lifecycle: SIGTERM, SIGINT or `down` (which ends its part) stop, in reverse order, the
        // engine (every service, dependents first), then SIGHUP's watcher, then the control socket.
        let lifecycle = DaemonLifecycle(
            parts: [
                AtShutdown { await host.stop() }, HangupReloadPart(loop: loop, reload: reload, logger: logger),
                DownPart(request: down),
                EnginePart(
                    engine: engine, services: Set(manifest.services.map(\.name)),
                    runDirectory: configuration.runDirectory.path, startedAt: startedAt, logger: logger),
            ],
            loop: loop, logger: logger)
        do {
            try await lifecycle.run()
        } catch {
            logger.critical("cannot start: \(error)")
            return 1
        }
        logger.info("every service stopped")
        return 0
    }
}
