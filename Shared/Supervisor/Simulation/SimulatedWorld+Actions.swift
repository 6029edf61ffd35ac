// The engine's part, played in the simulated world: each action of the core performed as
// `SupervisorEngine+Transitions` performs it, and each happening turned into the core's events as
// the engine's callbacks (exits, notify datagrams, timers, commands) turn them.
extension SimulatedWorld {
    /// Performs one action of a transition.
    func perform(_ action: ServiceStateMachine.Action) {
        switch action {
        case .checkDependencies:
            let missing = configuration.dependsOnAnother && !dependencyReady ? ["db"] : []
            feed(.dependenciesChecked) { $0.dependenciesChecked(missing: missing) }
        case .wait, .giveUp, .backoffForgiven, .startDependents, .noteReady, .noteIdle, .noteStartFailure:
            break // words in the log, or other services: none here
        case .announceState:
            followersHear()
        case .tellReplica(let entered):
            // Its Litestream first, as the engine's `perform` does.
            feedReplica { $0.verticalEntered(entered) }
        case .spawn:
            spawn()
        case .armTimer(.readiness):
            armUnitTimer(.readiness, after: configuration.readyTimeout)
        case .armTimer(.stop):
            armUnitTimer(.stop, after: configuration.stopTimeout)
        case .cancelTimer:
            cancel(.unit)
        case .sendStopSignal, .sendHandOverSignal:
            signalOwn(kill: false)
        case .kill:
            checkStopSignalled()
            signalOwn(kill: true)
        case .killForFailure:
            signalOwn(kill: true)
        case .armWatchdog:
            if let interval = configuration.watchdog, machine.state.wire == .ready { arm(.watchdog, after: interval) }
        case .armForgiveness:
            if let due = machine.ledger.forgivenessDue { arm(.forgiveness, after: max(due - clocks.now, .zero)) }
        case .armLiveness:
            if let liveness = configuration.liveness, machine.state.wire == .ready, ownPID != nil {
                arm(.liveness, after: liveness.interval)
            }
        case .stopHealthChecks:
            cancel(.watchdog)
            cancel(.liveness)
        case .cancelForgiveness:
            cancel(.forgiveness)
        case .watchForDemand:
            setWatching(true)
        case .stopWatchingForDemand:
            setWatching(false)
        case .notifyStopWaiters:
            for waiter in takeStopWaiters() {
                switch waiter {
                case .stop(let command), .down(let command):
                    // The engine's `stopService` answers once its Litestream is gone too.
                    if let replica, replica.state != .stopped, replica.state != .failed {
                        addReplicaWaiter(command)
                    } else {
                        answer(command)
                    }
                case .restart(let command):
                    if machine.restartPending { freshStart() }
                    feed(.restartDue) { $0.restartDue() }
                    answer(command)
                }
            }
        case .restart(let delay):
            restartDecided(after: delay)
            armUnitTimer(.backoff, after: delay)
        case .cancelUpgradeReadyTimeout:
            cancel(.upgrade)
        case .promoteUpgrade:
            updateUpgrade { $0.promoted = true }
            setOwn(upgrade?.newPID)
            followersHear() // the engine's promotion says it, with the new pid
        case .armUpgradeReadyTimeout:
            if let upgrade { armUpgradeTimer(for: upgrade) }
        case .completeUpgrade:
            if upgrade != nil { feed(.ready) { $0.ready(at: clocks.now) } }
        case .killNewProcess:
            if let upgrade { markKilled(upgrade.newPID) }
        case .rollBackUpgrade(let backup):
            guard let upgrade else { break }
            setUpgrade(nil)
            rollingBack(upgrade) // answered when the core says
            // The previous executable's start is the core's: `checkDependencies` after this
            // action, or after the restore's end.
            if backup != nil { setRestore(.rollback) } // the core is restoring already
        case .abandonUpgrade(let killsNewProcess):
            if killsNewProcess, let upgrade { markKilled(upgrade.newPID) }
        case .answerUpgrade(.rolledBack(_, _, let serves)):
            guard let upgrade = takeRollingBack() else {
                violate("one answer per command", "a rollback was answered with none under way")
                break
            }
            if serves, ownPID == nil || machine.state != .ready {
                violate("a rollback answers once it serves", "the core is \(machine.state) as it says it serves")
            }
            finish(upgrade)
        case .answerUpgrade(let outcome):
            guard let upgrade else { break }
            setUpgrade(nil)
            if case .failedBeforeHandOver = outcome { checkOldProcessServes(upgrade) }
            if case .upgraded = outcome, ownPID != upgrade.newPID || machine.state != .ready {
                violate("an upgrade answers once it serves", "the core is \(machine.state) as the upgrade is answered")
            }
            finish(upgrade)
        case .noteOldProcessLeftFirst:
            break // words in the log
        }
    }

