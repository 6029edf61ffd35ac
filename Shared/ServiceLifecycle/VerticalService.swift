import Logging
import ServiceLifecycle
import VerticalsServiceKit

/// A vertical's whole daemon (its client, background work and host, in their
/// `DaemonLifecycle`) as one swift-service-lifecycle `Service`, so it runs in that library's
/// `ServiceGroup` beside an HTTP server, a database client or any other service, with one
/// graceful shutdown.
///
/// When the group shuts down gracefully (SIGTERM, SIGINT, or a service that ended), the
/// vertical stops accepting, lets its in-flight requests finish, stops its background work and
/// closes its client; then `run()` returns. When the group cancels it, it does the same at once.
/// Put it last in the group's services, so it drains before the services it may call:
///
/// ```swift
/// ServiceGroup(configuration: .init(services: [.init(service: http), .init(service: vertical)], …))
/// ```
///
/// `DaemonMain/run(_:calls:arguments:beside:_:)` builds one and its group; build one yourself only
/// with a lifecycle that watches no signal (`signals: []`): the group owns them.
public struct VerticalService: Service {
    /// The vertical's parts, run on its loop.
    public let lifecycle: DaemonLifecycle
    private let logger: Logger

    /// Runs `lifecycle` as a service; `logger` says when it has drained.
    public init(_ lifecycle: DaemonLifecycle, logger: Logger) {
        self.lifecycle = lifecycle
        self.logger = logger
    }

    /// Serves until the group's graceful shutdown (or its cancellation), then drains in order and
    /// returns.
    ///
    /// - Throws: what a part of the vertical threw (`DaemonExit/socketUnavailable(_:)` when its
    ///   socket cannot be had).
    public func run() async throws {
        let lifecycle = self.lifecycle
        try await withGracefulShutdownHandler {
            try await lifecycle.run()
        } onGracefulShutdown: {
            lifecycle.triggerGracefulShutdown(reason: "the service group shuts down gracefully")
        }
        logger.info("drained: every request answered, background work stopped, client closed")
    }
}
