/// Which (state, event) pairs of ``ServiceStateMachine`` the simulated runs reached, out of those
/// the simulated world can feed it.
enum SimulationCoverage {
    /// The core's events, by the function that takes each.
    enum Event: String, CaseIterable, Hashable, Sendable {
        case startRequested, activatedOnDemand, dependenciesChecked, dependencyReady, backoffElapsed, demand
        case spawned, spawnFailed, ready, watchdogPinged, watchdogMissed, livenessChecked, aliveSeen
        case readyTimeoutElapsed, stoppingOnItsOwn, stopRequested, shutdownBegun, stopTimeoutElapsed, exited
        case restoreBegun, restoreEnded, upgradeBegun, upgradeProcessWaitsForStore, upgradeProcessReady
        case upgradeReadyTimeoutElapsed, upgradeProcessFailed, upgradeProcessBackedUp, restartRequested, restartDue
        case preparationBegun, preparationEnded, statusSaid, upgradeProcessSaid
    }

    /// One state, one event fed in it.
    struct Pair: Hashable, Sendable, Comparable, CustomStringConvertible {
        var state: ServiceStateMachine.State
        var event: Event

        var description: String { "\(state) × \(event.rawValue)" }

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.description < rhs.description }
    }

    /// Every pair the world can feed: each state × each event.
    static var all: Set<Pair> {
        Set(ServiceStateMachine.State.all.flatMap { state in Event.allCases.map { Pair(state: state, event: $0) } })
    }

    /// The core's events the world does not feed yet: a strategy's peers, and a failed watch of an
    /// idle socket.
    static let notSimulated = ["watchFailed", "stoppedWithPeer", "heldUntilReady", "restartRequestedWithPeer"]
}
