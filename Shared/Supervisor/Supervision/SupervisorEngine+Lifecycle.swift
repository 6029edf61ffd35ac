#if canImport(Glibc)
import Glibc
#endif
import VerticalsClient
import VerticalsContract
import VerticalsEventLoop
import VerticalsServiceKit
import VerticalsSupervisorClient
import VerticalsWire

// Spawning, exits, restarts with backoff, and stopping: the processes and timers behind the
// transitions ``ServiceStateMachine`` decides. All on the loop thread.
extension SupervisorEngine {
    /// Marks `unit` as wanted and starts it once its dependencies are ready. `fresh` (a start
    /// asked for, not a restart) gives it a new restart budget and backoff.
    func want(_ unit: ServiceUnit, fresh: Bool) {
        transition(unit) { $0.startRequested(fresh: fresh) }
    }

    /// Spawns `unit` if its dependencies are ready, else leaves it `waiting` (the machine's
    /// ``ServiceStateMachine/dependenciesChecked(missing:)`` decides). A dependency that starts on
    /// demand counts as ready: a call to it starts it, and waits in its backlog meanwhile.
    func startWhenReady(_ unit: ServiceUnit) {
        guard !isClosed else { return }
        let missing = (unit.spec.dependsOn + unit.machine.holds.sorted()).filter {
            units[$0].map { !$0.ready && !$0.spec.startsOnDemand } ?? false
        }
        transition(unit) { $0.dependenciesChecked(missing: missing) }
    }

    /// A dependency became ready: start whoever waited for it, in start order.
    func dependencyBecameReady() {
        for name in order {
            if let unit = units[name] { transition(unit) { $0.dependencyReady() } }
        }
    }

