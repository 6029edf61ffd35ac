#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsStorage
import VerticalsSupervisorClient
import VerticalsWire

// `svc-supervisor upgrade NAME [--executable PATH]`: a new process of a ready
// service starts on the listening socket the supervisor holds, and takes over without a dropped
// request. One store has one writer (its lock), so:
//
// 1. The new process starts with `VERTICALS_STORE_HANDOVER=1` and prepares everything that needs
//    no store, while the old one serves alone. It does not accept: a daemon listens only once its
//    World is built, and that needs the store.
// 2. It finds the store's lock held, says `X_VERTICALS_STORE_WAIT=1` and waits on the lock itself
//    (VerticalsStorage's `SQLiteStore.HandOver`).
// 3. Then the supervisor sends the old one its stop signal: it stops accepting (callers from now on
//    wait in the backlog the supervisor holds), finishes what it has in flight, closes each idle
//    connection with the retryable "unread" error (its client sends again on a new connection,
//    into the same backlog), and exits, which releases the lock.
// 4. The new one takes the lock, backs the store up if it is about to migrate it
//    (`X_VERTICALS_STORE_BACKUP=`), migrates, listens, accepts the waiting callers and sends `READY=1`.
//
// A vertical without a store never waits: its `READY=1` comes while the old one serves, and the
// old one is stopped then (both can serve, so both may accept for that moment).
//
// Before step 3 a failed new process leaves the old one serving. After it, the previous
// executable is started again, once the store backup (if any) is put back. All on the loop thread.
extension SupervisorEngine {
    /// Upgrades ready service `name` to a new process of `executable` (default: its own), handing
    /// the socket and store over as above; answers once the new process is ready.
    ///
    /// Unless `force`, the new build is judged first against the builds that run, as
    /// `svc-supervisor can-i-deploy` judges it (`checkDeploy(_:program:)`).
    ///
    /// - Throws: `notFound`; `conflict` unless the service is ready, or while another upgrade or a
    ///   restore of it is under way, or when the new build breaks a running caller or callee
    ///   (reason `breaksRunningPeers`); `invalidInput` when the program cannot be run; `unavailable`
    ///   when the new process failed (before the hand-over: the old one still serves; after it:
    ///   the previous executable was started again), saying why.
    public func upgradeService(_ name: String, executable: String?, force: Bool = false) async throws
        -> Supervisor.UpgradeResult
    {
        if !force {
            let unit = try unit(name)
            let program = configuration.program(executable.flatMap { $0.isEmpty ? nil : $0 } ?? unit.spec.executable)
            // A service that cannot be upgraded now, or a program that cannot run, is refused
            // below as it was; only a candidate is judged.
            if unit.machine.refusal(of: .upgrade) == nil, access(program, X_OK) == 0 {
                // Judging runs the program (as the service's user): first the checks that let it
                // run at all, so a program someone else could change is refused before it runs.
                try checkProgram(unit, program)
                try await checkDeploy(unit, program: program)
            }
        }
        let result = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<Result<Supervisor.UpgradeResult, ServiceError>, any Error>) in
            do {
                try beginUpgrade(name, executable: executable) { continuation.resume(returning: $0) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
        return try result.get()
    }

    private func beginUpgrade(
        _ name: String, executable: String?,
        answer: @escaping (Result<Supervisor.UpgradeResult, ServiceError>) -> Void
    ) throws {
        let unit = try unit(name)
        switch unit.machine.refusal(of: .upgrade) {
        case .restoring: try refuseWhileRestoring(unit, "upgrade")
        case .upgrading:
            let pid = unit.upgrade.map { " (new pid \($0.pid))" } ?? ""
            throw ServiceError(.conflict, "\(name) is being upgraded already\(pid); wait for that one")
        case .notReady, .notStopped, nil: break
        }
        guard unit.machine.refusal(of: .upgrade) == nil, let oldPID = unit.pid else {
            throw ServiceError(
                .conflict,
                "\(name) is \(unit.state): only a ready service is upgraded (svc-supervisor start \(name) starts it "
                    + "with its executable)")
        }
        let target = executable.flatMap { $0.isEmpty ? nil : $0 } ?? unit.spec.executable
        let program = configuration.program(target)
        guard access(program, X_OK) == 0 else {
            throw ServiceError(
                .invalidInput, "cannot run \(program): \(SupervisorError.errnoText())",
                details: [ErrorDetail("field", "executable")])
        }
        try checkProgram(unit, program)
        let launched: (options: ChildProcess.Options, identity: ServiceIdentity?)
        do {
            launched = try launch(unit, program: program, environment: [SQLiteStore.HandOver.environmentKey: "1"])
        } catch {
            throw ServiceError(
                .unavailable, "cannot start a new process of \(name): \(error); pid \(oldPID) still serves")
        }
        let child: ChildProcess
        let spawned = ChildBox()
        do {
            child = try ChildProcess.spawn(launched.options, on: loop, onExit: upgradeExit(unit, spawned))
            spawned.child = child
        } catch {
            throw ServiceError(.unavailable, "cannot start \(program): \(error); pid \(oldPID) still serves")
        }
        let upgrade = UpgradeRun(
            program: program, executable: target, previousExecutable: unit.spec.executable, oldPID: oldPID,
            child: child, uid: launched.identity?.user.uid ?? geteuid(), loop: loop, answer: answer)
        unit.upgrade = upgrade
        let processes = ServiceStateMachine.UpgradeProcesses(
            oldPID: oldPID, newPID: child.pid, previousExecutable: unit.spec.executable)
        transition(unit) { $0.upgradeBegun(processes, at: .now) }
        PidRecord.of(pid: child.pid, processGroup: child.pid)?.write(to: upgradePidFile(unit))
        unit.log.forgetErrorLines()
        let user = launched.identity.map { " as \($0.user.name) (uid \($0.user.uid))" } ?? ""
        unit.log.note("upgrade: started pid \(child.pid)\(user): \(program) beside pid \(oldPID), which serves on")
        logger.notice("\(name): upgrade: new pid \(child.pid) (\(program)) prepares; pid \(oldPID) serves on")
        if unit.spec.readiness != .notify {
            // Nothing to wait for: it counts as ready when started, as a first start does.
            transition(unit) { $0.upgradeProcessReady(at: .now) }
        }
    }

    /// Root never opens `program`: vt-exec execs it as the service's user, whom the kernel checks.
    /// The same checks as the manifest's executable at `up` (that user reaches it, and no one else
    /// could change it) say so before anything runs it.
    private func checkProgram(_ unit: ServiceUnit, _ program: String) throws(ServiceError) {
        do {
            if let identity = try identity(of: unit.spec) {
                try check(unit.spec, identity, "the executable", program, .execute)
                try checkWriters(unit.spec, identity, program)
            }
        } catch {
            throw ServiceError(.invalidInput, "\(error)", details: [ErrorDetail("field", "executable")])
        }
    }

    /// The exit callback of an upgrade's new process, which `spawned` names once the spawn has
    /// returned. Made here, not in the spawn's call: the box then belongs to the engine from the
    /// start, which the compiler needs to see before the spawn's caller fills it in.
    private func upgradeExit(_ unit: ServiceUnit, _ spawned: ChildBox) -> (ExitStatus) -> Void {
        { [weak unit] status in
            guard let unit, let child = spawned.child else { return }
            self.upgradeProcessExited(unit, child, status)
        }
    }

    /// The pid record of the new process while it is not the unit's own yet (the next `up` kills
    /// it after a crash of the supervisor, as it kills the unit's).
    private func upgradePidFile(_ unit: ServiceUnit) -> String {
        configuration.runDirectory.pidFile(for: "\(unit.spec.name).upgrade")
    }

    /// The upgrade of `unit` whose new process sent `message`, if one did: the kernel names
    /// that process and its uid as the sender (as ``SupervisorEngine/received(_:)`` requires of
    /// a unit's own process).
    func upgradeSender(of message: NotifyMessage) -> (ServiceUnit, UpgradeRun)? {
        guard let pid = message.senderPID, pid > 0, let uid = message.senderUID else { return nil }
        return units.values.lazy.compactMap { unit in unit.upgrade.map { (unit, $0) } }
            .first { $0.1.pid == pid && $0.1.uid == uid }
    }

    /// An `sd_notify` datagram from an upgrade's new process.
    func upgradeNotified(_ unit: ServiceUnit, _ upgrade: UpgradeRun, _ message: NotifyMessage) {
        for (key, value) in message.assignments {
            switch key {
            case SQLiteStore.HandOver.waitingKey where value == "1":
                unit.log.note("upgrade: pid \(upgrade.pid) prepared and waits for the store")
                transition(unit) { $0.upgradeProcessWaitsForStore(at: .now) }
            case SQLiteStore.HandOver.backupKey:
                transition(unit) { $0.upgradeProcessBackedUp(to: value) }
                unit.log.note("upgrade: pid \(upgrade.pid) migrates the store; its backup: \(value)")
            case "STATUS":
                transition(unit) { $0.upgradeProcessSaid(value) }
            case "READY" where value == "1":
                transition(unit) { $0.upgradeProcessReady(at: .now) }
            default:
                break // WATCHDOG=1 counts once it is the unit's own and ready
            }
        }
    }

    /// The old process ended before it was told to go (``ServiceStateMachine/Action/noteOldProcessLeftFirst``).
    func noteOldProcessLeftFirst(_ unit: ServiceUnit, _ upgrade: UpgradeRun) {
        unit.log.note(
            "upgrade: pid \(upgrade.oldPID) ended before the hand-over; new pid \(upgrade.pid) takes over now")
    }

    /// The old process is gone: the new one becomes the unit's own (its pid in `status`, its exit
    /// the unit's), and opens the store while callers wait in the backlog. Done before the
    /// machine's `starting` is said (``ServiceStateMachine/Action/promoteUpgrade``), so it is said
    /// with the new pid.
    func promote(_ unit: ServiceUnit, _ upgrade: UpgradeRun) {
        unlink(upgradePidFile(unit))
        unit.child = upgrade.child
        unit.pid = upgrade.pid
        unit.uid = upgrade.uid
        PidRecord.of(pid: upgrade.pid, processGroup: upgrade.pid)?.write(
            to: configuration.runDirectory.pidFile(for: unit.spec.name))
    }

    /// The new process has its ready timeout: to wait for the store or send `READY=1` while it
    /// prepares, to send `READY=1` once promoted.
    func armUpgradeTimeout(_ unit: ServiceUnit, _ upgrade: UpgradeRun) {
        let timeout = unit.spec.readyTimeout
        upgrade.timer.start(after: timeout) { [weak unit, weak upgrade] in
            guard let unit, let upgrade, unit.upgrade === upgrade else { return }
            self.transition(unit) { $0.upgradeReadyTimeoutElapsed(after: timeout) }
        }
    }

    /// The new process is the unit's own and ready: its executable is the unit's, and the
    /// machine hears it is ready (and answers the upgrade, ``answer(_:_:_:)``).
    func completeUpgrade(_ unit: ServiceUnit, _ upgrade: UpgradeRun) {
        unit.spec.executable = upgrade.executable
        becameReady(unit)
    }

    /// Answers the upgrade with the machine's `outcome` (``ServiceStateMachine/Action/answerUpgrade(_:)``),
    /// and lets go of it.
    func answer(_ unit: ServiceUnit, _ upgrade: UpgradeRun, _ outcome: ServiceStateMachine.UpgradeOutcome) {
        unit.upgrade = nil
        switch outcome {
        case .upgraded(let record):
            let result = upgrade.result(name: unit.spec.name, record)
            let text =
                "upgraded: pid \(upgrade.oldPID) → pid \(upgrade.pid) (\(upgrade.program)); callers waited "
                + "\(ServiceUnit.text(.milliseconds(Int64(result.gapSeconds * 1000))))"
            unit.log.note(text)
            logger.notice("\(unit.spec.name) \(text)")
            upgrade.finish(.success(result))
        case .failedBeforeHandOver(let reason):
            failBeforeHandOver(unit, upgrade, reason: reason)
        case .abandoned(let afterHandOver):
            answerAbandoned(unit, upgrade, afterHandOver: afterHandOver)
        case .rolledBack(let reason, let restored, let serves):
            answerRollback(unit, upgrade, reason: reason, restored: restored, serves: serves)
        }
    }

    /// The upgrade's new process ended: before it was the unit's own (the old one still there),
    /// its end fails the upgrade here; once it is, its exit is the unit's own (``exited(_:_:)``).
    private func upgradeProcessExited(_ unit: ServiceUnit, _ child: ChildProcess, _ status: ExitStatus) {
        if unit.child === child {
            exited(unit, status) // promoted: the unit's own
            return
        }
        guard let upgrade = unit.upgrade, upgrade.child === child else {
            // An abandoned upgrade's, ended after the upgrade was answered: only its group to clear.
            kill(-child.pid, SIGKILL)
            unit.log.note("upgrade: abandoned pid \(child.pid) \(Self.describe(status))")
            return
        }
        let pid = upgrade.pid
        kill(-pid, SIGKILL) // what it left in its group goes with it
        unlink(upgradePidFile(unit))
        unit.output?.drain()
        unit.log.flush()
        var said = Self.describe(status)
        if !Self.sentFromOutside(status.signal), let why = unit.log.exitExplanation(neverReady: true) {
            said += ": " + why
        }
        unit.log.note("upgrade: new pid \(pid) \(unit.machine.newProcessEndWords(said))")
        // Before the hand-over the machine answers the upgrade; during it the old one drains
        // already and cannot be called back: once it is gone, the previous executable starts
        // again (the machine's rollback).
        transition(unit) { [said] in $0.upgradeProcessFailed(words: said) }
    }

    /// The new process ended while it prepared, for `reason`: the old one serves on; the
    /// upgrade is answered.
    private func failBeforeHandOver(_ unit: ServiceUnit, _ upgrade: UpgradeRun, reason: String) {
        let why = "the new process \(reason)"
        logger.error(
            "\(unit.spec.name): upgrade failed before the hand-over: \(why); pid \(upgrade.oldPID) serves on")
        upgrade.finish(
            .failure(
                ServiceError(
                    .unavailable,
                    "\(unit.spec.name) was not upgraded: \(why) (pid \(upgrade.pid), \(upgrade.program)) before the "
                        + "hand-over; pid \(upgrade.oldPID) still serves; `svc-supervisor logs \(unit.spec.name)` "
                        + "shows what it said",
                    details: details(upgrade, afterHandOver: false), retryable: false)))
    }

    /// Kills the upgrade's new process for the machine's `reason`; its exit then fails the
    /// upgrade in the machine's words.
    func killNewProcess(_ unit: ServiceUnit, _ upgrade: UpgradeRun, _ reason: ServiceStateMachine.UpgradeKill) {
        unit.log.note("upgrade: new pid \(upgrade.pid) \(reason.words): killing its process group")
        if kill(-upgrade.pid, SIGKILL) != 0 { try? upgrade.child.kill(SIGKILL) }
    }

    /// Why an upgrade is abandoned: the operator stopped, restarted or reloaded its service.
    private static var abandonedBecause: String { ServiceStateMachine.UpgradeKill.abandonedBecause }

    /// The operator stops, restarts or reloads `unit` while it is being upgraded: the new process
    /// is killed when the machine says so (it is not the unit's own yet; once it is, the stop
    /// takes it; its end then says the machine's words of that kill), and the machine answers the
    /// upgrade once it is settled (``ServiceStateMachine/Action/answerUpgrade(_:)``).
    func abandonUpgrade(_ unit: ServiceUnit, _ upgrade: UpgradeRun, killsNewProcess: Bool) {
        unit.log.note("upgrade: abandoned: \(Self.abandonedBecause)")
        if killsNewProcess, kill(-upgrade.pid, SIGKILL) != 0 { try? upgrade.child.kill(SIGKILL) }
    }

    /// The abandoned upgrade is settled: it is answered, and the stop goes on as any other.
    private func answerAbandoned(_ unit: ServiceUnit, _ upgrade: UpgradeRun, afterHandOver: Bool) {
        unlink(upgradePidFile(unit))
        upgrade.finish(
            .failure(
                ServiceError(
                    .unavailable,
                    "\(unit.spec.name) was not upgraded: the upgrade was abandoned: \(Self.abandonedBecause)",
                    details: details(upgrade, afterHandOver: afterHandOver),
                    retryable: false)))
    }

    /// The new process failed after the hand-over and no process of `unit` runs: puts `backup`
    /// back (the machine's ``ServiceStateMachine/Upgrade/backup``, when the new build made one).
    /// The machine starts the previous executable (after this, or once the restore has ended) and
    /// answers once that one is ready or has failed too
    /// (``ServiceStateMachine/UpgradeOutcome/rolledBack(reason:restored:serves:)``).
    func rollBack(_ unit: ServiceUnit, _ upgrade: UpgradeRun, backup: String?) {
        upgrade.timer.stop()
        unlink(upgradePidFile(unit))
        let name = unit.spec.name
        guard let backup else { return }
        let path = configuration.runDirectory.stateDirectory(for: name) + "/\(name).sqlite"
        let known = order
        let keptFolder = try? configuration.runDirectory.prepareReplacedStores(for: name)
        let reader = Result { try untrustedStoreReader(for: unit) }
        // Isolated to the engine (whose executor is the loop), and preferring the loop for the
        // nonisolated `Offload.run`: on the global executor it would start libdispatch's
        // worker-pool monitor, which then wakes the supervisor every second.
        Task {
            await withTaskExecutorPreference(loop) {
                let outcome: String
                // Its Litestream stopped on entering the restore: gone before the file is touched.
                await self.replicaGone(unit)
                do {
                    let kept = try await Offload.run {
                        // The new process named the backup: only a file of the state folder, read
                        // as the folder's owner, is put back.
                        guard let keptFolder else {
                            throw SupervisorError(.system, "the supervisor's folder for replaced stores cannot be made")
                        }
                        return try SQLiteStore.restore(
                            backup, to: path, owner: StoreOwner(name), knownOwners: known, keepIn: keptFolder,
                            fileInFolder: true, reader: try reader.get())
                    }
                    outcome =
                        "the store backup \(backup) was put back"
                        + (kept.map { " (the migrated store is kept as \($0))" } ?? "")
                } catch {
                    outcome = "the store backup \(backup) could not be put back: \(error)"
                }
                unit.log.note("upgrade: \(outcome)")
                // The machine starts the previous executable now; a stop or `down` during the
                // restore leaves it stopped, and the machine answers then.
                self.transition(unit) { $0.restoreEnded(saying: outcome) }
            }
        }
    }

    /// What a rollback says as it begins: the previous executable is the unit's again.
    func describeRollBack(_ unit: ServiceUnit, _ upgrade: UpgradeRun) {
        let failure = unit.machine.lastUpgrade?.failure ?? "failed"
        unit.spec.executable = upgrade.previousExecutable
        unit.log.note(
            "upgrade: new pid \(upgrade.pid) \(failure) after the hand-over: rolling back to \(upgrade.previousExecutable)"
        )
        logger.error(
            "\(unit.spec.name): upgrade failed after the hand-over (new pid \(upgrade.pid) \(failure)): rolling back")
    }

    /// The rollback's previous executable is ready (`serves`), or failed too: the upgrade failed
    /// for `reason`, its backup `restored` so, and its caller hears how the rollback went.
    private func answerRollback(
        _ unit: ServiceUnit, _ upgrade: UpgradeRun, reason: String, restored: String?, serves: Bool
    ) {
        let name = unit.spec.name
        let previous = configuration.program(upgrade.previousExecutable)
        let head =
            "\(name) was not upgraded: the new process (pid \(upgrade.pid), \(upgrade.program)) \(reason) "
            + "after the hand-over" + (restored.map { "; \($0)" } ?? "")
        let outcome =
            serves
            ? "rolled back: \(previous) serves again as pid \(unit.pid.map(String.init) ?? "?")"
            : "the rollback to \(previous) failed too: \(unit.lastExit)"
                + (unit.statusText.isEmpty ? "" : " (\(unit.statusText))")
        upgrade.finish(
            .failure(
                ServiceError(
                    .unavailable, "\(head); \(outcome); `svc-supervisor logs \(name)` shows what it said",
                    details: details(upgrade, afterHandOver: true), retryable: false)))
    }

    /// The pids and stage of a failed upgrade, for its error's details.
    private func details(_ upgrade: UpgradeRun, afterHandOver: Bool) -> [ErrorDetail] {
        [
            ErrorDetail("oldPid", String(upgrade.oldPID)), ErrorDetail("newPid", String(upgrade.pid)),
            ErrorDetail("stage", afterHandOver ? "afterHandOver" : "beforeHandOver"),
        ]
    }
}

/// The child a process's exit callback is about, set right after the spawn that made the callback
/// (which cannot run before: it runs on the loop, whose thread this is).
private final class ChildBox {
    weak var child: ChildProcess?
}
