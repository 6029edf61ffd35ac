#if canImport(Glibc)
import Glibc
#endif
import VerticalsContract
import VerticalsEventLoop
import VerticalsManifest
import VerticalsSupervisorClient

// Litestream beside each replicated service: its configuration written, its process started as
// the service's user, its output in the service's log, its exits restarted with backoff, and its
// stop. ``ReplicaStateMachine`` decides every transition; this performs them. All on the loop thread.
extension SupervisorEngine {
    /// Feeds one event to the machine of `unit`'s replica, logs the state it enters, then performs
    /// the actions it returned, in order.
    func transitionReplica(
        _ unit: ServiceUnit, _ event: (inout ReplicaStateMachine) -> [ReplicaStateMachine.Action]
    ) {
        guard let replica = unit.replica else { return }
        let before = replica.machine.state
        let actions = event(&replica.machine)
        let after = replica.machine.state
        if before != after, after == .backoff {
            let delay = ServiceUnit.text(replica.machine.backoffDelay)
            unit.log.note("litestream \(replica.lastExit); restart \(replica.machine.restarts) in \(delay)")
            logger.warning("\(unit.spec.name): litestream \(replica.lastExit); restart in \(delay)")
        }
        if before != after, !actions.contains(.spawn) { emit(unit) }
        for action in actions { performReplica(action, unit, replica) }
    }

    /// Performs one action of a replica's transition.
    private func performReplica(_ action: ReplicaStateMachine.Action, _ unit: ServiceUnit, _ replica: ReplicaUnit) {
        switch action {
        case .spawn:
            spawnReplica(unit, replica)
        case .armBackoff(let delay):
            replica.timer.start(after: delay) { [weak unit] in
                guard let unit else { return }
                self.transitionReplica(unit) { $0.backoffElapsed() }
            }
        case .armStopTimer:
            replica.timer.start(after: unit.spec.stopTimeout) { [weak unit] in
                guard let unit else { return }
                self.transitionReplica(unit) { $0.stopTimeoutElapsed() }
            }
        case .cancelTimer:
            replica.timer.stop()
        case .armForgiveness:
            guard let due = replica.machine.ledger.forgivenessDue else { break }
            replica.forgiveness.start(after: max(due - .now, .zero)) { [weak unit] in
                guard let unit, let pid = unit.replica?.pid else { return }
                let checked = ContinuousClock.now
                guard ProcessState.isRunning(pid) else { return }
                self.transitionReplica(unit) { $0.aliveSeen(at: checked) }
            }
        case .cancelForgiveness:
            replica.forgiveness.stop()
        case .sendStopSignal:
            unit.log.note("stopping litestream pid \(replica.pid ?? 0) with signal \(SIGTERM)")
            signalReplica(replica, SIGTERM)
        case .kill:
            unit.log.note("litestream still running after \(ServiceUnit.text(unit.spec.stopTimeout)): SIGKILL")
            signalReplica(replica, SIGKILL)
        case .notifyStopWaiters:
            let waiters = replica.stopWaiters
            replica.stopWaiters.removeAll()
            for waiter in waiters { waiter() }
        case .giveUp(let why):
            let text: String
            switch why {
            case .programMissing:
                text = "its store is not replicated: \(replica.lastExit)"
            case .budgetSpent(let count):
                text =
                    "litestream restarted \(count) times within \(ServiceUnit.text(unit.spec.budget.window)); "
                    + "its store is not replicated until \(unit.spec.name) is started again"
            }
            unit.log.note(text)
            logger.error("\(unit.spec.name): \(text)")
        }
    }

