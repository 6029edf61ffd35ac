#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract

extension Builtins {
    /// `daemon.health`, through the same path as any request: decoded, routed, run as a task on
    /// the loop's executor, and across the blocking-work pool (``Offload``) and back. A loop
    /// thread stuck in a handler, a starved executor or a wedged pool leaves it unanswered, and
    /// the caller's deadline decides — unlike a protocol `ping`, answered in the read callback.
    /// With several loops it first waits for each of the `loops` to take a turn, so a handler
    /// stuck on any loop fails it, not only one stuck on the loop the caller's connection is on.
    static func installHealth(into router: inout Router, configuration: HostConfiguration, loops: HostLoops? = nil) {
        guard !router.routes(Daemon.health.fullName) else { return }
        let service = configuration.name
        router.on(Daemon.health) { _, _ in
            let start = MonotonicInstant.now
            try await loops?.eachTakesATurn()
            try await Offload.run {}
            return Daemon.Health(
                service: service, pid: Int(getpid()),
                offloadMicroseconds: Int((MonotonicInstant.now.nanoseconds - start.nanoseconds) / 1_000))
        }
    }
}
