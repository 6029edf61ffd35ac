import VerticalsEventLoop

/// A ``ServiceHost`` as a ``Service``: starts listening, serves until shutdown, then stops
/// accepting and drains in-flight requests (up to the host's drain timeout).
///
/// - Throws: ``DaemonExit/socketUnavailable(_:)`` when the socket cannot be had (path too long,
///   address in use): status 69.
public struct HostService: Service {
    /// The host served.
    public let host: ServiceHost

    /// Serves `host` as a service of its daemon.
    public init(_ host: ServiceHost) {
        self.host = host
    }

    /// Serves until the task is cancelled, then drains.
    public func run() async throws {
        do {
            try await host.start()
        } catch {
            throw DaemonExit.socketUnavailable("cannot serve \(host.configuration.name): \(error)")
        }
        await gracefulShutdown()
        await host.stop()
    }
}

/// A daemon's ``BackgroundWork`` as a ``Service``: at shutdown it refuses new work, cancels
/// every task (the outbox's retry sleep included) and returns once each has returned.
public struct BackgroundService: Service {
    /// The work ended with the daemon.
    public let work: BackgroundWork

    /// Ends `work` with its daemon.
    public init(_ work: BackgroundWork) {
        self.work = work
    }

    /// Waits for shutdown, then cancels and awaits the background tasks.
    public func run() async throws {
        await gracefulShutdown()
        await work.stop()
    }
}

/// A daemon's ``ServiceClient`` as a ``Service``: closed at shutdown, after everything that
/// calls other verticals with it has stopped.
public struct ClientService: Service {
    /// The client closed with the daemon.
    public let client: ServiceClient

    /// Closes `client` when its daemon stops.
    public init(_ client: ServiceClient) {
        self.client = client
    }

    /// Waits for shutdown, then closes the client's connections.
    public func run() async throws {
        await gracefulShutdown()
        client.close()
    }
}
