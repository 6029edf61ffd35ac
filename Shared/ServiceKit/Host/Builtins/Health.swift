#if canImport(Glibc)
import Glibc
#endif
import VerticalsClient
import VerticalsContract

extension Builtins {
    /// `daemon.health`, through the same path as any request: decoded, routed, run as a task on
    /// the loop's executor, and across the blocking-work pool (``Offload``) and back. A loop
    /// thread stuck in a handler or a starved executor leaves it unanswered, and the caller's
    /// deadline decides — unlike a protocol `ping`, answered in the read callback; a wedged pool
    /// answers `unavailable`, saying so.
    /// With several loops it first waits for each of the `loops` to take a turn, so a handler
    /// stuck on any loop fails it, not only one stuck on the loop the caller's connection is on.
    ///
    /// While every thread of the pool is busy (long password hashes, a backup), the check does
    /// not wait behind the pool's queue, which a liveness deadline would take for a hang; it
    /// reads the pool's progress instead (``Offload/proveMoving(_:)``): healthy while a thread
    /// took its job within ``BlockingWorkLimits/stallLimit``, `unavailable` once every thread has
    /// been on one job for longer.
    static func installHealth(
        into router: inout Router, configuration: HostConfiguration, loops: HostLoops? = nil,
        pool: BlockingThreads = .shared
    ) {
        guard !router.routes(Daemon.health.fullName) else { return }
        let service = configuration.name
        let contracts = configuration.calleeContracts
        router.on(Daemon.health) { _, _ in
            let start = MonotonicInstant.now
            try await loops?.eachTakesATurn()
            try await Offload.proveMoving(pool)
            return Daemon.Health(
                service: service, pid: Int(getpid()),
                offloadMicroseconds: Int((MonotonicInstant.now.nanoseconds - start.nanoseconds) / 1_000),
                callees: contracts?.health ?? [])
        }
    }
}
