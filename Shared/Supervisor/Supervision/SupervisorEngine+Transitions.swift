#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract

// The glue between a unit's ``ServiceStateMachine`` and the world: an event goes in, the new
// state is said to observers, and the actions that come out are performed (processes, signals,
// timers, sockets). All on the loop thread.
extension SupervisorEngine {
    /// Feeds one event to `unit`'s machine, then says the new state (its status text first) and
    /// performs the actions the machine returned, in order.
    func transition(_ unit: ServiceUnit, _ event: (inout ServiceStateMachine) -> [ServiceStateMachine.Action]) {
        let before = unit.machine.state
        let actions = event(&unit.machine)
        let after = unit.machine.state
        describe(unit, from: before, to: after, actions)
        // A spawn says `starting` itself once the process has a pid.
        let spawns = actions.contains(.spawn)
        if !spawns, before.wire != after.wire || actions.contains(where: \.isWait) { emit(unit) }
        for action in actions { perform(action, unit) }
    }

    /// What status, log and `restarts` say about a transition, before observers hear of it.
    private func describe(
        _ unit: ServiceUnit, from before: ServiceStateMachine.State, to after: ServiceStateMachine.State,
        _ actions: [ServiceStateMachine.Action]
    ) {
        let spec = unit.spec
        if before != after {
            switch after {
            case .stopped, .starting: unit.statusText = ""
            case .idle:
                if before.wire == .starting || before.wire == .ready {
                    unit.log.note("exited cleanly: idle until the next caller connects")
                }
                unit.statusText = "starts at the first connection"
            case .stopping where before.wire == .starting || before.wire == .ready: unit.statusText = "stopping"
            case .ready:
                let now = ContinuousClock.now
                unit.readySince = .now
                unit.holds.removeAll()
                if let startedAt = unit.startedAt { unit.log.note("ready after \(ServiceUnit.text(now - startedAt))") }
            default: break
            }
        }
        for action in actions {
            switch action {
            case .wait(let missing):
                unit.statusText = "waiting for \(missing.joined(separator: ", "))"
            case .restart(let delay):
                unit.statusText = "restarting in \(ServiceUnit.text(delay))"
                unit.log.note("\(unit.lastExit); restart \(unit.restarts) in \(ServiceUnit.text(delay))")
                // The foreground `up` says each crash on its own output, not only in the service's log.
                logger.warning("\(spec.name) \(unit.lastExit); restart \(unit.restarts) in \(ServiceUnit.text(delay))")
            case .giveUp(let why):
                let text: String
                switch why {
                case .restartCannotHelp:
                    text = "not restarted: exit status \(DaemonExitStatus.restartCannotHelp) says a restart cannot help; "
                        + "fix the cause, then `svc-supervisor start \(spec.name)`"
                case .policy:
                    text = "not restarted (restart = \(spec.restart.rawValue))"
                case .budgetSpent(let count):
                    text = "restarted \(count) times within \(ServiceUnit.text(spec.budget.window)); "
                        + "stays down until `svc-supervisor start \(spec.name)`"
                }
                unit.statusText = text
                if why != .policy { unit.log.note(text) }
                logger.error("\(spec.name) failed: \(unit.lastExit); \(text)")
            case .beginHandOver:
                if let upgrade = unit.upgrade { beginHandOver(unit, upgrade) }
            case .promoteUpgrade:
                if let upgrade = unit.upgrade { promote(unit, upgrade) }
            case .rollBackUpgrade:
                if let upgrade = unit.upgrade { describeRollBack(unit, upgrade) }
            default:
                break
            }
        }
    }

