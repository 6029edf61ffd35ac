/// One thing that happens in the simulated world. The seed chooses them one per step; a trace
/// is the list chosen, and replaying a list (or, while shrinking, part of one) skips each that no
/// longer applies, so every part of a trace is a run of its own.
enum SimulationHappening: Hashable, Sendable, CustomStringConvertible {
    /// An operator's command arrives.
    case command(SimulationCommand)
    /// A process says `READY=1`.
    case processReady(SimulatedRole)
    /// The upgrade's new process prepared and waits for the store (`X_VERTICALS_STORE_WAIT=1`).
    case processWaitsForStore
    /// A process ends, as it says (a `SIGKILL` it was sent overrides what it would have said).
    case processExits(SimulatedRole, SimulatedExit)
    /// A process says `STATUS=`, its `count`th line (each says other words).
    case processSaysStatus(SimulatedRole, count: Int)
    /// The service's process says `WATCHDOG=1`.
    case watchdogPing
    /// The service's process says `STOPPING=1`.
    case stoppingOnItsOwn
    /// A caller connects to the socket of an idle service.
    case caller
    /// The service's dependency becomes ready, or goes down.
    case dependency(ready: Bool)
    /// The executable becomes impossible to start, or possible again.
    case executable(broken: Bool)
    /// The restore that runs off the loop ends.
    case restoreFinishes
    /// The work a spawn waits for off the loop (the folders' walk, the first store's restore from
    /// its replica) ends, well or `failed`.
    case preparationEnds(failed: Bool)
    /// Time passes, short of the next timer.
    case timePasses(milliseconds: Int)
    /// The earliest timer fires (time moves to it); a liveness check it starts passes or not.
    case nextTimerFires(checkPasses: Bool)
    /// The machine sleeps.
    case suspend(milliseconds: Int)
    /// The wall clock is set, forward or back.
    case wallClockSet(milliseconds: Int)
    /// The replica's Litestream process ends (a SIGKILL it was sent overrides `clean`).
    case replicaExits(clean: Bool)

    /// The words of a process's `count`th `STATUS=` line.
    static func statusWords(_ count: Int) -> String { "serving \(count)" }

    var description: String {
        switch self {
        case .command(let command): "command \(command)"
        case .processReady(let role): "\(role) process says READY=1"
        case .processWaitsForStore: "upgrade process waits for the store"
        case .processExits(let role, let exit): "\(role) process exits \(exit)"
        case .processSaysStatus(let role, let count): "\(role) process says STATUS=\(Self.statusWords(count))"
        case .watchdogPing: "own process says WATCHDOG=1"
        case .stoppingOnItsOwn: "own process says STOPPING=1"
        case .caller: "a caller connects"
        case .dependency(let ready): ready ? "the dependency is ready" : "the dependency goes down"
        case .executable(let broken): broken ? "the executable breaks" : "the executable is mended"
        case .restoreFinishes: "the restore ends"
        case .preparationEnds(let failed): "the spawn's work off the loop " + (failed ? "fails" : "ends")
        case .timePasses(let ms): "\(ms) ms pass"
        case .nextTimerFires(let passes): "the next timer fires" + (passes ? "" : " (a check would fail)")
        case .suspend(let ms): "the machine sleeps \(ms) ms"
        case .wallClockSet(let ms): "the wall clock is set by \(ms) ms"
        case .replicaExits(let clean): "litestream exits" + (clean ? " cleanly" : " with a failure")
        }
    }
}

/// An operator's command, as `svc-supervisor` sends it.
enum SimulationCommand: String, Hashable, Sendable, CaseIterable {
    case start, stop, restart, upgrade, restore, down
}

/// Which process a happening is about.
enum SimulatedRole: String, Hashable, Sendable {
    /// The service's own process.
    case own
    /// An upgrade's new process, before it is the service's own.
    case upgrade
    /// A process the supervisor let go of (an abandoned upgrade's), still to be reaped.
    case orphan
}

/// How a simulated process ends.
enum SimulatedExit: String, Hashable, Sendable, CaseIterable {
    /// Status 0.
    case clean
    /// Status 1.
    case failure
    /// Status 78: a restart cannot help.
    case restartCannotHelp
    /// Its memory cgroup's OOM killer.
    case limit
    /// Its stop signal ended it.
    case terminated
    /// `SIGKILL`.
    case killed

    /// How the engine words it (`status`'s last exit).
    var words: String {
        switch self {
        case .clean: "exited with status 0"
        case .failure: "exited with status 1"
        case .restartCannotHelp: "exited with status 78"
        case .limit: "limit: memory 32 MiB exceeded (oom_kill 1); killed by signal 9 (SIGKILL)"
        case .terminated: "killed by signal 15 (SIGTERM)"
        case .killed: "killed by signal 9 (SIGKILL)"
        }
    }
}