    /// Writes the replica's configuration and starts `litestream replicate` as the service's user,
    /// its output into the service's log; or tells the machine why it could not.
    private func spawnReplica(_ unit: ServiceUnit, _ replica: ReplicaUnit) {
        let spec = unit.spec
        guard let target = spec.replica else { return }
        guard let program = configuration.litestreamProgram else {
            replica.lastExit =
                "no litestream program: \(configuration.litestream) is not an executable file "
                + "(install Litestream, or name it with \(SupervisorSettings.litestream.name))"
            unit.log.note(replica.lastExit)
            transitionReplica(unit) { $0.programMissing() }
            return
        }
        let options: ChildProcess.Options
        do {
            let identity = try identity(of: spec)
            let litestream = LitestreamConfiguration(
                storePath: storePath(spec.name), replica: target.forService(spec.name))
            let configPath = try writeReplicaConfiguration(litestream, of: spec.name, identity)
            options = try replicaLaunch(
                unit, replica, program: program, litestream: litestream, configPath: configPath, identity: identity)
        } catch {
            replicaFailedToStart(unit, replica, "cannot start litestream: \(error)")
            return
        }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(
                options, on: loop,
                onExit: { [weak unit] status in
                    guard let unit else { return }
                    self.replicaExited(unit, status)
                })
        } catch {
            replicaFailedToStart(unit, replica, "cannot start \(options.executable): \(error)")
            return
        }
        replica.child = child
        replica.pid = child.pid
        PidRecord.of(pid: child.pid, processGroup: child.pid)?.write(to: replicaPidFile(spec.name))
        unit.log.note("started litestream pid \(child.pid): \(program) replicate")
        transitionReplica(unit) { $0.spawned(at: .now) }
    }

    /// How Litestream is started for `unit`: its own session, SIGTERM when the supervisor's loop
    /// thread ends, as the service's user when it has one (through vt-exec), with the supervisor's
    /// allow-listed environment and what its configuration needs (S3's credentials file). Not the
    /// service's limits or cgroup: a kill of the service's cgroup must not take its replica with it.
    private func replicaLaunch(
        _ unit: ServiceUnit, _ replica: ReplicaUnit, program: String, litestream: LitestreamConfiguration,
        configPath: String, identity: ServiceIdentity?
    ) throws -> ChildProcess.Options {
        var environment = configuration.environment
        environment.merge(litestream.environment) { _, own in own }
        let output = try replicaOutput(unit, replica)
        let arguments = LitestreamConfiguration.replicateArguments(configPath: configPath)
        let shimOptions = Self.sessionOptions + (identity?.execOptions ?? [])
        var options = ChildProcess.Options(
            executable: configuration.execShim, arguments: shimOptions + ["--", program] + arguments,
            environment: environment, inheritedFDs: [], stdout: .descriptor(output.stdoutFD),
            stderr: .descriptor(output.stderrFD))
        if startsInPlace(shimOptions) {
            options.executable = program
            options.arguments = arguments
            options.detached = true
            options.launch = .vfork(parentDeathSignal: Self.parentDeathSignal)
        }
        return options
    }

    /// The replica's held output pipes, made at its first start: each line goes to the service's
    /// log, stamped `litestream`.
    private func replicaOutput(_ unit: ServiceUnit, _ replica: ReplicaUnit) throws(SupervisorError) -> HeldOutput {
        if let output = replica.output { return output }
        let log = unit.log
        let first = ServiceLog.replicaStreams.lowerBound
        let output = try HeldOutput(loop: loop) { stream, bytes in log.append(stream: first + stream - 1, bytes) }
        replica.output = output
        return output
    }

    /// Writes Litestream's configuration of service `name` into the supervisor's own folder of it,
    /// `<run>/replicas/NAME/litestream.yml`, readable by root (the supervisor's user) and the
    /// service's group alone, and writable by neither the service nor anyone else: a vertical
    /// reads what its Litestream is told, and cannot change it.
    func writeReplicaConfiguration(
        _ litestream: LitestreamConfiguration, of name: String, _ identity: ServiceIdentity?
    ) throws(SupervisorError) -> String {
        let run = configuration.runDirectory
        let parent = "\(run.path)/replicas"
        let folder = "\(parent)/\(name)"
        try RunDirectory.makeDirectories(folder, mode: 0o700)
        let group = identity?.user.gid
        guard chmod(parent, 0o711) == 0, chown(folder, geteuid(), group ?? getegid()) == 0,
            chmod(folder, group == nil ? 0o700 : 0o750) == 0
        else {
            throw SupervisorError.system("cannot prepare \(folder)", path: folder)
        }
        let path = "\(folder)/litestream.yml"
        try ReplacedFile.write(
            Array(litestream.yaml.utf8), to: path, mode: group == nil ? 0o600 : 0o640, group: group)
        return path
    }

    /// Where service `name`'s store is, as its process opens it.
    func storePath(_ name: String) -> String {
        configuration.runDirectory.stateDirectory(for: name) + "/\(name).sqlite"
    }

    /// The pid record of service `name`'s Litestream (service names hold no `.`).
    private func replicaPidFile(_ name: String) -> String {
        configuration.runDirectory.pidFile(for: "\(name).replica")
    }

    private func replicaFailedToStart(_ unit: ServiceUnit, _ replica: ReplicaUnit, _ reason: String) {
        unit.log.note(reason)
        logger.error("\(unit.spec.name): \(reason)")
        replica.lastExit = reason
        transitionReplica(unit) { $0.spawnFailed(at: .now) }
    }

    /// Litestream's process ended: its group killed, its pid record removed, then the machine decides.
    private func replicaExited(_ unit: ServiceUnit, _ status: ExitStatus) {
        guard let replica = unit.replica else { return }
        let pid = replica.pid ?? 0
        if pid > 0 { kill(-pid, SIGKILL) }
        unlink(replicaPidFile(unit.spec.name))
        replica.child = nil
        replica.pid = nil
        replica.output?.drain()
        unit.log.flush()
        replica.lastExit = Self.describe(status)
        unit.log.note("litestream pid \(pid) \(replica.lastExit)")
        transitionReplica(unit) { $0.exited(success: status.isSuccess, at: .now) }
    }

    /// Sends `signal` to Litestream's process group, or to it alone while it has no group yet.
    private func signalReplica(_ replica: ReplicaUnit, _ signal: Int32) {
        guard let pid = replica.pid else { return }
        if kill(-pid, signal) != 0 { try? replica.child?.kill(signal) }
    }

    /// Waits until no Litestream process of `unit` runs: at once when none does.
    func replicaGone(_ unit: ServiceUnit) async {
        guard let replica = unit.replica, !replica.isGone else { return }
        await withCheckedContinuation { continuation in
            replica.stopWaiters.append { continuation.resume() }
        }
    }

    /// Makes `unit`'s replica follow its spec after a reload: made when the manifest names a
    /// replica now, closed when it no longer does (the service was stopped first).
    func updateReplica(_ unit: ServiceUnit) {
        if unit.spec.replica != nil {
            if unit.replica == nil { unit.replica = ReplicaUnit(spec: unit.spec, loop: loop) }
        } else if unit.replica != nil {
            closeReplica(unit)
            unit.replica = nil
        }
    }

    /// Closes the replica's timers and pipes (the supervisor ends, or the service left the manifest).
    func closeReplica(_ unit: ServiceUnit) {
        guard let replica = unit.replica else { return }
        for timer in replica.timers { timer.close() }
        replica.output?.drain()
        replica.output?.close()
    }
}
