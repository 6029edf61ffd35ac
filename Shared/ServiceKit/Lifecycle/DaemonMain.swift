import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsSettings

/// The whole life of a vertical's daemon, for its `main.swift`: read the command line, build
/// the runtime and the World, serve until SIGTERM or SIGINT, drain in order, and return the exit
/// status (``DaemonExit``) that `main.swift` alone passes to `exit`:
///
/// ```swift
/// let status = DaemonMain.run(Clinics.self) { runtime in
///     let world = try World.live(runtime: runtime)
///     return ServedVertical(Endpoint.routes(world: world), store: world.database)
/// }
/// exit(status)
/// ```
///
/// `main.swift` stays synchronous on purpose: a top-level `await` runs the rest of `main` on
/// libdispatch's queues, whose worker-pool monitor would then wake the idle daemon every second.
/// Here the main thread blocks while the daemon's ``DaemonLifecycle`` runs on the loop thread.
///
/// The parts, started in this order and stopped in the reverse: the client and the
/// background work (each an ``AtShutdown``), then the host (``HostPart``). So SIGTERM stops
/// the host accepting, lets in-flight requests finish, then cancels and awaits the background
/// work, then closes the client, then the loop stops. A daemon that also runs
/// swift-service-lifecycle services (an HTTP server, a database client) runs them all in one
/// `ServiceGroup` with `VerticalsServiceLifecycle`'s `DaemonMain.run(_:beside:_:)`.
public enum DaemonMain {
    /// Runs `contract`'s daemon; `build` makes its World (opening its store) and says what to serve.
    /// Answers `--help`, `--version` and `--describe` first, nothing opened; see ``DaemonArguments``.
    /// `calls` is the World's `calls`: what `--describe` says this build was compiled against
    /// (without it, `--describe` says the build did not declare its calls).
    public static func run(
        _ contract: any ServiceContract.Type, calls: Callees? = nil,
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        _ build: (ServiceRuntime) throws -> ServedVertical
    ) -> Int32 {
        run(
            name: contract.name, summary: contract.summary, arguments: arguments, describe: describer(contract, calls),
            calls: calls, build
        ) { runtime, served in runtime.serve(served) }
    }

    /// ``run(_:calls:arguments:_:)`` for a vertical that reads settings of its own: `settings` declares
    /// them, `--check` validates them and `--print-settings` prints their reference.
    public static func run(
        _ contract: any ServiceContract.Type, settings: SettingsDeclaration, calls: Callees? = nil,
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        _ build: (ServiceRuntime) throws -> ServedVertical
    ) -> Int32 {
        run(
            name: contract.name, summary: contract.summary, settings: settings, arguments: arguments,
            describe: describer(contract, calls), calls: calls, build
        ) { runtime, served in runtime.serve(served) }
    }

    /// What `--describe` prints for `contract`'s build calling `calls`, made only when asked.
    package static func describer(_ contract: any ServiceContract.Type, _ calls: Callees?) -> () -> BuildDescription {
        {
            BuildDescription.of(
                name: contract.name, summary: contract.summary, operations: contract.operations, calls: calls)
        }
    }

    /// Runs vertical `name`'s daemon; `arguments` are the ones the daemon did not take itself
    /// (default: all after the program name). `describe` is what `--describe` prints (e.g.
    /// `BuildDescription/of(name:summary:operations:calls:)`); without it `--describe` is refused.
    /// With `calls`, the client asks each callee at connect whether it serves what they declare
    /// (`CalleeContracts`).
    public static func run(
        name: String, summary: String = "", arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        describe: (() -> BuildDescription)? = nil, calls: Callees? = nil,
        _ build: (ServiceRuntime) throws -> ServedVertical
    ) -> Int32 {
        run(name: name, summary: summary, arguments: arguments, describe: describe, calls: calls, build) {
            runtime, served in runtime.serve(served)
        }
    }

    /// Runs vertical `name`'s daemon, serving what `build` made with `serve` (which blocks until
    /// the daemon ends): the one path of every entry point from the command line to the exit status.
    package static func run(
        name: String, summary: String, settings: SettingsDeclaration? = nil, arguments: [String],
        describe: (() -> BuildDescription)? = nil, calls: Callees? = nil,
        _ build: (ServiceRuntime) throws -> ServedVertical, serve: (ServiceRuntime, ServedVertical) -> DaemonExit
    ) -> Int32 {
        let runtime: ServiceRuntime
        do {
            runtime = try ServiceRuntime.boot(
                name: name, summary: summary, settings: settings, arguments: arguments, describe: describe, calls: calls
            )
        } catch {
            let end = DaemonExit(error)
            end.report(logger: nil)
            return end.status
        }
        let end: DaemonExit
        do {
            let served = try runtime.makeWorld { try build(runtime) }
            end = runtime.checkOnly ? runtime.checkPassed() : serve(runtime, served)
        } catch {
            end = DaemonExit(error)
        }
        end.report(logger: runtime.logger)
        runtime.loop.shutdown()
        return end.status
    }
}

extension DaemonMain {
    /// Runs `body` as a task on `loop` and blocks the calling thread until it returns its
    /// value: how a synchronous `main` runs a daemon's async life on the loop, so that nothing
    /// of it touches libdispatch's queues (an async `main` runs on them).
    ///
    /// ```swift
    /// let status = DaemonMain.runOnLoop(loop) { await supervise() }
    /// ```
    ///
    /// Never call it on `loop`'s own thread: the task would wait for the thread it blocks.
    public static func runOnLoop<Value: Sendable>(
        _ loop: EventLoop, _ body: @escaping @Sendable () async -> Value
    ) -> Value {
        precondition(!loop.inEventLoop, "runOnLoop blocks its thread: call it from main, not from the loop")
        let result = BlockingResult<Value>()
        Task(executorPreference: loop) { result.set(await body()) }
        return result.wait()
    }
}

/// What a daemon serves, as its `main.swift` builds it from the World: the vertical's router
/// and its own store (what `daemon.backup` copies).
public struct ServedVertical {
    /// The vertical's operations.
    public let router: Router
    /// The vertical's store, if it has one.
    public let store: (any VerticalStore)?

    /// Serves `router`; `store` is the vertical's own store (VerticalsStorage adds
    /// `init(_:store:)` taking its SQLite database).
    public init(_ router: Router, store: (any VerticalStore)? = nil) {
        self.router = router
        self.store = store
    }
}