    /// Performs one action of a transition.
    private func perform(_ action: ServiceStateMachine.Action, _ unit: ServiceUnit) {
        let spec = unit.spec
        switch action {
        case .checkDependencies:
            startWhenReady(unit)
        case .wait, .giveUp:
            break  // said by describe
        case .spawn:
            spawn(unit)
        case .armTimer(.readiness):
            let timeout = spec.readyTimeout
            unit.timer.start(after: timeout) { [weak unit] in
                guard let unit else { return }
                self.transition(unit) { $0.readyTimeoutElapsed() }
            }
        case .armTimer(.stop):
            let timeout = spec.stopTimeout
            unit.timer.start(after: timeout) { [weak unit] in
                guard let unit else { return }
                self.transition(unit) { $0.stopTimeoutElapsed() }
            }
        case .cancelTimer:
            unit.timer.stop()
        case .sendStopSignal:
            if let upgrade = unit.upgrade, unit.machine.state == .upgrading(.handingOver) {
                unit.log.note("upgrade: hand-over: stopping pid \(upgrade.oldPID) with signal \(spec.stopSignal)")
            } else {
                unit.log.note("stopping pid \(unit.pid ?? 0) with signal \(spec.stopSignal)")
            }
            signalGroup(unit, spec.stopSignal)
        case .kill:
            unit.log.note("still running after \(ServiceUnit.text(spec.stopTimeout)): SIGKILL")
            signalGroup(unit, SIGKILL)
        case .killForFailure(let kind):
            let reason: String
            switch kind {
            case .readyTimeout: reason = "not ready within \(ServiceUnit.text(spec.readyTimeout))"
            case .watchdog: reason = "watchdog: no WATCHDOG=1 within \(ServiceUnit.text(spec.watchdog ?? .zero))"
            default: reason = unit.livenessFailure
            }
            killForFailure(unit, reason)
        case .armWatchdog:
            armWatchdog(unit)
        case .armForgiveness:
            armForgiveness(unit)
        case .backoffForgiven:
            unit.log.note("healthy for \(ServiceUnit.text(spec.backoff.resetAfter)): backoff reset")
        case .armLiveness:
            armLiveness(unit)
        case .stopHealthChecks:
            unit.watchdog.stop()
            unit.livenessTimer.stop()
        case .cancelForgiveness:
            unit.forgiveness.stop()
        case .startDependents:
            dependencyBecameReady()
        case .watchForDemand:
            watchIdle(unit)
        case .stopWatchingForDemand:
            stopWatchingForDemand(unit)
        case .notifyStopWaiters:
            let waiters = unit.stopWaiters
            unit.stopWaiters.removeAll()
            for waiter in waiters { waiter() }
        case .restart(let delay):
            restartWithPeers(unit, after: delay)
        case .beginHandOver, .promoteUpgrade:
            break  // done by describe, before the new state is said
        case .armUpgradeReadyTimeout:
            if let upgrade = unit.upgrade { armFinishingTimeout(unit, upgrade) }
        case .completeUpgrade:
            if let upgrade = unit.upgrade { completeUpgrade(unit, upgrade) }
        case .killUpgradeProcess:
            guard let upgrade = unit.upgrade else { break }
            let timeout = ServiceUnit.text(spec.readyTimeout)
            killUpgradeProcess(
                unit, upgrade,
                unit.machine.state == .upgrading(.preparing)
                    ? "neither waited for the store nor was ready within \(timeout)"
                    : "not ready within \(timeout) of the hand-over")
        case .rollBackUpgrade:
            if let upgrade = unit.upgrade { rollBack(unit, upgrade) }
        case .abandonUpgrade:
            abandonUpgrade(unit, "the service was stopped or restarted meanwhile")
        }
    }

    /// Takes the strategy's peers down with `unit` (if it has any), then waits out the backoff.
    private func restartWithPeers(_ unit: ServiceUnit, after delay: Duration) {
        let peers = strategyPeers(of: unit)
        guard !peers.isEmpty else {
            startAfterBackoff(unit, delay)
            return
        }
        unit.log.note("\(unit.spec.strategy.rawValue): restarting \(peers.map(\.spec.name).joined(separator: ", ")) with it")
        restartPeers(peers, with: unit) { [weak unit] in
            guard let unit, unit.state == .backoff else { return }
            self.startAfterBackoff(unit, delay)
        }
    }
}

extension ServiceStateMachine.Action {
    /// Whether it says which dependencies the service waits for (said again each time, as the
    /// list changes).
    var isWait: Bool {
        if case .wait = self { return true }
        return false
    }
}
