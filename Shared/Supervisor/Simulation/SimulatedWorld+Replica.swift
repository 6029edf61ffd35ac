// The engine's part for the replica's Litestream, played in the simulated world: each action of
// ``ReplicaStateMachine`` performed as `SupervisorEngine+Replica` performs it.
extension SimulatedWorld {
    /// Performs one action of a replica's transition.
    func performReplica(_ action: ReplicaStateMachine.Action) {
        switch action {
        case .spawn:
            if let process = replicaProcess {
                violate("one litestream per store", "a litestream starts while pid \(process.pid) runs")
            }
            if machine.isRestoring {
                violate("nothing holds a store being restored", "a litestream starts while the store is restored")
            }
            setReplicaProcess(Process(pid: takePID(), ready: true))
            feedReplica { $0.spawned(at: clocks.now) }
        case .armBackoff(let delay):
            arm(.replica, after: delay)
        case .armStopTimer:
            arm(.replica, after: configuration.stopTimeout)
        case .cancelTimer:
            cancel(.replica)
        case .armForgiveness:
            if let due = replica?.ledger.forgivenessDue {
                arm(.replicaForgiveness, after: max(due - clocks.now, .zero))
            }
        case .cancelForgiveness:
            cancel(.replicaForgiveness)
        case .sendStopSignal:
            updateReplicaProcess { $0.stopSignalled = true }
        case .kill:
            updateReplicaProcess { $0.killed = true }
        case .notifyStopWaiters:
            for command in takeReplicaWaiters() { answer(command) }
        case .giveUp:
            break // words in the log
        }
    }
}