    /// The engine's `spawn`: stops watching the socket, then starts the executable, or fails to.
    private func spawn() {
        setWatching(false)
        // The folders' walk first, off the loop, when it is needed, then the first store's
        // restore from its replica while the store is not there: the spawn follows their ends.
        // What this start's spawn waited for already is the core's record, as in the engine.
        for work in [ServiceStateMachine.Preparation.foldersGiven, .firstStoreRestored] {
            let needed = work == .foldersGiven ? configuration.preparesSpawn : configuration.replicated && !storeExists
            guard needed, !machine.preparing, !machine.prepared.contains(work) else { continue }
            setPreparation(work)
            feed(.preparationBegun) { $0.preparationBegun(work) }
            return
        }
        guard !executableBroken else {
            feed(.spawnFailed) { $0.spawnFailed(at: clocks.now, reason: "cannot start simulated: spawn: exec: ENOENT") }
            return
        }
        spawning()
        setSocket(open: true) // the engine's `launch` binds it again after an operator's stop
        setOwn(startProcess())
        feed(.spawned) { $0.spawned(at: clocks.now) }
        if !configuration.notifiesReady { feed(.ready) { $0.ready(at: clocks.now) } }
    }

    // MARK: Happenings

    /// Applies one happening; one that does not apply now changes nothing.
    func apply(_ happening: SimulationHappening) {
        switch happening {
        case .command(let command):
            run(command)
        case .processReady(let role):
            guard let pid = pid(of: role), processes[pid]?.ready == false else { return }
            updateProcess(pid) { $0.ready = true }
            if let upgrade, upgrade.newPID == pid {
                feed(.upgradeProcessReady) { $0.upgradeProcessReady(at: clocks.now) }
            } else {
                feed(.ready) { $0.ready(at: clocks.now) }
            }
        case .processWaitsForStore:
            guard let pid = pid(of: .upgrade), processes[pid]?.waitsForStore == false else { return }
            updateProcess(pid) { $0.waitsForStore = true }
            feed(.upgradeProcessWaitsForStore) { $0.upgradeProcessWaitsForStore(at: clocks.now) }
        case .processExits(let role, let exit):
            guard let pid = pid(of: role), let process = processes[pid] else { return }
            removeProcess(pid)
            let ending = process.killed ? .killed : exit
            if pid == ownPID {
                ownExited(pid, ending)
            } else if let upgrade, upgrade.newPID == pid, !upgrade.promoted {
                upgradeProcessExited()
            }
        case .processSaysStatus(let role, let count):
            said(SimulationHappening.statusWords(count), by: role)
        case .watchdogPing:
            guard pid(of: .own) != nil, upgrade == nil else { return }
            feed(.watchdogPinged) { $0.watchdogPinged() }
        case .stoppingOnItsOwn:
            guard pid(of: .own) != nil, upgrade == nil else { return }
            feed(.stoppingOnItsOwn) { $0.stoppingOnItsOwn() }
        case .caller:
            guard watchingForDemand else { return }
            feed(.demand) { $0.demand() }
        case .dependency(let ready):
            guard configuration.dependsOnAnother, ready != dependencyReady else { return }
            setDependency(ready: ready)
            if ready { feed(.dependencyReady) { $0.dependencyReady() } }
        case .executable(let broken):
            setExecutable(broken: broken)
        case .restoreFinishes:
            // The engine waits for the replica's Litestream to be gone before it touches the store.
            guard let restore, replicaProcess == nil else { return }
            setRestore(nil)
            switch restore {
            case .requested(let command):
                feed(.restoreEnded) { $0.restoreEnded(saying: nil) }
                answer(command)
            case .rollback:
                feed(.restoreEnded) { $0.restoreEnded(saying: "the store backup simulated.sqlite was put back") }
            }
        case .preparationEnds(let failed):
            guard let work = preparation else { return }
            setPreparation(nil)
            if work == .firstStoreRestored, !failed { setStoreExists() }
            let failure: String? =
                switch (work, failed) {
                case (_, false): nil
                case (.foldersGiven, true): "cannot start: simulated: Operation not permitted (EPERM)"
                case (.firstStoreRestored, true): "not started, its store not restored: litestream exited with status 1"
                }
            feed(.preparationEnded) { $0.preparationEnded(failure: failure, at: clocks.now) }
        case .timePasses(let milliseconds):
            var step = Duration.milliseconds(milliseconds)
            if let next = nextTimer { step = min(step, max(next.deadline - clocks.monotonic, .zero)) }
            advanceClocks { $0.advance(by: step) }
        case .nextTimerFires(let checkPasses):
            guard let (timer, deadline) = nextTimer else { return }
            let wait = deadline - clocks.monotonic
            if wait > .zero { advanceClocks { $0.advance(by: wait) } }
            cancel(timer)
            fire(timer, checkPasses: checkPasses)
        case .suspend(let milliseconds):
            advanceClocks { $0.suspend(for: .milliseconds(milliseconds)) }
        case .wallClockSet(let milliseconds):
            advanceClocks { $0.setWall(by: .milliseconds(milliseconds)) }
        case .replicaExits(let clean):
            guard let process = replicaProcess else { return }
            setReplicaProcess(nil)
            feedReplica { $0.exited(success: clean && !process.killed, at: clocks.now) }
        }
    }

