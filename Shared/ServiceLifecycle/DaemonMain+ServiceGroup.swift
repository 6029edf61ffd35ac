import ServiceLifecycle
import VerticalsClient
import VerticalsContract
import VerticalsServiceKit
import VerticalsSettings

extension DaemonMain {
    /// Runs `contract`'s daemon as ``DaemonMain/run(_:calls:arguments:_:)`` does, in one
    /// swift-service-lifecycle `ServiceGroup` with the services `beside` makes: they start first,
    /// in their order, then the vertical (``VerticalService``). SIGTERM or SIGINT shuts the group
    /// down gracefully in reverse order: the vertical drains its in-flight requests first, then
    /// each of the others is asked to shut down once the one after it has returned.
    ///
    /// ```swift
    /// let status = DaemonMain.run(Inventory.self, beside: { runtime in [HealthServer(logger: runtime.logger)] }) { runtime in
    ///     let world = try World.live(runtime: runtime)
    ///     return ServedVertical(Endpoint.routes(world: world), store: world.database)
    /// }
    /// exit(status)
    /// ```
    ///
    /// `beside` runs once the World is built, and not under `--check`; a service that ends or
    /// throws by itself shuts the whole group down gracefully. Signals reach the group through
    /// libdispatch's signal sources, which stay asleep while nothing arrives; the services
    /// `beside` makes decide the rest of the daemon's idle wake-ups (a timer of theirs wakes it).
    ///
    /// - Returns: the exit status (``DaemonExit``): `beside` throwing is status 70, as any
    ///   start-up failure.
    ///
    /// `calls` is the World's `calls`, which `--describe` prints as what the build was compiled against.
    public static func run(
        _ contract: any ServiceContract.Type, calls: Callees? = nil,
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        beside: (ServiceRuntime) throws -> [any Service], _ build: (ServiceRuntime) throws -> ServedVertical
    ) -> Int32 {
        run(
            name: contract.name, summary: contract.summary, settings: nil, arguments: arguments,
            describe: describer(contract, calls), calls: calls, beside: beside, build)
    }

    /// ``run(_:calls:arguments:beside:_:)`` for a vertical that reads settings of its own: `settings`
    /// declares them (see ``DaemonMain/run(_:settings:calls:arguments:_:)``).
    public static func run(
        _ contract: any ServiceContract.Type, settings: SettingsDeclaration, calls: Callees? = nil,
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        beside: (ServiceRuntime) throws -> [any Service], _ build: (ServiceRuntime) throws -> ServedVertical
    ) -> Int32 {
        run(
            name: contract.name, summary: contract.summary, settings: settings, arguments: arguments,
            describe: describer(contract, calls), calls: calls, beside: beside, build)
    }

    /// ``run(_:calls:arguments:beside:_:)`` for vertical `name`.
    public static func run(
        name: String, summary: String = "", arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        beside: (ServiceRuntime) throws -> [any Service], _ build: (ServiceRuntime) throws -> ServedVertical
    ) -> Int32 {
        run(name: name, summary: summary, settings: nil, arguments: arguments, beside: beside, build)
    }

    /// ``run(name:summary:arguments:beside:_:)`` with the vertical's own `settings`, when it declares any.
    static func run(
        name: String, summary: String, settings: SettingsDeclaration?, arguments: [String],
        describe: (() -> BuildDescription)? = nil, calls: Callees? = nil,
        beside: (ServiceRuntime) throws -> [any Service], _ build: (ServiceRuntime) throws -> ServedVertical
    ) -> Int32 {
        run(
            name: name, summary: summary, settings: settings, arguments: arguments, describe: describe, calls: calls,
            build
        ) {
            runtime, served in
            let others: [any Service]
            do {
                others = try beside(runtime)
            } catch {
                return .cannotStart("svc-\(name): cannot start the services beside the vertical: \(error)\n")
            }
            let logger = runtime.logger
            // The group owns the signals; the vertical's lifecycle watches none.
            return runtime.serve(served, signals: []) { lifecycle in
                let ends = ServiceGroupConfiguration.ServiceConfiguration.TerminationBehavior.gracefullyShutdownGroup
                let services = (others + [VerticalService(lifecycle, logger: logger)]).map {
                    ServiceGroupConfiguration.ServiceConfiguration(
                        service: $0, successTerminationBehavior: ends, failureTerminationBehavior: ends)
                }
                let group = ServiceGroup(
                    configuration: ServiceGroupConfiguration(
                        services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
                try await group.run()
            }
        }
    }
}