    /// Starts the process ``ServiceStateMachine/Action/spawn`` asks for, and tells the machine
    /// whether it runs.
    func spawn(_ unit: ServiceUnit) {
        stopWatchingForDemand(unit)
        // Its folders' ownership walk first, off the loop; the spawn follows it.
        if giveFolders(unit) { return }
        // A replicated store that is not there yet comes back from its replica first.
        if restoreFirstStore(unit) { return }
        let spec = unit.spec
        let run = configuration.runDirectory
        let options: ChildProcess.Options
        let identity: ServiceIdentity?
        do {
            (options, identity) = try launch(unit, program: configuration.program(spec.executable))
        } catch {
            failedToStart(unit, "cannot start: \(error)")
            return
        }
        let log = unit.log
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(
                options, on: loop,
                onExit: { [weak unit] status in
                    guard let unit else { return }
                    self.exited(unit, status)
                })
        } catch {
            failedToStart(unit, "cannot start \(options.executable): \(error)")
            return
        }
        unit.child = child
        unit.pid = child.pid
        unit.uid = identity?.user.uid ?? geteuid()
        // vt-exec, or the in-place start, calls setsid before exec, so the child leads its own
        // process group.
        PidRecord.of(pid: child.pid, processGroup: child.pid)?.write(to: run.pidFile(for: spec.name))
        log.forgetErrorLines()
        let user = identity.map { " as \($0.user.name) (uid \($0.user.uid))" } ?? ""
        log.note(
            "started pid \(child.pid)\(user): \(configuration.program(spec.executable)) \(spec.arguments.joined(separator: " "))"
        )
        transition(unit) { $0.spawned(at: .now) }
        if spec.readiness == .none { becameReady(unit) }
    }

    /// How to start `program` as a process of `unit`: with the environment, user, limits,
    /// listening socket and held output every process of it gets, and `extra` in its environment
    /// last (an upgrade's hand-over variable). Through vt-exec when it needs a user, limits or a
    /// cgroup; else in place, with the same session, PDEATHSIG and `LISTEN_PID`/`WATCHDOG_PID`.
    func launch(_ unit: ServiceUnit, program: String, environment extra: [String: String] = [:]) throws
        -> (options: ChildProcess.Options, identity: ServiceIdentity?)
    {
        let spec = unit.spec
        let run = configuration.runDirectory
        var environment = configuration.environment
        for (name, endpoint) in peerEndpoints where name != spec.name {
            environment[SocketDirectory.endpointVariablePrefix + SocketDirectory.endpointKey(for: name)] =
                endpoint.description
        }
        environment.merge(spec.environment) { _, manifest in manifest }
        // Routes from the whole manifest: a split suite's remote callers and callees count too.
        ServiceAccounts.applyDependencies(to: &environment, for: routes[spec.name] ?? spec)
        ServiceAccounts.applyCertificates(to: &environment, for: spec, in: routes)
        ServiceAccounts.applyRoutes(to: &environment, for: spec, in: routes)
        spec.applyIdleExit(to: &environment)
        // Litestream checkpoints a replicated store, and the daemon waits longer on its locks.
        if spec.replica != nil { environment[DaemonSettings.storeReplica.name] = "litestream" }
        environment[DaemonSettings.runDir.name] = run.path
        environment[DaemonSettings.socketDir.name] = run.socketDirectory
        environment["STATE_DIRECTORY"] = run.stateDirectory(for: spec.name)
        environment["RUNTIME_DIRECTORY"] = run.runtimeDirectory(for: spec.name)
        environment["NOTIFY_SOCKET"] = run.notifySocket
        if let watchdog = spec.watchdog {
            let (seconds, attoseconds) = watchdog.components
            environment["WATCHDOG_USEC"] = String(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        }
        environment.merge(extra) { _, extra in extra }
        var inherited: [Int32] = []
        try run.prepare(service: spec.name)
        let identity = try self.identity(of: spec)
        // Again at every start: what was root's at `up` may have been given away since.
        if let identity { try checkWriters(spec, identity, program) }
        try applyUser(identity, to: spec, environment: &environment)
        try bindSocket(unit)
        let output = try heldOutput(unit)
        if let fd = unit.listeningFD {
            inherited = [fd]
            environment["LISTEN_FDS"] = "1"
            environment["LISTEN_FDNAMES"] = spec.name
            // LISTEN_PID (and WATCHDOG_PID) are set by vt-exec, or the in-place child, to its
            // own pid right before it execs the service, which keeps that pid: only the child
            // knows it in time.
        }
        let shimOptions = execOptions(for: unit) + (identity?.execOptions ?? [])
        var options = ChildProcess.Options(
            executable: configuration.execShim, arguments: shimOptions + ["--", program] + spec.arguments,
            environment: environment, inheritedFDs: inherited, stdout: .descriptor(output.stdoutFD),
            stderr: .descriptor(output.stderrFD))
        if startsInPlace(shimOptions) {
            options.executable = program
            options.arguments = spec.arguments
            options.detached = true
            options.launch = .vfork(parentDeathSignal: Self.parentDeathSignal)
        }
        return (options, identity)
    }

    /// Whether a process whose vt-exec options would be `shimOptions` starts in place: they ask
    /// for nothing but the session and PDEATHSIG, which the in-place child does itself, and
    /// `VERTICALS_SPAWN=shim` does not force vt-exec. Spawns run on the loop thread, which lives
    /// as long as the supervisor: the thread whose end sends PDEATHSIG.
    func startsInPlace(_ shimOptions: [String]) -> Bool {
        !configuration.spawnsThroughShim && shimOptions == Self.sessionOptions
    }

    /// The unit's held stdout and stderr pipes, made at its first start.
    private func heldOutput(_ unit: ServiceUnit) throws(SupervisorError) -> HeldOutput {
        if let output = unit.output { return output }
        let log = unit.log
        let output = try HeldOutput(loop: loop) { stream, bytes in log.append(stream: stream, bytes) }
        unit.output = output
        return output
    }

    /// `READY=1`, or the spawn of a service without a readiness protocol, or an upgrade's new
    /// process ready as the unit's own: the machine moves it to `ready` if it was starting.
    func becameReady(_ unit: ServiceUnit) {
        transition(unit) { $0.ready(at: .now) }
    }

    /// Once the run has been ready for `backoff.resetAfter`, proves it alive, and the machine
    /// forgives the backoff (``ServiceStateMachine/aliveSeen(at:)``). The instant is read before
    /// the check, so a child that died while the loop was busy (a zombie not reaped yet) is never
    /// counted as healthy, however late this fires.
    func armForgiveness(_ unit: ServiceUnit) {
        guard let due = unit.ledger.forgivenessDue else { return }
        unit.forgiveness.start(after: max(due - .now, .zero)) { [weak unit] in
            guard let unit, let pid = unit.pid else { return }
            let checked = ContinuousClock.now
            guard ProcessState.isRunning(pid) else { return }
            self.transition(unit) { $0.aliveSeen(at: checked) }
        }
    }

    /// Arms the watchdog of a ready service that has one; its expiry is the machine's
    /// ``ServiceStateMachine/watchdogMissed(interval:)``.
    func armWatchdog(_ unit: ServiceUnit) {
        guard let interval = unit.spec.watchdog, unit.state == .ready else { return }
        unit.watchdog.start(after: interval) { [weak unit] in
            guard let unit else { return }
            self.transition(unit) { $0.watchdogMissed(interval: interval) }
        }
    }

    /// Kills the process group for a failure the supervisor saw (ready timeout, watchdog,
    /// liveness); the exit that follows is counted as that failure, in its words (the machine's).
    func killForFailure(_ unit: ServiceUnit) {
        unit.log.note("\(unit.failureText ?? "failed"): killing process group \(unit.pid ?? 0)")
        signalGroup(unit, SIGKILL)
    }

    /// Sends `signal` to the unit's process group, or to the process alone while the shim has
    /// not made the group yet.
    func signalGroup(_ unit: ServiceUnit, _ signal: Int32) {
        guard let pid = unit.pid else { return }
        if kill(-pid, signal) != 0 {
            try? unit.child?.kill(signal)
        }
        if signal == SIGKILL { cgroupStorage?.killAll(service: unit.spec.name) }
    }

    func failedToStart(_ unit: ServiceUnit, _ reason: String) {
        noteStartFailure(unit, reason)
        transition(unit) { $0.spawnFailed(at: .now, reason: reason) }
    }

    /// Says why no process of `unit` could start, in its log and the supervisor's.
    func noteStartFailure(_ unit: ServiceUnit, _ reason: String) {
        unit.log.note(reason)
        logger.error("\(unit.spec.name): \(reason)")
    }

    /// The unit's own process ended: the bookkeeping of its end (its group killed, its pid record
    /// removed, its timers stopped, why it ended), then the machine decides what follows.
    func exited(_ unit: ServiceUnit, _ status: ExitStatus) {
        let pid = unit.pid ?? 0
        // Whatever the main process left in its group goes with it (systemd's KillMode=control-group).
        // Safe after the reap: Linux never reuses a pid that still names a process group.
        if pid > 0 { kill(-pid, SIGKILL) }
        // And whatever left the group but not the service's cgroup, where it has one.
        cgroupStorage?.killAll(service: unit.spec.name)
        unlink(configuration.runDirectory.pidFile(for: unit.spec.name))
        unit.timer.stop()
        unit.watchdog.stop()
        unit.forgiveness.stop()
        unit.livenessTimer.stop()
        unit.child = nil
        unit.pid = nil
        let neverReady = unit.machine.readyAt == nil // until the machine hears of the exit, below
        // Its last lines may still be in the pipe: they go before the note of its end.
        unit.output?.drain()
        unit.log.flush()
        let limit = limitReason(unit, status)
        var said = limit ?? Self.describe(status)
        // A process that gives up says why on stderr, last (a store another process holds, a bad
        // setting), or the runtime prints a crash report: that is the reason `status` shows, not
        // just a code. Not for a signal sent from outside: what it last said is not why it died.
        if limit == nil, !status.isSuccess, !Self.sentFromOutside(status.signal),
            let why = unit.log.exitExplanation(neverReady: neverReady)
        {
            said += ": " + why
        }
        // Exit status 78 says a restart would be refused again (its store is served by another
        // process, is another vertical's, a newer build's or damaged): systemd's
        // RestartPreventExitStatus, and the exported units say the same.
        let cannotHelp = status.signal == 0 && status.exitCode == Int64(DaemonExitStatus.restartCannotHelp)
        let exit = ServiceStateMachine.Exit(
            success: status.isSuccess, limit: limit != nil, restartCannotHelp: cannotHelp, wasReady: !neverReady,
            socketHeld: unit.listeningFD != nil, words: said)
        // The machine's words for it: a failure it was killed for says more than its signal.
        unit.log.note("pid \(pid) \(unit.machine.words(of: exit))")
        transition(unit) { $0.exited(exit, at: .now) }
    }

    /// Arms the backoff timer; its expiry is the machine's ``ServiceStateMachine/backoffElapsed()``.
    func startAfterBackoff(_ unit: ServiceUnit, _ delay: Duration) {
        unit.timer.start(after: delay) { [weak unit] in
            guard let unit, unit.state == .backoff else { return }
            self.logger.notice("\(unit.spec.name): restarting (restart \(unit.restarts))")
            self.transition(unit) { $0.backoffElapsed() }
        }
    }

    /// Stops `unit` (stop signal to its process group, SIGKILL after the stop timeout) and
    /// calls `done` once no process of it runs.
    func stop(_ unit: ServiceUnit, then done: @escaping () -> Void) {
        unit.stopWaiters.append(done)
        transition(unit) { $0.stopRequested() }
    }

    /// "exited with status 1", "killed by signal 9 (SIGKILL)".
    /// Whether `signal` is one a process is sent (kill, Ctrl-C, hang-up) rather than one it raises
    /// itself by crashing or aborting.
    static func sentFromOutside(_ signal: Int32) -> Bool {
        [SIGKILL, SIGTERM, SIGINT, SIGHUP, SIGQUIT].contains(signal)
    }

    static func describe(_ status: ExitStatus) -> String {
        guard status.signal != 0 else { return "exited with status \(status.exitCode)" }
        let names: [Int32: String] = [
            SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT",
            SIGHUP: "SIGHUP", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGQUIT: "SIGQUIT", SIGPIPE: "SIGPIPE",
            SIGXCPU: "SIGXCPU", SIGTRAP: "SIGTRAP",
        ]
        return "killed by signal \(status.signal)" + (names[status.signal].map { " (\($0))" } ?? "")
    }
}
