import VerticalsEventLoop

/// A ``ServiceHost`` as a ``DaemonPart``: starts listening, serves until shutdown, then stops
/// accepting and drains in-flight requests (up to the host's drain timeout).
///
/// - Throws: ``DaemonExit/socketUnavailable(_:)`` when the socket cannot be had (path too long,
///   address in use): status 69; ``DaemonExit/configurationInvalid(_:)`` when `VERTICALS_LOOPS`
///   is not a number of loops: status 78.
public struct HostPart: DaemonPart {
    /// The host served.
    public let host: ServiceHost

    /// Serves `host` as a part of its daemon.
    public init(_ host: ServiceHost) {
        self.host = host
    }

    /// Serves until the task is cancelled, or until the host exits because it was idle
    /// (``HostConfiguration/idleExit``), then drains. Returning on its own ends the daemon: the
    /// lifecycle stops the other parts and the process exits 0.
    public func run() async throws {
        do {
            try await host.start()
        } catch let problem as LoopCountError {
            throw DaemonExit.configurationInvalid("cannot serve \(host.configuration.name): \(problem)")
        } catch {
            throw DaemonExit.socketUnavailable("cannot serve \(host.configuration.name): \(error)")
        }
        await waitForShutdown(or: host.idleExitSignal)
        await host.stop()
    }
}

/// A part that is already running and only needs its place in the shutdown order, as a
/// ``DaemonPart``: it waits for graceful shutdown, then runs `action` and returns. A daemon's
/// client (closed last) and background work (cancelled and awaited after the host drains), the
/// supervisor's control socket (bound before the lifecycle runs, stopped after every vertical):
///
/// ```swift
/// DaemonLifecycle(parts: [AtShutdown { client.close() }, AtShutdown { await work.stop() }, HostPart(host)], …)
/// ```
public struct AtShutdown: DaemonPart {
    private let action: @Sendable () async -> Void

    /// A part that runs `action` at graceful shutdown.
    public init(_ action: @escaping @Sendable () async -> Void) {
        self.action = action
    }

    /// Waits for shutdown, then runs the action.
    public func run() async throws {
        await waitForShutdown()
        await action()
    }
}