    /// The engine's notify handling of `STATUS=words` from the process `role` names: the
    /// upgrade's new process's, or the unit's own; an orphan's datagram is ignored. The status
    /// then shows it, but while an upgrade's stage says more, or while no process of it runs.
    private func said(_ words: String, by role: SimulatedRole) {
        guard role != .orphan, pid(of: role) != nil else { return }
        if role == .upgrade {
            feed(.upgradeProcessSaid) { $0.upgradeProcessSaid(words) }
            if machine.isUpgrading, machine.status != .upgradeProcessSays(newPID: Int32(upgrade?.newPID ?? 0), words) {
                violate(
                    "status says what the process said",
                    "the upgrade's new process said \"\(words)\"; status says \"\(statusText)\"")
            }
            return
        }
        feed(.statusSaid) { $0.statusSaid(words) }
        switch machine.state {
        case .starting, .ready, .stopping:
            if machine.status != .said(words) {
                violate(
                    "status says what the process said", "its process said \"\(words)\"; status says \"\(statusText)\"")
            }
        default:
            break
        }
    }

    /// What a timer's callback does in the engine.
    private func fire(_ timer: Timer, checkPasses: Bool) {
        switch timer {
        case .unit:
            switch unitTimerPurpose {
            case .readiness:
                let timeout = configuration.readyTimeout
                feed(.readyTimeoutElapsed) { $0.readyTimeoutElapsed(after: timeout) }
            case .stop: feed(.stopTimeoutElapsed) { $0.stopTimeoutElapsed() }
            case .backoff:
                if machine.state.wire == .backoff { feed(.backoffElapsed) { $0.backoffElapsed() } }
            }
        case .watchdog:
            guard let interval = configuration.watchdog else { return }
            feed(.watchdogMissed) { $0.watchdogMissed(interval: interval) }
        case .forgiveness:
            guard pid(of: .own) != nil else { return }
            let checked = clocks.now
            feed(.aliveSeen) { $0.aliveSeen(at: checked) }
        case .liveness:
            guard let liveness = configuration.liveness, machine.state.wire == .ready, pid(of: .own) != nil else {
                return
            }
            let failure = checkPasses ? nil : "liveness: no answer to daemon.health within 300 ms"
            feed(.livenessChecked) { $0.livenessChecked(failure: failure, allowed: liveness.allowed) }
        case .upgrade:
            guard upgrade != nil else { return }
            let timeout = configuration.readyTimeout
            feed(.upgradeReadyTimeoutElapsed) { $0.upgradeReadyTimeoutElapsed(after: timeout) }
        case .replica:
            switch replica?.state {
            case .backoff: feedReplica { $0.backoffElapsed() }
            case .stopping: feedReplica { $0.stopTimeoutElapsed() }
            default: break
            }
        case .replicaForgiveness:
            guard replicaProcess != nil else { return }
            let checked = clocks.now
            feedReplica { $0.aliveSeen(at: checked) }
        }
    }

