#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract

// The glue between a unit's ``ServiceStateMachine`` and the world: an event goes in, the new
// state is said to observers, and the actions that come out are performed (processes, signals,
// timers, sockets). All on the loop thread.
extension SupervisorEngine {
    /// Feeds one event to `unit`'s machine, then performs the actions it returned, in order:
    /// first those that say the state it entered (``ServiceStateMachine/handle(_:)``).
    func transition(_ unit: ServiceUnit, _ event: (inout ServiceStateMachine) -> [ServiceStateMachine.Action]) {
        let actions = unit.machine.handle(event)
        for action in actions { perform(action, unit) }
    }

    /// Performs one action of a transition.
    private func perform(_ action: ServiceStateMachine.Action, _ unit: ServiceUnit) {
        let spec = unit.spec
        switch action {
        case .checkDependencies:
            startWhenReady(unit)
        case .wait:
            break // its status text says what it waits for
        case .noteReady:
            if let startedAt = unit.startedAt { unit.log.note("ready after \(ServiceUnit.text(.now - startedAt))") }
        case .noteIdle:
            unit.log.note("exited cleanly: idle until the next caller connects")
        case .giveUp(let why):
            let status = unit.statusText
            if why != .policy { unit.log.note(status) }
            logger.error("\(spec.name) failed: \(unit.lastExit); \(status)")
        case .promoteUpgrade:
            if let upgrade = unit.upgrade { promote(unit, upgrade) }
            emit(unit)
        case .spawn:
            spawn(unit)
        case .armTimer(.readiness):
            let timeout = spec.readyTimeout
            unit.timer.start(after: timeout) { [weak unit] in
                guard let unit else { return }
                self.transition(unit) { $0.readyTimeoutElapsed(after: timeout) }
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
            unit.log.note("stopping pid \(unit.pid ?? 0) with signal \(spec.stopSignal)")
            signalGroup(unit, spec.stopSignal)
        case .sendHandOverSignal:
            unit.log.note("upgrade: hand-over: stopping pid \(unit.pid ?? 0) with signal \(spec.stopSignal)")
            signalGroup(unit, spec.stopSignal)
        case .cancelUpgradeReadyTimeout:
            unit.upgrade?.timer.stop()
        case .kill:
            unit.log.note("still running after \(ServiceUnit.text(spec.stopTimeout)): SIGKILL")
            signalGroup(unit, SIGKILL)
        case .killForFailure:
            killForFailure(unit)
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
            let text = "\(unit.lastExit); restart \(unit.restarts) in \(ServiceUnit.text(delay))"
            unit.log.note(text)
            // The foreground `up` says each crash on its own output, not only in the service's log.
            logger.warning("\(spec.name) \(text)")
            restartWithPeers(unit, after: delay)
        case .armUpgradeReadyTimeout:
            if let upgrade = unit.upgrade { armUpgradeTimeout(unit, upgrade) }
        case .completeUpgrade:
            if let upgrade = unit.upgrade { completeUpgrade(unit, upgrade) }
        case .killNewProcess(let reason):
            if let upgrade = unit.upgrade { killNewProcess(unit, upgrade, reason) }
        case .rollBackUpgrade(let backup):
            if let upgrade = unit.upgrade {
                describeRollBack(unit, upgrade)
                rollBack(unit, upgrade, backup: backup)
            }
        case .abandonUpgrade(let killsNewProcess):
            if let upgrade = unit.upgrade { abandonUpgrade(unit, upgrade, killsNewProcess: killsNewProcess) }
        case .answerUpgrade(let outcome):
            if let upgrade = unit.upgrade { answer(unit, upgrade, outcome) }
        case .noteOldProcessLeftFirst:
            if let upgrade = unit.upgrade { noteOldProcessLeftFirst(unit, upgrade) }
        case .noteStartFailure(let reason):
            noteStartFailure(unit, reason)
        case .announceState:
            emit(unit)
        case .tellReplica(let entered):
            // Its Litestream first: stopped before the service's own stop signal, or a restore.
            if unit.replica != nil { transitionReplica(unit) { $0.verticalEntered(entered) } }
        }
    }

    /// Takes the strategy's peers down with `unit` (if it has any), then waits out the backoff.
    private func restartWithPeers(_ unit: ServiceUnit, after delay: Duration) {
        let peers = strategyPeers(of: unit)
        guard !peers.isEmpty else {
            startAfterBackoff(unit, delay)
            return
        }
        unit.log.note(
            "\(unit.spec.strategy.rawValue): restarting \(peers.map(\.spec.name).joined(separator: ", ")) with it")
        restartPeers(peers, with: unit) { [weak unit] in
            guard let unit, unit.state == .backoff else { return }
            self.startAfterBackoff(unit, delay)
        }
    }
}
