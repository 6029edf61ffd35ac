import VerticalsContract

// What must hold after every step of a simulated run, and once it has settled. Each check
// names its invariant, so a failing seed says which promise the supervisor broke.
extension SimulatedWorld {
    /// Checks the invariants that hold after every step.
    func check() {
        let serving = processes.values.filter(\.serving).map(\.pid).sorted()
        if serving.count > 1 {
            violate("one process serves", "pids \(serving) all accept callers; the core is \(machine.state)")
        }
        let wire = machine.state.wire
        let ownAlive = pid(of: .own) != nil
        switch wire {
        case .stopped, .failed, .idle, .waiting, .backoff:
            if let ownPID, ownAlive {
                violate("status says what runs", "status says \(wire) while pid \(ownPID) runs")
            }
        case .starting, .stopping:
            // While the spawn waits for its folders' walk, no process runs yet.
            if !ownAlive, !preparing { violate("status says what runs", "status says \(wire) and no process runs") }
        case .ready:
            if !ownAlive || processes[ownPID ?? 0]?.ready != true {
                violate("status says what runs", "status says ready and no ready process runs")
            }
        default:
            violate("status says what runs", "status says \(wire), which the core never says")
        }
        checkStatusText()
        checkFollowers()
        // Its uptime counts from its own process's start: the one that runs, not the one before.
        let started = ownAlive ? processes[ownPID ?? 0]?.startedAt : nil
        if machine.startedAt != started {
            let since = { (instant: ContinuousClock.Instant?) in instant.map { "\($0 - self.clocks.origin)" } }
            violate(
                "the uptime is the running process's",
                "the core counts from \(since(machine.startedAt) ?? "nothing") and the process that runs "
                    + (since(started).map { "started at \($0)" } ?? "is none"))
        }
        if watchingForDemand != (machine.state == .idle) {
            violate(
                "an idle service's socket is watched",
                "the core is \(machine.state) and the socket is \(watchingForDemand ? "" : "not ")watched")
        }
        // A wanted service waits only for what is not ready: a start nobody decided (a rollback's
        // previous executable never checked again) would leave it waiting for nothing, forever.
        if machine.state == .waiting, machine.wanted, !(configuration.dependsOnAnother && !dependencyReady) {
            violate("a wanted service waits only for what is not ready", "the core waits for \(machine.awaited)")
        }
        if machine.wanted, !socketOpen {
            violate("the socket stays open while wanted", "the core wants it running and its socket is closed")
        }
        if machine.isRestoring, ownAlive || pid(of: .upgrade) != nil {
            violate("a restore runs alone", "the store is being restored while a process of the service runs")
        }
        if machine.preparation != preparation {
            violate(
                "status says what runs",
                "the core waits for \(machine.preparation.map { "\($0)" } ?? "no work") while "
                    + "\(preparation.map { "\($0)" } ?? "no work") runs")
        }
        // The first store comes back from the replica with nothing else holding it: no process
        // of the service, nor its Litestream, which would ship the store it finds.
        if preparation == .firstStoreRestored, ownAlive || pid(of: .upgrade) != nil || replicaProcess != nil {
            violate(
                "a restore runs alone",
                "the first store is restored from its replica while "
                    + (replicaProcess != nil ? "its Litestream runs" : "a process of the service runs"))
        }
        if machine.isRestoring != (restore != nil) {
            violate(
                "status says what runs",
                "the core is \(machine.state) and a restore \(restore == nil ? "does not run" : "runs")")
        }
        checkReplica()
        if takeDownAnswered() { checkDown() }
    }

    /// The replica's Litestream: its status says whether it runs, and nothing holds the store
    /// while a file is put in its place.
    func checkReplica() {
        guard let replica else { return }
        let runs = replica.state == .running || replica.state == .stopping
        if runs != (replicaProcess != nil) {
            violate(
                "status says what runs",
                "the replica is \(replica.state) and its litestream \(replicaProcess == nil ? "does not run" : "runs")")
        }
        if machine.isRestoring, replica.wanted {
            violate("nothing holds a store being restored", "the replica is wanted while the store is restored")
        }
        if machine.isRestoring, let process = replicaProcess, !process.stopSignalled, !process.killed {
            violate(
                "nothing holds a store being restored",
                "litestream pid \(process.pid) runs, unsignalled, during a restore")
        }
    }

    /// The status text says what the core holds: a stopped service says nothing, an idle one
    /// waits for a caller, one in backoff says its delay, a waiting one whom it waits for (or
    /// that it rolls back an upgrade), a failed one why it stays down; a process that starts,
    /// serves or stops says no other state's words.
    /// `status --follow` and the state stream hear every state the service's wire state passes
    /// through, in order, none skipped and none twice in a row (`waiting` again as its list
    /// changes). Checked after each step: by then each event's announce was performed.
    func checkFollowers() {
        let told = heardChanges
        guard told.count != passed.count || told[followersChecked...] != passed[followersChecked...] else {
            followersChecked = told.count
            return
        }
        let shown = { (states: [Supervisor.ServiceState]) in
            states.suffix(4).map { "\($0)" }.joined(separator: " → ")
        }
        violate(
            "followers hear every state",
            "the core went through \(shown(passed)) and followers heard \(shown(told))")
    }

    func checkStatusText() {
        let status = machine.status
        let says: Bool
        switch machine.state {
        case .stopped: says = status == .none
        case .idle: says = status == .idle
        case .backoff: says = machine.backoffDelay.map { status == .backoff($0) } ?? false
        case .waiting: says = status == .waiting(for: machine.awaited) || status == .rollingBack
        case .failed:
            guard case .gaveUp(let why, _, _) = status else { says = false; break }
            says = why == machine.gaveUp
        case .starting, .ready, .stopping:
            switch status {
            case .idle, .backoff, .waiting, .gaveUp, .rollingBack: says = false
            default: says = true
            }
        case .upgrading, .restoring:
            says = true
        }
        if !says {
            violate("status says what the core holds", "the core is \(machine.state) and status says \"\(statusText)\"")
        }
    }

    /// The stop timeout's SIGKILL comes after the stop signal: a process is asked to go (or to
    /// hand over) before it is killed for staying.
    func checkStopSignalled() {
        guard let pid = ownPID, let process = processes[pid], !process.stopSignalled, !process.killed else { return }
        violate("a stop asks before it kills", "pid \(pid) gets SIGKILL at its stop timeout without its stop signal")
    }

    /// After `down`: nothing of the service runs, and none of its timers is armed.
    func checkDown() {
        if let pid = pid(of: .own) { violate("nothing runs after down", "pid \(pid) runs after down was answered") }
        if machine.wanted { violate("nothing runs after down", "the core still wants it running after down") }
        if let process = replicaProcess {
            violate("nothing runs after down", "litestream pid \(process.pid) runs after down was answered")
        }
        let armed = timers.keys.filter { $0 != .upgrade }.sorted()
        if !armed.isEmpty { violate("no timer after down", "\(armed) armed after down was answered") }
    }

    /// Once the run has settled after a last `down`: nothing leaks, every command was answered.
    func checkSettled() {
        if let process = replicaProcess {
            violate("nothing leaks", "litestream pid \(process.pid) still runs after down and every exit")
        }
        if !processes.isEmpty {
            violate("nothing leaks", "pids \(processes.keys.sorted()) still run after down and every exit")
        }
        if !timers.isEmpty { violate("nothing leaks", "\(timers.keys.sorted()) still armed after down") }
        for (number, count) in answers.enumerated() where count == 0 {
            violate("one answer per command", "command \(number) (\(commandNames[number])) was never answered")
        }
    }
}
