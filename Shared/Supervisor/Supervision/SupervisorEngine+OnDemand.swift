#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract
import VerticalsEventLoop
import VerticalsSupervisorClient

// On-demand start (`start = "on-demand"`, and the return after an `idle_exit`): the supervisor
// keeps the listening socket it holds anyway, watches it for a waiting connection without
// accepting it, and starts the service then; the caller waits in the backlog and the new
// process accepts it. All on the loop thread.
extension SupervisorEngine {
    /// Brings `unit` up as the manifest asks at start (and at a reload): on demand, idle with its
    /// socket watched; else started once its dependencies are ready.
    func activate(_ unit: ServiceUnit) {
        guard unit.spec.start == .onDemand, unit.spec.socket else {
            want(unit, fresh: true)
            return
        }
        transition(unit) { $0.activatedOnDemand() }
    }

    /// `unit` has no process and its next caller starts it: its socket watched, or, when it
    /// cannot be, started now (``ServiceStateMachine/watchFailed()``).
    func watchIdle(_ unit: ServiceUnit) {
        do {
            try bindSocket(unit)
            try watchForDemand(unit)
        } catch {
            unit.log.note("cannot watch its socket for callers: \(error); starting it now")
            logger.error("\(unit.spec.name): cannot watch its socket for callers: \(error); starting it now")
            transition(unit) { $0.watchFailed() }
        }
    }

    /// Stops watching `unit`'s socket (it starts, stops, or its socket is released).
    func stopWatchingForDemand(_ unit: ServiceUnit) {
        unit.demand?.close()
        unit.demand = nil
    }

    /// A libuv poll on a duplicate of the listening socket: the poll owns and closes its fd,
    /// while the socket itself stays the unit's, handed to each process. Level-triggered, so a
    /// caller already waiting in the backlog (one that came as the last process exited) starts
    /// the service at once.
    private func watchForDemand(_ unit: ServiceUnit) throws {
        guard unit.demand == nil, let fd = unit.listeningFD else { return }
        let watched = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        guard watched >= 0 else { throw SupervisorError.system("dup of its socket") }
        do {
            unit.demand = try FDPoll(fd: watched, on: loop) { [weak unit] in
                guard let unit else { return }
                self.demanded(unit)
            }
        } catch {
            Glibc.close(watched)
            throw error
        }
    }

    /// A caller is waiting in `unit`'s backlog: start it (once its dependencies are ready, as any
    /// start); the caller is accepted by the new process.
    private func demanded(_ unit: ServiceUnit) {
        stopWatchingForDemand(unit)
        guard unit.state == .idle, unit.wanted, !isClosed else { return }
        unit.log.note("a caller is waiting on its socket: starting on demand")
        transition(unit) { $0.demand() }
    }

}