    /// The engine's `exited`: the unit's timers stop, its pid is forgotten, an upgrade hears of
    /// it, then the core.
    private func ownExited(_ pid: Int, _ exit: SimulatedExit) {
        for timer in [Timer.unit, .watchdog, .forgiveness, .liveness] { cancel(timer) }
        setOwn(nil)
        let wasReady = machine.readyAt != nil
        let result = ServiceStateMachine.Exit(
            success: exit == .clean, limit: exit == .limit, restartCannotHelp: exit == .restartCannotHelp,
            wasReady: wasReady, socketHeld: socketOpen, words: exit.words)
        feed(.exited) { $0.exited(result, at: clocks.now) }
    }

    /// The engine's `upgradeProcessExited` for a new process not yet the unit's own: the core
    /// decides what follows.
    private func upgradeProcessExited() {
        feed(.upgradeProcessFailed) { $0.upgradeProcessFailed(words: "ended before it was ready") }
    }

    /// A failed upgrade leaves the old process serving, the core saying `ready`.
    private func checkOldProcessServes(_ upgrade: Upgrade) {
        let old = processes[upgrade.oldPID]
        if ownPID != upgrade.oldPID || old == nil || machine.state != .ready || old?.serving == false {
            violate(
                "a failed upgrade leaves the old process serving",
                "old pid \(upgrade.oldPID) is \(old == nil ? "gone" : "not serving"); the core is \(machine.state)")
        }
    }

    // MARK: Commands

    /// An operator's command, as the engine's public functions take it.
    private func run(_ command: SimulationCommand) {
        let number = issue(command)
        switch command {
        case .start:
            guard machine.refusal(of: .start) == nil else { return answer(number) }
            setSocket(open: true)
            if !machine.shuttingDown { freshStart() }
            feed(.startRequested) { $0.startRequested(fresh: true) }
            answer(number)
        case .stop:
            setSocket(open: false)
            addStopWaiter(.stop(command: number))
            feed(.stopRequested) { $0.stopRequested() }
        case .restart:
            guard machine.refusal(of: .restart) == nil else { return answer(number) }
            setSocket(open: true)
            addStopWaiter(.restart(command: number))
            feed(.restartRequested) { $0.restartRequested() }
        case .upgrade:
            beginUpgrade(number)
        case .restore:
            guard machine.refusal(of: .restore) == nil else { return answer(number) }
            feed(.restoreBegun) { $0.restoreBegun() }
            setRestore(.requested(command: number))
        case .down:
            feed(.shutdownBegun) { $0.shutdownBegun() }
            setSocket(open: false)
            addStopWaiter(.down(command: number))
            feed(.stopRequested) { $0.stopRequested() }
        }
    }

    /// The engine's `beginUpgrade`: refused unless ready; a new process beside the old one.
    private func beginUpgrade(_ number: Int) {
        guard machine.refusal(of: .upgrade) == nil, let oldPID = ownPID, !executableBroken else {
            return answer(number)
        }
        let upgrade = Upgrade(command: number, oldPID: oldPID, newPID: startProcess())
        setUpgrade(upgrade)
        let processes = ServiceStateMachine.UpgradeProcesses(
            oldPID: Int32(oldPID), newPID: Int32(upgrade.newPID), previousExecutable: "simulated")
        let started = clocks.now
        feed(.upgradeBegun) { $0.upgradeBegun(processes, at: started) }
        if configuration.upgradeBacksUp {
            feed(.upgradeProcessBackedUp) { $0.upgradeProcessBackedUp(to: "simulated.before-upgrade.sqlite") }
        }
        if !configuration.notifiesReady {
            feed(.upgradeProcessReady) { $0.upgradeProcessReady(at: clocks.now) }
        }
    }
}
